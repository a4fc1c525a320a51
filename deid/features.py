"""Word-level features for from-scratch models: how common a word is in general German
(wordfreq's Zipf scale), whether it is capitalized and what its shape says about it.

A small model trained only on a few hundred decisions has never seen most German words; it
learns "unfamiliar word ⇒ name" and flags "Angeklagten" or "Abgasnorm". A frequency bucket
per word gives it general-language knowledge for free: surnames and invented surrogates are
rare, legal vocabulary is common. German compounds are the exception: "Waisengeld" or
"Schwurgerichtskammer" are as rare as a surname, but they are built from common words
("Waisen" + "geld"), or end in a noun suffix ("-ung", "-keit"), or name a role
("Angeklagten"); the ``v2`` set adds that shape. The ``v3`` set adds what Wiktionary says
the exact form is (:mod:`deid.lexicon`): an ordinary noun ("Deponie"), a surname or first
name ("Koch"), a place or other proper name ("Celle"), or nothing it knows; ``v4`` adds
whether an unknown word ends in a known noun ("Tatopfer"). The feature travels in BERT's
``token_type_ids`` (a from-scratch model gets one type embedding per feature id); pretrained
checkpoints, which already know German, do without it.

Feature sets are versioned: a saved model records the one it was trained with
(``config.deid_features``) and is always fed that one.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from operator import itemgetter
from typing import TypeVar

from deid.lexicon import LEX_UNKNOWN, is_common_noun, lexical_class
from deid.lexicon import N_CLASSES as N_LEX_CLASSES

ZIPF_EDGES = (1.0, 2.0, 3.0, 4.0, 5.0)  # buckets: <1, 1–2, 2–3, 3–4, 4–5, ≥5
N_BUCKETS = len(ZIPF_EDGES) + 1
_WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")

# Shapes (v2): none, role or institution noun, noun-suffix derivation, compound of common words.
SHAPE_NONE, SHAPE_ROLE, SHAPE_SUFFIX, SHAPE_COMPOUND = range(4)
N_SHAPES = 4
_DERIVATION = (
    "ung", "ungen", "heit", "heiten", "keit", "keiten", "schaft", "schaften", "tion", "tionen",
    "tät", "täten", "ismus", "nis", "nisse", "ment", "ments", "ierung",
)  # fmt: skip
# Heads that make surnames and place names ("Felsenberg", "Lindemann", "Rosenheim"): a word
# ending in one is not taken for a compound of common words.
_NAME_HEADS = frozenset(
    ["berg", "burg", "heim", "dorf", "hausen", "hofen", "feld", "felde", "bach", "stein", "mann", "brunn", "born", "thal", "tal", "wald", "furt", "rode", "ingen", "stedt", "stadt", "leben", "see", "kirchen", "münster", "weiler", "reuth", "ried", "horst", "hagen", "beck", "meier", "mayer", "maier", "schmidt", "hardt", "hart", "fels", "hof", "hoff", "haus", "brück", "brücken", "au", "bruch", "graben", "rath", "roth", "kamp", "winkel", "busch", "holz", "mühle", "bauer", "müller", "schneider", "weber", "fischer", "wagner", "becker", "meyer", "schulz", "koch", "richter", "wolf", "krüger", "lang", "lange", "werth", "wert", "ort", "acker", "land"]
)
_LINKS = ("s", "es", "n", "en", "e", "")
_MIN_PART = 4  # shorter fragments ("ver", "sen") are frequent in wordfreq but not words
# A "word" longer than this is no word a name or compound test can say anything about (the
# longest in the bundled corpora has 78 characters): it counts as rare, shapeless and no
# compound, unlooked-at and uncached. The shape and compound tests are quadratic in a word's
# length and their caches keep every word they saw: a 1 MB token would take hours and a
# document of many long tokens gigabytes.
MAX_WORD_CHARS = 100
_T = TypeVar("_T")


def _per_word(long_word: _T) -> Callable[[Callable[[str], _T]], Callable[[str], _T]]:
    """A cached function of one word that answers ``long_word`` for words longer than
    :data:`MAX_WORD_CHARS` without calling it (nor caching them)."""

    def wrap(fn: Callable[[str], _T]) -> Callable[[str], _T]:
        cached = lru_cache(maxsize=200_000)(fn)

        @wraps(fn)
        def call(word: str) -> _T:
            return long_word if len(word) > MAX_WORD_CHARS else cached(word)

        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return call

    return wrap


@lru_cache(maxsize=1)
def _frequencies() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("de")


@_per_word(0.0)
def _zipf(word: str) -> float:
    """wordfreq's Zipf value (its tokenizer joins hyphenated words, folds "ß")."""
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, "de"), zipf_frequency(word.lower(), "de"))


def _known(part: str, min_zipf: float) -> bool:
    """A plain dictionary lookup: compound splitting tries many parts per word."""
    if len(part) < _MIN_PART:
        return False
    freq = _frequencies().get(part.casefold(), 0.0)
    return freq > 0 and math.log10(freq) + 9 >= min_zipf


