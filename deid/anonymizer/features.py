"""Word-level features for from-scratch models: how common a word is in general German
(wordfreq's Zipf scale), whether it is capitalized and what its shape says about it.

A small model trained only on a few hundred decisions has never seen most German words; it
learns "unfamiliar word ⇒ name" and flags "Angeklagten" or "Abgasnorm". A frequency bucket
per word gives it general-language knowledge for free: surnames and invented surrogates are
rare, legal vocabulary is common. German compounds are the exception: "Waisengeld" or
"Schwurgerichtskammer" are as rare as a surname, but they are built from common words
("Waisen" + "geld"), or end in a noun suffix ("-ung", "-keit"), or name a role
("Angeklagten"); the ``v2`` set adds that shape (:mod:`deid.words.shapes`). The ``v3`` set
adds what Wiktionary says the exact form is (:mod:`deid.words.lexicon`): an ordinary noun ("Deponie"), a surname or first
name ("Koch"), a place or other proper name ("Celle"), or nothing it knows; ``v4`` adds
whether an unknown word ends in a known noun ("Tatopfer"). The feature travels in BERT's
``token_type_ids`` (a from-scratch model gets one type embedding per feature id); pretrained
checkpoints, which already know German, do without it.

Feature sets are versioned: a saved model records the one it was trained with
(``config.deid_features``) and is always fed that one.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from operator import itemgetter

from deid.words.lexicon import N_CLASSES as N_LEX_CLASSES
from deid.words.lexicon import lexical_class
from deid.words.shapes import N_SHAPES, SHAPE_NONE, noun_compound, word_shape, zipf

ZIPF_EDGES = (1.0, 2.0, 3.0, 4.0, 5.0)  # buckets: <1, 1–2, 2–3, 3–4, 4–5, ≥5
N_BUCKETS = len(ZIPF_EDGES) + 1
_WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")


def _v1(word: str) -> int:
    bucket = bisect_right(ZIPF_EDGES, zipf(word))
    return 1 + bucket + (N_BUCKETS if word[:1].isupper() else 0)


def _v2(word: str) -> int:
    base = _v1(word) - 1  # 0 .. 2 * N_BUCKETS - 1
    shape = word_shape(word) if word[:1].isupper() else SHAPE_NONE
    return 1 + base * N_SHAPES + shape


def _v3(word: str) -> int:
    return 1 + (_v2(word) - 1) * N_LEX_CLASSES + lexical_class(word)  # lower case: unknown


def _v4(word: str) -> int:
    return 1 + (_v3(word) - 1) * 2 + noun_compound(word)


# name → (number of feature ids including 0 = no word, word → id)
FEATURE_SETS: dict[str, tuple[int, Callable[[str], int]]] = {
    "wordfreq-zipf-case.v1": (1 + 2 * N_BUCKETS, _v1),
    "wordfreq-zipf-case-shape.v2": (1 + 2 * N_BUCKETS * N_SHAPES, _v2),
    "wordfreq-zipf-case-shape-lex.v3": (1 + 2 * N_BUCKETS * N_SHAPES * N_LEX_CLASSES, _v3),
    "wordfreq-zipf-case-shape-lex-compound.v4": (1 + 2 * N_BUCKETS * N_SHAPES * N_LEX_CLASSES * 2, _v4),
}
FEATURE_SET = "wordfreq-zipf-case-shape-lex-compound.v4"  # what new models are built with


def num_features(feature_set: str = FEATURE_SET) -> int:
    return FEATURE_SETS[feature_set][0]


def word_feature(word: str, feature_set: str = FEATURE_SET) -> int:
    """Feature id of one word in ``feature_set``."""
    return FEATURE_SETS[feature_set][1](word)


_START = itemgetter(0)


@cache
def _cached(feature_set: str) -> Callable[[str], int]:
    """``feature_set``'s word → id, each word computed once: decisions repeat their words."""
    return lru_cache(maxsize=100_000)(FEATURE_SETS[feature_set][1])


def word_bounds(text: str) -> list[tuple[int, int]]:
    """Start and end of every word of ``text`` (what :func:`token_features` looks tokens up in)."""
    return [(m.start(), m.end()) for m in _WORD.finditer(text)]


def token_features(
    text: str,
    offsets: Sequence[Sequence[int]],
    feature_set: str = FEATURE_SET,
    words: Sequence[tuple[int, int]] | None = None,
) -> list[int]:
    """Per token (by its character offsets): the feature of the word it belongs to.

    ``words``: :func:`word_bounds` of ``text``, computed once per text by callers that ask for
    many windows of one long document. The work per call is the window's, not the text's
    (anything per text, a scan or a list of word starts, made long documents quadratic)."""
    feature = _cached(feature_set)
    words = word_bounds(text) if words is None else words
    out: list[int] = []
    cache: dict[int, int] = {}
    i = -1  # the word at or before the last token: a window's tokens run forward, so the
    # next token's word is found by walking on from it (one bisection when a token goes back)
    for start, end in offsets:
        if end <= start:
            out.append(0)
            continue
        if i < 0 or start < words[i][0]:
            i = bisect_right(words, start, key=_START) - 1
        else:
            while i + 1 < len(words) and words[i + 1][0] <= start:
                i += 1
        if i < 0 or words[i][1] <= start:
            out.append(0)
            continue
        if i not in cache:
            s, e = words[i]
            cache[i] = feature(text[s:e])
        out.append(cache[i])
    return out
