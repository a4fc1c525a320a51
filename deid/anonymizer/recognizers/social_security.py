"""German pension insurance number (Rentenversicherungs-/Sozialversicherungsnummer).

python-stdnum has no module for it, so the check digit of § 2 Abs. 6 VKVV is computed here:
the letter becomes its two-digit alphabet position, the twelve digits are weighted
2,1,2,5,7,1,2,1,2,1,2,1, the digit sums of the products are added, modulo 10.
"""

from __future__ import annotations

import re

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_WEIGHTS = (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1)
_SHAPE = re.compile(r"\d{8}[A-Z]\d{3}")


def rvnr_check_digit(body: str) -> int:
    """Check digit for the first eleven characters (8 digits, letter, 2 digits)."""
    digits = body[:8] + f"{ord(body[8]) - ord('A') + 1:02d}" + body[9:11]
    return sum(sum(divmod(int(d) * w, 10)) for d, w in zip(digits, _WEIGHTS)) % 10


def is_valid_rvnr(number: str) -> bool:
    """Shape (area, birth date, letter, serial, check digit) and check digit.

    The birth date part is not checked: numbers for unknown birth dates use other values.
    """
    compact = re.sub(r"\s", "", number).upper()
    if _SHAPE.fullmatch(compact) is None:
        return False
    return rvnr_check_digit(compact) == int(compact[11])


class SocialSecurityRecognizer(PatternRecognizer):
    """``12 150385 M 123``; its shape is distinctive, the check digit confirms it."""

    NAME = "social_security"
    LABEL = "SOCIAL_SECURITY_ID"
    PATTERNS = (Pattern("rvnr", r"(?<![\w])\d{2} ?\d{6} ?[A-Z] ?\d{2} ?\d(?![\w])", 0.45),)
    CONTEXT = (
        "versicherungsnummer", "rentenversicherungsnummer", "sozialversicherungsnummer",
        "sv-nummer", "sv-nr", "rv-nr", "rv-nummer", "rvnr", "svnr", "vsnr",
    )  # fmt: skip
    CONTEXT_WINDOW = 50
    CONTEXT_BOOST = 0.2
    VALIDATION_BOOST = 0.35

    def validate(self, hit: str) -> bool | None:
        return is_valid_rvnr(hit)
