"""German Steuernummer (``181/815/08155``, ``93815/08152``, 13-digit federal form).

The Steuernummer has no check digit and its regional formats look like many other numbers,
so it fires only after a context word such as ``Steuernummer`` or ``St.-Nr.``.
"""

from __future__ import annotations

from stdnum.de import stnr

from deid.anonymizer.recognizers.base import NUM_LEFT, NUM_RIGHT, Pattern, PatternRecognizer


class TaxNumberRecognizer(PatternRecognizer):
    """Steuernummer by context; stdnum checks the regional/federal layouts."""

    NAME = "tax_number"
    LABEL = "TAX_ID"
    PATTERNS = (
        Pattern(
            "stnr_regional",
            rf"{NUM_LEFT}\d{{2,5}}[/ ]\d{{3,5}}(?:[/ ]\d{{4,5}})?{NUM_RIGHT}",
            0.5,
            needs_context=True,
        ),
        Pattern("stnr_compact", rf"{NUM_LEFT}\d{{10,13}}{NUM_RIGHT}", 0.5, needs_context=True),
    )
    CONTEXT = ("steuernummer", "steuer-nr", "steuer-nummer", "st.-nr", "st-nr", "stnr", "st.nr")
    CONTEXT_WINDOW = 30
    CONTEXT_BOOST = 0.3
    VALIDATION_BOOST = 0.15

    def validate(self, hit: str) -> bool | None:
        return stnr.is_valid(hit)
