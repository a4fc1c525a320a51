"""What the form of a German word says: how common it is (wordfreq's Zipf scale), whether
it names a role, is a noun derivation or a compound of common words, or ends in a known noun.

A small model trained only on a few hundred decisions has never seen most German words; it
learns "unfamiliar word ⇒ name" and flags "Angeklagten" or "Abgasnorm". German compounds are
as rare as a surname ("Waisengeld", "Schwurgerichtskammer") but are built from common words
("Waisen" + "geld"), end in a noun suffix ("-ung", "-keit") or name a role ("Angeklagten").

:func:`zipf`, :func:`word_shape` and :func:`noun_compound` are model input features
(:mod:`deid.anonymizer.features`): they read only frozen lists (:mod:`deid.words.shape_cues` and the
constants here), never the placeholder miner's editable ones, so a saved model always sees
the input it was trained on (``tests/code/test_feature_golden.py``). :func:`plain_compound`
is no feature and may change.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import TypeVar

from deid.words.lexicon import LEX_UNKNOWN, is_common_noun, lexical_class
from deid.words.ordinary import known_name
from deid.words.shape_cues import LOCATION_CUES, ORG_CUES, is_role
from deid.words.vocab import STREET_WORD

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
def zipf(word: str) -> float:
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
    if is_role(word) or word in ORG_CUES or word in LOCATION_CUES:
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
    if not _ONE_WORD.fullmatch(word) or known_name(word) or STREET_WORD.search(word):
        return False
    if word.lower().endswith(_SURNAME_ENDINGS):
        return False  # "Seidlmeier" ends in the noun "Eier" but is a "-meier"
    return noun_compound(word) or word_shape(word) in (SHAPE_SUFFIX, SHAPE_COMPOUND)
