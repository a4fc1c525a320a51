"""Text elements: the whitespace-separated units the thesis classifies and scores.

An element is sensitive if any sensitive span overlaps it. Element-level metrics
(precision/recall/accuracy as in Schamberger 2019) are computed over these.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple, Sequence

from deid.schema import Span

_ELEMENT = re.compile(r"\S+")


class Element(NamedTuple):
    start: int
    end: int


def text_elements(text: str) -> list[Element]:
    """Split ``text`` at whitespace, keeping offsets."""
    return [Element(m.start(), m.end()) for m in _ELEMENT.finditer(text)]


def element_flags(elements: Sequence[Element], spans: Iterable[Span]) -> list[bool]:
    """For each element, whether any span overlaps it (spans need not be sorted)."""
    ordered = sorted((s.start, s.end) for s in spans if s.end > s.start)
    flags = [False] * len(elements)
    j = 0
    for i, el in enumerate(elements):
        while j < len(ordered) and ordered[j][1] <= el.start:
            j += 1
        k = j
        while k < len(ordered) and ordered[k][0] < el.end:
            if ordered[k][1] > el.start:
                flags[i] = True
                break
            k += 1
    return flags


def element_labels(elements: Sequence[Element], spans: Iterable[Span]) -> list[str | None]:
    """For each element, the label of the first span overlapping it, else ``None``."""
    ordered = sorted((s for s in spans if s.end > s.start), key=lambda s: (s.start, s.end))
    out: list[str | None] = [None] * len(elements)
    j = 0
    for i, el in enumerate(elements):
        while j < len(ordered) and ordered[j].end <= el.start:
            j += 1
        k = j
        while k < len(ordered) and ordered[k].start < el.end:
            if ordered[k].end > el.start:
                out[i] = ordered[k].label
                break
            k += 1
    return out
