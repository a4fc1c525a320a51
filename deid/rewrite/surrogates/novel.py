"""Novel surrogates: made-up German names that no list, lexicon or training text holds.

The ``eval`` pool keeps test-set surrogates out of training, but its entries come from the
same gazetteers that the rules, the word features and the consistency layer read, so a test
set rewritten with them measures the model together with its lists. This source composes
surnames, given names and places from name elements (``deid.rewrite.surrogates.novel_elements``:
"Wolken" + "hammer", "Ort" + "wig", "Birk" + "ingen"), streets and companies from those, and
keeps a composition only if no word of it is known to any of:

* ``gazetteers``: the raw lists, every pool (surnames, first names, cities, streets,
  companies, countries, laws);
* ``train_pool``: the entries training surrogates are drawn from;
* ``lexicon``: any Wiktionary form (``deid.words.lexicon``: nouns, names, places);
* ``wordfreq``: any German word with a frequency (Zipf > 0);
* ``training_text``: the training and validation decisions' text.

Matching is case-insensitive (stricter than the overlap report, which matches exactly). The
lists are a pure function of the elements and those sources, so a rewrite with a seed is
reproducible; :meth:`NovelNames.digest` tells two builds apart. The existing generators
(``person``, ``location``, ``street``, ``organization``) draw from a
:class:`NovelGazetteers` exactly as from a pool's gazetteers.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from deid.rewrite.surrogates.gazetteers import GENDERS, Gazetteers, Sampler
from deid.rewrite.surrogates.novel_elements import (
    GIVEN_HEADS,
    GIVEN_STEMS,
    PLACE_HEADS,
    PLACE_STEMS,
    SHORT_HEADS,
    STEMS,
    STREET_HEADS,
    SURNAME_HEADS,
)
from deid.words.gazetteer import read_lines

logger = logging.getLogger(__name__)

NOVEL = "novel"  # the source's name where a pool name is recorded
DEFAULT_TRAINING_TEXT: tuple[Path, ...] = (
    Path("data/corpus/train.jsonl"),
    Path("data/corpus/validation.jsonl"),
)
DEFAULT_SOURCES = Path("data/sources")
SHAPE = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]{3,17}$")  # one capitalized German word, 4-18 letters
_TRIPLE = re.compile(r"(.)\1\1")  # "Schilllinger": no German spelling
_VOWELS = frozenset("aeiouäöüy")
_VOWEL_GROUP = re.compile(r"[aeiouäöüy]+")
# A short head repeating the stem's last sound ("Kohl" + "le", "Stock" + "ke") reads wrong.
_DOUBLED_SEAM = re.compile(r"(?:ll|ckk|kk|nn)(?:e|er|el|ert|ing)?$")
SHORT_SURNAME = 8  # surnames up to this length are drawn more often ...
SHORT_SURNAME_WEIGHT = 6.0  # ... so about a third of the drawn ones are short ("Torfke")

Source = Callable[[str], bool]


# --- what the system knows ---------------------------------------------------------------


def _folded(words: Iterable[str]) -> frozenset[str]:
    return frozenset(w.casefold() for w in words)


@cache
def _list_words() -> frozenset[str]:
    """Case-folded words of every raw gazetteer list, every pool, laws included."""
    from deid.evaluation.surrogate_overlap import gazetteer_words, words_of

    laws = (w for entry in read_lines("laws.txt.xz") for w in words_of(entry))
    return _folded(gazetteer_words()) | _folded(laws)


@cache
def _train_pool_words() -> frozenset[str]:
    from deid.evaluation.surrogate_overlap import train_pool_words

    return _folded(train_pool_words())


def _in_lexicon(word: str) -> bool:
    from deid.words.lexicon import LEX_UNKNOWN, lexical_class

    return lexical_class(word) != LEX_UNKNOWN or lexical_class(word.capitalize()) != LEX_UNKNOWN


def _in_wordfreq(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "de") > 0


def known_word_sources(training_text: Iterable[str]) -> dict[str, Source]:
    """Name -> "this word is known" for every source of the module docstring."""
    text = _folded(training_text)
    lists, pool = _list_words(), _train_pool_words()
    return {
        "gazetteers": lambda w: w.casefold() in lists,
        "train_pool": lambda w: w.casefold() in pool,
        "lexicon": _in_lexicon,
        "wordfreq": _in_wordfreq,
        "training_text": lambda w: w.casefold() in text,
    }


def any_source(sources: Mapping[str, Source]) -> Source:
    """One predicate: some source knows the word."""
    checks = tuple(sources.values())
    return lambda word: any(knows(word) for knows in checks)


def training_text_words(
    paths: Sequence[Path] = DEFAULT_TRAINING_TEXT, sources: Path = DEFAULT_SOURCES
) -> tuple[frozenset[str], dict[str, Any]]:
    """Words of the training and validation decisions and where they came from: the built
    corpus files when all exist, else the same splits rebuilt from ``sources`` by
    ``deid.sources.corpus`` (which never puts a reserved court there)."""
    from deid.evaluation.surrogate_overlap import text_words, words_of

    if paths and all(Path(p).exists() for p in paths):
        words, read = text_words(paths)
        return words, {"files": read}
    logger.warning("training text files missing: rebuilding the splits from %s", sources)
    from deid.sources.corpus import load_decisions, load_ler_sources, split_corpus

    decisions, _rejected = load_decisions(sources)
    splits = split_corpus(load_ler_sources(sources) + decisions)
    docs = splits["train"] + splits["validation"]
    words = frozenset(w for doc in docs for w in words_of(doc.text))
    return words, {
        "sources": str(sources),
        "splits": ["train", "validation"],
        "documents": len(docs),
    }


# --- composing --------------------------------------------------------------------------


def compose(stems: Iterable[str], heads: Iterable[str]) -> list[str]:
    """``stem + head`` for every pair that reads as one word: no vowel meeting a vowel at the
    seam ("Heide" + "eder"), no letter three times in a row."""
    heads = tuple(heads)
    out: list[str] = []
    for stem in stems:
        for head in heads:
            if stem[-1].casefold() in _VOWELS and head[0] in _VOWELS:
                continue
            word = stem + head
            if not _TRIPLE.search(word.casefold()):
                out.append(word)
    return out


_ADJECTIVE_ENDINGS: tuple[tuple[str, str], ...] = (
    ("ingen", "inger"), ("stadt", "städter"), ("weiler", "weiler"), ("e", "er"),
)  # fmt: skip


def one_syllable(stem: str) -> bool:
    """Whether a stem has one syllable ("Brand", "Torf", "Schilf"): those take short heads."""
    return len(_VOWEL_GROUP.findall(stem.casefold())) == 1


def adjective(place: str) -> str:
    """The place's "-er" form, as in "Birkinger Straße" ("Birkingen" -> "Birkinger",
    "Moosstadt" -> "Moosstädter", "Birkrode" -> "Birkroder", "Birkfeld" -> "Birkfelder")."""
    for ending, form in _ADJECTIVE_ENDINGS:
        if place.endswith(ending):
            return place[: -len(ending)] + form
    return f"{place}er"


def is_novel(word: str, known: Source) -> bool:
    """One realistic word (capitalized, German letters, 4-18 long) nothing knows."""
    return bool(SHAPE.match(word)) and not _TRIPLE.search(word.casefold()) and not known(word)


def _keep(candidates: Iterable[str], known: Source) -> tuple[str, ...]:
    """Novel candidates, deduplicated in order."""
    return tuple(w for w in dict.fromkeys(candidates) if is_novel(w, known))


def _streets(
    surnames: Sequence[str], given: Sequence[str], places: Sequence[str], known: Source
) -> tuple[str, ...]:
    """Every street form the street generator asks for: glued ("Birkhuberweg"), spaced
    ("Birkinger Straße") and hyphenated ("Ortwig-Birkhuber-Straße"), street words in turn."""
    n = len(STREET_HEADS)
    glued = [f"{s}{STREET_HEADS[i % n]}" for i, s in enumerate(surnames)]
    glued = [g for g in glued if not known(g)]
    spaced = [
        f"{adjective(p)} {STREET_HEADS[i % n].capitalize()}"
        for i, p in enumerate(places)
        if is_novel(adjective(p), known)
    ]
    hyphen = [f"{s}-{STREET_HEADS[i % n].capitalize()}" for i, s in enumerate(surnames[::2])]
    hyphen += [
        f"{given[i % len(given)]}-{s}-{STREET_HEADS[i % n].capitalize()}"
        for i, s in enumerate(surnames[1::2])
    ]
    return tuple(glued + spaced + hyphen)


def _companies(surnames: Sequence[str], places: Sequence[str], known: Source) -> tuple[str, ...]:
    """Company names of a novel name and a trade word ("Birkhuber Logistik")."""
    from deid.rewrite.surrogates.organization import TRADES

    n = len(TRADES)
    names = list(surnames) + [adjective(p) for p in places if is_novel(adjective(p), known)]
    return tuple(f"{name} {TRADES[i % n]}" for i, name in enumerate(names))


@dataclass(frozen=True)
class NovelNames:
    """The filtered lists one novel source draws from."""

    surnames: tuple[str, ...]
    first_names: Mapping[str, tuple[str, ...]]
    places: tuple[str, ...]
    streets: tuple[str, ...]
    companies: tuple[str, ...]

    def digest(self) -> str:
        """A short hash of every list: two rewrites drew from the same names iff equal."""
        data = json.dumps(
            [self.surnames, dict(sorted(self.first_names.items())), self.places, self.streets,
             self.companies],
            ensure_ascii=False,
        )  # fmt: skip
        return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]

    def counts(self) -> dict[str, int]:
        """Sizes of the lists (for logs and reports: no names)."""
        return {
            "surnames": len(self.surnames),
            **{f"first_names_{g}": len(v) for g, v in sorted(self.first_names.items())},
            "places": len(self.places),
            "streets": len(self.streets),
            "companies": len(self.companies),
        }


def novel_names(known: Source) -> NovelNames:
    """Compose and filter every list (see the module docstring)."""
    short = [
        word
        for word in compose([s for s in STEMS if one_syllable(s)], SHORT_HEADS)
        if not _DOUBLED_SEAM.search(word)
    ]
    surnames = _keep(compose(STEMS, SURNAME_HEADS) + short, known)
    first = {g: _keep(compose(GIVEN_STEMS, GIVEN_HEADS[g]), known) for g in GENDERS}
    places = _keep(compose(STEMS + PLACE_STEMS, PLACE_HEADS), known)
    given = first["m"] + first["f"]
    return NovelNames(
        surnames=surnames,
        first_names=first,
        places=places,
        streets=_streets(surnames, given, places, known),
        companies=_companies(surnames, places, known),
    )


class NovelGazetteers(Gazetteers):
    """:class:`~deid.rewrite.surrogates.gazetteers.Gazetteers` whose samplers hold novel names.

    Reading a real first name's gender (``first_name_genders``) still uses the real lists:
    that reads the placeholder, it draws nothing from them.
    """

    def __init__(self, names: NovelNames) -> None:
        self.pool = NOVEL
        self.names = names

    @cached_property
    def surnames(self) -> Sampler:
        names = self.names.surnames
        weights = [SHORT_SURNAME_WEIGHT if len(n) <= SHORT_SURNAME else 1.0 for n in names]
        return Sampler(names, weights)

    @cached_property
    def first_names(self) -> dict[str, Sampler]:
        return {g: Sampler(self.names.first_names[g]) for g in GENDERS}

    @cached_property
    def cities(self) -> Sampler:
        return Sampler(self.names.places)

    @cached_property
    def streets(self) -> Sampler:
        return Sampler(self.names.streets)

    @cached_property
    def companies(self) -> Sampler:
        return Sampler(self.names.companies)


def novel_gazetteers(training_text: Iterable[str]) -> NovelGazetteers:
    """The novel source for a training text (its words are what training saw)."""
    return NovelGazetteers(novel_names(any_source(known_word_sources(training_text))))
