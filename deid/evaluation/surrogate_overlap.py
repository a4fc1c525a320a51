"""Which gold surrogates the system could already know, and the documents where it cannot.

The LER rewrite draws its surrogates from the ``eval`` pool of the gazetteers, so no surrogate
*entry* was a training surrogate. A *word* of one may still be known to the system, and recall
on known words says little about names it never met. Four sources are checked:

* ``train_pool``: a word of a ``train``-pool entry of any list (an eval-pool surname can be part
  of a train-pool company or street);
* ``gazetteers``: a word of the raw lists, every pool (surnames, first names, cities, streets,
  companies, countries). Rules and model features consult most of them:
  ``deid.words.ordinary.known_name`` (features, consistency) reads surnames, first names and
  cities, ``deid.anonymizer.policy`` cities and countries; streets and companies are surrogate material. Every
  eval-pool surrogate comes from these lists, so this source knows nearly all of them;
* ``lexicon``: a name or place to Wiktionary (``deid.words.lexicon.lexical_class``, a model feature);
* ``training_text``: a word of the training decisions' text.

Only *name words* are looked up: capitalized words of two letters or more that are not generic
(a legal form or trade word in an organization, a street word in a street, a title, or a word
the system deems ordinary and no known name). Matching is exact, as the lists and features
match. A document is *unseen* if its PERSON/LOCATION/STREET/ORGANIZATION spans have name words
and no source knows any of them; *unseen in training* if neither the train pool nor the
training text knows any (the gazetteers and the lexicon may). The report holds counts and
document ids, never words.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from deid.schema import LOCATION, ORGANIZATION, PERSON, STREET, Document, coarse_label

logger = logging.getLogger(__name__)

OVERLAP_TYPES: tuple[str, ...] = (PERSON, LOCATION, STREET, ORGANIZATION)
SOURCES: dict[str, str] = {
    "train_pool": "a word of a train-pool entry (surnames, first names, cities, streets, companies)",
    "gazetteers": "a word of the raw gazetteer lists, every pool: surnames, first names, cities, "
    "countries (read by rules and features) and streets, companies (surrogate material)",
    "lexicon": "a Wiktionary name or place form (deid.words.lexicon, a model input feature)",
    "training_text": "a word of the training decisions' text",
}
TRAINING_SOURCES: frozenset[str] = frozenset({"train_pool", "training_text"})
# evaluate(..., subsets=...) name -> the document list of an overlap set it takes
SUBSETS: dict[str, str] = {
    "unseen_surrogates": "unseen",
    "unseen_in_training": "unseen_in_training",
}
_WORD = re.compile(r"[^\W\d_]+")  # letter runs: "Otto-Leutkircher-Straße 57" has three
_TITLES = frozenset({"Dr", "Prof", "Dres", "Dipl", "Ing"})
_GAZETTEER_FILES = (
    "surnames.txt.xz", "cities.txt.xz", "streets.txt.xz", "companies.txt.xz", "countries.txt.xz",
)  # fmt: skip

Source = Callable[[str], bool]


def words_of(text: str) -> list[str]:
    """The letter runs of a text, the unit every source is matched in."""
    return _WORD.findall(text)


def _word_set(entries: Iterable[str]) -> frozenset[str]:
    return frozenset(w for entry in entries for w in words_of(entry))


# --- name words -------------------------------------------------------------------------


@cache
def _organization_words() -> frozenset[str]:
    """Legal forms and the generator's trade words: shared by every company, no name."""
    from deid.rewrite.surrogates.organization import TRADES
    from deid.words.vocab import LEGAL_FORMS

    return _word_set(LEGAL_FORMS) | frozenset(TRADES)


def is_generic(word: str, label: str) -> bool:
    """A word of a ``label`` span that names nothing by itself ("GmbH", "Bau", "Straße",
    "Kollegen"): knowing it says nothing about knowing the name."""
    from deid.rewrite.surrogates.street import STREET_WORDS
    from deid.words.ordinary import is_ordinary_word, known_name

    if word in _TITLES:
        return True
    if label == ORGANIZATION and word in _organization_words():
        return True
    if label == STREET and word.casefold() in STREET_WORDS:
        return True
    return is_ordinary_word(word) and not known_name(word)


