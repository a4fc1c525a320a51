"""Dates of birth by their cue words; plain dates and statutory cut-off dates never fire."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.date_of_birth import DateOfBirthRecognizer, DateOfBirthRecognizerV2


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
