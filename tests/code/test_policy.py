"""The keep policy (deid.anonymizer.policy) on long inputs: the same zones on real decisions as before
its patterns were bounded, and a 1 MB hyphenated word in linear time."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from deid.anonymizer.policy import keep_zones
from deid.schema import PUBLIC_ENTITY
from deid.sources.io import read_jsonl
from tests.conftest import ROOT, read_source

GOLD = ("data/gold/ler_rewritten.jsonl", "data/gold/bavaria/rewritten.jsonl")
# sha256 of the keep zones of every bundled decision and both rewritten gold sets, by
# keep_zones version. Version 1: computed before the web-address pattern's host labels were
# bounded to 63 characters (then ee9248b9…), and again when a statute's abbreviation had to
# stand on its own line (36 zones of the gold sets ended one line later before, none of them
# on a gold span). Version 2 (signature lines with an initial or the judge's office) changes
# the signature block of 11 bundled BAG decisions and no zone of either gold set. Version 3
# (the judges of every layout, deid.anonymizer.judges; "AG"/"KG" after a firm's name no court;
# a DPMA number after "Aktenzeichen" no case number) changes the zones of 54 bundled decisions
# and 15 gold documents. Version 4 (an authority's one-token number after "Az." no case number,
# the Bavarian courts' numbers, an author before "aaO" or a journal written out) changes the
# zones of 64 bundled decisions and 54 gold documents; on the gold sets' dev halves none of its
# new zones touches a gold span. Version 5 (the Bundeswehr's regulations, the parties of a
# European court's case) changes the zones of 11 bundled decisions and 20 gold documents, and
# none of its new zones touches a gold span (both halves checked, a count). Version 6 (a firm's
# "AG"/"KG" before "in" and a town) changes no zone of the bundled decisions or gold sets.
_GOLDEN = {
    1: (31098, "19805c7ec5e3ffb4c18fce539711f1032a545d123a76c3a577760b822c72bd19"),
    2: (31106, "835f7670f9ebd64890afda5b6bcc6dcb3080015fc38197ad51303f4948812d2e"),
    3: (31241, "199d1f567f88a14586afe72ffcdba8378306486316c3bed792922e9fb5c2ac57"),
    4: (31593, "af5ea2de7e5690832118c17aad69ad049f3280bba0885b124b4cdf8e94e007c8"),
    5: (31856, "dd51cb5bb36b15f07d591b3f4cfc3c5f42469ca9e4ba0dbcc1808ce6ad5c8120"),
    6: (31856, "dd51cb5bb36b15f07d591b3f4cfc3c5f42469ca9e4ba0dbcc1808ce6ad5c8120"),
}


@pytest.mark.slow
def test_keep_zones_of_real_decisions_are_unchanged(sources: Path) -> None:
    paths = sorted((sources / "decisions").glob("*/*.txt.xz"))
    texts = [read_source(p.relative_to(sources).as_posix()) for p in paths]
    gold = [r["text"] for path in GOLD for r in read_jsonl(ROOT / path)]
    assert len(texts + gold) == 354
    for version, (count, golden) in _GOLDEN.items():
        digest, found = hashlib.sha256(), 0
        for text in texts + gold:
            zones = keep_zones(text, version=version)
            found += len(zones)
            digest.update(str([(z.start, z.end, z.label) for z in zones]).encode())
        assert (version, found, digest.hexdigest()) == (version, count, golden)
    changed = [i for i, text in enumerate(texts + gold) if keep_zones(text, version=1) != keep_zones(text, version=2)]
    assert len(changed) == 11 and all(i < len(texts) for i in changed)
    changed = [i for i, text in enumerate(texts + gold) if keep_zones(text, version=2) != keep_zones(text, version=3)]
    assert (sum(i < len(texts) for i in changed), sum(i >= len(texts) for i in changed)) == (54, 15)
    changed = [i for i, text in enumerate(texts + gold) if keep_zones(text, version=3) != keep_zones(text, version=4)]
    assert (sum(i < len(texts) for i in changed), sum(i >= len(texts) for i in changed)) == (64, 54)
    changed = [i for i, text in enumerate(texts + gold) if keep_zones(text, version=4) != keep_zones(text, version=5)]
    assert (sum(i < len(texts) for i in changed), sum(i >= len(texts) for i in changed)) == (11, 20)


@pytest.mark.parametrize(
    "text, zone",
    [
        ("Mit Beschluss vom 3. Januar 2023 (M 28 K 21.6372) lehnte das Gericht ab.", "M 28 K 21.6372"),
        ("(vgl. BayVGH, B.v. 17.2.2017 – 8 ZB 15.2237 – juris Rn. 11)", "8 ZB 15.2237"),
        ("Augsburg, Beschluss vom 23.08.2023 – Au 7 S 23.1037\nFundstellen:", "Au 7 S 23.1037"),
        ("VGH München - 03.04.2023 - AZ: 11 N 22.940\nIn der Normenkontrollsache", "AZ: 11 N 22.940"),
        ("auch Fastenmeier a.a.O. S. 100). Auf der anderen Seite", "Fastenmeier a.a.O."),
        ("Kooperationsformen (Engelmann, aaO, mit weiteren Beispielen)", "Engelmann, aaO"),
        ("(vgl. dazu Fastenmeier, Zeitschrift für Verkehrssicherheit 2015, 97/99)", "Fastenmeier, Zeitschrift für "),
    ],
)
def test_version_4_keeps_bavarian_case_numbers_and_works_cited_before(text: str, zone: str) -> None:
    found = [text[z.start : z.end] for z in keep_zones(text, version=4)]
    assert zone in found
    assert zone not in [text[z.start : z.end] for z in keep_zones(text, version=3)]


@pytest.mark.parametrize(
    "text, zone, label",
    [
        ("Weder § 2 SLV noch die ZDv A-1340/50 enthalten eine Delegation.", "ZDv A-1340/50", "LAW"),
        ("Laufbahn der Offiziere nach Nr. 1027 ZDv A- 1340/49 (1. Oktober 2015)", "Nr. 1027 ZDv A- 1340/49", "LAW"),
        ("Der zitierte Erlass A-1340/49 stelle keine taugliche Rechtsgrundlage dar.", "Erlass A-1340/49", "LAW"),
        ("nach Nr. 2001 AR A1-840/8 zuständig", "Nr. 2001 AR A1-840/8", "LAW"),
        ("(EuGH, Urteil vom 14. Februar 2012 - C-17/10 [ECLI:EU:C:2012:72], Toshiba Corporation u. a. - Rn. 64)",
         "C-17/10 [ECLI:EU:C:2012:72], Toshiba Corporation u. a.", "CASE_REFERENCE"),
        ("(EGMR, Urteil vom 12. Februar 2008 - Nr. 21906/04, Kafkaris/Zypern - Rn. 97)", "Kafkaris/Zypern", "CASE_REFERENCE"),
        ("In der Rechtssache Kaboulov/Ukraine (Urteil vom 19. November 2009)", "Kaboulov/Ukraine", "CASE_REFERENCE"),
        ("(EGMR, Vinter u. a./Vereinigtes Königreich, Nr. 66069/09)", "Vinter u. a./Vereinigtes Königreich", "CASE_REFERENCE"),
    ],
)
def test_version_5_keeps_the_bundeswehrs_regulations_and_european_case_names(text: str, zone: str, label: str) -> None:
    """A BVerwG soldiers' decision cites its service regulations by number; the model read
    "1340/50" as an identifier (17 elements of the LER dev half). A European court publishes
    its cases under the parties' names."""
    assert (zone, label) in [(text[z.start : z.end], z.label) for z in keep_zones(text, version=5)]
    assert zone not in [text[z.start : z.end] for z in keep_zones(text, version=4)]