def name_words(surface: str, label: str) -> tuple[list[str], list[str]]:
    """``(name words, generic words)`` of a span's text: capitalized words of ≥ 2 letters;
    initials ("K.") and lowercase links ("am", "von") are neither."""
    words = [w for w in words_of(surface) if len(w) >= 2 and w[0].isupper()]
    generic = [w for w in words if is_generic(w, label)]
    return [w for w in words if w not in generic], generic


# --- sources ----------------------------------------------------------------------------


@cache
def train_pool_words() -> frozenset[str]:
    """Words of every ``train``-pool entry: what training surrogates were drawn from."""
    from deid.rewrite.surrogates.gazetteers import gazetteers

    gaz = gazetteers("train")
    samplers = [gaz.surnames, gaz.cities, gaz.streets, gaz.companies, *gaz.first_names.values()]
    return _word_set(entry for sampler in samplers for entry in sampler.entries)


@cache
def gazetteer_words() -> frozenset[str]:
    """Words of the raw gazetteer lists, every pool, uncleaned: what the rules consult."""
    from deid.words.gazetteer import read_lines

    entries = [entry for name in _GAZETTEER_FILES for entry in read_lines(name)]
    entries += [line.split("\t", 1)[0] for line in read_lines("first_names.tsv.xz")]
    return _word_set(entries)


def lexicon_name(word: str) -> bool:
    """A Wiktionary surname, first name, place or other proper name form."""
    from deid.words.lexicon import LEX_NAME, LEX_PROPER, lexical_class

    return lexical_class(word) in (LEX_NAME, LEX_PROPER)


def text_words(paths: Iterable[str | Path]) -> tuple[frozenset[str], list[dict[str, Any]]]:
    """Words of the ``text`` of every JSONL document in ``paths`` and what was read (path,
    documents); a missing file is skipped and listed with ``documents: null``."""
    from deid.sources.io import read_jsonl

    words: set[str] = set()
    read: list[dict[str, Any]] = []
    for path in map(Path, paths):
        if not path.exists():
            logger.warning("training text %s not found: not checked", path)
            read.append({"path": str(path), "documents": None})
            continue
        n = 0
        for rec in read_jsonl(path):
            words.update(words_of(str(rec.get("text") or "")))
            n += 1
        read.append({"path": str(path), "documents": n})
    return frozenset(words), read


def default_sources(training_text: frozenset[str]) -> dict[str, Source]:
    """The four sources of :data:`SOURCES` as word predicates."""
    return {
        "train_pool": train_pool_words().__contains__,
        "gazetteers": gazetteer_words().__contains__,
        "lexicon": lexicon_name,
        "training_text": training_text.__contains__,
    }


class _Lookup:
    """The sources knowing a word, cached: names repeat within and across documents."""

    def __init__(self, sources: Mapping[str, Source]) -> None:
        self.sources = dict(sources)
        self._known: dict[str, frozenset[str]] = {}

    def __call__(self, word: str) -> frozenset[str]:
        if word not in self._known:
            self._known[word] = frozenset(n for n, knows in self.sources.items() if knows(word))
        return self._known[word]

    def seen(self, words: Iterable[str], within: Iterable[str] | None = None) -> bool:
        """Whether any source (of ``within``, default all) knows any of ``words``."""
        wanted = set(self.sources if within is None else within)
        return any(self(w) & wanted for w in words)


# --- counts -----------------------------------------------------------------------------


