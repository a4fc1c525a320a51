"""What kind of noun a capitalized German word is, from Wiktionary (the ``german-nouns``
package: ~100,000 lemmas with all their inflected forms and tags).

A from-scratch model has seen a few hundred decisions; it cannot know that "Deponie",
"Anlieger" or "Tatopfer" are ordinary nouns while "Basler" is also a surname and "Celle" a
town. The lexicon knows: every inflected form of a common noun, and the lemmas Wiktionary
tags as surname, first name, place or other proper name. Names win over nouns ("Müller",
"Koch" are both), so a surname that is also a word is never called a common noun.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources

LEX_UNKNOWN, LEX_NOUN, LEX_NAME, LEX_PROPER = range(4)
N_CLASSES = 4
_NAME_TAGS = frozenset({"Nachname", "Vorname"})
_PROPER_TAGS = frozenset({"Toponym", "Eigenname", "Straßenname"})
_NOUN_TAGS = frozenset({"Substantiv", "adjektivische Deklination"})  # "der Angeklagte"
_FIRST_FORM = 7  # columns before the inflected forms: lemma, pos, genus …


def entries() -> Iterator[tuple[str, frozenset[str], tuple[str, ...]]]:
    """Every Wiktionary row: its lemma, its tags ("Substantiv", "Toponym" …) and its forms,
    the lemma first and every non-empty inflected form after it."""
    with resources.files("german_nouns").joinpath("nouns.csv").open(encoding="utf-8") as f:
        rows = csv.reader(f)
        next(rows)
        for row in rows:
            yield (
                row[0],
                frozenset(row[1].split(",")),
                (row[0], *(form for form in row[_FIRST_FORM:] if form)),
            )


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, int], frozenset[str]]:
    """One pass over Wiktionary: form → class, a form with several readings keeping the
    strongest (name > proper > noun); and every form of an ordinary noun's lemma, names that are
    words too among them ("Brauer")."""
    classes: dict[str, int] = {}
    nouns: set[str] = set()
    for _, tags, forms in entries():
        if tags & _NAME_TAGS:
            cls = LEX_NAME
        elif tags & _PROPER_TAGS:
            cls = LEX_PROPER
        elif tags <= _NOUN_TAGS:
            cls = LEX_NOUN
        else:
            continue  # affixes, abbreviations, multi-word phrases
        for form in forms:
            if form and form[0].isupper():
                if classes.get(form, LEX_UNKNOWN) < cls:
                    classes[form] = cls
                if cls == LEX_NOUN:
                    nouns.add(form)
    return classes, frozenset(nouns)


def _classes() -> dict[str, int]:
    return _tables()[0]


def lexical_class(word: str) -> int:
    """:data:`LEX_NOUN`, :data:`LEX_NAME`, :data:`LEX_PROPER` or :data:`LEX_UNKNOWN`."""
    return _classes().get(word, LEX_UNKNOWN)


def is_common_noun(word: str) -> bool:
    """A form of an ordinary noun and of nothing that could be a name."""
    return lexical_class(word) == LEX_NOUN


def reads_as_noun(word: str) -> bool:
    """A form of an ordinary noun, whether or not it is a name too ("Brauer", "Jäger",
    "Müller"): the context must tell which it is."""
    return word in _tables()[1]
