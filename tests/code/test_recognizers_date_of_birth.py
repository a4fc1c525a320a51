"""Dates of birth by their cue words; plain dates and statutory cut-off dates never fire."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
from deid.anonymizer.recognizers.date_of_birth import (
    DateOfBirthRecognizer,
    DateOfBirthRecognizerV2,
    DateOfDeathRecognizer,
    DateOfDeathRecognizerV2,
    MarriageDateRecognizer,
    MarriageDateRecognizerV2,
)


@pytest.mark.parametrize(
    "marked",
    [
        "geboren am [[12. März 1985]] in Bonn",
        "Max Muster, geb. [[12.03.1985]]",
        "Max Muster (* [[12.03.1985]])",
        "Max Muster\n*[[12.3.85]]",
        "Geburtsdatum: [[01.02.1970]]",
        "Geb.-Datum [[1970-02-01]]",
        "Der am [[3. Oktober 1952]] geborene Kläger",
        "Der am [[16. 5. 1945]] geborene Kläger",
        "Der im [[Juli 1950]] geborene Kläger",
        "Der [[1982]] geborene Antragsteller",
        "die im Jahr [[2000]] geborene Zeugin",
        "er ist [[1975]] in Bonn geboren",
        # negatives
        "Urteil vom 12.03.1985",
        "am 12. März 1985 erließ das Landratsamt",
        "für vor dem 1. 7. 2015 geborene Kinder",
        "für nach dem 1. 1. 2015 geborene Kinder",
        "als vor dem 1. Juli 1949 geborenem Kind",
        "Gehalt x 1,118 - Jahrgang 1947 und älter",
        "Amtsgerichts * vom 27. Februar 2023",
        "geb. Müller",
        "im Iran geboren",
        "Er war 1982 bis 1990 geboren... worden",
    ],
)
def test_date_of_birth_table(marked: str) -> None:
    check_table_row(DateOfBirthRecognizer(), marked, "DATE_OF_BIRTH")


@pytest.mark.parametrize(
    "marked",
    [
        "er ist [[1975]] in Bonn geboren",
        # a place of birth of several words, or with its country (from-scratch dev set)
        "Der Angeklagte wurde am [[02.11.1991]] in Bacău (Rumänien) geboren.",
        "Die am [[3. Mai 1980]] in Bad Tölz geborene Klägerin",
        "Der Kläger wurde am [[14.03.1997]] in Kabul/Afghanistan geboren und reiste 2015 ein.",
        "der am [[7. Juli 1961]] in Neumarkt in der Oberpfalz geborene Beigeladene",
        # negatives, as in version 1
        "für vor dem 1. 7. 2015 in Bayern geborene Kinder",
        "am 12. März 1985 erließ das Landratsamt in Bad Tölz einen Bescheid",
        "im Iran geboren",
    ],
)
def test_date_of_birth_v2_table(marked: str) -> None:
    check_table_row(DateOfBirthRecognizerV2(), marked, "DATE_OF_BIRTH")


def test_version_1_keeps_its_meaning() -> None:
    assert DateOfBirthRecognizer().analyze("Der Angeklagte wurde am 02.11.1991 in Bacău (Rumänien) geboren.") == []


@pytest.mark.parametrize(
    "text, score",
    [("geboren am 12.03.1985", 0.85), ("im Juli 1950 geboren", 0.6), ("1982 geborene", 0.5)],
)
def test_date_of_birth_scores(text: str, score: float) -> None:
    assert [s.score for s in DateOfBirthRecognizer().analyze(text)] == [score]


def test_params_keep_birth_years_but_mark_birth_dates() -> None:
    """params.yaml follows the courts: a birth year alone stays, a birth date or month goes."""
    from deid.anonymizer.recognizers import build_recognizers
    from deid.training.settings import load_settings

    config = load_settings().pipeline.step("recognizers").config
    recognizers = build_recognizers({"min_score": config.min_score, "recognizers": dict(config.recognizers)})
    dob = next(r for r in recognizers if r.NAME == "date_of_birth")
    text = "Der 1982 geborene Kläger, geboren am 12.03.1985, und die im Juli 1950 geborene Zeugin"
    assert [text[s.start : s.end] for s in dob.analyze(text)] == ["12.03.1985", "Juli 1950"]


@pytest.mark.parametrize(
    "marked",
    [
        "im Grundbuch war Clara Poelker eingetragen. Diese verstarb am [[19.10.2022]]. Am 12.12.2022 erteilte",
        "Sie verstarb am [[17.08.2023]] in Waldkirchen.",
        "der am [[3. Mai 2021]] in Bad Tölz verstorbene Erblasser",
        "aus dem Erbfall nach dem am [[26. Juni 2006]] verstorbenen Erblasser",
        "Sterbedatum: [[04.02.2020]]",
        "Walter Huber († [[12.03.2019]])",
        # negatives: a plain date, a date before a cut-off word, a death without its date
        "Am 12.12.2022 erteilte das Nachlassgericht einen Erbschein.",
        "Sie starb nach dem 1. Mai 2020 an den Folgen des Unfalls.",
        "Der Erblasser ist verstorben; der Erbschein vom 3. Mai 2021 weist",
    ],
)
def test_date_of_death_table(marked: str) -> None:
    check_table_row(DateOfDeathRecognizer(), marked, "DATE_OF_DEATH")


@pytest.mark.parametrize(
    "marked",
    [
        "Die Eheleute heirateten am [[14. Juni 1985]] in Passau.",
        "Die Eheschließung am [[01.09.2001]] erfolgte vor dem Standesamt.",
        # negatives: a plain date; a marriage without its date
        "Die Beteiligten sind verheiratet; mit Schreiben vom 02.08.2020 beantragten sie",
        "Am 14. Juni 1985 zogen sie nach Passau.",
    ],
)
def test_marriage_date_table(marked: str) -> None:
    check_table_row(MarriageDateRecognizer(), marked, "DATE_OF_MARRIAGE")


@pytest.mark.parametrize("profile", ["strict", "federal"])
def test_a_date_of_death_is_neutralized_under_both_profiles(profile: str) -> None:
    """The policy's row: dates of birth, death and marriage are neutralized in both profiles,
    every other date is kept."""
    text = "Die Erblasserin verstarb am 19.10.2022. Am 12.12.2022 erteilte das Nachlassgericht einen Erbschein."
    pipe = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": profile})
    assert [(s.label, text[s.start : s.end]) for s in pipe.analyze(text)] == [("DATE_OF_DEATH", "19.10.2022")]


@pytest.mark.parametrize(
    "marked",
    [
        "Der Erblasser verstarb am [[19.10.2022]] in Passau.",
        # a sentence begun with the date, the verb after it
        "Am [[14.01.2023]] verstarb in Trostberg die Erblasserin Franziska Huber.",
        "Am [[3. Mai 2021]] starb der Vater des Klägers.",
        # negatives: another verb after the date
        "Am 14.01.2023 verhandelte das Gericht die Sache.",
        "Am 14.01.2023 verstärkte die Polizei die Streife.",
    ],
)
def test_date_of_death_v2_table(marked: str) -> None:
    check_table_row(DateOfDeathRecognizerV2(), marked, "DATE_OF_DEATH")


def test_date_of_death_version_1_keeps_its_meaning() -> None:
    assert DateOfDeathRecognizer().analyze("Am 14.01.2023 verstarb in Trostberg die Erblasserin.") == []



@pytest.mark.parametrize(
    "marked",
    [
        "Die Antragstellerin und der Antragsgegner haben am [[18.06.2014]] geheiratet.",
        "Die am [[3. Mai 2001]] vor dem Standesamt Taufkirchen geschlossene Ehe ist gescheitert.",
        "Sie haben am [[17.07.2004]] vor dem Standesamt Taufkirchen (Vils) die Ehe geschlossen.",
        # negatives: a contract, not a marriage; a date after the verb's noun with no cue
        "Am 12.03.2019 wurde der Mietvertrag geschlossen.",
        "Die Ehe wurde am 3. Mai 2019 rechtskräftig geschieden.",
    ],
)  # fmt: skip
def test_marriage_date_v2_table(marked: str) -> None:
    check_table_row(MarriageDateRecognizerV2(), marked, "DATE_OF_MARRIAGE")


def test_marriage_date_version_1_keeps_its_meaning() -> None:
    assert MarriageDateRecognizer().analyze("Die Beteiligten haben am 18.06.2014 geheiratet.") == []
