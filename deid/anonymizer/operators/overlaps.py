"""Turning detector output (unsorted, overlapping, duplicated spans) into disjoint spans.

Unlike ``deid.anonymizer.recognizers.resolve_overlaps``, which drops the weaker of two overlapping
detections, operators merge them: dropping one would leave the part only it covered in clear
text, and every detected character must be neutralized.
"""

from __future__ import annotations

from collections.abc import Iterable

from deid.schema import Span


def _rank(span: Span) -> tuple:
    """Best first: higher score (None counts as 0), then longer, then earlier; label and
    source last, so the choice never depends on input order."""
    return (-(span.score or 0.0), -span.length, span.start, span.end, span.label, span.source or "")


def merge_overlaps(spans: Iterable[Span]) -> list[Span]:
    """Disjoint spans sorted by start.

    Spans that overlap (share at least one character, also transitively) become one span
    over their union, with label, score and source of the best of them (``_rank``). Spans
    that merely touch stay apart; empty spans are dropped (nothing to neutralize).
    """
    ordered = sorted((s for s in spans if s.length > 0), key=lambda s: (s.start, s.end))
    groups: list[list[Span]] = []
    group_end = -1
    for span in ordered:
        if groups and span.start < group_end:
            groups[-1].append(span)
            group_end = max(group_end, span.end)
        else:
            groups.append([span])
            group_end = span.end
    merged = []
    for group in groups:
        best = min(group, key=_rank)
        end = max(s.end for s in group)
        merged.append(Span(group[0].start, end, best.label, best.score, best.source))
    return merged
