"""A police officer's name after the rank: "der Zeuge PHM Gerstl", "POMin Huber", "gegenüber
Kriminalhauptkommissar Wendl".

The policy neutralizes police officers acting as witnesses under both profiles
(docs/anonymization-policy.md). Bavarian decisions cite the officer by rank abbreviation and
surname; the model, which learned persons from placeholders after "Zeuge" or "Herr", reads the
abbreviation as the name ("POM" flagged, "Kagerer" found) or misses the surname after it. The
rank (deid.words.vocab.POLICE_RANK) is the evidence; the name after it is one capitalized
word, a surname even where it is also a noun ("PHM Gerstl"), and a second one that no lexicon
lists as an ordinary noun ("POK Anna Wendl", not "PHM Gerstl Anzeige").
Chosen on the from-scratch dev set; the 598 training and validation decisions cite no officer
so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.lexicon import is_common_noun
from deid.words.vocab import CAPITALIZED_NAME, POLICE_RANK

_S = r"[ \u00a0]"
_NAME = (
    rf"(?<![\w-])(?:{POLICE_RANK})(?:{_S}z\.{_S}?A\.)?{_S}"
    rf"(?P<value>{CAPITALIZED_NAME}(?:{_S}{CAPITALIZED_NAME})?)(?![\w-])"
)


class OfficerNameRecognizer(PatternRecognizer):
    """The name after a police rank."""

    NAME = "officer_name"
    LABEL = "OFFICER_NAME"
    PATTERNS = (Pattern("rank_and_name", _NAME, 0.75),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span("value")
        words = text[start:end].split()
        if len(words) == 2 and is_common_noun(words[1]):  # "PHM Gerstl Anzeige": the sentence goes on
            words.pop()
        yield start, start + len(" ".join(words))
