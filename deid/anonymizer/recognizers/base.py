"""The shared machinery of rule recognizers: patterns, context scoring, validation hooks.

A recognizer is a small class with class constants (``LABEL``, ``PATTERNS``, ``CONTEXT``)
and an optional ``validate`` hook, after Presidio's ``PatternRecognizer``. Subclasses carry
data, not logic, so every recognizer scores the same way and stays easy to review.

Linear time matters: decisions can be megabytes long. Every pattern here uses bounded
quantifiers and a cheap left boundary, and context is searched in a fixed-size window, so the
work per text position is bounded.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from deid.schema import Span

logger = logging.getLogger(__name__)

# Reusable regex fragments: a number token neither continues a longer word/number on the left
# nor runs on into one on the right (``1.234``, ``12/18``, ``3,5`` are other tokens).
NUM_LEFT = r"(?<![\w.,/+\-])"
NUM_RIGHT = r"(?![\w]|[.,/\-]\d)"


@dataclass(frozen=True)
class Pattern:
    """One regex with its base score.

    A named group ``value`` narrows the span to that group (the rest of the match is
    evidence, e.g. the words ``geboren am``). A named group ``veto`` that takes part in a
    match discards it: it consumes text that must not yield a shorter hit (the year of a
    full date). ``needs_context`` drops hits that have no ``CONTEXT`` word in the window
    before them: for formats too common to trust alone.
    """

    name: str
    regex: str
    score: float
    needs_context: bool = False
    flags: int = 0


def list_item_patterns(
    name: str, head: str, item: str, separator: str, score: float, max_items: int, tail: str = ""
) -> tuple[Pattern, ...]:
    """One pattern per position of a list that ``head`` introduces ("Fl.Nrn. 12/3, 12/4 und
    15"): the k-th further ``item`` is the value. Python's ``re`` has no variable-length
    look-behind, so each position is its own fixed-shape pattern."""
    return tuple(
        Pattern(f"{name}_{k}", rf"{head}(?:{item}{separator}){{{k}}}(?P<value>{item}){tail}", score)
        for k in range(1, max_items)
    )


class Recognizer(Protocol):
    """What the pipeline needs from any recognizer (rule-based or not)."""

    name: str
    min_score: float

    def analyze(self, text: str) -> list[Span]: ...


def context_regex(words: Sequence[str]) -> re.Pattern[str] | None:
    """One case-insensitive regex matching any of ``words`` at a word start.

    Words match as prefixes, so ``konto`` also finds ``Kontonummer`` and ``kennzeichen``
    finds ``Kfz-Kennzeichen``; a word start keeps ``tel`` out of ``Hotel``.
    """
    if not words:
        return None
    alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![^\W\d_])(?:{alternation})", re.IGNORECASE)


def resolve_overlaps(spans: Iterable[Span]) -> list[Span]:
    """Keep the best of overlapping spans: higher score first, then the longer one.

    Greedy over spans ranked by (score, length); accepted spans are disjoint, so one
    neighbour check in a start-sorted list decides each candidate.
    """
    ranked = sorted(spans, key=lambda s: (-(s.score or 0.0), -s.length, s.start, s.end))
    starts: list[int] = []
    kept: list[Span] = []
    for span in ranked:
        idx = bisect.bisect_left(starts, span.end)
        if idx > 0 and kept[idx - 1].end > span.start:
            continue  # overlaps the accepted span that starts last before span.end
        starts.insert(idx, span.start)
        kept.insert(idx, span)
    return kept


class PatternRecognizer:
    """Regex recognizer with context boost, negative context and a checksum hook.

    Score of a hit = pattern score (+ ``VALIDATION_BOOST`` when ``validate`` confirms it)
    (+ ``CONTEXT_BOOST`` when a ``CONTEXT`` word occurs within ``CONTEXT_WINDOW`` characters
    before it), capped at 1. ``validate`` returning ``False`` rejects the hit; so does a
    ``NEGATIVE_CONTEXT`` word within ``NEGATIVE_WINDOW`` characters before it.
    """

    NAME: ClassVar[str] = "pattern"
    LABEL: ClassVar[str] = ""
    PATTERNS: ClassVar[tuple[Pattern, ...]] = ()
    CONTEXT: ClassVar[tuple[str, ...]] = ()
    CONTEXT_WINDOW: ClassVar[int] = 50
    CONTEXT_BOOST: ClassVar[float] = 0.3
    NEGATIVE_CONTEXT: ClassVar[tuple[str, ...]] = ()
    NEGATIVE_WINDOW: ClassVar[int] = 20
    VALIDATION_BOOST: ClassVar[float] = 0.0

    def __init__(self, name: str | None = None, min_score: float = 0.0) -> None:
        if not self.LABEL or not self.PATTERNS:
            raise TypeError(f"{type(self).__name__} needs LABEL and PATTERNS")
        self.name = name or self.NAME
        self.min_score = float(min_score)
        self._patterns = [(p, re.compile(p.regex, p.flags)) for p in self.PATTERNS]
        self._context = context_regex(self.CONTEXT)
        self._negative = context_regex(self.NEGATIVE_CONTEXT)

    def validate(self, hit: str) -> bool | None:
        """Checksum/format check of the matched text: False rejects, True confirms,
        None (default) means no opinion."""
        return None

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        """Offsets of the span(s) a regex match stands for; override to trim or split."""
        if "veto" in match.re.groupindex and match.group("veto") is not None:
            return
        if "value" in match.re.groupindex:
            start, end = match.span("value")
        else:
            start, end = match.span()
        if start < end:
            yield start, end

    def has_context(self, text: str, start: int) -> bool:
        if self._context is None:
            return False
        window = text[max(0, start - self.CONTEXT_WINDOW) : start]
        return self._context.search(window) is not None

    def has_negative_context(self, text: str, start: int) -> bool:
        if self._negative is None:
            return False
        window = text[max(0, start - self.NEGATIVE_WINDOW) : start]
        return self._negative.search(window) is not None

    def score_hit(self, text: str, start: int, end: int, pattern: Pattern) -> float | None:
        """Score of one candidate span, or None when it must not fire."""
        verdict = self.validate(text[start:end])
        if verdict is False or self.has_negative_context(text, start):
            return None
        context = self.has_context(text, start)
        if pattern.needs_context and not context:
            return None
        score = pattern.score
        if verdict:
            score += self.VALIDATION_BOOST
        if context:
            score += self.CONTEXT_BOOST
        return min(1.0, score)

    def analyze(self, text: str) -> list[Span]:
        """All non-overlapping hits in ``text`` at or above ``min_score``, sorted by offset."""
        spans: list[Span] = []
        for pattern, regex in self._patterns:
            for match in regex.finditer(text):
                for start, end in self.candidates(text, match):
                    score = self.score_hit(text, start, end, pattern)
                    if score is not None and score >= self.min_score:
                        spans.append(Span(start, end, self.LABEL, round(score, 4), self.name))
        result = resolve_overlaps(spans)
        logger.debug("%s: %d hits, %d kept", self.name, len(spans), len(result))
        return result
