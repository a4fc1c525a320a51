"""Rentenversicherungsnummer: shape, context, and the VKVV check digit."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.social_security import (
    SocialSecurityRecognizer,
    is_valid_rvnr,
    rvnr_check_digit,
)


@pytest.mark.parametrize(
    "marked",
    [
        "Versicherungsnummer [[65 170839 J 003]]",
        "Rentenversicherungsnummer: [[65170839J003]]",
        "SV-Nr. [[12 150385 M 127]]",
        "die Nummer [[15070649C103]] wurde",  # valid without context, lower score
        # negatives: one digit off, lowercase, too short, a court file number
        "Versicherungsnummer 65 170839 J 004",
        "65 170839 j 003",
        "65 17083 J 003",
        "B 12 KR 18/99 R",
    ],
)
def test_social_security_table(marked: str) -> None:
    check_table_row(SocialSecurityRecognizer(), marked, "SOCIAL_SECURITY_ID")


@pytest.mark.parametrize(
    "valid, invalid",
    [
        ("65170839J003", "65170839J004"),
        ("12150385M127", "12150385M128"),
        ("15 070649 C 103", "15 070649 C 102"),
        ("65170839J003", "65170839K003"),  # the letter counts in the check digit
    ],
)
def test_rvnr_checksum(valid: str, invalid: str) -> None:
    assert is_valid_rvnr(valid) and not is_valid_rvnr(invalid)


def test_rvnr_check_digit_follows_vkvv() -> None:
    """§ 2 Abs. 6 VKVV: J=10; digits 6 5 1 7 0 8 3 9 1 0 0 0 weighted 2 1 2 5 7 1 2 1 2 1 2 1;
    digit sums 3+5+2+8+0+8+6+9+2+0+0+0 = 43; 43 mod 10 = 3."""
    assert rvnr_check_digit("65170839J00") == 3


def test_rvnr_scores() -> None:
    recognizer = SocialSecurityRecognizer()
    assert [s.score for s in recognizer.analyze("Versicherungsnummer 65170839J003")] == [1.0]
    assert [s.score for s in recognizer.analyze("Nummer 65170839J003")] == [0.8]
