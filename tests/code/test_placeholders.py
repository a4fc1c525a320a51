"""Placeholder detection on real court language: every rule family fires where it must and
stays silent where a letter, an ellipsis or initials mean something else.

Sentences are taken from the training decisions and LER training courts (bag, bfh, bsg,
bverfg, bpatg, raw bverwg/bag/bfh decisions), never from reserved evaluation data.
"""

from __future__ import annotations

import pytest

from deid.rewrite.placeholders import detect_placeholders
from tests.conftest import read_source


def found(text: str) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.label) for s in detect_placeholders(text)]


MUST_FIRE = [
    # roles before single letters / initials
    ("Herr S befand sich vom 1. bis jedenfalls zum 21. August 2021 im Erholungsurlaub.", [("S", "PERSON")]),
    ("nahmen Herr S und Herr K an dieser teil.", [("S", "PERSON"), ("K", "PERSON")]),
    ("Über den Vorfall hatte die Zeugin S. bereits kurz darauf mit ihrer Mitbewohnerin gesprochen.", [("S.", "PERSON")]),
    ("durch Vernehmung der Zeugen N. und W. zu deren Gesprächen", [("N.", "PERSON"), ("W.", "PERSON")]),
    ("Im Frühjahr 2020 wurde Oberstleutnant R. zum Vorsitzenden des Gesamtpersonalrats gewählt.", [("R.", "PERSON")]),
    ("durch den erstinstanzlich gehörten Sachverständigen Dr. G begutachtet", [("G", "PERSON")]),
    ("Der gerichtliche Sachverständige Dr. von M. habe mitgeteilt", [("M.", "PERSON")]),
    ("den bei der beklagten Krankenkasse versicherten J. K. (im Folgenden: Versicherter)", [("J. K.", "PERSON")]),
    ("Nach dem Tod von E. Sch. wurde sein Enkel U. Sch. als Eigentümer eingetragen.", [("E. Sch.", "PERSON"), ("U. Sch.", "PERSON")]),
    ("Der Zeuge Al., der sich auf seinen Urlaub berief,", [("Al.", "PERSON")]),
    # organizations: legal forms and compounds
    ("arbeitete der Kläger bei der X GmbH und erhielt hierfür eine Vergütung", [("X", "ORGANIZATION")]),
    ("war er geringfügig bei der M gGmbH beschäftigt.", [("M", "ORGANIZATION")]),
    ("Im Jahr 2002 erwarb die im EU-Ausland ansässige X-Gruppe die A-AG.", [("X", "ORGANIZATION"), ("A", "ORGANIZATION")]),
    ("Die Klägerin ist die A-GbR.", [("A", "ORGANIZATION")]),
    ("Die Vorinstanz hat die S … GmbH & Co. KG verurteilt.", [("S …", "ORGANIZATION")]),
    ("für die D P T S GmbH von deren Geschäftsführer", [("D P T S", "ORGANIZATION")]),
    ("begehrt der bei dem A. Verlag als Journalist tätige Antragsteller", [("A.", "ORGANIZATION")]),
    # places
    ("Die Beklagte betreibt in V ein Krankenhaus mit verschiedenen Fachabteilungen.", [("V", "LOCATION")]),
    ("Die Satzung der Stadt L. über die Erhebung der Vergnügungsteuer", [("L.", "LOCATION")]),
    ("an der L.-Universität H. im Dienst des Landes", [("L.", "ORGANIZATION"), ("H.", "LOCATION")]),
    ("bewohnte der Kläger eine Wohnung in der V-Straße in A-M mit einer Größe von 103 qm.", [("V-Straße", "STREET"), ("A-M", "LOCATION")]),
    ("die Flurstücke F und G von einem anderen Rechtsträger erworben", [("F", "LOCATION"), ("G", "LOCATION")]),
    # streets
    ("ob das Depot der Beklagten in der Kstraße für den Kläger dessen Arbeitsstätte ist", [("Kstraße", "STREET")]),
    ("schenkte U. Sch. den Beigeladenen das Grundstück R. straße ... im Ortsteil", [("U. Sch.", "PERSON"), ("R. straße ...", "STREET")]),
    ("Eigentümer des Grundstücks G. Straße 1 in der Gemeinde", [("G. Straße 1", "STREET")]),
    # obvious patterns: dates, money, x-runs, e-mail
    ("Der Kläger wurde am xx.xx.2015 entlassen.", [("xx.xx.2015", "DATE")]),
    ("Das Finanzamt setzte den Gewerbesteuermessbetrag auf … € fest.", [("…", "MONEY")]),
    ("Er schrieb an a@x.de und besuchte www.x.de.", [("a@x.de", "CONTACT"), ("www.x.de", "CONTACT")]),
    ("Der Geschäftsführer Xxxxx unterzeichnete.", [("Xxxxx", "PERSON")]),
    # ellipsis placeholders in running text
    ("Der 1978 in ... geborene Antragsteller ist Berufssoldat.", [("...", "LOCATION")]),
    ("wurde Fregattenkapitän ... zum 1. Januar 2020 versetzt", [("...", "PERSON")]),
    ("mit Verfügung Nr. ... vom 27. Mai 2020", [("...", "ID")]),
    ("Mit Schreiben vom ... November 2012 kündigte der Ausbildungsbetrieb", [("...", "DATE")]),
    # bare letters as names in a sentence (BFH style) and in coordination
    ("Dagegen erhob R am 2. Dezember 2016 Klage.", [("R", "PERSON")]),
    ("Sie unterhält Rettungswachen in G, P und S.", [("G", "LOCATION"), ("P", "LOCATION"), ("S.", "LOCATION")]),
    # quoted letters after an article or role
    ("Firmen „S“ und „D“ bearbeitete sie", [("S", "ORGANIZATION"), ("D", "ORGANIZATION")]),
    # punctuation ends an initial: "A., Blatt" is no abbreviated real name "A. Blatt"
    ("Als Eigentümerin ist sie im Grundbuch von A., Blatt 1234, eingetragen.", [("A.", "LOCATION")]),
    # a quoted, abbreviated name of a building; an ellipsis after an ID cue at a quote's edge
    ("Die Wohnung liegt im Haus „S.“ am Marktplatz.", [("S.", "PERSON")]),
    ("Er legte „Widerspruch gegen den Bescheid mit Zeichen …“ ein.", [("…", "ID")]),
]

