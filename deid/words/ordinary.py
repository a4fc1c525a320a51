"""Whether a capitalized word is ordinary language or a known name, from all word lists.

Joins the Wiktionary lexicon (:mod:`deid.words.lexicon`), the public words of the training
decisions (:mod:`deid.words.public`), the corpus' lowercase words
(:mod:`deid.words.vocabulary`) and the gazetteers (:mod:`deid.words.gazetteer`); kept apart
from them so that none of those lists depends on another.
"""

from __future__ import annotations

from functools import lru_cache

from wordfreq import zipf_frequency

from deid.words.gazetteer import first_names, person_and_place_names
from deid.words.lexicon import LEX_NAME, LEX_PROPER, is_common_noun, lexical_class
from deid.words.public import public_words
from deid.words.vocabulary import lowercase_words


def is_ordinary_word(word: str) -> bool:
    """A lexicon noun, or a word the training decisions leave in clear text again and again
    (:func:`deid.words.public.public_words`): either way nothing to anonymize."""
    return is_common_noun(word) or word in public_words()


def known_name(word: str) -> bool:
    """A surname, first name or place of the gazetteers or of the lexicon that is no
    lowercase word at a sentence start ("Weiß", "Will", "Klein")."""
    if word.lower() in lowercase_words():
        return False
    return lexical_class(word) in (LEX_NAME, LEX_PROPER) or word in person_and_place_names()


def is_plain_first_name(word: str) -> bool:
    """A first name of the bundled list that is no ordinary or lowercase word ("Jonas", not
    "Frau", "Klein", "Will"): where a first name stands alone, only such a word is one."""
    return word in first_names() and word.lower() not in lowercase_words() and not is_ordinary_word(word)


# wordfreq's languages whose everyday words the federal courts quote untranslated in German text
# ("80th Flying Training Wing", "Hogeschool", "Chechens in Russia")
FREQUENT_LANGUAGES = ("de", "en", "nl")


@lru_cache(maxsize=65536)
def zipf_any(word: str, languages: tuple[str, ...] = FREQUENT_LANGUAGES) -> float:
    """The word's highest Zipf frequency (wordfreq, lower-cased) in ``languages``."""
    return max(zipf_frequency(word.lower(), lang) for lang in languages)


def is_listed_name(word: str) -> bool:
    """A surname, first name or place of the gazetteers or a name of the lexicon, whatever
    else it may be ("Jäger", "Bart", "Mengen"): the lists' veto on every word filter."""
    return word in person_and_place_names() or lexical_class(word) in (LEX_NAME, LEX_PROPER)


def is_frequent_word(word: str, min_zipf: float, languages: tuple[str, ...] = FREQUENT_LANGUAGES) -> bool:
    """A word everyday German, English or Dutch text uses at least ``min_zipf`` ("Scheitert",
    "Flying", "Hogeschool") and no list holds as a name (:func:`is_listed_name`)."""
    return zipf_any(word, languages) >= min_zipf and not is_listed_name(word)
