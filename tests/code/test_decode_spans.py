"""Decoding token probabilities into word-aligned spans (deid.anonymizer.ner.decode_spans): the same
spans as widening every piece to its word, in time linear in the text."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from deid.anonymizer.ner import decode_spans, widen_to_words
from deid.schema import MODEL_SOURCE, Span
from tests.conftest import read_source

TYPES = ["LOCATION", "PERSON"]
TAGS = ["O", "B-LOCATION", "I-LOCATION", "B-PERSON", "I-PERSON"]
SENSITIVE = [1, 2, 3, 4]
TYPE_COLS = [[1, 2], [3, 4]]
B_COLS = {1, 3}


def _reference(text: str, pieces: list[tuple[int, int, str, float]]) -> list[Span]:
    """What widening did before it was made linear: every piece widened to whole words on its
    own, then merged into the previous span when they overlap."""
    out: list[Span] = []
    for start, end, label, score in pieces:
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isalnum():
            end += 1
        if out and start < out[-1].end:
            prev = out[-1]
            out[-1] = Span(prev.start, max(prev.end, end), prev.label, prev.score, MODEL_SOURCE)
        else:
            out.append(Span(start, end, label, score, MODEL_SOURCE))
    return out


def _pieces(text: str, rng: random.Random) -> np.ndarray:
    """Sub-word offsets: each whitespace-separated word cut into pieces of 1-4 characters."""
    offsets = []
    for match in re.finditer(r"\S+", text):
        pos = match.start()
        while pos < match.end():
            end = min(pos + rng.randint(1, 4), match.end())
            offsets.append((pos, end))
            pos = end
    return np.array(offsets, dtype=int)


def test_widening_equals_widening_every_piece_on_real_text() -> None:
    """Random pieces of real decision lines (with long made-up words): the linear widening
    gives exactly the spans of widening every piece on its own."""
    rng = random.Random(7)
    decision = read_source("decisions/bag/1-azr-62-23.txt.xz")
    lines = [line for line in decision.split("\n") if len(line) > 80]
    for case in range(1000):
        text = rng.choice(lines)[:300]
        if case % 3 == 0:  # a long compound-like word in the middle
            text = text[:50] + "".join(rng.choice("abcdefgh") for _ in range(120)) + text[50:]
        pieces, pos = [], 0
        for start, end in _pieces(text, rng):
            if rng.random() < 0.4 and start >= pos:
                stop = min(len(text), end + rng.randint(0, 6))
                pieces.append((int(start), stop, rng.choice(TYPES), rng.random()))
                pos = stop
        assert widen_to_words(text, pieces) == _reference(text, pieces)


def test_decoding_groups_pieces_into_word_spans() -> None:
    text = "Der Kläger Hans Wolkenhammer wohnt in Kranichrode."
    offsets = np.array([(0, 3), (4, 10), (11, 15), (16, 21), (21, 28), (29, 34), (35, 37), (38, 45), (45, 49)], dtype=int)
    probs = np.zeros((len(offsets), len(TAGS)))
    probs[:, 0] = 1.0
    probs[2], probs[3], probs[4] = [0, 0, 0, 0.9, 0.1], [0, 0, 0, 0.1, 0.9], [0.4, 0, 0, 0, 0.6]
    probs[7] = [0.1, 0.9, 0, 0, 0]  # "Kranich" only: the span takes the whole word
    spans = decode_spans(text, offsets, probs, SENSITIVE, TYPE_COLS, TYPES, B_COLS, 0.5)
    assert [(text[s.start : s.end], s.label) for s in spans] == [("Hans Wolkenhammer", "PERSON"), ("Kranichrode", "LOCATION")]


@pytest.mark.timeout(60)  # linear: well under a second; widening every piece took minutes
@pytest.mark.slow
def test_a_huge_word_of_many_flagged_pieces_decodes_in_linear_time() -> None:
    """A 400,000-character token cut into pieces whose labels alternate, every piece flagged:
    each piece became a span widened over the whole word, one full pass per piece."""
    text = "Der Kläger " + "x" * 400_000 + " wohnt hier."
    start = len("Der Kläger ")
    offsets = np.array([(i, i + 2) for i in range(start, start + 400_000, 2)], dtype=int)
    probs = np.zeros((len(offsets), len(TAGS)))
    probs[0::2, 1] = 1.0  # B-LOCATION
    probs[1::2, 3] = 1.0  # B-PERSON
    spans = decode_spans(text, offsets, probs, SENSITIVE, TYPE_COLS, TYPES, B_COLS, 0.5)
    assert spans == [Span(start, start + 400_000, "LOCATION", 1.0, MODEL_SOURCE)]
