"""VAT identification numbers: German ``DE123456789`` alone, other EU countries by context."""

from __future__ import annotations

from stdnum.de import vat as de_vat
from stdnum.eu import vat as eu_vat

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_EU_PREFIXES = "AT|BE|BG|CY|CZ|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI"


class VatIdRecognizer(PatternRecognizer):
    """USt-IdNr; the check digit (stdnum) rejects one-digit-off numbers."""

    NAME = "vat_id"
    LABEL = "VAT_ID"
    PATTERNS = (
        Pattern("vat_de", r"(?<![A-Za-z0-9])DE ?\d{3} ?\d{3} ?\d{3}(?![\w]|[.,/\-]\d)", 0.45),
        Pattern(
            "vat_eu",
            rf"(?<![A-Za-z0-9])(?:{_EU_PREFIXES}) ?[0-9A-Z]{{8,12}}(?![\w])",
            0.3,
            needs_context=True,
        ),
    )
    CONTEXT = (
        "ust-id", "ust.-id", "ustid", "ust-idnr", "umsatzsteuer-id", "umsatzsteueridentifikations",
        "umsatzsteuer-identifikations", "vat", "uid", "mwst",
    )  # fmt: skip
    CONTEXT_WINDOW = 40
    CONTEXT_BOOST = 0.15
    VALIDATION_BOOST = 0.4

    def validate(self, hit: str) -> bool | None:
        if hit.startswith("DE"):
            return de_vat.is_valid(hit)
        return eu_vat.is_valid(hit)