@pytest.mark.parametrize(
    "text",
    [
        "Der Kläger wohnte in Radebeul/Sachsen und zog 2019 nach Dresden.",  # a town in its Land
        "Die Lieferung an die Schreinerei Huber, C-Straße 4/12, erfolgte am 3. Mai.",
        "Der Beklagte berief sich auf die Regelung 14/5 des Mietvertrags.",
    ],
)
def test_version_5_keeps_no_party_by_those_shapes(text: str) -> None:
    assert [(z.start, z.end) for z in keep_zones(text, version=5)] == [(z.start, z.end) for z in keep_zones(text, version=4)]


@pytest.mark.parametrize(
    "text, firm",
    [
        ("Der Kläger ist bei der Firma Huber Transporte KG in Iphofen beschäftigt.", "Huber Transporte KG"),
        ("Beklagte ist die Allgäuer Alpenmilch AG in Wolfertschwenden.", "Allgäuer Alpenmilch AG"),
    ],
)
def test_version_6_reads_a_firms_form_and_town_as_no_court(text: str, firm: str) -> None:
    """Version 5 took "KG in Iphofen" for the Kammergericht and its seat and kept the zone, so
    the firm's name and its town were left in clear; a court is written "AG München"."""
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline

    form = text.index(firm) + len(firm) - 2
    assert any(z.start <= form < z.end for z in keep_zones(text, version=5))
    assert not any(z.start <= form < z.end for z in keep_zones(text, version=6))
    for court in ("Das Urteil des KG in Berlin ist rechtskräftig.", "vgl. AG München, Urteil vom 3. Mai 2019"):
        assert keep_zones(court, version=6) == keep_zones(court, version=5) != []
    spans = build_pipeline(config=PipelineConfig.rules_only()).analyze(text)
    assert firm in [text[s.start : s.end] for s in spans]


