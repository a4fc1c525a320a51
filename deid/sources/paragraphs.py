"""Paragraph extraction with offsets back to the original text (Schamberger 2019, §5.3.1).

Decisions arrive in two layouts: one paragraph per line with the paragraph numbers on lines
of their own (the published raw texts), or hard-wrapped at some 70–80 columns (production
exports). Extraction

(a) joins wrapped lines of one paragraph and undoes hyphenation at line ends
    ("Verwal-\\ntungsgericht" → "Verwaltungsgericht"), keeping real hyphens ("Bundes-\\nund
    Landesrecht" → "Bundes- und Landesrecht", "EU-\\nRecht" → "EU-Recht");
(b) drops structure: paragraph numbers and outline markers on a line of their own ("12",
    "II.", "aa)", "(1)", "-", "•") and the enumeration at the start of a paragraph
    ("1. Auf die Revision …" → "Auf die Revision …"), but only at paragraph starts, so "Herr
    I. sagte" or a year wrapped onto its own line stay text;
(c) keeps section headings ("Tenor", "Gründe", "Tatbestand", "Leitsatz:" …) as paragraphs of
    their own with ``kind="heading"``: they are not sensitive, they tell downstream steps
    where the operative part and the reasons are, and a caller drops them by kind.

A line break is a soft wrap when the next line's first word would not have fitted on the
line (the wrap width is estimated from the text) or when the line ends in a hyphenated word
fragment; otherwise it ends the paragraph. Text without a wrap width (lines of very
different, mostly long lengths) is one paragraph per line.

Every paragraph character comes from one original character (a joined line break becomes a
space), recorded as runs, so :meth:`Paragraph.to_original` maps offsets and spans back in
O(log runs) without one integer per character.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

HEADINGS: frozenset[str] = frozenset(
    {
        "tenor",
        "gründe",
        "tatbestand",
        "entscheidungsgründe",
        "leitsatz",
        "leitsätze",
        "orientierungssatz",
        "titel",
        "normenkette",
        "normenketten",
        "schlagworte",
        "fundstelle",
        "fundstellen",
        "vorinstanz",
        "rechtsquellen",
        "zitiervorschlag",
        "hinweis",
        "sachverhalt",
        "rechtsmittelbelehrung",
        "beschluss",
        "urteil",
    }
)

# A line that is only structure: a paragraph number, an outline marker or a bullet.
_NUMBER_LINE = re.compile(r"^\d{1,4}\.?$")
_MARKER_LINE = re.compile(
    r"^(?:[IVXLC]{1,6}\.?|[A-H]\.|[a-z]{1,3}\)|[a-z]{1,3}\.|\(\d{1,3}[a-z]?\)|\([a-z]{1,3}\)|"
    r"\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\)|[-–•●*▪◦])$"
)
# Enumeration at the start of a paragraph, and the text it must be followed by.
_LEADING_ENUM = re.compile(
    r"^(?:\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.|\d{1,3}\)|[IVX]{1,5}\.|[A-H]\.|[a-z]{1,3}\)|\(\d{1,3}[a-z]?\)|"
    r"\([a-z]{1,3}\)|[-–•●*▪◦])[ \t]+"
)
_MONTHS = (
    "Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|"
    "Jan\\.|Feb\\.|Febr\\.|Aug\\.|Sept?\\.|Okt\\.|Nov\\.|Dez\\."
)
_DATE_AFTER = re.compile(rf"^(?:{_MONTHS})\b")
# "Bundes-\nund Landesrecht": the elided compound keeps its hyphen before these.
_CONJUNCTIONS = frozenset({"und", "oder", "bzw.", "sowie"})
_FINAL = tuple('.:;!?“”"«»)')
_WRAP_MAX = 160  # wider than this is not a hard-wrapped layout
_WRAP_SHARE = 0.5  # share of long lines near the width that makes text "wrapped"
_WRAP_MIN_LINES = 8


@dataclass(frozen=True)
class Paragraph:
    """One paragraph: its text and the runs mapping it back to the original.

    ``runs`` holds ``(paragraph_offset, original_offset)`` pairs; each run copies the
    original contiguously up to the next run's paragraph offset (the last up to ``len``).
    """

    text: str
    kind: str  # "text" or "heading"
    runs: tuple[tuple[int, int], ...]

    @property
    def start(self) -> int:
        """Original offset of the first character."""
        return self.runs[0][1]

    @property
    def end(self) -> int:
        """Original offset just after the last character."""
        return self.to_original_offset(len(self.text) - 1) + 1 if self.text else self.start

    def to_original_offset(self, offset: int) -> int:
        """Original offset of paragraph character ``offset`` (``len(text)`` maps past the end)."""
        if not 0 <= offset <= len(self.text):
            raise IndexError(f"offset {offset} outside paragraph of {len(self.text)}")
        if offset == len(self.text):
            return self.end
        k = bisect_right(self.runs, (offset, float("inf"))) - 1
        para_start, orig_start = self.runs[k]
        return orig_start + (offset - para_start)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Original ``(start, end)`` covering paragraph span ``text[start:end]``.

        Inside one run the original slice is identical; across a joined line break it also
        covers the removed newline and hyphen.
        """
        if not 0 <= start <= end <= len(self.text):
            raise IndexError(f"span {start}..{end} outside paragraph of {len(self.text)}")
        if start == end:
            pos = self.to_original_offset(start)
            return pos, pos
        return self.to_original_offset(start), self.to_original_offset(end - 1) + 1


