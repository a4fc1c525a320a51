"""Register numbers of a party's own rights fire; prior art and comparison marks never do.

Sentences in the form patent, utility-model and trademark decisions write them (the
Bundespatentgericht's headers, claims and lists of documents); the parties and marks are
made up.
"""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.patent_number import PatentNumberRecognizer
from deid.anonymizer.recognizers.trademark_number import TrademarkNumberRecognizer
from deid.anonymizer.recognizers.utility_model import UtilityModelRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Die Klägerin ist eingetragene Inhaberin des Streitpatents [[DE 10 2015 123 456 B4]], das am 3. Mai 2018 erteilt wurde.",
        "Die Beklagte greift das europäische Patent [[EP 1 234 567 B1]] mit der Nichtigkeitsklage an.",
        "Das Patent [[10 2015 123 456.7]] wird widerrufen.",
        "In der Beschwerdesache betreffend die Patentanmeldung [[P 44 12 345.6]] hat der 17. Senat beschlossen:",
        "In der Beschwerdesache betreffend das Patent [[198 31 774]] hat der 19. Senat (Technischer Beschwerdesenat) beschlossen:",
        "Die vorliegende Anmeldung mit dem Aktenzeichen [[10 2013 019 870.4]] und der Bezeichnung „Schließvorrichtung“",
        "unter Inanspruchnahme der inneren Priorität [[103 55 628.1]] vom 28. November 2003 eingereicht",
        "für das Grundpatent [[EP 0 835 663]] ([[DE 693 34 297]]) hat der 14. Senat beschlossen:",
        "Das Klagepatent [[EP 2 345 678 B1]] und das parallele Patent [[EP 2 345 679 B1]] betreffen eine Pumpe.",
        "I. Das europäische Patent [[0 868 002]] wird für nichtig erklärt.",
        "die internationale Anmeldung [[PCT/EP2015/012345]] der Anmelderin",
        "NiK1 [[EP 1 173 181 B3]] (Streitpatent)",
        # negatives: prior art, citations, other rights, other numbers
        "Der Gegenstand des Anspruchs 1 ist durch die Druckschrift D1 DE 195 12 345 A1 neuheitsschädlich vorweggenommen.",
        "Im Prüfungsverfahren wurden die Entgegenhaltungen DE 10 2006 020 372 A1 (D2) und EP 0 766 065 A2 (D3) genannt.",
        "Der vorveröffentlichte Stand der Technik nach WO 2010/012345 A1 zeigt eine Pumpe.",
        "D2 DE 10 2011 101 711 A1 D3 EP 1 340 957 A2 D4 DE 10 2011 085 538 A1",
        "Aus der DE 41 00 842 C1 ist ein Rohr bekannt.",
        "gegenüber der Druckschrift EP 1 762 172 A2 (E4) bzw. EP 0 878 165 B1",
        "Der Widerspruch aus der IR-Marke 1 234 567 ist unbegründet.",
        "das Patent- und Markenamt hat am 12. Mai 2015 die Marke 30 2015 012 345 eingetragen",
        "Der Streitwert für das Patentnichtigkeitsverfahren beträgt 1 250 000 Euro.",
        "Die Klägerin ist Inhaberin des Streitgebrauchsmusters DE 20 2015 001 234 U1.",
    ],
)
def test_patent_table(marked: str) -> None:
    check_table_row(PatentNumberRecognizer(), marked, "PATENT")


@pytest.mark.parametrize(
    "marked",
    [
        "Die Antragsgegnerin ist Inhaberin des Gebrauchsmusters [[20 2015 001 234.5]] (Streitgebrauchsmuster).",
        "Das Klagegebrauchsmuster [[DE 20 2015 001 234 U1]] betrifft eine Leuchte.",
        "Inhaberin des am 4. Mai 2000 eingetragenen Gebrauchsmusters [[298 20 129.1]] (Streitgebrauchsmuster)",
        "Die Gebrauchsmusteranmeldung [[G 91 01 234.5]] wurde abgezweigt.",
        # negatives
        "Druckschrift D4 DE 298 24 735 U1 zeigt eine Halterung.",
        "aus dem Stand der Technik (DE 100 34 354 A1; DE 1 881 215 U1; DE 89 02 545 U1)",
        "Das Streitpatent DE 10 2015 123 456 B4 betrifft eine Pumpe.",
    ],
)
def test_utility_model_table(marked: str) -> None:
    check_table_row(UtilityModelRecognizer(), marked, "UTILITY_MODEL")


@pytest.mark.parametrize(
    "marked",
    [
        "Die Widersprechende ist Inhaberin der Marke Nr. [[30 2019 012 345]], eingetragen für Waren der Klasse 9.",
        "Die Anmeldung [[302019012345]] wurde zurückgewiesen.",
        "Widerspruch wurde erhoben aus der Unionsmarke [[012345678]] der Widersprechenden.",
        "Der Widerspruch aus der IR-Marke [[1 234 567]] ist unbegründet.",
        "In der Beschwerdesache betreffend die Markenanmeldung [[30 2015 012 345.6/09]] hat der 29. Senat beschlossen:",
        "Das Zeichen ist am 12. Juni 2013 unter der Nummer [[30 2013 036 234]] als Wort-/Bildmarke in das Register eingetragen worden.",
        "Auf den Widerspruch aus der Marke [[EM 005 729 819]] wird die Löschung der angegriffenen Marke [[DE 30 2009 056 265]] angeordnet.",
        "auf Grund seiner Marken [[EM 007 185 051]] und [[EM 002 609 949]] widersprochen",
        "die seit dem 8. August 2005 unter der Nummer [[305 02 291]] für die Waren der Klasse 5 eingetragen ist",
        "Die Unionswiderspruchsmarke ist unter der Nummer [[UM 002 290 591]] eingetragen.",
        # negatives: comparison marks, numbers that are no marks, other rights
        "Schließlich verweist die Anmelderin auf die eingetragenen Marken DE 30 2014 000 315 und 30 2015 107 551.",
        "vergleichbare Voreintragungen der Bezeichnung „Bergwiese“ (Registernummern 300 41 639 und 1 112 741)",
        "Kilometerstand von 38.909 der Marke Audi",
        "In der Anmeldung liegt N im Bereich von 200 000 Umdrehungen.",
        "§ 14 Abs. 2 Nr. 2 MarkenG",
        "30 2017 029 6161",
        "Das Streitpatent EP 1 234 567 B1 betrifft eine Pumpe.",
    ],
)
def test_trademark_table(marked: str) -> None:
    check_table_row(TrademarkNumberRecognizer(), marked, "BRAND_NUMBER")


def test_own_cue_raises_the_score() -> None:
    """A file number's shape fires alone (0.6), an own cue raises it; a citation blocks it."""
    recognizer = TrademarkNumberRecognizer()
    assert [s.score for s in recognizer.analyze("Sie führt 30 2017 029 616 an.")] == [0.6]
    assert [s.score for s in recognizer.analyze("aus der Marke 30 2017 029 616")] == [0.9]
    assert recognizer.analyze("vgl. 30 2017 029 616") == []