@pytest.mark.parametrize(
    "text, number",
    [
        ("Die Verwarnung wurde unter dem Aktenzeichen 8.2-1234567 der Zentralen Bußgeldstelle geführt.",
         "8.2-1234567"),
        ("Der Bescheid (Az. 41-602-B-2021/0457 des Landratsamts Erding) ist rechtswidrig.", "41-602-B-2021/0457"),
    ],
)  # fmt: skip
def test_version_7_leaves_an_authoritys_file_number_before_its_office_to_the_recognizers(
    text: str, number: str
) -> None:
    """Version 6 read any number after "Aktenzeichen" with a word after it as a court's and
    kept it; a court's number starts with a short part and a space."""
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline

    at = text.index(number)
    assert any(z.start <= at < z.end for z in keep_zones(text, version=6))
    assert not any(z.start <= at < z.end for z in keep_zones(text, version=7))
    for court in ("Die Beschwerde (Az. 1 BvR 123/20) wurde verworfen.", "LG Frankfurt, Az. 2-04 O 237/19 mwN",
                  "Das Verfahren (Az. M 26b K 19.1234) ist erledigt."):  # fmt: skip
        assert keep_zones(court, version=7) == keep_zones(court, version=6) != []
    spans = build_pipeline(config=PipelineConfig.rules_only()).analyze(text)
    assert number in [text[s.start : s.end] for s in spans]


def test_version_8_leaves_an_authoritys_number_after_its_offices_capitals_to_the_recognizers() -> None:
    """Version 7 read "Az. SG 32" (an office's capitals and the first part of its number) as a
    court's case number and "SG" as a Sozialgericht, so the permit recognizer's span was
    dropped; a court's number is not joined by hyphens after its first number."""
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline

    text = "Mit Bescheid vom 9. Januar 2023 (Az. SG 32-1431.2/22-187) widerrief das Landratsamt die Waffenbesitzkarten."
    at = text.index("SG 32")
    assert any(z.start <= at < z.end for z in keep_zones(text, version=7))
    assert not any(z.start <= at < z.end for z in keep_zones(text, version=8))
    for court in ("Das Sozialgericht (Az. S 12 R 345/20) wies die Klage ab; das SG Augsburg folgte.",
                  "Die Beschwerde (Az. 1 BvR 123/20) wurde verworfen.", "vgl. EuGH (Az. C- 91/11)",
                  "Das Verfahren (Az. M 26b K 19.1234) ist erledigt."):  # fmt: skip
        assert keep_zones(court, version=8) == keep_zones(court, version=7) != []
    spans = build_pipeline(config=PipelineConfig.rules_only()).analyze(text)
    assert [text[s.start : s.end] for s in spans if s.start <= at < s.end] == ["SG 32-1431.2/22-187"]


