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


def first_overlapping(elements: Sequence[Element], ordered: Sequence[Span]) -> list[Span | None]:
    """For each element, the first span of ``ordered`` (sorted by start) that overlaps it,
    else ``None``: one sweep over both, so per-element questions stay linear."""
    out: list[Span | None] = [None] * len(elements)
    j = 0
    for i, el in enumerate(elements):
        while j < len(ordered) and ordered[j].end <= el.start:
            j += 1
        # spans before j end before this element; if ordered[j] starts after it, all later do
        if j < len(ordered) and ordered[j].start < el.end:
            out[i] = ordered[j]
    return out


def _nonempty_sorted(spans: Iterable[Span]) -> list[Span]:
    return sorted((s for s in spans if s.end > s.start), key=lambda s: (s.start, s.end))


def element_flags(elements: Sequence[Element], spans: Iterable[Span]) -> list[bool]:
    """For each element, whether any span overlaps it (spans need not be sorted)."""
    return [s is not None for s in first_overlapping(elements, _nonempty_sorted(spans))]


def element_labels(elements: Sequence[Element], spans: Iterable[Span]) -> list[str | None]:
    """For each element, the label of the first span overlapping it, else ``None``."""
    first = first_overlapping(elements, _nonempty_sorted(spans))
    return [s.label if s is not None else None for s in first]


class Confusion(NamedTuple):
    """Element-level confusion counts with the thesis' metrics as properties."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def __add__(self, other: "Confusion") -> "Confusion":  # type: ignore[override]
        return Confusion(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn, self.tn + other.tn)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def f_beta(self, beta: float) -> float:
        p, r = self.precision, self.recall
        b2 = beta * beta
        return (1 + b2) * p * r / (b2 * p + r) if (b2 * p + r) else 0.0

    @property
    def accuracy(self) -> float:
        total = self.tp + self.fp + self.fn + self.tn
        return (self.tp + self.tn) / total if total else 1.0

    @property
    def specificity(self) -> float:
        return self.tn / (self.tn + self.fp) if self.tn + self.fp else 1.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "accuracy": round(self.accuracy, 5),
            "specificity": round(self.specificity, 5),
        }


def element_confusion(
    elements: Sequence[Element], gold: Iterable[Span], pred: Iterable[Span]
) -> tuple[Confusion, list[int], list[int]]:
    """Confusion over elements plus the indices of false-positive and false-negative elements."""
    g = element_flags(elements, gold)
    p = element_flags(elements, pred)
    tp = fp = fn = tn = 0
    fps: list[int] = []
    fns: list[int] = []
    for i, (gi, pi) in enumerate(zip(g, p)):
        if gi and pi:
            tp += 1
        elif pi:
            fp += 1
            fps.append(i)
        elif gi:
            fn += 1
            fns.append(i)
        else:
            tn += 1
    return Confusion(tp, fp, fn, tn), fps, fns