@dataclass
class _Line:
    start: int  # original offset of the first non-blank character
    text: str  # the line without surrounding whitespace
    kind: str = "text"  # text, heading, structure, blank


def extract_paragraphs(text: str) -> list[Paragraph]:
    """Split a decision into paragraphs (see the module docstring for the rules)."""
    lines = list(_lines(text))
    width = _wrap_width(lines)
    paragraphs: list[Paragraph] = []
    builder: _Builder | None = None
    prev: _Line | None = None  # the previous non-blank line
    last_number = 0
    for k, line in enumerate(lines):
        if not line.text:
            builder = _flush(builder, paragraphs)
            prev = None
            continue
        soft = builder is not None and prev is not None and _is_soft_break(prev, line, width)
        if _is_structure(line, prev, last_number):
            if _NUMBER_LINE.match(line.text):
                last_number = int(line.text.rstrip("."))
            builder = _flush(builder, paragraphs)
            prev = line
            line.kind = "structure"
            continue
        if _is_heading(line) and not (soft and _ends_in_fragment(prev.text)):
            builder = _flush(builder, paragraphs)
            paragraphs.append(_single(line, "heading"))
            line.kind = "heading"
            prev = line
            continue
        if soft and builder is not None and prev is not None and prev.kind == "text":
            builder.join(prev, line)
        else:
            builder = _flush(builder, paragraphs)
            builder = _Builder()
            builder.add_first(line)
        prev = line
    _flush(builder, paragraphs)
    return paragraphs


def iter_paragraph_texts(text: str) -> Iterator[str]:
    """Only the texts of the ``text`` paragraphs (headings left out)."""
    for p in extract_paragraphs(text):
        if p.kind == "text":
            yield p.text


# --- lines --------------------------------------------------------------------------------


def _lines(text: str) -> Iterator[_Line]:
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        raw = text[pos:end]
        stripped = raw.strip()
        lead = len(raw) - len(raw.lstrip())
        yield _Line(pos + lead, stripped, "text" if stripped else "blank")
        if nl < 0:
            break
        pos = nl + 1


def _wrap_width(lines: Sequence[_Line]) -> int | None:
    """The column width of hard-wrapped text, or ``None`` for one paragraph per line."""
    lengths = sorted(len(x.text) for x in lines if len(x.text) > 20)
    if len(lengths) < _WRAP_MIN_LINES:
        return None  # too little text to tell a wrap width from chance
    width = lengths[int(0.95 * (len(lengths) - 1))]
    if not 30 <= width <= _WRAP_MAX:
        return None
    near = sum(1 for v in lengths if 0.85 * width <= v <= width)
    return width if near >= _WRAP_SHARE * len(lengths) else None


def _is_soft_break(prev: _Line, line: _Line, width: int | None) -> bool:
    """Whether the break between ``prev`` and ``line`` is a wrap inside one paragraph."""
    if prev.kind != "text":
        return False
    if _ends_in_fragment(prev.text) or _NUMBER_LINE.match(prev.text):
        return True  # "Verwal-" or a number kept inside a sentence ("betrug\n12\nEuro.")
    if not prev.text.endswith(_FINAL) and (line.text[0].islower() or _NUMBER_LINE.match(line.text)):
        return True  # a sentence broken off mid-way continues
    if width is None:
        return False  # one paragraph per line
    if _ends_with_sentence(prev.text) and _enumeration_length(line.text):
        return False  # "… aufgehoben." / "2. Der Kläger …": a new enumerated paragraph
    first_word = line.text.split(None, 1)[0]
    return len(prev.text) + 1 + len(first_word) > width