def test_version_8_reads_no_case_number_across_a_line_break() -> None:
    """A margin number and a sentence begun with a date ("1\nAm 14.01.2023 verstarb …") read as a
    case number ("1 Am 14.01") kept the date of death in clear."""
    text = "Gründe\nI.\n1\nAm 14.01.2023 verstarb in Trostberg die Erblasserin.\n2\nDas Verfahren (Az. 1 BvR 123/20) ruht."
    zones = {v: [text[z.start : z.end] for z in keep_zones(text, version=v) if z.label == "CASE_REFERENCE"] for v in (7, 8)}
    assert "1\nAm 14.01" in zones[7] and "1\nAm 14.01" not in zones[8]
    assert "Az. 1 BvR 123/20" in zones[8]


def test_version_8_reads_a_sole_judges_office_line_with_the_role() -> None:
    """A sole judge signs "Richter am Landgericht als Einzelrichter": version 7 read no office
    line there and left the name to the model, which flagged it."""
    text = "Die Kostenentscheidung beruht auf § 91 Abs. 1 ZPO.\nDr. Fraundorfer\nRichter am Landgericht als Einzelrichter\n"
    judges = {v: [text[z.start : z.end] for z in keep_zones(text, version=v) if z.label == "JUDGE"] for v in (7, 8)}
    assert judges == {7: [], 8: ["Dr. Fraundorfer\nRichter am Landgericht als Einzelrichter"]}


def test_version_9_leaves_an_offices_number_after_az_des_to_the_recognizers() -> None:
    """Version 8 read "Az. des Bundesamts 8912447" as a court's case number, so the asylum
    file's number stayed in clear; a court named after "Az. des" keeps its number."""
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline

    text = "Sie stellte am 9. Dezember 2021 einen Asylantrag (Az. des Bundesamts 8912447-423). Bei der Anhörung"
    at = text.index("8912447")
    assert any(z.start <= at < z.end for z in keep_zones(text, version=8))
    assert not any(z.start <= at < z.end for z in keep_zones(text, version=9))
    for court in ("Die Klage (Az. des Verwaltungsgerichts: M 5 K 21.1234) ist anhängig.",
                  "Die Beschwerde (Az. 1 BvR 123/20) wurde verworfen."):  # fmt: skip
        assert keep_zones(court, version=9) == keep_zones(court, version=8) != []
    spans = build_pipeline(config=PipelineConfig.rules_only()).analyze(text)
    assert [text[s.start : s.end] for s in spans if s.start <= at < s.end] == ["8912447-423"]


def test_version_9_reads_no_citation_in_a_licence_plate() -> None:
    """Version 8 read the letters and digits of "R-BB 2211" as a citation of the Betriebs-Berater
    ("BB 2211") and kept the plate in clear; a citation is never joined to a hyphen before it."""
    text = "Er befuhr mit dem Firmenwagen VW Passat, amtliches Kennzeichen R-BB 2211, die Bundesstraße 15."
    cited = {v: [text[z.start : z.end] for z in keep_zones(text, version=v)] for v in (8, 9)}
    assert cited == {8: ["BB 2211"], 9: []}
    citation = "vgl. BB 2011, 1234; NJW-RR 2010, 12"
    assert keep_zones(citation, version=9) == keep_zones(citation, version=8) != []


@pytest.mark.parametrize(
    ("text", "university"),
    [
        ("Die Klägerin, eine Studentin der Technischen Hochschule Rosenheim, mietete ein Zimmer.",
         "Technischen Hochschule Rosenheim"),
        ("Er studiert an der Universität Regensburg Jura.", "Universität Regensburg"),
        ("Die Universität Regensburg lehnte die Zulassung ab.", "Universität Regensburg"),
        ("Sie studiert an der Hochschule für angewandte Wissenschaften Landshut.",
         "Hochschule für angewandte Wissenschaften Landshut"),
        # a name and a comma before it are no name of the university (common_nouns@4's first
        # version shadowed the word pattern here, and a token with its comma read as one)
        ("Die Gutachterin, Prof. Dr. Huber, Universität Regensburg, hat die Klägerin untersucht.",
         "Universität Regensburg"),
    ],
)  # fmt: skip
def test_version_9_keeps_a_university_with_its_seat(text: str, university: str) -> None:
    """A university is a public body the policy keeps; version 8 left its seat to the model,
    which read it as a place the strict profile neutralizes."""
    zones = {v: [text[z.start : z.end] for z in keep_zones(text, version=v) if z.label == PUBLIC_ENTITY] for v in (8, 9)}
    assert university in zones[9] and university not in zones[8]


