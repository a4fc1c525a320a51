"""A police officer's name after the rank (the policy neutralizes officers acting as witnesses)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.officer_name import OfficerNameRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        # a surname that is also a noun ("Gerstl") is a name after the rank
        "Die Messung führte der Zeuge PHM [[Gerstl]] von der Polizeiinspektion Geisenfeld durch.",
        "Gegenüber dem Polizeibeamten POM [[Kagerer]] räumte der Antragsteller ein, Cannabis konsumiert zu haben.",
        "Nach der Aussage der POMin [[Anna Wendl]] war der Angeklagte betrunken.",
        "Kriminalhauptkommissar [[Wendl]] und Erster Polizeihauptkommissar [[Brunner]] sagten aus.",
        "Der Polizeiobermeister z. A. [[Huber]] nahm die Anzeige auf.",
        # the sentence after the name, and abbreviations that name other things, are no officer
        "Der Zeuge PHM [[Gerstl]] Anzeige erstattete erst später.",
        "Der KM Stand betrug 12.000; PM Nr. 12 der Polizei; die KK Beiträge.",
    ],
)
def test_officer_name_table(marked: str) -> None:
    check_table_row(OfficerNameRecognizer(), marked, "OFFICER_NAME")


def test_the_recognizer_joins_the_set_in_version_8() -> None:
    assert "deid.recognizers.officer_name.v1" in RECOGNIZER_SETS[8]
    assert "deid.recognizers.officer_name.v1" not in RECOGNIZER_SETS[7]
