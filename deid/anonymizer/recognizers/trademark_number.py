"""Trademark register numbers of the marks in dispute (``Marke Nr. 30 2019 012 345``,
``302019012345``, ``30 2015 012 345.6/09``, ``Unionsmarke 012345678``, ``IR-Marke 1 234 567``).

In trademark proceedings both the attacked mark and the mark an opposition rests on
("Widerspruchsmarke") belong to a party: the ``strict`` profile neutralizes their numbers,
``federal`` keeps them; marks cited for comparison are kept under both
(docs/anonymization-policy.md, :mod:`deid.anonymizer.recognizers.in_suit`). The DPMA file
number since 2000 (``30`` or ``39``, the year, six digits, ``.6`` a check digit, ``/09`` a
class) is a register number in proceedings and fires unless a citation is nearest; older
DPMA numbers (``395 12 345``), registration numbers (``1 234 567``, ``870 852``), EU numbers
(``005 137 708``) and international registrations (``IR 1 160 635``) are plain digit groups
and need a trademark cue before them, or "als Marke … eingetragen" after them.
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern
from deid.anonymizer.recognizers.in_suit import (
    LEFT,
    NO_OFFICE,
    RIGHT,
    TECHNICAL_OWN,
    TRADEMARK_OWN,
    YEAR,
    InSuitRecognizer,
    S,
    dpma_file,
)

_CHECK_AND_CLASS = r"(?:\.[ \u00a0]?\d)?(?:/\d{2})?"  # ".6/09"; "251. 8" as printed


class TrademarkNumberRecognizer(InSuitRecognizer):
    """DPMA, EUIPO and WIPO register numbers of the marks in dispute."""

    NAME = "trademark_number"
    LABEL = "BRAND_NUMBER"
    PATTERNS = (
        Pattern("dpma_file", dpma_file("3[09]", _CHECK_AND_CLASS, prefix=rf"(?:DE{S})?"), 0.6),
        Pattern("dpma_compact", rf"{LEFT}{NO_OFFICE}(?:DE{S})?3[09]{YEAR}\d{{6}}{_CHECK_AND_CLASS}{RIGHT}", 0.6),
        Pattern("dpma_old", rf"{LEFT}{NO_OFFICE}(?:DE{S})?3\d{{2}}{S}\d{{2}}{S}\d{{3}}{_CHECK_AND_CLASS}{RIGHT}", 0.55, needs_context=True),
        Pattern("eu", rf"{LEFT}{NO_OFFICE}(?:(?:EM|UM|EU){S})?0\d{{2}}{S}\d{{3}}{S}\d{{3}}{RIGHT}", 0.55, needs_context=True),
        Pattern("registration", rf"{LEFT}{NO_OFFICE}(?:IR{S})?\d{S}\d{{3}}{S}\d{{3}}{RIGHT}", 0.55, needs_context=True),
        Pattern("registration_6", rf"{LEFT}{NO_OFFICE}(?:IR{S})?\d{{3}}[ \u00a0]\d{{3}}{RIGHT}", 0.55, needs_context=True),
    )
    OWN = TRADEMARK_OWN
    OTHER = TECHNICAL_OWN
    # "unter der Nummer 30 2009 072 008 als Wort-/Bildmarke ... eingetragen"
    # "... (Nr. 305 02 291) für die Waren"
    OWN_AFTER = (
        r"^.{0,40}?(?:\bals[ \u00a0][\w\-/]*[Mm]arke\b|\bin[ \u00a0]das[ \u00a0][^.]{0,50}?[Rr]egister\b"
        r"|\bfür[ \u00a0](?:die[ \u00a0])?(?:nachfolgend[ \u00a0]genannten[ \u00a0])?Waren\b)"
    )
    CONTEXT_BOOST = 0.3