@pytest.mark.parametrize(
    "text",
    [
        # a private school after its name, a seat no town of the list: the federal courts neutralize them
        "Zum Wintersemester 2012/2013 nahm er an der Eickemeier Hochschule Dambach das Studium auf.",
        "nahm die Klägerin an der Universität Omilade Medien das Bachelorstudium auf",
    ],
)
def test_version_9_keeps_no_private_school(text: str) -> None:
    assert [z for z in keep_zones(text, version=9) if z.label == PUBLIC_ENTITY] == []


def test_version_4_leaves_an_authoritys_file_number_to_the_recognizers() -> None:
    """Version 3 kept "Az. 41-602" (the start of a Landratsamt's number) as a court's case
    number, so the permit recognizer's span was dropped; a court's number has spaces."""
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline

    text = "Mit Bescheid vom 3. März 2022 (Az. 41-602-B-2021/0457) erteilte das Landratsamt die Genehmigung."
    number = text.index("41-602")
    assert any(z.start <= number < z.end for z in keep_zones(text, version=3))
    assert not any(z.start <= number < z.end for z in keep_zones(text, version=4))
    court = "Das Verwaltungsgericht (Az. M 2 K 21.6372) hat die Klage abgewiesen."
    assert any(court[z.start : z.end].startswith("Az. M 2 K") for z in keep_zones(court, version=4))
    spans = build_pipeline(config=PipelineConfig.rules_only()).analyze(text)
    assert [text[s.start : s.end] for s in spans if s.start <= number < s.end] == ["41-602-B-2021/0457"]


@pytest.mark.timeout(120)  # linear: a second; the unbounded host pattern backtracked for hours
def test_a_1_mb_hyphenated_word_and_a_court_site_after_it() -> None:
    text = "Gericht-" * 125_000 + " siehe www.bverfg.de, Rn. 19"
    zones = keep_zones(text)
    site = text.index("www.bverfg.de")
    assert [(z.start, z.label) for z in zones if z.label == PUBLIC_ENTITY] == [
        (site, PUBLIC_ENTITY)
    ]


def test_a_statute_at_a_line_end_does_not_swallow_the_next_line() -> None:
    """"§ 3 Abs. 1 S. 1" ends a line, an IBAN begins the next: its "DE89" looked like the law's
    abbreviation, so the statute zone reached over it and the policy dropped the IBAN."""
    from deid.anonymizer.pipeline import build_pipeline

    decision = read_source("decisions/bag/1-azr-62-23.txt.xz")
    paragraph = next(p for p in decision.split("\n") if len(p) > 200)
    iban = "DE89 3704 0044 0532 0130 00"
    text = f"{paragraph}\nDie Zahlung erfolgte nach § 3 Abs. 1 S. 1\n{iban} auf das Konto der Klägerin."
    zones = keep_zones(text)
    start = text.index(iban)
    assert not [z for z in zones if z.start < start + 4 and start < z.end]
    spans = build_pipeline().analyze(text)
    assert any(s.start <= start and start + len(iban) <= s.end for s in spans)


def test_keep_zones_11_keeps_a_bavarian_decisions_keywords_and_norms() -> None:
    """The editors' header lines name legal concepts, never a party: a model span there is
    dropped ("Dammbau" read as a name). The title and the text below stay as they were."""
    text = (
        "Titel:\nAusnahmegenehmigung zur Entnahme von Bibern an einem Fischweiher\n"
        "Normenketten:\nBNatSchG § 44 Abs. 1 Nr. 1, § 45 Abs. 7 Satz 1 Nr. 1; AAV § 1\n"
        "Schlagworte:\nBiber, Artenschutz, Entnahme, Fischweiher, ernster wirtschaftlicher Schaden, Dammbau\n"
        "Tenor\n1. Der Beklagte wird verpflichtet, dem Kläger Johann Meindl die Genehmigung zu erteilen.\n"
    )
    def covered(word: str, version: int) -> bool:
        at = text.index(word)
        return any(z.start <= at and at + len(word) <= z.end for z in keep_zones(text, version=version))
    assert covered("Dammbau", 11) and covered("Fischweiher, ernster", 11) and covered("AAV", 11)
    assert not covered("Entnahme von Bibern", 11) and not covered("Johann Meindl", 11)
    assert not covered("Artenschutz", 10)  # version 10 keeps its meaning


