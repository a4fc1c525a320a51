"""German tax identification number (Steuer-IdNr, 11 digits, ``86 095 742 719``)."""

from __future__ import annotations

from stdnum.de import idnr

from deid.anonymizer.recognizers.base import NUM_LEFT, NUM_RIGHT, Pattern, PatternRecognizer


class TaxIdRecognizer(PatternRecognizer):
    """Steuer-IdNr; stdnum checks the ISO 7064 digit and the digit-repetition rule.

    One in ten random 11-digit numbers passes the check digit, so without a context word
    the score stays moderate.
    """

    NAME = "tax_id"
    LABEL = "TAX_ID"
    PATTERNS = (
        Pattern("idnr", rf"{NUM_LEFT}[1-9]\d(?: ?\d{{3}}){{3}}{NUM_RIGHT}", 0.2),
        Pattern("idnr_slashed", rf"{NUM_LEFT}[1-9]\d/\d{{3}}/\d{{3}}/\d{{3}}{NUM_RIGHT}", 0.2),
    )
    CONTEXT = (
        "steuer-id", "steuerid", "steueridentifikationsnummer", "identifikationsnummer",
        "idnr", "id-nr", "steuer-identifikationsnummer", "tin", "tax id",
    )  # fmt: skip
    CONTEXT_WINDOW = 50
    CONTEXT_BOOST = 0.4
    VALIDATION_BOOST = 0.3

    def validate(self, hit: str) -> bool | None:
        return idnr.is_valid(hit)
