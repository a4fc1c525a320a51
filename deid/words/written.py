"""How a document itself writes a capitalized word that is no name.

German capitalizes nouns, names and every sentence's first word; a model that learned names
from the courts' placeholders reads a rare capitalized word as a name. The document often says
otherwise, and no list has to:

* at a sentence's start, a word that is lowercase inside a sentence ("Unstreitig ist …",
  "Beruht die Kündigung …"): a word the training decisions write in lowercase, or an adjective
  by its suffix ("Maßgeblich ist …", "Fraglich ist, ob …");
* a term the document introduces with "sogenannt" or "sog." ("über das sogenannte Hawala-
  Banking", "die sog. Hawala"), in every mention.

Not taken: a word the same document also writes in lowercase elsewhere. Quoted chats write
names in lowercase too, and outside quotes the dev sets showed one such word.

The callers veto a word any list holds as a name (:func:`deid.words.ordinary.is_listed_name`).
Chosen on the dev halves and the from-scratch dev decisions (docs/results.md).
"""

from __future__ import annotations

import re
from functools import lru_cache

from deid.words.vocab import LOWER, UPPER
from deid.words.vocabulary import lowercase_words

# where a sentence begins: the text's start, a line's, or after a sentence's stop
_SENTENCE_START_BEFORE = re.compile(r"(?:\A|\n|[.!?][ \u00a0])[ \u00a0]*$")
_SENTENCE_START_WINDOW = 4  # the characters before a word that decide it

# an adjective by its suffix, declined or not ("maßgeblich", "unerheblichen", "statthafte")
_ADJECTIVE = re.compile(rf"[{LOWER}]{{2,}}(?:bar|lich|ig|isch|sam|haft|los)(?:e|er|en|es|em)?")
# "die sogenannte Hawala", "sog. „Clearing-Stelle“", "so genannten Hawaladare"
_INTRODUCED = re.compile(
    rf"(?<![\w\-])(?:[Ss]og\.|[Ss]o[ \u00a0-]?genannt(?:e|en|er|es|em)?)[ \u00a0]+[„\"“»]?"
    rf"([{UPPER}][{LOWER}]+(?:-[{UPPER}][{LOWER}]+)*)(?![\w\-])"
)


def at_sentence_start(text: str, start: int) -> bool:
    """Whether a word at ``start`` begins a sentence (or a line)."""
    return _SENTENCE_START_BEFORE.search(text, max(0, start - _SENTENCE_START_WINDOW), start) is not None


def lowercase_elsewhere(word: str) -> bool:
    """A capitalized word that German writes in lowercase inside a sentence: one the training
    decisions write so, or an adjective by its suffix."""
    low = word.lower()
    return low in lowercase_words() or _ADJECTIVE.fullmatch(low) is not None


@lru_cache(maxsize=4)
def introduced_terms(text: str) -> frozenset[str]:
    """The words ``text`` introduces as a term ("sogenannte …", "sog. …"); cached, as a
    filter asks once per span of the same document (a string keeps its hash)."""
    return frozenset(_INTRODUCED.findall(text))
