"""Telephone and fax numbers, German national (``0911 123456``) and international.

phonenumbers alone accepts almost any digit run for Germany (``04 07 2017`` parses as
valid), so the regexes do the filtering: a national number starts with the trunk ``0`` and
an area code of 2-5 digits, groups are separated by space, ``/`` or ``-`` (never ``.`` or
``,``, which make dates, money and section numbers), and a number glued together without any
separator needs a context word such as ``Tel.``.
"""

from __future__ import annotations

import re

import phonenumbers

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_SEP = r"(?:[ \u00a0]?[/\-–][ \u00a0]?|[ \u00a0])"
_GROUPS = rf"\d{{1,8}}(?:{_SEP}\d{{1,8}}){{0,5}}"
_LEFT = r"(?<![\w+.,/\-–])(?<!\d[ \u00a0])"  # not inside a longer digit sequence
_RIGHT = r"(?![\w\-–]|[.,/]\d)"
_MIN_DIGITS, _MAX_DIGITS = 6, 15


class PhoneRecognizer(PatternRecognizer):
    """Phone numbers, validated by phonenumbers for region DE (others by their ``+CC``)."""

    NAME = "phone"
    LABEL = "PHONE"
    PATTERNS = (
        Pattern(
            "phone_international",
            rf"{_LEFT}(?:\+|00)[1-9]\d{{0,2}}(?:[ \u00a0]?\(0\)[ \u00a0]?|{_SEP})?\(?\d{{1,5}}\)?(?:{_SEP}{_GROUPS})?{_RIGHT}",
            0.55,
        ),
        Pattern(
            "phone_national",
            rf"{_LEFT}(?:0[1-9]\d{{1,4}}|\(0[1-9]\d{{1,4}}\)){_SEP}\d{{2,8}}(?:{_SEP}\d{{1,8}}){{0,4}}{_RIGHT}",
            0.45,
        ),
        Pattern("phone_compact", rf"{_LEFT}0[1-9]\d{{5,12}}{_RIGHT}", 0.3, needs_context=True),
    )
    CONTEXT = (
        "tel", "telefon", "fax", "telefax", "mobil", "handy", "rufnummer", "durchwahl",
        "erreichbar", "anruf", "fon", "phone", "whatsapp",
    )  # fmt: skip
    CONTEXT_WINDOW = 30
    CONTEXT_BOOST = 0.3
    NEGATIVE_CONTEXT = (
        "isbn", "issn", "az.", "az ", "aktenzeichen", "rn.", "rdnr", "randnummer", "s.", "seite",
        "bl.", "blatt", "bgbl", "kassenzeichen", "zeichen", "abs.", "§", "€", "eur", "kto", "konto", "iban", "blz",
    )  # fmt: skip
    NEGATIVE_WINDOW = 12
    VALIDATION_BOOST = 0.15

    def validate(self, hit: str) -> bool | None:
        digits = re.sub(r"\D", "", hit)
        if not _MIN_DIGITS <= len(digits) <= _MAX_DIGITS:
            return False
        try:
            number = phonenumbers.parse(hit, "DE")
        except phonenumbers.NumberParseException:
            return False
        return phonenumbers.is_valid_number(number)
