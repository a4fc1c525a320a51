"""The judges' keep zones of every layout (keep_zones version 3, deid.anonymizer.judges):
judges' names are kept, the parties, counsel, prosecutors and clerks beside them are not.

The layouts are those of the bundled decisions (BAG, BVerwG, BFH, the BGH's and BPatG's in
the LER corpus) and of the Bavarian courts; judges' names are public, the parties, counsel
and clerks are made up.
"""

from __future__ import annotations

import pytest

from deid.anonymizer.policy import judge_zones, keep_zones
from tests.conftest import read_source


def _kept(text: str, word: str, version: int = 3) -> bool:
    """Whether every occurrence of ``word`` lies in a judges' zone."""
    zones = judge_zones(text, version)
    starts = [i for i in range(len(text)) if text.startswith(word, i)]
    assert starts, word
    return all(any(z.start <= s and s + len(word) <= z.end for z in zones) for s in starts)


# (text, judges kept, names that are not judges)
LAYOUTS = [
    pytest.param(
        "III. Die Kostenentscheidung folgt aus § 97 Abs. 1 ZPO.\nSpelge\n"
        "Ri’in BAG Dr. Volk ist an der Beibringung ihrer Unterschrift verhindert.\nSpelge\nHeinkel\nSteinbrück\nD. Reidelbach",
        ["Volk", "Heinkel", "Reidelbach"], [], id="bag-signature-with-a-note",
    ),
    pytest.param(
        "Auch hiergegen wendet sich die Arbeitgeberin mit ihrer Rechtsbeschwerde nicht mehr.\n"
        "Schmidt\nHamacher\nWullenkord\nDeinert\nauf dem Brinke",
        ["Hamacher", "auf dem Brinke"], [], id="bag-name-particle",
    ),
    pytest.param(
        "Der Anmelder hat Beschwerde eingelegt. In der Beschwerdesache betreffend die Markenanmeldung hat der "
        "29. Senat (Marken-Beschwerdesenat) des Bundespatentgerichts am 28. November 2017 unter Mitwirkung des "
        "Vorsitzenden Richters Knoll, der Richterin Kriener sowie des Richters Dr. Nielsen beschlossen:\n"
        "Die Beschwerde der Kleeberg Sensorik GmbH wird zurückgewiesen.",
        ["Knoll", "Kriener", "Nielsen"], ["Kleeberg"], id="bpatg-unter-mitwirkung",
    ),
    pytest.param(
        "unter Mitwirkung des Vorsitzenden Richters Dipl.-Ing. Hilber sowie der Richter Paetzold, "
        "Dr. - Ing. Baumgart und Dipl. – Phys. Dr. - Ing. Geier beschlossen:",
        ["Hilber", "Paetzold", "Baumgart", "Geier"], [], id="bpatg-technical-judges",
    ),
    pytest.param(
        "In der Verwaltungsstreitsache\nder Frau Amelie Wunderlich,\n- Klägerin -\nbevollmächtigt: Rechtsanwälte "
        "Brandner & Kollegen,\ngegen\nFreistaat Bayern,\n- Beklagter -\nwegen Fahrerlaubnis\nerlässt das "
        "Bayerische Verwaltungsgericht Würzburg, 6. Kammer, durch die Vorsitzende Richterin am "
        "Verwaltungsgericht Dr. Weinmann, den Richter am Verwaltungsgericht Emmert, die Richterin Wolff, den "
        "ehrenamtlichen Richter Keller und die ehrenamtliche Richterin Ott aufgrund mündlicher Verhandlung vom "
        "14. Mai 2024 am 14. Mai 2024 folgendes\nUrteil:",
        ["Weinmann", "Emmert", "Wolff", "Keller", "Ott"], ["Wunderlich", "Brandner"], id="bavarian-rubrum",
    ),
    pytest.param(
        "Das Amtsgericht Rosenheim erlässt durch die Richterin am Amtsgericht Dr. Hafner am 12.03.2024 auf Grund "
        "der mündlichen Verhandlung vom 1. März 2024 folgendes Endurteil: Der Beklagte Jonas Wiesmeier wird verurteilt.",
        ["Hafner"], ["Wiesmeier"], id="amtsgericht-rubrum",
    ),
    pytest.param(
        "in der Sitzung vom 7. Juni 2018, an der teilgenommen haben:\nVorsitzender Richter am Bundesgerichtshof "
        "Dr. Raum,\nRichter am Bundesgerichtshof Dr. Graf,\nRichterin am Bundesgerichtshof Dr. Bartel\nals "
        "beisitzende Richter,\nStaatsanwalt beim Bundesgerichtshof Pfeffinger\nals Vertreter der "
        "Bundesanwaltschaft,\nRechtsanwalt Kolbeck\nals Verteidiger,\nJustizangestellte Hainzl\nals "
        "Urkundsbeamtin der Geschäftsstelle,\nfür Recht erkannt:",
        ["Raum", "Graf", "Bartel"], ["Pfeffinger", "Kolbeck", "Hainzl"], id="bgh-criminal-participants",
    ),
    pytest.param(
        "Die Berufung war nicht zuzulassen (§ 124a Abs. 1 Satz 1 VwGO).\nDr. Rauscher\nVorsitzende Richterin am "
        "Verwaltungsgericht\nKettl\nRichter am Verwaltungsgericht\nObermaier\nRichterin\nBeschluss\nDer Streitwert "
        "wird auf 5.000,00 EUR festgesetzt.\nDr. Rauscher Kettl Obermaier",
        ["Rauscher", "Kettl", "Obermaier"], [], id="bavarian-signature-offices-and-a-second-block",
    ),
    pytest.param(
        "Die Kostenentscheidung beruht auf § 154 Abs. 2 VwGO.\nDr. Häußler   Prof. Dr. Burmeister   Dr. Eppelt\n"
        "Rechtsmittelbelehrung\nGegen diesen Beschluss ist kein Rechtsmittel gegeben.",
        ["Häußler", "Burmeister", "Eppelt"], [], id="names-on-one-line-before-a-heading",
    ),
    pytest.param(
        "Das Ablehnungsgesuch gegen den Richter Eichberger sowie die Richterinnen Baer und Britz wird als "
        "unzulässig verworfen. Die Richterin am LSG Dr. W. hat angegeben, den Kläger Björn Ostendorf nicht zu kennen.",
        ["Eichberger", "Baer", "Britz", "Dr. W."], ["Ostendorf"], id="titled-judges-in-the-text",
    ),
]


