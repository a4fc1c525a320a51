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
    LEFT,
    RIGHT,
    UM_KIND,
    S,
    TechnicalRightRecognizer,
    de_publication,
    dpma_file,
    old_de_publication,
    old_dpma_file,
)


class UtilityModelRecognizer(TechnicalRightRecognizer):
    """DE utility-model file and publication numbers of the utility model in suit."""

    NAME = "utility_model"
    LABEL = "UTILITY_MODEL"
    PATTERNS = (
        Pattern("dpma_file", dpma_file("2[01]"), 0.6),
        Pattern("dpma_old_file", rf"{LEFT}G{S}\d{{2}}{S}\d{{2}}{S}\d{{3}}\.\d{RIGHT}", 0.6),
        Pattern("dpma_old_file_3", old_dpma_file(r"29\d|20[0-3]"), 0.6),  # 1990s-2003: 298 20 129.1
        Pattern("de_new", de_publication("2[01]", f"{UM_KIND}?"), 0.55, needs_context=True),
        Pattern("de_old", old_de_publication(UM_KIND), 0.55, needs_context=True),
    )
