"""Patent and utility-model publication numbers (DE, EP, WO, US and other offices).

Publication numbers are public references in patent decisions; they are still detected
so that the policy layer can decide whether to keep them.
"""

from __future__ import annotations

from deid.recognizers.base import Pattern, PatternRecognizer

_LEFT = r"(?<![\w\-/.])"
_RIGHT = r"(?![\w\-]|[.,/]\d)"
_KIND = r"(?:[ \u00a0]?[ABCTUEPWYS][0-9]{0,2}(?![\w]))"  # A1, B1, C2, T2, U1 ...
_S = r"[ \u00a0]?"  # optional space between digit groups
_OFFICES = "GB|FR|JP|CN|AT|CH|CA|AU|ES|IT|NL|SE|DK|FI|RU|BE|PL|TW|IN|BR|MX"


class PatentRecognizer(PatternRecognizer):
    """Office prefix + number (+ kind code); a kind code or a context word raises the score."""

    NAME = "patent"
    LABEL = "PATENT"
    PATTERNS = (
        # DE 10 2006 011 652 A1 (patent), DE 20 2010 001 234 U1 (utility model), since 2004
        Pattern(
            "de_new",
            rf"{_LEFT}DE{_S}(?:1[0-2]|2[0-2]){_S}(?:19|20)\d{{2}}{_S}\d{{3}}{_S}\d{{3}}(?:\.\d)?"
            rf"{_KIND}?{_RIGHT}",
            0.75,
        ),
        # DE 195 12 345 A1, DE 44 21 234 C2, DE 1 881 215 U1 (older layouts): kind code
        Pattern("de_old", rf"{_LEFT}DE{_S}\d{{1,3}}{_S}\d{{2,3}}{_S}\d{{3}}{_KIND}{_RIGHT}", 0.7),
        # ... or a context word: "DE 602 09 381", "DE 476 852"
        Pattern(
            "de_old_context",
            rf"{_LEFT}DE{_S}\d{{1,3}}(?:{_S}\d{{2,3}})?{_S}\d{{3}}{_RIGHT}",
            0.45,
            needs_context=True,
        ),
        # EP 1 234 567 B1, EP1234567B1, EP 878 165 B1
        Pattern("ep", rf"{_LEFT}EP{_S}(?:\d{_S})?\d{{3}}{_S}\d{{3}}{_KIND}?{_RIGHT}", 0.7),
        # WO 2010/012345 A1, WO 02/12345
        Pattern("wo", rf"{_LEFT}WO{_S}(?:(?:19|20)\d{{2}}|\d{{2}})/\d{{5,6}}{_KIND}?{_RIGHT}", 0.7),
        # US 7,123,456 B2, US 5 984 519 A, US 2010/0123456 A1
        Pattern(
            "us",
            rf"{_LEFT}US{_S}(?:\d{{1,2}}[, ]?\d{{3}}[, ]?\d{{3}}|20\d{{2}}/?\d{{7}}){_KIND}?{_RIGHT}",
            0.7,
        ),
        # other offices, kind code required: GB 2 345 678 A, FR 2 447 848 A, JP H08 107 938 A;
        # not after "<digit> ": "L 4 KR 216/18 B" is a court file number
        Pattern(
            "other",
            rf"{_LEFT}(?<!\d[ \u00a0])(?:{_OFFICES}){_S}[A-Z]?\d[\d \-/–]{{4,12}}\d{_KIND}{_RIGHT}",
            0.6,
        ),
        # bare DPMA application/patent numbers: 10 2006 011 652.3 (12 = SPC) — context required
        Pattern(
            "de_application",
            rf"{_LEFT}(?:1[0-2]|2[0-2]) (?:19|20)\d{{2}} \d{{3}} \d{{3}}(?:\.\d)?{_RIGHT}",
            0.5,
            needs_context=True,
        ),
    )
    CONTEXT = (
        "patent", "streitpatent", "klagepatent", "gebrauchsmuster", "offenlegungsschrift",
        "patentschrift", "anmeldung", "patentanmeldung", "druckschrift", "entgegenhaltung",
        "veröffentlichung", "schrift", "schutzzertifikat", "grundpatent", "aktenzeichen",
    )  # fmt: skip
    CONTEXT_WINDOW = 60
    CONTEXT_BOOST = 0.15
    NEGATIVE_CONTEXT = ("az.", "az ")
    NEGATIVE_WINDOW = 12