def _sentence_with(relpath: str, needle: str) -> str:
    """The sentence of a bundled decision that holds ``needle``, up to a bracket's end where
    ``needle`` opens one."""
    text = read_source(relpath)
    at = text.index(needle)
    start = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at)) + 1
    if needle.startswith("("):
        return text[start : text.index(")", at) + 1].strip()
    return text[start : text.index("\n", at)].strip()


@pytest.mark.parametrize(
    "relpath, needle, zone",
    [
        ("decisions/bverwg/200324B1WB55.22.0.txt.xz", "Nr. 501 ZE B-1336/2", "ZE B-1336/2"),
        ("decisions/bverwg/290224B1WB17.23.0.txt.xz", "(Hassan Siahpoosh, Das", "Hassan Siahpoosh"),
        ("decisions/bverwg/121223U5C10.22.0.txt.xz", "(vgl. Schumann, Gutachten zum", "Schumann"),
    ],
)
def test_version_12_keeps_central_orders_and_sources_of_bundled_decisions(relpath: str, needle: str, zone: str) -> None:
    """A soldiers' decision cites the Bundeswehr's central orders as it cites a statute, and a
    decision cites a book or a country report by its author with a title, a year and a page:
    both are published, so a model span touching them is dropped. Version 11 kept neither."""
    text = _sentence_with(relpath, needle)
    assert zone in [text[z.start : z.end] for z in keep_zones(text, version=12)]
    assert zone not in [text[z.start : z.end] for z in keep_zones(text, version=11)]


@pytest.mark.parametrize(
    "text, zone",
    [
        ("Gemäß Nr. 2 des Zentralerlasses (ZE) B- 2640/8 (Einsatznachbereitungsseminare) seien Maßnahmen verpflichtend.",
         "Zentralerlasses (ZE) B- 2640/8"),
        ("Ein Hinderungsgrund im Sinne von Nr. 203 bis 206 ZE B- 1300/46 liegt nicht vor.", "ZE B- 1300/46"),
        ("Dies wird systematisch verfolgt (vgl. Schweizerische Flüchtlingshilfe/A. Schuster, Russland: Verfolgung "
         "von Verwandten, Auskunft vom 25. Juli 2014, S. 3 und 15).", "Schweizerische Flüchtlingshilfe/A. Schuster"),
        ("Das gelingt meist mit der Hilfe von Verwandten (Danish Immigration Service, a. a. O., S. 84).",
         "Danish Immigration Service"),
    ],
)
def test_version_12_keeps_the_forms_the_federal_courts_write(text: str, zone: str) -> None:
    assert zone in [text[z.start : z.end] for z in keep_zones(text, version=12)]


@pytest.mark.parametrize(
    "text",
    [
        "Der Sachverständige kam zu einem anderen Ergebnis (Dr. Huber, Gutachten vom 3. Mai 2021, S. 4).",
        "Das Gutachten stützt das nicht (Huber, Gutachten vom 3. Mai 2021, S. 4).",
        "Die Zeugin hat das bestätigt (Zeugin Anna Maier, Vernehmung 2021, S. 4).",
        "Die Klägerin sei nicht erschienen (Huber, Schreiben der Klägerin vom 3. Mai 2021, S. 2).",
        "Die Arbeiten seien teurer geworden (Huber Bau GmbH, Kostenvoranschlag 2021, S. 2).",
        "Der Preis stand fest (Mayer, Angebot vom 3. Mai 2021, S. 2).",
        "Das Fahrzeug mit dem Kennzeichen ZE B-1234 stand vor dem Haus.",
    ],
)
def test_version_12_keeps_no_document_of_the_file_nor_a_plate(text: str) -> None:
    """An expert's, a witness's, a party's or a firm's document of the proceedings, cited with
    its page, names whom the profiles neutralize; a licence plate is no central order."""
    assert keep_zones(text, version=12) == keep_zones(text, version=11)