@pytest.mark.parametrize("text, judges, others", LAYOUTS)
def test_judges_of_every_layout_are_kept(text: str, judges: list[str], others: list[str]) -> None:
    for judge in judges:
        assert _kept(text, judge), judge
    zones = keep_zones(text)
    for name in others:
        start = text.index(name)
        assert not any(z.start < start + len(name) and start < z.end for z in zones), name


@pytest.mark.parametrize(
    "text, name",
    [
        # a party list in the rubrum: names without a judge's office, followed by a role
        ("In der Verwaltungsstreitsache\nAmelie Wunderlich\nJonas Wiesmeier\n- Kläger -\ngegen", "Wunderlich"),
        # judges heard as witnesses are witnesses
        ("Das Protokoll hätte die Aussagen der als Zeugen vernommenen Richter Farnbach und Dr. Hosang enthalten müssen.",
         "Farnbach"),
        # "durch den Richter" in running text is no bench
        (
            (
                "Die Entscheidung durch den Richter (stRspr, vgl. BVerfGE 85, 337 <345>) betraf Herrn Kleinhans.\n"
                "2. Die Klage ist beschlossen:"
            ),
            "Kleinhans",
        ),
    ],
)
def test_others_are_not_kept(text: str, name: str) -> None:
    assert not _kept(text, name)


@pytest.mark.parametrize(
    "path, judge",
    [
        ("decisions/bag/6-azr-119-23.txt.xz", "Volk"),
        ("decisions/bag/7-abr-8-23.txt.xz", "auf dem Brinke"),
    ],
)
def test_bundled_decisions_missed_by_version_2(path: str, judge: str) -> None:
    text = read_source(path)
    assert not _kept(text, judge, version=2)
    assert _kept(text, judge, version=3)


def test_a_dpma_number_after_aktenzeichen_is_no_case_number() -> None:
    text = "Die Anmeldung mit dem Aktenzeichen 10 2013 019 870.4 wurde zurückgewiesen (Az. 1 BvR 1202/17)."
    numbers = {text[z.start : z.end] for z in keep_zones(text) if z.label == "CASE_REFERENCE"}
    assert not any("2013" in n for n in numbers) and any("1202" in n for n in numbers)
    assert any("2013" in text[z.start : z.end] for z in keep_zones(text, version=2))


@pytest.mark.timeout(60)
def test_linear_on_many_short_lines() -> None:
    """Signature runs are judged in one pass: 210,000 lines, two names before each sentence
    (a run that neither closes the text nor precedes a heading nor holds an office: none)."""
    text = "Müller\nSchmidt\nDie Klage ist unbegründet.\n" * 70_000
    assert judge_zones(text) == []
    assert len(judge_zones(text + "Müller\nSchmidt")) == 1


@pytest.mark.parametrize(
    "text, judge",
    [
        (("Das Gericht hält eine Quote von 70 zu 30 für angemessen.\n6\nDie Nebenentscheidungen beruhen auf § 92 Abs. 1, "
          "§ 709 ZPO.\nKronawitter"), "Kronawitter"),
        ("Die Kostenentscheidung folgt aus § 465 Abs. 1 StPO.\nDr. Seidl\n", "Seidl"),
    ],
)  # fmt: skip
def test_version_10_keeps_a_sole_judge_closing_the_decision(text: str, judge: str) -> None:
    assert _kept(text, judge, version=10)
    assert not _kept(text, judge, version=9)  # version 9 keeps its meaning


@pytest.mark.parametrize(
    "text, name",
    [
        # a name closing a list, not a sentence; a party's name in a line of its own mid-text
        ("Als Zeugin wurde in der mündlichen Verhandlung am 4. Mai 2023 vernommen:\nHuber", "Huber"),
        ("Die Klage richtet sich gegen die Beklagte.\nMeier\nDie Kosten trägt der Kläger.", "Meier"),
    ],
)
def test_version_10_keeps_no_name_that_closes_no_sentence(text: str, name: str) -> None:
    assert not _kept(text, name, version=10)
