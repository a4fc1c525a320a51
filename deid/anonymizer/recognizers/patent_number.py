"""Patent numbers of the patent in suit (``DE 10 2015 123 456 B4``, ``EP 1 234 567 B1``,
``Patent 10 2015 123 456.7``, ``P 44 12 345.6``), never of the prior art it is compared with.

A party's own patent is neutralized under the ``strict`` profile and kept under ``federal``;
the documents cited as prior art are kept under both (docs/anonymization-policy.md), so a
number fires only for the right in suit (:mod:`deid.anonymizer.recognizers.in_suit`).
The DPMA's file numbers (type 10 patent, 11 PCT national phase, 12 supplementary protection
certificate, then the year and six digits, ``.7`` the check digit) and the old ``P 44 12
345.6`` are the numbers of applications in proceedings and fire unless a citation is
nearest; printed publications (``DE … A1``, ``EP … B1``, ``WO 2010/012345``) and bare
European numbers ("das europäische Patent 0 868 002") need a patent cue.
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern
from deid.anonymizer.recognizers.in_suit import (
    KIND,
    LEFT,
    NO_OFFICE,
    RIGHT,
    UM_KIND,
    YEAR,
    S,
    TechnicalRightRecognizer,
    de_publication,
    dpma_file,
    old_de_publication,
    old_dpma_file,
)

_NOT_UM = rf"(?!{UM_KIND})"  # "DE 298 24 735 U1" is a utility model


class PatentNumberRecognizer(TechnicalRightRecognizer):
    """DE/EP/WO patent and application numbers of the patent in suit."""

    NAME = "patent_number"
    LABEL = "PATENT"
    PATTERNS = (
        # the DPMA file number of an application or patent: 10 2009 060 716.1
        Pattern("dpma_file", dpma_file("1[0-2]"), 0.6),
        Pattern("dpma_compact", rf"{LEFT}1[0-2]{YEAR}\d{{6}}(?:\.\d)?{RIGHT}", 0.55, needs_context=True),
        # the old file number: P 44 12 345.6, and 195 12 345.6 (1995-2003)
        Pattern("dpma_old_file", rf"{LEFT}P{S}\d{{2}}{S}\d{{2}}{S}\d{{3}}\.\d{RIGHT}", 0.6),
        Pattern("dpma_old_file_3", old_dpma_file("19[5-9]|10[0-3]"), 0.6),
        # publications: DE 10 2015 123 456 B4, DE 195 12 345 A1, DE 601 23 456 T2
        Pattern("de_new", de_publication("1[0-2]", rf"(?:\.\d)?{KIND}?"), 0.55, needs_context=True),
        Pattern("de_old", old_de_publication(rf"{KIND}?{_NOT_UM}"), 0.55, needs_context=True),
        # "das Patent 198 31 774", "das Patent 102 40 121 B4": the old number without office
        Pattern("de_old_bare", rf"{LEFT}{NO_OFFICE}\d{{3}}[ \u00a0]\d{{2}}[ \u00a0]\d{{3}}{KIND}?{_NOT_UM}{RIGHT}", 0.55, needs_context=True),
        # EP 1 234 567 B1, EP 878 165 B1; the application EP 01 234 567.8
        Pattern("ep", rf"{LEFT}EP{S}(?:\d{S})?\d{{3}}{S}\d{{3}}{KIND}?{RIGHT}", 0.55, needs_context=True),
        Pattern("ep_application", rf"{LEFT}EP{S}\d{{2}}{S}\d{{3}}{S}\d{{3}}\.\d{RIGHT}", 0.6),
        # "das europäische Patent 0 868 002"
        Pattern("ep_bare", rf"{LEFT}{NO_OFFICE}\d[ \u00a0]\d{{3}}[ \u00a0]\d{{3}}{KIND}?{RIGHT}", 0.55, needs_context=True),
        # WO 2010/012345 A1, and the international application PCT/EP2015/012345
        Pattern("wo", rf"{LEFT}WO{S}(?:{YEAR}|\d{{2}})/\d{{5,6}}{KIND}?{RIGHT}", 0.55, needs_context=True),
        Pattern("pct", rf"{LEFT}PCT/[A-Z]{{2}}(?:{YEAR}|\d{{2}})/\d{{5,6}}{RIGHT}", 0.6),
    )
