"""German place names of more than one word: "Frankfurt am Main", "Freiburg im Breisgau",
"Halle (Saale)", "Potsdam Fahrland", "Sankt Augustin".

A token model and the name rules find "Braunau" (or "Braunau am") and stop before "Inn", which
leaves the part that tells which Braunau it is, or the district of a town. Two closed lists
from the place gazetteer complete such a span:

* the words after a link ("am", "im", "an der" …) in the gazetteer's names (rivers, lakes,
  regions: "Main", "Inn", "Bodensee", "Taunus"): a location, organization or other span
  followed by a link and one of them is extended over both;
* the gazetteer's names of several words: a location span that is the start of one, followed
  by the rest of it, is extended to the whole name.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

from deid.schema import LOCATION, ORGANIZATION, OTHER, Span, merge_spans

_LINK = r"(?:am|im|an der|in der|ob der|vor der|auf der)"
_SUFFIX_IN_GAZETTEER = re.compile(rf" {_LINK} ([A-ZÄÖÜ][\wäöüß\-]+)$")
_ENDS_IN_LINK = re.compile(rf" {_LINK}$")


@lru_cache(maxsize=1)
def _cities() -> list[str]:
    from deid.surrogates.gazetteers import read_lines

    return read_lines("cities.txt.xz")


@lru_cache(maxsize=1)
def _after() -> re.Pattern[str]:
    """A link and a word that follows one in the gazetteer ("Rothenburg ob der Tauber" gives
    "Tauber"; "bei" is no link: in "Neustadt bei Coburg" it is a relation)."""
    words = {m.group(1) for name in _cities() if (m := _SUFFIX_IN_GAZETTEER.search(name))}
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf" {_LINK} (?:{alternatives})(?![\wäöüß\-])")


@lru_cache(maxsize=1)
def _multiword() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The gazetteer's names of several words by their first and by their last word,
    longest first."""
    firsts: dict[str, list[str]] = defaultdict(list)
    lasts: dict[str, list[str]] = defaultdict(list)
    for name in sorted(_cities(), key=len, reverse=True):
        words = name.split(" ")
        if len(words) > 1:
            firsts[words[0]].append(name)
            lasts[words[-1]].append(name)
    return dict(firsts), dict(lasts)


def _whole_name(text: str, span: Span) -> tuple[int, int]:
    """The extent of the place name ``span`` is part of."""
    surface = text[span.start : span.end]
    link = _ENDS_IN_LINK.search(surface)  # "Braunau am" + " Inn"
    after = span.start + link.start() if link else span.end
    if m := _after().match(text, after):
        return span.start, m.end()
    if span.label != LOCATION:
        return span.start, span.end
    firsts, lasts = _multiword()
    for name in firsts.get(surface.split(" ", 1)[0], ()):  # "Potsdam" + " Fahrland"
        end = span.start + len(name)
        if end > span.end and text.startswith(name, span.start) and _word_edge(text, end):
            return span.start, end
    for name in lasts.get(surface.rsplit(" ", 1)[-1], ()):  # "Potsdam " + "Fahrland"
        start = span.end - len(name)
        if 0 <= start < span.start and text.startswith(name, start) and _word_edge(text, start - 1):
            return start, span.end
    return span.start, span.end


def _word_edge(text: str, i: int) -> bool:
    """No letter, digit or hyphen at ``i`` (outside the text counts as an edge)."""
    return not (0 <= i < len(text) and (text[i].isalnum() or text[i] in "-_"))


_PLACE_LIKE = frozenset({LOCATION, ORGANIZATION, OTHER})


def extend_places(text: str, spans: list[Span]) -> list[Span]:
    """Location spans, and organization or other spans before " am Main", extended to the
    whole place name; spans the extension reaches into are merged into it."""
    grown = [
        Span(*_whole_name(text, s), s.label, s.score, s.source) if s.label in _PLACE_LIKE else s
        for s in spans
    ]
    return merge_spans(grown, [])