MUST_NOT_FIRE = [
    # abbreviations
    "Die Regelung gilt i. S. d. § 17 EStG und i. V. m. § 23 Abs. 1 EStG, z. B. a. a. O.",
    "eine Veräußerung i. S. des § 17 Abs. 1 EStG (a. A. OVG Bautzen) m. w. N.",
    "Die Vorschrift wurde a. F. angewandt, d. h. nach Bl. 12 d. A.",
    # law and outline references
    "nach § 8 Abs. 3 Ziffer 2 UWG und Art. 3 Abs. 1 GG sowie § 24 Nr. 1 Buchst. a EStG",
    "vgl. Anlage K 3 und Anlage A sowie Teil II Abschnitt 20 der Anlage A Entgeltordnung",
    "BAG 29. Februar 2000 – 1 ABR 4/99 – zu B II 1 b bb der Gründe",
    "BAG 18. Mai 2004 - 9 AZR 250/03 - zu A der Gründe; zu I der Gründe mwN",
    "BGBl. I S. 370; ABl. L 339 S. 90; BT-Drs. 14/4374 S. 13",
    "die Entgeltgruppen S 2 bis S 18 sowie die Besoldungsgruppe A 13",
    "Leistungen nach dem SGB X und dem SGB V sowie Arbeitslosengeld I.",
    # case numbers
    "BVerwG, Beschluss vom 01.03.2024 - 20 F 14.23 - und VG Minden 12 K 4328/21.A",
    "BGH 23. April 2015 – V ZR 200/14 – Rn. 12; BSG B 7a AL 14/05 R; BFH IV R 24/21",
    "EuGH 16. Dezember 1992 - C- 132/91, C- 138/91; EU: C: 2013: 612",
    # roads, outline headings, real names with initials, authors
    "Die B 214 und die A 2 sowie die Kreisstraße K 74 wurden ausgebaut.",
    "I. Die Klage ist zulässig.\nII. Die Klage ist unbegründet.\nA. Die Beteiligten streiten.",
    "Treber\nM. Rennpferdt\nKlug\nJ. Ratayczak\nT. Wolff",
    "Rosen, R. C., et al., Urology. 1997, 49, S. 822 bis 830; Kuemmerle, H. - P. (Hrsg.)",
    "Schweizerische Flüchtlingshilfe / A. Schuster, Russland: Verfolgung von Verwandten",
    # omissions in quotes and between sentences
    "„Die Urlaubszuwendung wird … gewährt …“ (Nr. 3 Satz 1 der Info 2008)",
    "die Betriebsparteien (…) vereinbart haben [...] und weiter",
    "der Stundendivisor ist 1/165 des Monatsentgeltes. … 3. Pausen",
    # letters that designate a category
    "mit dem Anfangsbuchstaben „J“ und dem Vokal „E“ der Widerspruchsmarke",
    "Die Blöcke B und C des Kernkraftwerks sowie das Influenzavirus A und B",
    "das Merkzeichen G und Vitamin D sowie Hepatitis B",
    "Die Räume im Gebäude B der Anlage sowie die Anlage „A“ zum Vertrag und das Gebäude „B“",
    "Das Zeichen ist als Wortmarke eingetragen.",
    "so im Aufsatz von A. Blatt, NJW 2001, 3",
]


@pytest.mark.parametrize("text, expected", MUST_FIRE)
def test_placeholders_found_with_type(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize("text", MUST_NOT_FIRE)
def test_no_placeholder_in_ordinary_legal_language(text: str) -> None:
    assert found(text) == []


def test_titles_roles_and_legal_forms_stay_outside_the_span() -> None:
    text = "Herrn Dr. A. G. und die H. AG sowie Landratsamt O."
    assert found(text) == [("A. G.", "PERSON"), ("H.", "ORGANIZATION"), ("O.", "LOCATION")]


def test_document_consistency_types_a_bare_letter_introduced_earlier() -> None:
    text = "Der Kläger K erschien.\nK erklärte, er habe nichts gewusst.\nDanach ging K nach Hause."
    assert [s for s, _ in found(text)] == ["K", "K", "K"]


def test_offsets_round_trip_on_a_real_decision() -> None:
    text = read_source("decisions/bag/9-azr-115-23.txt.xz")
    spans = detect_placeholders(text)
    assert spans, "this decision carries placeholders"
    previous_end = -1
    for span in spans:
        assert 0 <= span.start < span.end <= len(text)
        assert span.start >= previous_end, "spans must not overlap"
        assert text[span.start : span.end].strip() == text[span.start : span.end]
        assert span.source and span.source.startswith("placeholder:")
        previous_end = span.end


@pytest.mark.slow
def test_whole_training_collection_runs_and_finds_typed_placeholders(sources) -> None:
    import lzma

    labels: set[str] = set()
    for path in sorted((sources / "decisions").glob("b*/*.txt.xz")):
        text = lzma.open(path, "rt", encoding="utf-8").read()
        labels |= {s.label for s in detect_placeholders(text)}
    assert {"PERSON", "ORGANIZATION", "LOCATION", "MONEY"} <= labels
