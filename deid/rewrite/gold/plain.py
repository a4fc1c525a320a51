"""Which text elements a person need not look at (thesis 5.5.1: "simple words are matched
using a regex and skipped").

Placeholders are single letters, initials, ellipses, x-runs and letter compounds; an element
that is an ordinary word, a number, a lower-case abbreviation or bare punctuation cannot be
one, so the interactive tool skips it unless the detector suggests it. The rule errs
towards showing: a skipped placeholder is a silent error in the gold set, a shown word costs
one key press.
"""

from __future__ import annotations

import re

from deid.rewrite.placeholders.cues import ABBREVIATIONS, COMMON_SHORT_ABBREVIATIONS
from deid.words.vocab import STREET_SUFFIXES, UPPER, alternation

_LEADING = "([{<„‚\"'«»‹›“‘"
_TRAILING = ")]}>“”‘’\"'«»‹›,;:!?"
_WORD = re.compile(r"^[^\W\d_]+(?:-[^\W\d_]+)*-?$")  # "Land-" as in "Land- und Forstwirtschaft"
_NUMBER = re.compile(r"^§*\d[\d.,:/–-]*[a-z%]?$|^\d+-[^\W\d_]{2,}")  # "15.", "8.750,-", "18b"
_LOWER = re.compile(r"^[a-zäöüß./-]+$")  # "a)", "f.", "m.w.N.", "u."
_CITATION = re.compile(r"^(?:[BU]|Urt|Beschl)\.\s?v\.$|^VOB/[ABC]\.$|^[CT]-\d+/\d{2}\.$")
_SHORT_ABBREV = re.compile(r"^[A-ZÄÖÜ][a-zäöü]{1,2}\.$")  # "Sch.", "Al.": name abbreviations
_FUSED_STREET = re.compile(rf"^[{UPPER}](?:{alternation(STREET_SUFFIXES)})$")
_XRUN = re.compile(r"(?:^|[^a-wyzA-WYZÄÖÜäöüß])[xX]{2,}")
_ELLIPSIS = ("…", "...")
_SENATE = re.compile(r"^(?:[IVX]{1,4}|[A-Z])$")
_NUMBER_NEXT = re.compile(r"\s+\d")
# Shapes only their position makes harmless: (element, text right before, text right after).
_POSITIONAL: tuple[tuple[re.Pattern, re.Pattern | None, re.Pattern | None], ...] = (
    (re.compile(r"^S\.$"), None, _NUMBER_NEXT),  # "§ 3 Abs. 1 S. 1": Satz, Seite
    (_SENATE, None, re.compile(r"\s[A-Z][A-Za-z]{0,5}\s\d+[/.]\d+")),  # "V ZR 168/14"
    (_SENATE, re.compile(r"\d\s$"), re.compile(r"\s\d+[/.]\d+")),  # "RO 7 K 17.47"
    (re.compile(r"^[IVX]{1,4}$"), re.compile(r"(?:BGBl|GVBl)\.?\s$"), None),  # "BGBl I S. 310"
    (_SENATE, re.compile(r"(?:Anlagen?|Anl\.)\s$"), _NUMBER_NEXT),  # "Anlage K 1"
    (re.compile(r"^[IVX]{1,4}\.$"), re.compile(r"(?:^|\n)$"), None),  # heading "I." on its line
)


def core_bounds(surface: str) -> tuple[int, int]:
    """Offsets of ``surface`` without enclosing brackets, quotes and trailing commas; a
    trailing dot stays (it belongs to "G." as much as to a sentence)."""
    start, end = 0, len(surface)
    while start < end and surface[start] in _LEADING:
        start += 1
    while end > start and surface[end - 1] in _TRAILING:
        end -= 1
    return (start, end) if start < end else (0, len(surface))


def _bare(surface: str) -> str:
    """The element without enclosing punctuation and without trailing dots ("FeV)." → "FeV")."""
    return surface.lstrip(_LEADING).rstrip(_TRAILING + ".")


def is_plain(surface: str) -> bool:
    """True for an element that cannot be a placeholder: a word of two or more letters per
    hyphenated part, a number, a known or lower-case abbreviation, bare punctuation."""
    if any(e in surface for e in _ELLIPSIS) or _XRUN.search(surface):
        return False
    start, end = core_bounds(surface)
    core = surface[start:end]
    bare = _bare(surface)
    if not any(ch.isalnum() for ch in bare):
        return True  # bare punctuation, "§"
    if _NUMBER.match(bare) or _LOWER.match(bare) or _CITATION.match(bare + "."):
        return True
    if ABBREVIATIONS.fullmatch(core) or ABBREVIATIONS.fullmatch(bare + "."):
        return True
    parts = [p for p in bare.split("/")]
    if not all(_WORD.match(p) for p in parts):
        return False  # letters mixed with digits or inner dots: "B1", "E.-N.", "A.G."
    if any(len(w) < 2 for p in parts for w in p.split("-") if w):
        return False  # "S", "K.", "A-GbR"
    if _SHORT_ABBREV.match(core) and core not in COMMON_SHORT_ABBREVIATIONS:
        return False
    return not _FUSED_STREET.match(core)


def is_plain_element(text: str, start: int, end: int) -> bool:
    """:func:`is_plain`, plus shapes only their position makes harmless: "S." before a number
    (Satz/Seite), the senate or chamber letter of a case number ("V ZR 168/14", "RO 7 K
    17.47"), the part of a law gazette ("BGBl I"), an exhibit letter ("Anlage K 1") and a
    Roman numeral heading its own line."""
    surface = text[start:end]
    if is_plain(surface):
        return True
    before = text[max(0, start - 12) : start]
    return any(
        shape.match(surface)
        and (pre is None or pre.search(before))
        and (post is None or post.match(text, end))
        for shape, pre, post in _POSITIONAL
    )
