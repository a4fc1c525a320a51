"""Rewriting a whole text: every placeholder span replaced by its document surrogate,
offsets of the new and of all other spans recomputed by ``deid.sources.textedit``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deid.rewrite.surrogates.document import DocumentSurrogates
from deid.schema import Span
from deid.sources.textedit import apply_replacements

CONTEXT_WINDOW = 60  # characters before (and after) a span that generators may read


def substitute(
    text: str,
    spans: Sequence[Span],
    surrogates: DocumentSurrogates,
    carry: Iterable[Span] = (),
    window: int = CONTEXT_WINDOW,
) -> tuple[str, list[Span], list[Span]]:
    """Replace each span by a surrogate of its label.

    Returns ``(new_text, new_spans, carried)``: ``new_spans`` cover the surrogates (labels
    kept, in the order of ``spans``), ``carried`` are the ``carry`` spans shifted to the new
    text. Spans must not overlap (``deid.sources.textedit.OverlapError``). Contexts are read from
    the original text, so a surrogate never sees another surrogate.
    """
    replacements = []
    for span in spans:
        context = text[max(0, span.start - window) : span.start]
        after = text[span.end : span.end + window]
        surface = text[span.start : span.end]
        replacements.append((span, surrogates.surrogate(span.label, surface, context, after)))
    return apply_replacements(text, replacements, carry)
