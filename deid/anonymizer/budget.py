"""What one document may cost, counted before any work starts, never in seconds.

Every layer of the pipeline is linear in a document's length (the rules, the tokenizer, the
model's windows, consistency; bench/pathological.py measures it on hostile inputs), so a
document's cost is bounded by what it is made of: its characters, its tokens and its longest
word. A document over any of them is refused before the pipeline reads it further,
deterministically: the same input is refused on every machine, however busy. The tokens are
the model's own (its tokenizer's count: the windows it will run are that many) when the
pipeline has a model, else words and punctuation marks. A "word" of thousands of letters is
no word (the longest in the bundled corpora has 78): it is refused by its length, before the
tokenizer cuts it into hundreds of thousands of pieces.

:class:`OverBudget`'s message is the quarantine reason: counts and limits only, never text.
The review service gives an analysis a time limit (:class:`Deadline`, from the pipeline's
``max_seconds``); a batch has none, so its outcome never depends on the clock.
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
# punctuation marks): the token count of a pipeline without a model.
_PRETOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Words and punctuation marks of ``text`` (a lower bound of any model's tokens)."""
    return sum(1 for _ in _PRETOKEN.finditer(text))


def longest_word(text: str) -> int:
    """Characters of the longest run of word characters (one linear pass)."""
    return max((m.end() - m.start() for m in re.finditer(r"\w+", text)), default=0)


@dataclass(frozen=True)
class DocumentBudget:
    """Limits per document; 0 switches one off."""

    max_characters: int
    max_tokens: int
    max_word_characters: int

    def check_size(self, text: str, tokens: Callable[[str], int] = count_tokens) -> None:
        """Raise :class:`OverBudget` for a text over a limit, cheapest count first:
        characters (none), the longest word (a regex pass), ``tokens`` (the model's
        tokenizer, or :func:`count_tokens`)."""
        if self.max_characters and len(text) > self.max_characters:
            raise OverBudget(f"document too large: {len(text)} characters > {self.max_characters}")
        if self.max_word_characters:
            longest = longest_word(text)
            if longest > self.max_word_characters:
                raise OverBudget(
                    f"document refused: a word of {longest} characters > {self.max_word_characters} (not text)"
                )
        if self.max_tokens:
            count = tokens(text)
            if count > self.max_tokens:
                raise OverBudget(f"document too large: {count} tokens > {self.max_tokens}")


class Deadline:
    """A service request's time limit, checked between pipeline layers (never in a batch:
    there a document's budget is counted, not timed)."""

    def __init__(self, seconds: float, clock: Callable[[], float] | None = None) -> None:
        """``seconds``: 0 never expires; ``clock``: :func:`time.monotonic` by default."""
        self.seconds = seconds
        self.clock = clock or time.monotonic
        self.started = self.clock()

    def check(self, after: str) -> None:
        """Raise :class:`OverBudget` when the time is spent (``after``: the layer just done)."""
        spent = self.clock() - self.started
        if self.seconds and spent > self.seconds:
            raise OverBudget(
                f"request over its time limit: {spent:.0f} s > {self.seconds:g} s after {after}"
            )