@dataclass
class _TypeCounts:
    """Span and distinct-word counts of one type (the words stay in memory, never in output)."""

    spans: int = 0
    without_name_words: int = 0
    known_by: Counter = field(default_factory=Counter)
    unseen: int = 0
    unseen_in_training: int = 0
    words: set[str] = field(default_factory=set)
    generic: set[str] = field(default_factory=set)

    def add(self, names: list[str], generic: list[str], known: _Lookup) -> None:
        self.spans += 1
        self.generic.update(generic)
        if not names:
            self.without_name_words += 1
            return
        self.words.update(names)
        for source in known.sources:
            self.known_by[source] += known.seen(names, [source])
        self.unseen += not known.seen(names)
        self.unseen_in_training += not known.seen(names, TRAINING_SOURCES)

    def as_dict(self, known: _Lookup) -> dict[str, Any]:
        return {
            "spans": self.spans,
            "spans_without_name_words": self.without_name_words,
            "spans_known_by": {s: self.known_by[s] for s in known.sources},
            "spans_unseen": self.unseen,
            "spans_unseen_in_training": self.unseen_in_training,
            "words": len(self.words),
            "words_known_by": {s: sum(s in known(w) for w in self.words) for s in known.sources},
            "words_unseen": sum(not known(w) for w in self.words),
            "words_unseen_in_training": sum(not known(w) & TRAINING_SOURCES for w in self.words),
            "generic_words": len(self.generic),
        }


def _ids(ids: list[str]) -> dict[str, Any]:
    return {"count": len(ids), "ids": ids}


def overlap_set(
    docs: Iterable[Document], sources: Mapping[str, Source], types: Sequence[str] = OVERLAP_TYPES
) -> dict[str, Any]:
    """Counts per type and the unseen documents of one gold set (see the module docstring).

    Args:
        docs: gold documents; ``spans`` are read, labels mapped to coarse types.
        sources: name -> predicate "this word is known" (:func:`default_sources`).
        types: the span types checked.
    Returns:
        ``documents`` (total, with name words, ``unseen`` and ``unseen_in_training`` as
        count and ids) and ``per_type`` counts; no text.
    """
    known = _Lookup(sources)
    per_type = {label: _TypeCounts() for label in types}
    total = with_words = 0
    unseen: list[str] = []
    unseen_training: list[str] = []
    for doc in docs:
        total += 1
        words: set[str] = set()
        for span in doc.spans:
            label = coarse_label(span.label)
            if label in per_type:
                names, generic = name_words(doc.text[span.start : span.end], label)
                per_type[label].add(names, generic, known)
                words.update(names)
        if not words:
            continue
        with_words += 1
        if not known.seen(words):
            unseen.append(doc.id)
        if not known.seen(words, TRAINING_SOURCES):
            unseen_training.append(doc.id)
    return {
        "documents": {
            "total": total,
            "with_name_words": with_words,
            "unseen": _ids(unseen),
            "unseen_in_training": _ids(unseen_training),
        },
        "per_type": {label: counts.as_dict(known) for label, counts in per_type.items()},
    }


def overlap_report(
    gold_sets: Mapping[str, tuple[str, Sequence[Document]]],
    sources: Mapping[str, Source],
    training_text: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The surrogate overlap report of several gold sets (name -> (path, documents))."""
    return {
        "parameters": {
            "types": list(OVERLAP_TYPES),
            "sources": {name: SOURCES.get(name, name) for name in sources},
            "training_text": list(training_text),
        },
        "sets": {
            name: {"gold": path, **overlap_set(docs, sources)}
            for name, (path, docs) in gold_sets.items()
        },
    }


# --- restricting an evaluation ----------------------------------------------------------


def unseen_subsets(report: Mapping[str, Any]) -> dict[str, list[str]]:
    """The ids of every set's unseen documents by subset name, for
    ``deid.evaluation.metrics.evaluate(..., subsets=...)``; ids of other sets are ignored there."""
    sets = report["sets"].values()
    return {
        subset: sorted(i for s in sets for i in s["documents"][key]["ids"])
        for subset, key in SUBSETS.items()
    }


def read_unseen_subsets(path: str | Path) -> dict[str, list[str]]:
    """:func:`unseen_subsets` of an overlap report file."""
    return unseen_subsets(json.loads(Path(path).read_text(encoding="utf-8")))


def unseen_documents(
    docs: Iterable[Document], report: Mapping[str, Any], subset: str = "unseen_surrogates"
) -> list[Document]:
    """The gold documents of ``subset``: evaluate these alone for a table of documents whose
    surrogates are unseen."""
    ids = set(unseen_subsets(report)[subset])
    return [d for d in docs if d.id in ids]
