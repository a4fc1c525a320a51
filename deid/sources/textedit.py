"""Replacing character spans in a text while keeping every other offset valid.

Used wherever text is rewritten: surrogate replacement for training (anew every epoch),
the rewritten test sets and the anonymization operators. Replacements are applied in one
left-to-right pass; spans that are not replaced are shifted to the new text.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from deid.schema import Span


class OverlapError(ValueError):
    """Two replacements overlap; the caller must resolve overlaps first."""


def apply_replacements(
    text: str,
    replacements: Sequence[tuple[Span, str]],
    carry: Iterable[Span] = (),
) -> tuple[str, list[Span], list[Span]]:
    """Replace each ``span`` by its string.

    Returns ``(new_text, new_spans, carried)``: ``new_spans`` are the replaced spans at their
    new offsets (same label/score/source, in input order), ``carried`` the ``carry`` spans
    shifted to the new text. A carried span overlapping a replacement is stretched to cover
    the replacement (it never points into the middle of new text).
    """
    order = sorted(range(len(replacements)), key=lambda i: replacements[i][0].start)
    pieces: list[str] = []
    # (old_start, old_end, new_start, new_end) per replacement, sorted by old_start
    moves: list[tuple[int, int, int, int]] = []
    new_spans: list[Span | None] = [None] * len(replacements)
    pos = 0
    out_len = 0
    prev_end = -1
    for i in order:
        span, repl = replacements[i]
        if span.start < prev_end:
            raise OverlapError(f"replacement at {span.start}..{span.end} overlaps a previous one")
        if span.end > len(text):
            raise OverlapError(f"replacement {span.start}..{span.end} outside text of {len(text)}")
        pieces.append(text[pos : span.start])
        out_len += span.start - pos
        new_start = out_len
        pieces.append(repl)
        out_len += len(repl)
        moves.append((span.start, span.end, new_start, out_len))
        new_spans[i] = Span(new_start, out_len, span.label, span.score, span.source)
        pos = span.end
        prev_end = span.end
    pieces.append(text[pos:])
    new_text = "".join(pieces)
    carried = [_shift(s, moves) for s in carry]
    return new_text, [s for s in new_spans if s is not None], carried


def _map_offset(offset: int, moves: list[tuple[int, int, int, int]], *, is_end: bool) -> int:
    """Map an old offset to the new text; an offset strictly inside a replaced range snaps
    outward (start to the replacement's start, end to its end)."""
    delta = 0
    for old_s, old_e, new_s, new_e in moves:
        if offset <= old_s:
            break
        if offset < old_e:
            return new_e if is_end else new_s
        delta = new_e - old_e
    return offset + delta


def _shift(span: Span, moves: list[tuple[int, int, int, int]]) -> Span:
    start = _map_offset(span.start, moves, is_end=False)
    end = _map_offset(span.end, moves, is_end=True)
    return Span(start, max(start, end), span.label, span.score, span.source)
