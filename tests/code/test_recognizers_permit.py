"""Authority file and permit numbers: labelled ids fire, court file numbers never do."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers import permit_number
from deid.anonymizer.recognizers.permit_number import (
    PermitNumberRecognizer,
    PermitNumberRecognizerV2,
    PermitNumberRecognizerV3,
    PermitNumberRecognizerV4,
    PermitNumberRecognizerV5,
    PermitNumberRecognizerV6,
    PermitNumberRecognizerV7,
)


@pytest.mark.parametrize(
    "marked",
    [
        "Bescheid des Landratsamts vom 3.4.2020, Az. [[602-1.2-2012-3304-23]]",
        "Baugenehmigung vom 15. Dezember 2008 (Az.: [[B-2008/1234]])",
        "Genehmigungsnummer [[GEN-2019-00123]]",
        "Erlaubnis-Nr. [[12/345-678]]",
        "unter der Führerscheinnummer [[95917]] ausgehändigt",
        "Personalausweisnummer: [[L01X00T47]]",
        "Baugenehmigung Nr. [[2019-0815]] vom",
        "Aktenzeichen der Behörde: [[32.1-4567/19]]",
        "Az. des Landratsamts Rosenheim [[SG 31-1234/2020]]",
        # negatives: court file numbers, section numbers, dates, anonymized values
        "Bescheid vom 15. Februar 2019; VG München, Az. 1 F 260/23",
        "Widerspruchsbescheid; Az. BVerwG 3 B 6.24",
        "Bescheid; LAG Az. 14 Sa 631/22",
        "Bescheid; BGH, Az. IX ZR 12/18",
        "Bescheid (vgl. BAG 25. Januar 2023 – 4 AZR 171/22 – Rn. 11)",
        "Bescheid; Az.: 5 K 3125/23.F",
        "Az. 602-1.2-2012-3304-23",  # no authority word nearby
        "Nach Nr. 2.4.3 der Verwaltungsvorschrift (Widerspruchsbescheid)",
        "Bescheid Nr. 1 und 2",
        "Bescheid vom 15.02.2019, Az. 15.02.2019",
        "Bescheid des Landratsamts (Az.: …)",
        "unter Nr. 2022/S 069-123456 im Amtsblatt",
    ],
)
def test_permit_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizer(), marked, "PERMIT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        # version 1's table holds for version 2
        "Bescheid des Landratsamts vom 3.4.2020, Az. [[602-1.2-2012-3304-23]]",
        "Baugenehmigung Nr. [[2019-0815]] vom",
        "Bescheid; LAG Az. 14 Sa 631/22",
        # the labels version 1 missed (forms of the bundled and training decisions)
        "legte der Kläger „Klage gegen den Bescheid mit Zeichen [[32-1411/2019]]“ ein",
        "um die Einziehung des Führerscheins mit der Listennummer [[1877/88]] gebeten",
        "Aufhebungs- und Erstattungsbescheid vom 24. Juli 2014 zum Zeichen [[04902 BG0003674]] in Höhe von 535,32 Euro",
        "Einspruchsentscheidung des Finanzamts (Rechtsbehelfslistennummer: [[12345/09]])",
        "den Einheitswertbescheid des Finanzamts (EW-Nummer [[203/123/4567]])",
        "Mit Versetzungsverfügung Nr. [[1234]] vom 5. Dezember 2016 versetzte das Bundesamt den Antragsteller",
        # negatives: traffic signs, short numbers, words that merely end like a label
        "die Verkehrsverbote mittels der Zeichen 270.1 und 270.2 in Verbindung mit dem Bescheid",
        "ein Zusatzzeichen zum Zeichen 251 der Anlage zur StVO (Bescheid)",
        "Allgemeinverfügung Nr. 3 der Stadt",
        "die Interview-Nummer 12345 des Fragebogens",
    ],
)
def test_permit_v2_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizerV2(), marked, "PERMIT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        # version 2's table holds for version 3
        "Baugenehmigung Nr. [[2019-0815]] vom",
        "um die Einziehung des Führerscheins mit der Listennummer [[1877/88]] gebeten",
        "Bescheid; LAG Az. 14 Sa 631/22",
        "Allgemeinverfügung Nr. 3 der Stadt",
        # an identity document's or a licence's number with "Nr." apart from its name
        "Der Angeklagte legte den Personalausweis Nr. [[L01X00T47]] vor.",
        "Der Kläger ist Inhaber der Fahrerlaubnis Nr. [[B072XK8N351]] der Klassen B und BE.",
        "Inhaber der Waffenbesitzkarte Nr. [[123/2010]] und des Jagdscheins Nr. [[JS-0815/19]]",
        "die Niederlassungserlaubnis Nr. [[Y47K0815]] wurde widerrufen",
        # a pet's chip, a tender's number, a "Geschäftszahl"
        "Der Hund ist unter der Chipnummer [[276098106789123]] registriert.",
        "Die Beklagte vergab den Auftrag unter der Vergabenummer [[VgV-2019-044]].",
        "Die Gemeinde erteilte unter der Geschäftszahl [[602-2019/115]] das Einvernehmen.",
        "Der Antragsteller ist unter der AZR-Nummer [[123456789012]] im Ausländerzentralregister erfasst.",
        # negatives: a document named without a number, short numbers, the law's own numbering
        "Der Personalausweis Nr. 3 der Anlage",
        "Die Fahrerlaubnis der Klasse B wurde entzogen (§ 3 Abs. 1 Nr. 2 StVG).",
        "der Reisepass (Nr. 12 der Verwaltungsvorschrift)",
    ],
)
def test_permit_v3_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizerV3(), marked, "PERMIT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        "Personalausweis Nr. [[L01X00T47]]",
        # a decision's number after its date (probes written like Bavarian decisions)
        "Der Bescheid vom 3. Mai 2022, Nr. [[32-6160-2022-123]], wurde am 5. Mai 2022 zugestellt.",
        "Das Landratsamt erteilte die wasserrechtliche Erlaubnis vom 1. Juli 2015, Nr. [[6432.1-2015/12]].",
        "Der Widerspruchsbescheid vom 04.05.2020 (Az. [[RvS-4711/20]]) wurde zugestellt.",
        # a fine office's file number
        "Die Verwarnung wurde unter dem Aktenzeichen [[8.2-1234567]] der Zentralen Bußgeldstelle geführt.",
        # negatives: a court's case number after a judgment, a section of a decision
        "Mit Urteil vom 3. Mai 2022, Az. 1 K 22.123, wies das Verwaltungsgericht die Klage ab.",
        "Die Verfügung vom 3. Mai 2022, Az. M 8 K 21.1234 des Gerichts.",
        "Die Anordnung vom 3. Mai 2022, Nr. 2.1, ist rechtswidrig.",
    ],
)
def test_permit_v4_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizerV4(), marked, "PERMIT_NUMBER")


def test_version_3_keeps_its_meaning() -> None:
    for text in ("Der Bescheid vom 3. Mai 2022, Nr. 32-6160-2022-123.", "Aktenzeichen 8.2-1234567 der Bußgeldstelle."):
        assert PermitNumberRecognizerV3().analyze(text) == []


def test_version_2_keeps_its_meaning() -> None:
    assert PermitNumberRecognizerV2().analyze("Personalausweis Nr. L01X00T47, Chipnummer 276098106789123") == []


@pytest.mark.parametrize(
    ("key", "initial"),
    [
        (permit_number._PERMIT_KEY, permit_number._PERMIT_INITIAL),
        (permit_number._PERMIT_KEY_V2, permit_number._PERMIT_INITIAL),
        (permit_number._PERMIT_KEY_V3, permit_number._PERMIT_INITIAL_V3),
    ],
)
def test_the_initial_letter_test_lets_every_permit_label_through(key: str, initial: str) -> None:
    """The initial-letter test only skips positions faster: every label word of every version,
    in any case, still matches after it."""
    import re

    inner = key.split(")(?:-?nummer")[0].removeprefix("(?:")
    tail = key.split("-?nr\\.?)")[1:]  # words that are labels by themselves ("geschäftszahl")
    words = [re.sub(r"\(\?<!.*?\)", "", alt).replace("-?", "").strip("()") for alt in inner.split("|")]
    words += [w for part in tail for w in part.split("|") if w]
    assert len(words) >= 15
    initial = re.compile(initial)
    for word in words:
        for form in (word, word.capitalize(), word.upper()):
            assert initial.match(form), form


@pytest.mark.parametrize(
    "marked",
    [
        ("Sie verweist darauf, dass der Gaststätte eine gleich große Fläche erlaubt worden sei "
         "(Sondernutzungserlaubnis Nr. [[SN-2021-038]])."),
        "Die Stadt erteilte ihm am 3. April 2017 die Gaststättenerlaubnis (Erlaubnisurkunde Nr. [[GE 17/0412]]).",
        "Die Beklagte lehnte die Anerkennung als Arbeitsunfall mit Bescheid vom 6. Juni 2023 (Az. [[5 23 118 904 7]]) ab.",
        # negatives: a court's number holds letters; a short group of digits; a section's number
        "Urteil des Amtsgerichts Vilshofen vom 3. März 2016, Az. 2 Ds 114 Js 3312/15.",
        "Der Widerspruchsbescheid des Landratsamts vom 12.03.2021 (Az. 4 2 1) ist bestandskräftig.",
        "Nach Nr. 3 der Sondernutzungssatzung ist das nicht zulässig.",
    ],
)  # fmt: skip
def test_permit_v5_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizerV5(), marked, "PERMIT_NUMBER")


def test_version_4_keeps_its_meaning_for_v5s_labels() -> None:
    text = "(Sondernutzungserlaubnis Nr. SN-2021-038) und Bescheid vom 6. Juni 2023 (Az. 5 23 118 904 7)"
    assert PermitNumberRecognizerV4().analyze(text) == []


def test_recognizers_11_runs_the_new_versions_in_place_of_the_old() -> None:
    from deid.anonymizer.recognizers import RECOGNIZER_SETS

    new = {"permit_number.v5", "handle.v3", "contract_number.v8", "clinic_name.v3", "firm_name.v3"}
    old = {"permit_number.v4", "handle.v2", "contract_number.v7", "clinic_name.v2", "firm_name.v2"}
    assert {f"deid.recognizers.{n}" for n in new} <= set(RECOGNIZER_SETS[11])
    assert not {f"deid.recognizers.{n}" for n in old} & set(RECOGNIZER_SETS[11])
    assert not {f"deid.recognizers.{n}" for n in new} & set(RECOGNIZER_SETS[10])  # 10 keeps its meaning


@pytest.mark.parametrize(
    "marked",
    [
        ("Die Beklagte, die Berufsgenossenschaft, lehnte die Anerkennung als Arbeitsunfall ab "
         "(Az. [[UV-2022-018374-RB]]), weil das Tanken eine eigenwirtschaftliche Tätigkeit sei."),
        "Mit Antrag vom 9. Januar 2023 (Az. der Beklagten [[32-1441/23-Or]]) begehrte die Klägerin die Erlaubnis.",
        "Die Stadt wies ihn mit Bescheid vom 21. Juni 2023 (Az. [[III/32-Kr 118]]) aus.",
        "Die Stadt verlängerte mit Bescheid vom 3. August 2022 (Gz. [[32/131-Ga 17/22]]) die Sperrzeit.",
        "Der Kläger ließ den Beklagten abmahnen (Schreiben vom 2. Mai 2023, Zeichen [[St-0412/23]]).",
        "Sein Jagdschein (Nr. [[97/1994]]) lief am 31. März 2023 ab.",
        "Er ist Inhaber einer Reisegewerbekarte der Stadt Vilsbiburg (Nr. [[RG 14/2019]]) und wohnt in Geisenhausen.",
        "Der Verein stellte ihm einen Erlaubnisschein aus, zuletzt am 3. Januar 2023 (Nr. [[FV-IE 2023/114]]).",
        "Grundlage war der Heil- und Kostenplan Nr. [[HKP-21-0388]] vom 4. Februar 2021.",
        "Die Bewerbung um einen Standplatz (Bewerbungsnummer [[CKM-23-0094]]) lehnte die Stadt ab.",
        "Die Gewerbeanmeldung bei der Stadt trägt die Nummer [[GA-2019-0733]].",
        "Das Bundesamt lehnte mit Bescheid vom 7. März 2023 (Gesch.-Z. [[8839214-224]]) den Antrag ab.",
        "Mit Verfügung vom 21. Juli 2023 (Az. [[II.5-5 P 8123.2-2023/118]]) versetzte die Regierung sie.",
        "Das Landratsamt lehnte ein Einschreiten mit Schreiben vom 20. September 2022 (Az. [[SG 31-824/22-Ha]]) ab.",
        # negatives: a court's number; digits alone without an authority's word; a development
        # plan's number, which stays in clear; a section's number after a certificate
        "Das Amtsgericht verurteilte ihn mit Strafbefehl (Az. 2 Cs 41 Js 8812/22) zu einer Geldstrafe.",
        "Az. 602-1.2-2012-3304-23",
        "Das Grundstück liegt im Geltungsbereich des Bebauungsplans Nr. 14/2019 der Gemeinde.",
        "Der Jagdschein ist nach § 17 Abs. 1 Nr. 2 BJagdG zu versagen.",
        "Bescheid vom 3.4.2020; VG München, Urteil vom 5. Mai 2021 (Az. M 12 K 21.1234)",
        "Das Arzneimittel ist zugelassen unter der Nummer EU/1/07/436/001.",
        "Die Randnummer 12 der Entscheidung trägt die Nummer 3.",
    ],
)  # fmt: skip
def test_permit_v6_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizerV6(), marked, "PERMIT_NUMBER")


def test_version_5_keeps_its_meaning_for_v6s_forms() -> None:
    text = "ab (Az. UV-2022-018374-RB), weil. Sein Jagdschein (Nr. 97/1994) lief ab."
    assert PermitNumberRecognizerV5().analyze(text) == []


def test_recognizers_16_runs_permit_number_v6_and_street_name_v4_in_place_of_the_old() -> None:
    from deid.anonymizer.recognizers import RECOGNIZER_SETS

    new = {"deid.recognizers.permit_number.v6", "deid.recognizers.street_name.v4"}
    old = {"deid.recognizers.permit_number.v5", "deid.recognizers.street_name.v3"}
    assert new <= set(RECOGNIZER_SETS[16]) and not old & set(RECOGNIZER_SETS[16])
    assert not new & set(RECOGNIZER_SETS[15])  # 15 keeps its meaning


@pytest.mark.parametrize(
    "marked",
    [
        "Die beklagte Berufsgenossenschaft lehnte die Anerkennung ab (Unfallaktenzeichen [[2022 118 640 7]]), weil der Kläger gestürzt sei.",
        "Die Versicherung führte den Schaden unter dem Schadensaktenzeichen [[KH-2023-004417]].",
        "Die Unfallkasse lehnte die Anerkennung als Arbeitsunfall ab (Az. [[5 23 118 904 7]]).",
        "Die Familienkasse hob die Festsetzung des Kindergeldes auf (Az. [[F 118/23-Kg]]).",
        # negatives: a court's number after any file word; digit groups too short for an authority's
        "Das Gerichtsaktenzeichen 2 Cs 41 Js 8812/22 ist im Rubrum genannt.",
        "Die Berufsgenossenschaft verwies auf das Urteil (Az. 3 U 17/22) des Oberlandesgerichts.",
        "Die Unfallkasse lehnte ab (Az. 3 12 4).",
    ],
)  # fmt: skip
def test_permit_v7_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizerV7(), marked, "PERMIT_NUMBER")


def test_version_6_keeps_its_meaning_for_v7s_forms() -> None:
    text = "Sie lehnte ab (Unfallaktenzeichen 2022 118 640 7). Die Unfallkasse lehnte ab (Az. 5 23 118 904 7)."
    assert PermitNumberRecognizerV6().analyze(text) == []


def test_recognizers_18_runs_the_new_versions_in_place_of_the_old() -> None:
    from deid.anonymizer.recognizers import RECOGNIZER_SETS

    new = {f"deid.recognizers.{n}" for n in ("permit_number.v7", "clinic_name.v4", "venue_name.v5", "street_name.v5")}
    old = {f"deid.recognizers.{n}" for n in ("permit_number.v6", "clinic_name.v3", "venue_name.v4", "street_name.v4")}
    assert new <= set(RECOGNIZER_SETS[18]) and not old & set(RECOGNIZER_SETS[18])
    assert not new & set(RECOGNIZER_SETS[17])  # 17 keeps its meaning


@pytest.mark.parametrize(
    "marked",
    [
        "Er ist Inhaber der Waffenbesitzkarten Nr. [[44/2011]] und [[12/2016]], ausgestellt vom Landratsamt.",
        "Das Landratsamt widerrief seine Waffenbesitzkarten (Nr. [[1/2008]] und Nr. [[44/2015]]).",
        "Die Bescheide des Landratsamts (Az. [[41-6240/2021]], [[41-6241/2021]] sowie [[41-6242/2021]]) sind bestandskräftig.",
        # negatives: a number of another shape after it (a court's, a date)
        "Mit Bescheid vom 3. Mai 2021 (Az. [[41-6240/2021]]) und Urteil vom 2. Mai 2022 (2 K 21.1234) entschieden.",
        "Der Bescheid Nr. [[12/2019]] und 14.03.2020 sind genannt.",
    ],
)  # fmt: skip
def test_permit_v8_table(marked: str) -> None:
    from deid.anonymizer.recognizers.permit_number import PermitNumberRecognizerV8

    check_table_row(PermitNumberRecognizerV8(), marked, "PERMIT_NUMBER")


def test_version_7_keeps_its_meaning_for_a_list() -> None:
    text = "Er ist Inhaber der Waffenbesitzkarten Nr. 44/2011 und 12/2016."
    assert [text[s.start : s.end] for s in PermitNumberRecognizerV7().analyze(text)] == ["44/2011"]


def test_recognizers_20_runs_the_new_versions_in_place_of_the_old() -> None:
    from deid.anonymizer.recognizers import RECOGNIZER_SETS

    names = ("street_name.v{}", "street_address.v{}", "contract_number.v{}", "permit_number.v{}")
    new = {f"deid.recognizers.{n}".format(v) for n, v in zip(names, (7, 9, 11, 8))}
    old = {f"deid.recognizers.{n}".format(v) for n, v in zip(names, (6, 8, 10, 7))}
    assert new <= set(RECOGNIZER_SETS[20]) and not old & set(RECOGNIZER_SETS[20])
    assert not new & set(RECOGNIZER_SETS[19])  # 19 keeps its meaning