@lru_cache(maxsize=200_000)
def _modifier(part: str, depth: int = 0) -> bool:
    """Whether ``part`` (lower case) is a common word or a compound of them, linking
    element ("-s-", "-en-") allowed."""
    for link in _LINKS:
        if not part.endswith(link):
            continue
        stem = part[: len(part) - len(link)] if link else part
        if _known(stem, 2.5):
            return True
        if depth < 2 and any(
            _known(stem[i:], 2.5) and _modifier(stem[:i], depth + 1)
            for i in range(_MIN_PART, len(stem) - 3)
        ):
            return True
    return False


@_per_word(SHAPE_NONE)
def word_shape(word: str) -> int:
    """What the form of a capitalized word says: a role, a derived noun or a compound of
    common words (none of which a name usually is)."""
    from deid.placeholders import lexicon as lx
    from deid.placeholders.rules import is_role

    if is_role(word) or word in lx.ORG_CUES or word in lx.LOCATION_CUES:
        return SHAPE_ROLE
    lower = word.lower()
    if len(lower) >= 7 and lower.endswith(_DERIVATION):
        return SHAPE_SUFFIX
    if len(lower) >= 2 * _MIN_PART:
        for i in range(_MIN_PART, len(lower) - _MIN_PART + 1):
            heads = _inflections(lower[i:])
            if not heads & _NAME_HEADS and any(_known(h, 3.0) for h in heads) and _modifier(lower[:i]):
                return SHAPE_COMPOUND
    return SHAPE_NONE


def _inflections(head: str) -> set[str]:
    """The head and its stem without a case or plural ending ("Tatentschlusses" ends in
    "entschluss", "Verordnungsgebers" in "geber")."""
    out = {head}
    for ending in ("es", "s", "en", "n"):
        if head.endswith(ending) and len(head) - len(ending) >= _MIN_PART:
            out.add(head[: -len(ending)])
    return out


def _v1(word: str) -> int:
    bucket = bisect_right(ZIPF_EDGES, _zipf(word))
    return 1 + bucket + (N_BUCKETS if word[:1].isupper() else 0)


def _v2(word: str) -> int:
    base = _v1(word) - 1  # 0 .. 2 * N_BUCKETS - 1
    shape = word_shape(word) if word[:1].isupper() else SHAPE_NONE
    return 1 + base * N_SHAPES + shape


def _v3(word: str) -> int:
    return 1 + (_v2(word) - 1) * N_LEX_CLASSES + lexical_class(word)  # lower case: unknown


@_per_word(False)
def noun_compound(word: str) -> bool:
    """A capitalized word Wiktionary does not know that ends in one of its ordinary nouns
    ("Tatopfer" = "Tat" + "Opfer", "Freienstatut"), the head not a surname or place head
    ("-berg", "-mann"). Many such words are compounds; some surnames are too ("Schliessleder"),
    so this is a feature for the model to weigh, never a rule."""
    if lexical_class(word) != LEX_UNKNOWN or not word[:1].isupper() or "-" in word:
        return False
    for i in range(3, len(word) - _MIN_PART + 1):
        head = word[i].upper() + word[i + 1 :]
        if is_common_noun(head) and not _inflections(head.lower()) & _NAME_HEADS:
            return True
    return False


_ONE_WORD = re.compile(r"[^\W\d_]+")
_SURNAME_ENDINGS = tuple(sorted(h for h in _NAME_HEADS if len(h) >= 5))


@_per_word(False)
def plain_compound(word: str) -> bool:
    """One word built from ordinary words: a noun compound ("Erschwerniszulage",
    "Haaranalyse"), a compound of common words or a noun derivation ("Drogenanamnese",
    "Beurteilungsbeitrag"), and neither a name the gazetteers or Wiktionary know
    ("Schliessleder", "Siggenhofen") nor a street ("Koboldstraße"). The policy uses it to
    doubt model spans; unlike :func:`noun_compound` it is no model feature, so it may change."""
    from deid.lexicon import known_name
    from deid.placeholders.lexicon import STREET_WORD

    if not _ONE_WORD.fullmatch(word) or known_name(word) or STREET_WORD.search(word):
        return False
    if word.lower().endswith(_SURNAME_ENDINGS):
        return False  # "Seidlmeier" ends in the noun "Eier" but is a "-meier"
    return noun_compound(word) or word_shape(word) in (SHAPE_SUFFIX, SHAPE_COMPOUND)


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
    feature = FEATURE_SETS[feature_set][1]
    words = word_bounds(text) if words is None else words
    out: list[int] = []
    cache: dict[int, int] = {}
    for start, end in offsets:
        if end <= start:
            out.append(0)
            continue
        i = bisect_right(words, start, key=_START) - 1
        if i < 0 or words[i][1] <= start:
            out.append(0)
            continue
        if i not in cache:
            s, e = words[i]
            cache[i] = feature(text[s:e])
        out.append(cache[i])
    return out