def _case_numbers(text: str, version: int) -> list[str]:
    return [text[z.start : z.end] for z in keep_zones(text, version=version) if z.label == "CASE_REFERENCE"]


@pytest.mark.parametrize(
    "text, number",
    [
        ("Den Widerspruch wies das Jobcenter mit Widerspruchsbescheid vom 14. August 2023 (Az. W 2291/23) zurück.",
         "W 2291/23"),
        ("Mit Bescheid vom 5. Oktober 2022, Az. U 21/5530172-B, lehnte die Unfallkasse die Anerkennung ab.",
         "U 21/5530172-B"),
        ("Die Gemeinde antwortete mit Schreiben vom 03.02.2023 (Az. BV 31/2022), ein Bauantrag sei nötig.",
         "BV 31/2022"),
        ("Mit Bescheid vom 7. März 2023 (Az. 4 17 203 311 8) lehnte die Berufsgenossenschaft ab.", "4 17 203 311 8"),
    ],
)  # fmt: skip
def test_version_13_leaves_an_authoritys_number_after_its_act_and_date_to_the_recognizers(text: str, number: str) -> None:
    """An authority's file number written like a court's ("W 2291/23" as a Würzburg chamber's)
    is no case number where the authority's act and its date name it; version 12 kept it, so
    the permit recognizer's span was dropped."""
    assert not any(number.startswith(z[4:]) or z[4:] in number for z in _case_numbers(text, 13))
    assert any(z.startswith("Az.") for z in _case_numbers(text, 12))
    from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
    from deid.anonymizer.chain import Chain, step
    from deid.anonymizer.recognizers.permit_number import PermitNumberRecognizerV8

    spans = PermitNumberRecognizerV8().analyze(text)
    assert [text[s.start : s.end] for s in spans] == [number]
    assert Chain([step("keep_zones", 13)])(text, spans) == spans
    assert Chain([step("keep_zones", 12)])(text, spans) == []


@pytest.mark.parametrize(
    "text, number",
    [
        # a court's decision and its number; the court's own letter; a prosecutor's file
        ("Das Sozialgericht wies die Klage mit Gerichtsbescheid vom 2. Mai 2023 (Az. S 12 U 118/22) ab.", "S 12 U 118/22"),
        ("Das Verwaltungsgericht wies die Klage mit Urteil vom 3. Mai 2022 (Az. W 6 K 21.1234) ab.", "W 6 K 21.1234"),
        ("Mit gerichtlichem Schreiben vom 4. Mai 2022 (Az. M 5 K 21.4471) wurden die Beteiligten angehört.",
         "M 5 K 21.4471"),
        ("Das Verfahren der Staatsanwaltschaft (Az. 52 Js 12345/21) wurde eingestellt.", "52 Js 12345/21"),
    ],
)  # fmt: skip
def test_version_13_keeps_a_courts_number(text: str, number: str) -> None:
    assert [z for z in _case_numbers(text, 13) if number in z] != []
    assert _case_numbers(text, 13) == _case_numbers(text, 12)


@pytest.mark.parametrize(
    "text, name",
    [
        ("(vgl. EuGH 5. Juni 2018 - C-677/16 - [Montero Mateos] Rn. 57)", "Montero Mateos"),
        ("So hat es der Gerichtshof entschieden (EuGH 14. Dezember 2023 – C-456/22 – [Gemeinde Ummendorf] Rn. 19).",
         "Gemeinde Ummendorf"),
        ("(EuGH 22. April 2010 - C-486/08 - [Zentralbetriebsrat der Landeskrankenhäuser Tirols] Rn. 32)",
         "Zentralbetriebsrat der Landeskrankenhäuser Tirols"),
    ],
)  # fmt: skip
def test_version_14_keeps_a_european_cases_name_in_brackets(text: str, name: str) -> None:
    """The Federal Labour Court cites the Court of Justice's cases with their names in brackets
    after the number (147 times in the bundled training and validation decisions); the court
    publishes them, as the comma form of version 5."""
    start = text.index(name)
    assert any(z.start < start and start + len(name) < z.end for z in keep_zones(text, version=14))
    assert not any(z.start <= start < z.end for z in keep_zones(text, version=13))


