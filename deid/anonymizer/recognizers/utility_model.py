"""Utility-model numbers of the utility model in suit (``Gebrauchsmuster 20 2015 001 234.5``,
``DE 20 2015 001 234 U1``), never of the prior art it is compared with.

Like patents (:mod:`deid.anonymizer.recognizers.patent_number`): the DPMA file number (type
20, or 21 from a PCT application, the year, six digits, a check digit) and the old ``G 91 01
234.5`` fire unless a citation is nearest; a printed ``DE … U1`` needs a cue of the right in
suit (:mod:`deid.anonymizer.recognizers.in_suit`).
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern
from deid.anonymizer.recognizers.in_suit import (
    DPMA_SERIAL,
    LEFT,
    NO_OFFICE,
    RIGHT,
    TECHNICAL_OWN,
    TECHNICAL_OWN_AFTER,
    TRADEMARK_OWN,
    UM_KIND,
    YEAR,
    InSuitRecognizer,
    S,
)


class UtilityModelRecognizer(InSuitRecognizer):
    """DE utility-model file and publication numbers of the utility model in suit."""

    NAME = "utility_model"
    LABEL = "UTILITY_MODEL"
    PATTERNS = (
        Pattern("dpma_file", rf"{LEFT}{NO_OFFICE}2[01][ \u00a0]{YEAR}[ \u00a0]\d{{3}}[ \u00a0]\d{{3}}(?:\.\d)?{RIGHT}", 0.6),
        Pattern("dpma_old_file", rf"{LEFT}G{S}\d{{2}}{S}\d{{2}}{S}\d{{3}}\.\d{RIGHT}", 0.6),
        # 1990s-2003 file numbers: 298 20 129.1
        Pattern("dpma_old_file_3", rf"{LEFT}{NO_OFFICE}(?:29\d|20[0-3])[ \u00a0]\d{{2}}[ \u00a0]\d{{3}}\.\d{RIGHT}", 0.6),
        Pattern("de_new", rf"{LEFT}DE{S}2[01]{S}{YEAR}{DPMA_SERIAL}{UM_KIND}?{RIGHT}", 0.55, needs_context=True),
        Pattern("de_old", rf"{LEFT}DE{S}\d{{1,3}}{S}\d{{2,3}}{S}\d{{3}}{UM_KIND}{RIGHT}", 0.55, needs_context=True),
    )
    OWN = TECHNICAL_OWN
    OTHER = TRADEMARK_OWN
    OWN_AFTER = TECHNICAL_OWN_AFTER
    CONTEXT_BOOST = 0.3
