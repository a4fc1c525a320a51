"""Trademark register numbers (``30 2017 029 616``, ``DE 30 2017 029 616.7/09``).

Since 2000 DPMA file numbers of trademarks start with 30 or 39 and the year; that shape
fires alone. Older numbers (``395 12 345``), registration numbers (``1 234 567``) and EU
trademark numbers (``018 123 456``) are plain digit groups and need ``Marke`` nearby.
"""

from __future__ import annotations

from deid.recognizers.base import NUM_LEFT, NUM_RIGHT, Pattern, PatternRecognizer

_S = r"[ \u00a0]?"


class BrandNumberRecognizer(PatternRecognizer):
    """DPMA/EUIPO/WIPO trademark numbers; context (``Marke``, ``Register``) raises the score."""

    NAME = "brand_number"
    LABEL = "BRAND_NUMBER"
    PATTERNS = (
        Pattern(
            "dpma_file",
            rf"{NUM_LEFT}(?:DE{_S})?3[09]{_S}(?:19|20)\d{{2}}{_S}\d{{3}}{_S}\d{{3}}(?:\.\d)?(?:/\d{{2}})?{NUM_RIGHT}",
            0.5,
        ),
        Pattern(
            "dpma_old",
            rf"{NUM_LEFT}(?:DE{_S})?3\d{{2}} \d{{2}} \d{{3}}(?:\.\d)?(?:/\d{{2}})?{NUM_RIGHT}",
            0.4,
            needs_context=True,
        ),
        Pattern(
            "register_number",
            rf"{NUM_LEFT}(?:IR{_S})?\d{_S}\d{{3}}{_S}\d{{3}}{NUM_RIGHT}",
            0.4,
            needs_context=True,
        ),
        Pattern(
            "eutm",
            rf"{NUM_LEFT}(?:EM{_S}|UM{_S})?0\d{{2}}{_S}\d{{3}}{_S}\d{{3}}{NUM_RIGHT}",
            0.4,
            needs_context=True,
        ),
    )
    CONTEXT = (
        "marke", "wortmarke", "bildmarke", "wort-/bildmarke", "unionsmarke",
        "gemeinschaftsmarke", "ir-marke", "markenregister", "register", "registernummer",
        "eintragung", "widerspruchsmarke", "angegriffene marke",
    )  # fmt: skip
    CONTEXT_WINDOW = 40
    CONTEXT_BOOST = 0.4
