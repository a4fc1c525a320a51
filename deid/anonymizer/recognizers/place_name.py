"""A village or a part of a town after the word that says one follows ("im Ortsteil Grub",
"des Gemeindeteils Unterried", "im Weiler Hinterbuchet", "der Gemarkung Oberhummel"), and a
town abroad with its country in brackets ("ein Hotel in Side (Türkei)").

Such a place is often a single farmstead's or hamlet's name, short and unknown to any list
("Grub", "Au", "Öd"), which the model leaves where no name-like shape betrays it. The cue word
is the evidence, so it is part of the pattern and the span covers the name only; the cue must
follow a lowercase article or preposition ("im Ortsteil", "der Gemarkung") so that "Weiler" as
a surname ("Herr Weiler") is no cue. The policy keeps a big city as everywhere. Chosen on the
from-scratch dev set (a cattle farm in a hamlet of a Bavarian municipality).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.gazetteer import cities, countries, is_big_city
from deid.words.lexicon import is_common_noun
from deid.words.shapes import zipf

_BEFORE = r"(?<![\w\-])(?:im|in|dem|den|der|des|die|einem|einen|eines|einer|vom|zum|am|beim)[ \u00a0]"
_CUE = r"(?:Ortsteils?|Ortsteilen|Gemeindeteils?|Weilers?|Ortschaft|Gemarkung|Gemarkungen)"
_NAME = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)*"
# a town abroad: "in"/"aus"/"nach" and one or two capitalized words, its country in brackets
# (any letters: "Side", "Bacău"); the country must be one of the list. Not a firm's seat ("mit Sitz
# in Dublin (Irland)", training text): a company abroad is mostly a big one in a big city
_ABROAD = (
    r"(?<![\w\-])(?<!Sitz[ \u00a0])(?:in|aus|nach|bei)[ \u00a0](?P<value>[A-ZÄÖÜ][^\W\d_]+(?:[ \u00a0\-][A-ZÄÖÜ][^\W\d_]+)?)"
    r"[ \u00a0]\((?P<country>[A-ZÄÖÜ][^()\n]{2,40})\)"
)


class PlaceNameRecognizer(PatternRecognizer):
    """A place's name after "Ortsteil", "Gemeindeteil", "Weiler", "Ortschaft", "Gemarkung", or
    before its country in brackets."""

    NAME = "place_name"
    LABEL = "PLACE_NAME"
    PATTERNS = (
        Pattern("place_after_cue", rf"{_BEFORE}{_CUE}[ \u00a0](?P<value>{_NAME})(?![\w\-])", 0.8),
        Pattern("town_abroad", _ABROAD, 0.75),
    )

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if "country" in match.re.groupindex and match.group("country") not in countries():
            return
        yield from super().candidates(text, match)


# Version 2 (the batch of the twenty-second session, written before the chain ran on it): a town
# of the list after a word of direction ("auf der Terrasse der Mittelbergalpe oberhalb von
# Oberstaufen", "zwei Kilometer nördlich von Thalmassing"), which the model left there; no big
# city (the policy keeps it), no ordinary or frequent word ("oberhalb von Berg"); and an
# alpine pasture's or hut's name by its word ("der Mittelbergalpe", "auf der Kallbrunnalm"), a
# business and a place in one that no list holds; no word of the lexicon ("die Hochalm").
_DIRECTION = (
    r"(?<![\w\-])(?P<direction>[a-zäöü]*(?:nördlich|südlich|östlich|westlich)|oberhalb|unterhalb|außerhalb|unweit)"
    r"(?:[ \u00a0](?:von|vom))?"
)
_PASTURE = (
    r"(?<![\w\-])(?:der|die|einer|zur|auf[ \u00a0]der|an[ \u00a0]der)[ \u00a0]"
    r"(?P<value>[A-ZÄÖÜ][a-zäöüß]{3,}(?P<pasture>alpe|alm))(?![\w\-])"
)
_TOWN_MAX_ZIPF = 3.5


class PlaceNameRecognizerV2(PlaceNameRecognizer):
    """Version 1, a town of the list after a word of direction and an alpine pasture's name."""

    PATTERNS = (
        *PlaceNameRecognizer.PATTERNS,
        Pattern("town_by_direction", rf"{_DIRECTION}[ \u00a0](?P<value>{_NAME})(?![\w\-])", 0.7),
        Pattern("pasture", _PASTURE, 0.7),
    )

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        groups = match.re.groupindex
        value = match.group("value")
        if "direction" in groups and (
            value not in cities() or is_big_city(value) or is_common_noun(value) or zipf(value) >= _TOWN_MAX_ZIPF
        ):
            return
        if "pasture" in groups and is_common_noun(value):
            return
        yield from super().candidates(text, match)