@pytest.mark.parametrize(
    "text",
    [
        "Die Lieferung an die Schreinerei Huber, C-Straße 4/12, erfolgte am 3. Mai.",
        "Im Bauteil C-12/22 [Nordflügel] wohnt die Klägerin seit 2019.",
        "Der Beklagte berief sich auf die Regelung 14/5 des Mietvertrags [Anlage K 3].",
    ],
)
def test_version_14_keeps_no_other_brackets(text: str) -> None:
    assert keep_zones(text, version=14) == keep_zones(text, version=13)


@pytest.mark.parametrize(
    "text, zone",
    [
        ("Erstattungsfähig sind die Verfahrensgebühr nach Nr. 3100 VV RVG und die Pauschale nach Nr. 7002 VV RVG.",
         "Nr. 3100 VV RVG"),
        ("Für das Setzen des Implantats (Nr. 9010 GOZ) verlangte die Praxis den 3,5-fachen Satz.", "Nr. 9010 GOZ"),
        ("Die Gebühr nach Nr. 1210 KV GKG ermäßigt sich auf eine Gebühr.", "Nr. 1210 KV GKG"),
        ("Angefallen sind die Gebühren nach Nrn. 3100, 3104 VV RVG.", "Nrn. 3100, 3104 VV RVG"),
        ("Die Hausärztin rechnete die Beratung nach Nr. 1 GOÄ ab.", "Nr. 1 GOÄ"),
    ],
)  # fmt: skip
def test_version_14_keeps_a_fee_schedules_positions(text: str, zone: str) -> None:
    """A position of the lawyers', the courts' or the doctors' fee schedule is part of a law; the
    model read a dentist's fee number as an identifier (batches 88 to 91)."""
    assert (zone, "LAW") in [(text[z.start : z.end], z.label) for z in keep_zones(text, version=14)]
    assert zone not in [text[z.start : z.end] for z in keep_zones(text, version=13)]


@pytest.mark.parametrize(
    "text",
    [
        "Der Kläger zahlte die Rechnung Nr. 3100 vom 4. Mai 2023 nicht.",
        "Die Abrechnung nach dem RVG (Rechnung Nr. 2023-118) blieb offen.",
    ],
)
def test_version_14_keeps_no_other_number(text: str) -> None:
    assert keep_zones(text, version=14) == keep_zones(text, version=13)


def test_version_14_judges_a_recognized_seat_by_every_zone() -> None:
    """The seat recognizer reads a town after an authority's word, also in a European case's
    name; up to version 13 every seat was left to the profile as if it were a court's."""
    from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
    from deid.anonymizer.chain import Chain, step
    from deid.anonymizer.recognizers.seat_name import SeatNameRecognizer
    from deid.schema import MODEL_SOURCE, SEAT, Span

    text = "So hat es der Gerichtshof entschieden (EuGH 14. Dezember 2023 – C-456/22 – [Gemeinde Ummendorf] Rn. 19)."
    spans = SeatNameRecognizer().analyze(text)
    assert [(text[s.start : s.end], s.label) for s in spans] == [("Ummendorf", SEAT)]
    assert Chain([step("keep_zones", 14)])(text, spans) == []
    assert Chain([step("keep_zones", 13)])(text, spans) == spans
    # a seat in a court's name stays the profile's: "Amtsgericht Erding" as the model reads it
    court = "Das Amtsgericht Erding (Az. 2 C 118/23) wies die Klage ab."
    seat = Span(court.index("Erding"), court.index("Erding") + 6, SEAT, 0.9, MODEL_SOURCE)
    assert Chain([step("keep_zones", 14)])(court, [seat]) == [seat]
    assert Chain([step("keep_zones", 14)])(court, [Span(seat.start, seat.end, SEAT, 0.8, "seat_name")]) == []
