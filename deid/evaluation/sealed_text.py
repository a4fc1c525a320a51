"""Whether the project's own text (tests, code, docs) repeats passages of a sealed half.

The sealed halves of the gold sets report; nothing may be written from them. A sentence of a
sealed decision copied into a test or a comment means a rule was written while looking at it,
and the sealed figure then measures what was seen. This finds such lines: a line that shares
at least :data:`MIN_SHARED` word 6-grams with the sealed halves that neither the dev halves nor
the background (the training courts' decisions, the from-scratch sets) hold. Court boilerplate
("Der Streitwert wird auf 5.000,00 EUR festgesetzt.") is in the background and does not count.

It reports paths, line numbers and counts, never a passage.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from deid.evaluation.metrics import document_half
from deid.schema import Document

N = 6  # words per passage: long enough that two texts share one only by copying
MIN_SHARED = 3  # passages one line must share to count (a common sentence's tail shares one or two)
_WORD = re.compile(r"\w+")


def word_grams(text: str) -> set[tuple[str, ...]]:
    """Every run of :data:`N` consecutive words of ``text``, lower-cased."""
    words = [w.lower() for w in _WORD.findall(text)]
    return {tuple(words[i : i + N]) for i in range(len(words) - N + 1)}


def sealed_passages(gold: Iterable[Document], background: Iterable[str]) -> frozenset[tuple[str, ...]]:
    """The passages of the gold documents' sealed halves that no dev document and no
    background text holds."""
    sealed: set[tuple[str, ...]] = set()
    other: set[tuple[str, ...]] = set()
    for doc in gold:
        (sealed if document_half(doc) == "sealed" else other).update(word_grams(doc.text))
    for text in background:
        other.update(word_grams(text))
    return frozenset(sealed - other)


def repeated_lines(path: Path, passages: frozenset[tuple[str, ...]]) -> Iterator[tuple[int, int]]:
    """``(line number, passages shared)`` of each line of ``path`` that shares at least
    :data:`MIN_SHARED` of ``passages``."""
    with path.open(encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            shared = len(word_grams(line) & passages)
            if shared >= MIN_SHARED:
                yield number, shared
