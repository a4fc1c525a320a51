"""Vehicle registration plates: German (``M-AB 1234``, ``B-XY 12E``, ``KA AB 123``) and
the district–digits–letters layout of other European countries (``CJ 07 RMT``).

Both forms need a context word such as ``Kennzeichen``: without one, the hyphenated form
matches journal and tariff abbreviations (``WuW/E DE-R 1621``, ``AS RP-SL 41``, ``TV-L 3``)
and the spaced form court file numbers (``VG M 6 S ...``).
"""

from __future__ import annotations

import re

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_DISTRICT = r"(?<![\w\-])[A-ZÄÖÜ]{1,3}"
# not followed by "<register> <number>": "VG M 6 S 19.1168" is a court file number
_REST = (
    r"[A-Z]{1,2}[ \u00a0]?[1-9]\d{0,3}[EH]?"
    r"(?![\w\-]|[.,/]\d|[ \u00a0][A-Z][A-Za-z]{0,3}[ \u00a0]?\d)"
)
# district, two or three digits, letters: not "B 12 KR 18/99" (a court file number goes on)
_FOREIGN = r"(?<![\w\-])[A-Z]{1,2}[ \u00a0\-]\d{2,3}[ \u00a0\-][A-Z]{2,3}(?![\w\-]|[ \u00a0]\d)"
_MAX_CHARS = 8  # letters and digits of a plate, without the E/H suffix


class LicensePlateRecognizer(PatternRecognizer):
    """Plate numbers; a plate has at most eight letters and digits."""

    NAME = "license_plate"
    LABEL = "LICENSE_PLATE"
    PATTERNS = (
        Pattern("plate_hyphen", rf"{_DISTRICT}-{_REST}", 0.4, needs_context=True),
        Pattern("plate_space", rf"{_DISTRICT}[ \u00a0]{_REST}", 0.35, needs_context=True),
        Pattern("plate_foreign", _FOREIGN, 0.35, needs_context=True),
    )
    CONTEXT = (
        "kennzeichen", "kfz", "nummernschild", "kennzeichenschild", "fahrzeug", "pkw", "lkw",
        "zugelassen", "zulassung", "halter", "motorrad", "kraftrad", "anhänger",
    )  # fmt: skip
    CONTEXT_WINDOW = 60
    CONTEXT_BOOST = 0.45
    # citations: "WuW/E DE-R 1621", "AS RP-SL 41", "Az. M 6 K ..."
    NEGATIVE_CONTEXT = ("wuw", "as ", "az.", "az ", "aktenzeichen", "vgl.")
    NEGATIVE_WINDOW = 8

    def validate(self, hit: str) -> bool | None:
        chars = re.sub(r"[^A-ZÄÖÜ0-9]", "", hit)
        if chars[-1] in "EH" and chars[-2].isdigit():
            chars = chars[:-1]
        if len(chars) > _MAX_CHARS:
            return False
        return None


class LicensePlateRecognizerV2(LicensePlateRecognizer):
    """Version 1, and the other kinds of vehicle as context: a lorry, a tractor, a camper van
    ("mit dem Sattelzug PAN-OL 218 auf der A 94", the from-scratch dev set)."""

    CONTEXT = (
        *LicensePlateRecognizer.CONTEXT, "sattelzug", "lastwagen", "lastkraftwagen", "transporter",
        "wohnmobil", "wohnwagen", "traktor", "schlepper", "omnibus", "auflieger", "kleinbus",
    )  # fmt: skip
