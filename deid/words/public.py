"""Public words: capitalized words the training decisions print in clear text again and again
("ZDv", "Einschätzungsprärogative", "Sodann").

The courts, whose job is to remove what is sensitive, left them, so a model span that is one
of them is a false alarm unless the model is sure (:mod:`deid.anonymizer.policy`), and consistency never
spreads one (:mod:`deid.anonymizer.consistency`). Persons' names, places and acronyms are left out: a
court seat ("Celle") or a judge's name is public in one decision and a party's home town or
name in the next, a public body's acronym ("KBS") in one is a company's name in the next.

Built from the training split only; ``python -m deid.training.word_lists public data/corpus/train.jsonl``
regenerates the bundled list and refuses reserved evaluation documents.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from deid.sources.io import read_word_list
from deid.words.gazetteer import person_and_place_names
from deid.words.lexicon import LEX_NAME, LEX_PROPER, lexical_class

RESOURCE = Path(__file__).resolve().parents[1] / "resources" / "public_words.txt.xz"
MIN_COUNT = 3
_CAPITALIZED = re.compile(r"(?<![\wäöüß\-])[A-ZÄÖÜ][\wäöüß]*[a-zäöüß][\wäöüß]*(?![\wäöüß])")


@lru_cache(maxsize=1)
def public_words() -> frozenset[str]:
    """The bundled list (empty when it has not been built)."""
    return read_word_list(RESOURCE)


def build(texts: Iterable[str]) -> list[str]:
    """Words seen at least ``MIN_COUNT`` times, minus every word a gazetteer or Wiktionary
    knows as a person's name or a place."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(_CAPITALIZED.findall(text))
    names = person_and_place_names()
    return sorted(
        w
        for w, n in counts.items()
        if n >= MIN_COUNT and w not in names and lexical_class(w) not in (LEX_NAME, LEX_PROPER)
    )