def _ends_with_sentence(text: str) -> bool:
    """Ends with a full stop after a word, not after an abbreviation ("i.", "a.", "Nr.")."""
    if not text.endswith((".", ":", "!", "?")):
        return False
    last = text.rsplit(None, 1)[-1]
    return len(last) > 4 and last[:-1].isalpha() and last[0].islower()


def _ends_in_fragment(text: str) -> bool:
    """A line ending in "Verwal-" or "2019-": a hyphen right after a letter or digit (a dash
    " -" stands apart)."""
    return len(text) >= 2 and text[-1] == "-" and text[-2].isalnum()


def _is_structure(line: _Line, prev: _Line | None, last_number: int) -> bool:
    """A paragraph number or outline marker alone on its line, at a paragraph boundary.

    A number is structure when it follows the end of a paragraph (sentence-final
    punctuation, a heading, another marker, the start) or continues the numbering; after a
    line ending mid-sentence it is text ("im Jahr\\n2019\\nwurde").
    """
    text = line.text
    is_number = bool(_NUMBER_LINE.match(text))
    if not (is_number or _MARKER_LINE.match(text)):
        return False
    if prev is None or prev.kind != "text":
        return True
    if is_number and int(text.rstrip(".")) == last_number + 1:
        return True
    return prev.text.endswith(_FINAL)


def _is_heading(line: _Line) -> bool:
    word = line.text.rstrip(":").strip().lower()
    return word in HEADINGS and len(line.text) <= 30


# --- building paragraphs ------------------------------------------------------------------


class _Builder:
    """Collects the pieces of one paragraph and its run table."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.runs: list[tuple[int, int]] = []
        self.length = 0

    def _append(self, piece: str, orig: int) -> None:
        if not piece:
            return
        if self.runs:
            para_start, orig_start = self.runs[-1]
            if orig_start + (self.length - para_start) == orig:
                self.pieces.append(piece)
                self.length += len(piece)
                return
        self.runs.append((self.length, orig))
        self.pieces.append(piece)
        self.length += len(piece)

    def add_first(self, line: _Line) -> None:
        skip = _enumeration_length(line.text)
        self._append(line.text[skip:], line.start + skip)

    def join(self, prev: _Line, line: _Line) -> None:
        """Continue with ``line`` after a soft break following ``prev``."""
        nl = prev.start + len(prev.text)  # where the removed line end begins
        first_word = line.text.split(None, 1)[0]
        if _ends_in_fragment(prev.text):
            if first_word in _CONJUNCTIONS:
                self._append(" ", nl)  # "Bundes- und Landesrecht"
            elif first_word[0].islower() and prev.text[-2].isalpha():
                self._drop_last_char()  # "Verwal-" + "tungsgericht"
            # else "EU-" + "Recht", "2019-" + "2020": hyphen kept, no space
        else:
            self._append(" ", nl)
        self._append(line.text, line.start)

    def _drop_last_char(self) -> None:
        last = self.pieces[-1]
        self.pieces[-1] = last[:-1]
        self.length -= 1
        if not self.pieces[-1]:
            self.pieces.pop()
            if self.runs and self.runs[-1][0] == self.length:
                self.runs.pop()

    def build(self, kind: str = "text") -> Paragraph | None:
        text = "".join(self.pieces)
        if not text:
            return None
        return Paragraph(text=text, kind=kind, runs=tuple(self.runs))


def _single(line: _Line, kind: str) -> Paragraph:
    return Paragraph(text=line.text, kind=kind, runs=((0, line.start),))


def _flush(builder: _Builder | None, out: list[Paragraph]) -> None:
    """Close the open paragraph; the caller resets its builder to the ``None`` returned."""
    if builder is not None:
        para = builder.build()
        if para is not None:
            out.append(para)


def _enumeration_length(text: str) -> int:
    """Length of a leading enumeration ("1. ", "a) ", "II. ") to drop, or 0.

    Not when the rest shows it is no enumeration: a date ("1. Januar 2019"), or a name
    initial ("I. hat …": Roman numerals and capital letters must be followed by a capital).
    """
    m = _LEADING_ENUM.match(text)
    if not m:
        return 0
    marker = m.group(0).strip()
    rest = text[m.end() :]
    if not rest:
        return 0
    if marker[0].isdigit() and marker.endswith(".") and _DATE_AFTER.match(rest):
        return 0
    if re.match(r"^(?:[IVX]{1,5}|[A-H])\.$", marker) and not (
        rest[0].isupper() or rest[0] in '„"('
    ):
        return 0
    return m.end()
