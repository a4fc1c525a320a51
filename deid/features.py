"""Word-level features for from-scratch models: how common a word is in general German
(wordfreq's Zipf scale) and whether it is capitalized.

A small model trained only on a few hundred decisions has never seen most German words; it
learns "unfamiliar word ⇒ name" and flags "Angeklagten" or "Abgasnorm". A frequency bucket
per word gives it general-language knowledge for free: surnames and invented surrogates are
rare, legal vocabulary is common. The feature travels in BERT's ``token_type_ids`` (a
from-scratch model gets one type embedding per bucket); pretrained checkpoints, which
already know German, do without it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Sequence

FEATURE_SET = "wordfreq-zipf-case.v1"
ZIPF_EDGES = (1.0, 2.0, 3.0, 4.0, 5.0)  # buckets: <1, 1–2, 2–3, 3–4, 4–5, ≥5
N_BUCKETS = len(ZIPF_EDGES) + 1
NUM_FEATURES = 1 + 2 * N_BUCKETS  # 0 = no word (special tokens, punctuation, numbers)
_WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")


@lru_cache(maxsize=200_000)
def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, "de"), zipf_frequency(word.lower(), "de"))


def word_feature(word: str) -> int:
    """Feature id of one word: frequency bucket, doubled for capitalized words."""
    bucket = bisect_right(ZIPF_EDGES, _zipf(word))
    return 1 + bucket + (N_BUCKETS if word[:1].isupper() else 0)


def token_features(text: str, offsets: Sequence[Sequence[int]]) -> list[int]:
    """Per token (by its character offsets): the feature of the word it belongs to."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    starts = [s for s, _ in words]
    out: list[int] = []
    cache: dict[int, int] = {}
    for start, end in offsets:
        if end <= start:
            out.append(0)
            continue
        i = bisect_right(starts, start) - 1
        if i < 0 or words[i][1] <= start:
            out.append(0)
            continue
        if i not in cache:
            s, e = words[i]
            cache[i] = word_feature(text[s:e])
        out.append(cache[i])
    return out
