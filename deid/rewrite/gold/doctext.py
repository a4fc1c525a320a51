"""A document's text as the interactive tool sees it: elements, which of them need a
decision, the detector's suggestions, and the offset arithmetic spans are built from.

Everything here follows from the text alone (and the detector), so it is computed once per
document and never changes while the person works; the decisions live elsewhere.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from deid.rewrite.gold.plain import core_bounds, is_plain_element
from deid.rewrite.surrogates.substitute import CONTEXT_WINDOW
from deid.schema import Document, Span
from deid.sources.elements import Element, element_flags, text_elements

logger = logging.getLogger(__name__)

Detector = Callable[[str], list[Span]]


class NotFound(LookupError):
    """The searched text is not near the element."""


@dataclass
class DocText:
    """Elements (whitespace split), detector ``suggestions`` and ``needs``: the indices of
    elements a person must decide (not plain, or suggested)."""

    doc: Document
    elements: list[Element]
    suggestions: list[Span]
    needs: list[int]
    starts: list[int] = field(repr=False, default_factory=list)

    @classmethod
    def build(cls, doc: Document, detect: Detector) -> DocText:
        elements = text_elements(doc.text)
        suggestions = detect(doc.text)
        suggested = element_flags(elements, suggestions)
        needs = [
            i
            for i, el in enumerate(elements)
            if suggested[i] or not is_plain_element(doc.text, el.start, el.end)
        ]
        logger.debug(
            "%s: %d elements, %d to decide, %d suggestions",
            doc.id,
            len(elements),
            len(needs),
            len(suggestions),
        )
        return cls(doc, elements, suggestions, needs, [e.start for e in elements])

    @property
    def text(self) -> str:
        return self.doc.text

    def suggestion_at(self, start: int, end: int) -> Span | None:
        """The first suggestion overlapping ``start``..``end``."""
        return next((s for s in self.suggestions if s.start < end and start < s.end), None)

    def core(self, index: int) -> tuple[int, int]:
        """Offsets of element ``index`` without enclosing brackets, quotes and commas."""
        el = self.elements[index]
        a, b = core_bounds(self.text[el.start : el.end])
        return el.start + a, el.start + b

    def element_range(self, start: int, end: int) -> tuple[int, int]:
        """Indices of the first and last element that ``start``..``end`` touches."""
        starts = self.starts
        first = max(0, bisect.bisect_right(starts, start) - 1)
        if self.elements[first].end <= start and first + 1 < len(starts):
            first += 1
        last = max(first, bisect.bisect_left(starts, end) - 1)
        return first, last

    def find_near(self, needle: str, el: Element, window: int) -> tuple[int, int]:
        """The occurrence of ``needle`` overlapping ``el``, else the nearest one within
        ``window`` characters of it; raises :class:`NotFound`."""
        text = self.text
        lo, hi = max(0, el.start - window), min(len(text), el.end + window)
        hits = []
        pos = text.find(needle, lo, hi) if needle else -1
        while pos != -1:
            hits.append(pos)
            pos = text.find(needle, pos + 1, hi)
        if not hits:
            raise NotFound(needle)

        def distance(s: int) -> int:
            if s < el.end and el.start < s + len(needle):
                return 0
            return 1 + min(abs(s - el.start), abs(s + len(needle) - el.end))

        best = min(hits, key=distance)
        return best, best + len(needle)

    def context(self, start: int, end: int) -> tuple[str, str]:
        """What a surrogate generator may read around a span (as ``substitute`` gives it)."""
        text = self.text
        return text[max(0, start - CONTEXT_WINDOW) : start], text[end : end + CONTEXT_WINDOW]
