"""Candidate placeholders found by surface patterns (Schamberger 2019, appendix A.1).

*Obvious* patterns (special ellipses, same-character runs, ``Kstraße``, single-letter
e-mails/URLs) can only be placeholders. *Potential* patterns (a bare ellipsis, a single
letter, initials) may also be omissions, abbreviations, outline or law references; the
context rules in :mod:`deid.rewrite.placeholders.rules` decide those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from deid.words.vocab import COMMON_LEGAL_FORMS, LOWER, STREET_SUFFIXES, UPPER, alternation

U = UPPER
LOW = LOWER

# Obvious ----------------------------------------------------------------------------
# "xx.xx.2015", "XX.XX.XXXX", "xxx", "Xxxxx", "Yyy", "Zzzz-Weg": runs of one character.
_SAME_CHAR = "|".join(f"{c}{c.lower()}{{2,}}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
XRUN = re.compile(
    rf"(?<![\w.])(?:[xX]{{2,}}(?:[./-](?:[xX]+|\d+))+|x{{2,}}|X{{4,}}|{_SAME_CHAR})"
    rf"(?:-[{U}{LOW}]+)?(?![\w])"
)
DATE_XRUN = re.compile(r"(?<![\w.])(?:[xX]{1,2}|\d{1,2})\.(?:[xX]{1,2}|\d{1,2})\.(?:[xX]{2,4}|\d{2,4})(?![\w])")
# "Kstraße", "Kweg", "Mstraße": a street word fused to a single capital letter.
STREET_FUSED = re.compile(
    rf"(?<![\w.\-])[{U}]\.?(?:{alternation(STREET_SUFFIXES)})(?!\w)"
)
# numbered placeholders: "Grundbuch von Stadt 1", "Gemeinde 2"
NUMBERED = re.compile(r"(?<![\w.])(?:Stadt|Gemeinde|Ort|Ortsteil|Gemarkung|Landkreis|Firma)\s[1-9](?![\d./])")
# Special ellipses: attached to letters ("…straße", "S…", "B1 …" is handled as letter+ellipsis).
# "…", "...", and the asterisk some courts use instead ("F* …", "*platz", "Az.: *")
ELLIPSIS = re.compile(r"…|(?<!\.)\.{3,5}(?!\.)|(?<!\*)\*(?!\*)")
URL_EMAIL = re.compile(
    rf"(?<![\w.@])(?:(?:https?://)?www\.[a-z]\.[a-z]{{2,3}}|https?://[a-z](?:\.[a-z]{{2,3}})?|"
    rf"[a-z]{{1,12}}@[a-z]\.[a-z]{{2,3}}|[a-z]@[a-z0-9\-]+\.[a-z]{{2,3}})(?![\w@])"
)

# Potential ----------------------------------------------------------------------------
# One unit: "K." or a short name abbreviation "Sch.", "St.", "Al.".
_UNIT = rf"[{U}](?:[{LOW}]{{1,2}})?\."
# Sequences of units: "A. G.", "E.-N.", "D. - M.", "U. Sch.", "H.-G.".
INITIALS = re.compile(
    rf"(?<![\w.\-/])[{U}]\.?(?:-[{U}]\d?\.?)+(?![\w\-])"  # hyphenated: "A-M", "H.-G.", "D.-D2."
    rf"|(?<![\w.\-/°]){_UNIT}(?:[ \t]?-?[ \t]?{_UNIT})*(?![\w])"
    rf"|(?<![\w.\-/°])[{U}]\.(?=(?:in|im|am|an|aus|bei|und|zu|vom|von|er|ern|erin)\b)"  # glued: "E.in", "L.er"
)
# A bare capital letter, optionally with a digit ("B1") or a hyphenated word ("A-GbR").
LETTER = re.compile(rf"(?<![\w.\-/§&°])[{U}](?:\d(?![\d.,]))?(?=-[\w]|[^\w.]|\.\.\.|$)")
# anonymized house numbers written as "01", "02" after a street placeholder
ZERO_NUMBER = re.compile(r"(?<![\w.,/])0\d(?![\w.]\d|\d)")
# A lowercase single letter only counts before a legal form ("w GmbH").
# The miner's rule was written for five of the common forms; the gold's wider list (also
# OHG, UG, SE, mbH, gGmbH) would change which letters it finds.
_LOWER_LETTER_FORMS = tuple(f for f in COMMON_LEGAL_FORMS if f not in {"OHG", "UG", "SE", "mbH", "gGmbH"})
LOWER_LETTER = re.compile(rf"(?<![\w.\-])[{LOW}](?=\s+(?:{alternation(_LOWER_LETTER_FORMS)})\b)")

# Units that are ordinary abbreviations or titles, never the start of a name placeholder.
_LEADING_NON_NAMES = frozenset(
    "Dr. Nr. Rn. Bl. Bd. Abs. Art. Hr. Fr. Fa. Ziff. Vgl. Tel. Az. St. Sp. Kl. Gr. Inh. Dipl. Ing.".split()
)
_UNIT_RE = re.compile(_UNIT)


def _skip_leading_abbreviations(text: str, start: int, end: int) -> int:
    """Start of the match after leading "Dr."/"Nr."-like units ("Dr. R." → "R.")."""
    pos = start
    while True:
        m = _UNIT_RE.match(text, pos, end)
        if not m or m.group(0) not in _LEADING_NON_NAMES:
            return pos
        nxt = pos + len(m.group(0))
        while nxt < end and text[nxt] in " -":
            nxt += 1
        if nxt >= end:
            return pos if pos == start else pos
        pos = nxt


_CODE_BEFORE = re.compile(rf"(?<![\w.\-])[{U}]{{2,3}}$")  # road codes: "ST...", "OA..."
_LETTER_BEFORE = re.compile(rf"(?<![\w.\-])[{U}{LOW}]\d?$")


def _special_ellipsis(text: str, start: int, end: int) -> bool:
    """"S…", "a…", "W1…", "…straße", "…-GmbH": an ellipsis fused to a single letter or to a
    suffix can only be a placeholder; fused to a whole word ("hiermit…") it is an omission.
    Four or five dots ("....", ".....") are a placeholder style, not an omission."""
    if end - start >= 4:
        return True
    if _LETTER_BEFORE.search(text[max(0, start - 4) : start]) or _CODE_BEFORE.search(text[max(0, start - 4) : start]):
        return True
    nxt = text[end : end + 2]
    return bool(nxt) and (nxt[0] in f"{LOW}-" and not text[start - 1 : start].isalnum())


_TRAILING_LEGAL = re.compile(r"[ \t]?(?:Ltd|Inc|Co|Corp|Kft)\.$")


def _drop_trailing_legal_forms(text: str, start: int, end: int) -> int:
    """"T. Ltd.": a legal form written like an initial is not part of the name."""
    m = _TRAILING_LEGAL.search(text, start, end)
    return m.start() if m and m.start() > start else end


QUOTES_OPEN = "„‚»\"“'"
QUOTES_CLOSE = "“”‘«\"'"


@dataclass(frozen=True)
class Candidate:
    """A surface match; ``kind`` names the pattern family for rules and error analysis."""

    start: int
    end: int
    kind: str  # xrun | date_xrun | street_fused | numbered | ellipsis | url_email | initials | letter | lower | zero_number
    obvious: bool


def find_candidates(text: str) -> Iterator[Candidate]:
    """All pattern matches in text order; overlapping matches are resolved by the detector."""
    found: list[Candidate] = []
    for m in DATE_XRUN.finditer(text):
        if "x" in m.group(0).lower():
            found.append(Candidate(m.start(), m.end(), "date_xrun", True))
    for m in XRUN.finditer(text):
        found.append(Candidate(m.start(), m.end(), "xrun", True))
    for m in STREET_FUSED.finditer(text):
        found.append(Candidate(m.start(), m.end(), "street_fused", True))
    for m in NUMBERED.finditer(text):
        found.append(Candidate(m.start(), m.end(), "numbered", False))
    for m in URL_EMAIL.finditer(text):
        found.append(Candidate(m.start(), m.end(), "url_email", True))
    for m in ELLIPSIS.finditer(text):
        found.append(Candidate(m.start(), m.end(), "ellipsis", _special_ellipsis(text, m.start(), m.end())))
    for m in INITIALS.finditer(text):
        start = _skip_leading_abbreviations(text, m.start(), m.end())
        end = _drop_trailing_legal_forms(text, start, m.end())
        if start < end:
            found.append(Candidate(start, end, "initials", False))
    for m in LETTER.finditer(text):
        found.append(Candidate(m.start(), m.end(), "letter", False))
    for m in ZERO_NUMBER.finditer(text):
        found.append(Candidate(m.start(), m.end(), "zero_number", False))
    for m in LOWER_LETTER.finditer(text):
        found.append(Candidate(m.start(), m.end(), "lower", False))
    found.sort(key=lambda c: (c.start, -(c.end - c.start)))
    # drop candidates nested inside an earlier, longer obvious one
    out: list[Candidate] = []
    for cand in found:
        if out and cand.start < out[-1].end and out[-1].obvious and cand.end <= out[-1].end:
            continue
        out.append(cand)
    return iter(out)
