"""The kin_name recognizer: a relative's first name after the kinship word
(deid.anonymizer.recognizers.kin_name)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.kin_name import KinNameRecognizer
from deid.schema import PERSON, coarse_label


@pytest.mark.parametrize(
    "marked",
    [
        "buchten eine Pauschalreise für sich und ihre Kinder [[Jonas]] und [[Emilia]] nach Side",
        "Die Kinder, [[Lea]], [[Jonas]] und [[Emil]], leben bei der Mutter.",
        "Der Kläger hat selbst vorgetragen, dass sein Sohn [[Michael]] das Haus bewohnen würde.",
        "ein Einfamilienhaus für seine Tochter [[Christina]] und deren Ehemann",
        # negatives: an ordinary word after the kinship word, a lowercase word
        "Die Kinder Sorge tragen zu lassen, war ihr Wunsch.",
        "Der Sohn Klein zu halten gelang nicht.",
        "Die Kinder wohnen bei der Mutter.",
    ],
)
def test_kin_name_table(marked: str) -> None:
    check_table_row(KinNameRecognizer(), marked, "KIN_NAME")


def test_a_relative_s_name_is_a_person_that_the_set_runs_from_version_10() -> None:
    assert coarse_label(KinNameRecognizer.LABEL) == PERSON
    assert "deid.recognizers.kin_name.v1" in RECOGNIZER_SETS[10]
    assert "deid.recognizers.kin_name.v1" not in RECOGNIZER_SETS[9]
