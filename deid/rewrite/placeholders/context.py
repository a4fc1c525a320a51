"""The window around a candidate: neighbouring words, line position, quotation state.

The thesis slides a window (predecessor, candidate, successor) over text elements; we look a
few words further both ways because German roles and legal forms often sit two words away
("Herrn Dr. A.", "S … GmbH & Co. KG").
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

_STRIP_LEFT = "([{„‚»\"“'‘<"
_STRIP_RIGHT = ",;:)]}“”‘«\"'!?>"
_PARA_NUMBER = re.compile(r"^\s*(?:\(?\d{1,3}\)?\.?|[a-z]{1,2}\)|[IVXLC]{1,5}\.?)\s*$")


@dataclass(frozen=True)
class Word:
    """A neighbouring element with enclosing punctuation stripped (a final '.' is kept)."""

    text: str
    start: int
    end: int
    sep: str  # punctuation stripped between this word and the candidate side


@dataclass
class Window:
    text: str
    start: int
    end: int
    before: list[Word] = field(default_factory=list)  # nearest first
    after: list[Word] = field(default_factory=list)  # nearest first
    line_start: bool = False
    line_alone: bool = False
    in_quote: bool = False

    @property
    def surface(self) -> str:
        return self.text[self.start : self.end]

    def prev(self, i: int = 0) -> str:
        return self.before[i].text if len(self.before) > i else ""

    def next(self, i: int = 0) -> str:
        return self.after[i].text if len(self.after) > i else ""

    def raw_before(self, n: int = 60) -> str:
        return self.text[max(0, self.start - n) : self.start]

    def raw_after(self, n: int = 60) -> str:
        return self.text[self.end : self.end + n]

    def prev_sep(self) -> str:
        """Punctuation between the previous word and the candidate ("" when none)."""
        return self.before[0].sep if self.before else ""

    def next_sep(self) -> str:
        return self.after[0].sep if self.after else ""


class QuoteIndex:
    """Quoted ranges of a text, computed once per document, queried per candidate."""

    def __init__(self, text: str) -> None:
        starts: list[int] = []
        ends: list[int] = []
        pos = 0
        for line in text.split("\n"):
            for s, e in _quoted_ranges(line):
                starts.append(pos + s)
                ends.append(pos + e)
            pos += len(line) + 1
        self._starts = starts
        self._ends = ends

    def contains(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self._starts, start) - 1
        return i >= 0 and self._ends[i] >= end


def _quoted_ranges(line: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    german_open: int | None = None
    english_open: int | None = None
    straight_open: int | None = None
    for i, ch in enumerate(line):
        if ch in "„‚":
            german_open = i
        elif ch in "“‘" and german_open is not None:
            ranges.append((german_open, i + 1))
            german_open = None
        elif ch == "“":
            english_open = i
        elif ch == "”" and english_open is not None:
            ranges.append((english_open, i + 1))
            english_open = None
        elif ch == '"':
            if straight_open is None:
                straight_open = i
            else:
                ranges.append((straight_open, i + 1))
                straight_open = None
    return sorted(ranges)


def _strip_right(word: str) -> str:
    """Trailing punctuation off, but a period glued to the word stays ("Dr.", "K.,")."""
    core = word.rstrip(_STRIP_RIGHT + ".")
    if len(word) > len(core) and word[len(core)] == ".":
        return core + "."
    return core


def _words_before(text: str, pos: int, n: int) -> list[Word]:
    lo = max(0, pos - 160)
    segment = text[lo:pos]
    out: list[Word] = []
    matches = list(re.finditer(r"\S+", segment))
    if lo > 0 and matches and matches[0].start() == 0:
        matches = matches[1:]  # cut by the window
    for m in reversed(matches):
        raw = m.group(0)
        word = raw.lstrip(_STRIP_LEFT)
        stripped = _strip_right(word)
        sep = word[len(stripped) :]
        if "\n" in segment[m.end() :]:
            sep = sep + "\n"
        if stripped:
            out.append(Word(stripped, lo + m.start() + (len(raw) - len(word)), lo + m.start() + (len(raw) - len(word)) + len(stripped), sep))
        if len(out) >= n:
            break
    return out


def _words_after(text: str, pos: int, n: int) -> list[Word]:
    hi = min(len(text), pos + 160)
    segment = text[pos:hi]
    out: list[Word] = []
    for m in re.finditer(r"\S+", segment):
        raw = m.group(0)
        word = raw.lstrip(_STRIP_LEFT)
        sep = raw[: len(raw) - len(word)]
        if "\n" in segment[: m.start()]:
            sep = "\n" + sep
        stripped = _strip_right(word)
        if stripped:
            start = pos + m.start() + len(raw) - len(word)
            out.append(Word(stripped, start, start + len(stripped), sep))
        if len(out) >= n:
            break
    return out


def make_window(text: str, start: int, end: int, quotes: QuoteIndex) -> Window:
    line_begin = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    head = text[line_begin:start]
    line_start = head.strip(" \t„\"“‚»") == "" or bool(_PARA_NUMBER.match(head))
    line_alone = line_start and text[end:line_end].strip() in ("", ".", ")", "“", '"')
    return Window(
        text=text,
        start=start,
        end=end,
        before=_words_before(text, start, 5),
        after=_words_after(text, end, 4),
        line_start=line_start,
        line_alone=line_alone,
        in_quote=quotes.contains(start, end),
    )
