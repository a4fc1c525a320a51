"""BIC/SWIFT codes: eight or eleven capitals look like many acronyms, so context is required."""

from __future__ import annotations

from stdnum import bic

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer


class BicRecognizer(PatternRecognizer):
    """BIC next to the words BIC/SWIFT; stdnum checks the structure and country code."""

    NAME = "bic"
    LABEL = "BIC"
    PATTERNS = (
        Pattern(
            "bic",
            r"(?<![A-Za-z0-9])[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?(?![A-Za-z0-9])",
            0.5,
            needs_context=True,
        ),
    )
    CONTEXT = ("bic", "swift")
    CONTEXT_WINDOW = 25
    CONTEXT_BOOST = 0.25
    VALIDATION_BOOST = 0.15

    def validate(self, hit: str) -> bool | None:
        return bic.is_valid(hit)
