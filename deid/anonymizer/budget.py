"""What one document may cost: a size budget checked before any work, and a wall-clock
deadline as a last resort.

Every layer of the pipeline is linear in a document's length, but a 20 MB text still holds a
worker for many minutes and gigabytes (the model's inference windows of a whole text are
built at once). So a document over the size budget is refused before it is read further,
deterministically: the same input is refused on every machine. The deadline is checked
between the pipeline's layers, so it cannot cut a layer short; it keeps a document that is
slow for a reason nobody foresaw from going through every further layer.

Both raise :class:`OverBudget`, whose message is the quarantine reason: counts and limits
only, never text.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass


class OverBudget(ValueError):
    """A document over its budget; the message names counts and limits, never text, so a
    batch writes it as the document's quarantine reason."""


# What a BERT-style pre-tokenizer splits a text into before sub-words (words and single
# punctuation marks): fewer than the model's tokens, so a bound on it bounds the windows.
_PRETOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Words and punctuation marks of ``text`` (a lower bound of any model's tokens)."""
    return sum(1 for _ in _PRETOKEN.finditer(text))


@dataclass(frozen=True)
class DocumentBudget:
    """Limits per document; 0 switches one off."""

    max_characters: int
    max_tokens: int
    max_seconds: float

    def check_size(self, text: str) -> None:
        """Raise :class:`OverBudget` for a text over the character or token limit (the
        characters first: counting tokens is a pass over the text)."""
        if self.max_characters and len(text) > self.max_characters:
            raise OverBudget(f"document too large: {len(text)} characters > {self.max_characters}")
        if self.max_tokens:
            tokens = count_tokens(text)
            if tokens > self.max_tokens:
                raise OverBudget(f"document too large: {tokens} tokens > {self.max_tokens}")

    def deadline(self, documents: int = 1) -> Deadline:
        """The time budget of ``documents`` documents handled together, starting now."""
        return Deadline(self.max_seconds * documents)


class Deadline:
    """The wall-clock budget of one document, checked between pipeline layers."""

    def __init__(self, seconds: float, clock: Callable[[], float] | None = None) -> None:
        """``seconds``: 0 never expires; ``clock``: :func:`time.monotonic` by default."""
        self.seconds = seconds
        self.clock = clock or time.monotonic
        self.started = self.clock()

    def check(self, after: str) -> None:
        """Raise :class:`OverBudget` when the budget is spent (``after``: the layer just done)."""
        spent = self.clock() - self.started
        if self.seconds and spent > self.seconds:
            raise OverBudget(
                f"document over its time budget: {spent:.0f} s > {self.seconds:g} s after {after}"
            )
