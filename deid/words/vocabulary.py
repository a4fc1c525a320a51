"""Lowercase words and nouns of the training corpus.

Tells a capitalized word at a sentence start ("… und S. Triftige Gründe …") from a surname
after an initial ("M. Rennpferdt"): a word that also occurs in lower case is ordinary
language. Built from the training split only; ``python -m deid.training.word_lists vocabulary
data/corpus/train.jsonl`` regenerates the bundled lists.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from deid.sources.io import read_word_list

RESOURCE = Path(__file__).resolve().parents[1] / "resources" / "lowercase_words.txt.xz"
NOUN_RESOURCE = Path(__file__).resolve().parents[1] / "resources" / "nouns.txt.xz"
_WORD = re.compile(r"(?<![\wäöüß])[a-zäöüß]{3,}(?![\wäöüß])")
# a capitalized word after an article or a determiner is a noun ("der Verlauf", "die Hilfe")
_NOUN = re.compile(
    r"(?<![\wäöüß])(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines|keine|keinen|"
    r"seine|seiner|ihre|ihrer|diese|dieser|diesem|jede|jeder)\s([A-ZÄÖÜ][a-zäöüß]{2,})(?![\wäöüß])"
)
MIN_COUNT = 3


@lru_cache(maxsize=1)
def lowercase_words() -> frozenset[str]:
    """Words the training corpus writes in lower case at least ``MIN_COUNT`` times."""
    return read_word_list(RESOURCE)


@lru_cache(maxsize=1)
def noun_words() -> frozenset[str]:
    """Capitalized words the training corpus uses as nouns (after an article)."""
    return read_word_list(NOUN_RESOURCE)


def build_nouns(texts: Iterable[str]) -> list[str]:
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(_NOUN.findall(text))
    return sorted(w for w, n in counts.items() if n >= 2)


def build(texts: Iterable[str]) -> list[str]:
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(_WORD.findall(text))
    return sorted(w for w, n in counts.items() if n >= MIN_COUNT)

