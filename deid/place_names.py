"""German place names of more than one word: "Frankfurt am Main", "Freiburg im Breisgau",
"Weiden in der Oberpfalz".

A token model and the name rules find "Braunau" and stop before " am Inn", which leaves the
river, the very part that tells which Braunau it is. The words that follow such a link in the
place gazetteer (rivers, lakes, regions, mountains: "Main", "Inn", "Bodensee", "Taunus") are a
closed list; a location span followed by a link and one of them is extended over both.
"""

from __future__ import annotations

import re
from functools import lru_cache

from deid.schema import LOCATION, Span

_LINK = r"(?:am|im|an der|in der|ob der|vor der|auf der)"
_SUFFIX_IN_GAZETTEER = re.compile(rf" {_LINK} ([A-ZÄÖÜ][\wäöüß\-]+)$")


@lru_cache(maxsize=1)
def _suffixes() -> frozenset[str]:
    """The words after a link in the gazetteer's place names ("Rothenburg ob der Tauber"
    gives "Tauber"; "bei" is no link: "Neustadt bei Coburg" names a town, "bei" a relation)."""
    from deid.surrogates.gazetteers import read_lines

    words = {m.group(1) for name in read_lines("cities.txt.xz") if (m := _SUFFIX_IN_GAZETTEER.search(name))}
    return frozenset(words)


@lru_cache(maxsize=1)
def _after() -> re.Pattern[str]:
    words = "|".join(sorted(map(re.escape, _suffixes()), key=len, reverse=True))
    return re.compile(rf" {_LINK} (?:{words})(?![\wäöüß\-])")


def extend_places(text: str, spans: list[Span]) -> list[Span]:
    """Location spans extended over a following " am Main"; a span the extension reaches into
    is absorbed. Spans stay sorted and non-overlapping."""
    pattern = _after()
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if out and span.start < out[-1].end:
            prev = out[-1]
            out[-1] = Span(prev.start, max(prev.end, span.end), prev.label, prev.score, prev.source)
            continue
        if span.label == LOCATION and (m := pattern.match(text, span.end)):
            span = Span(span.start, m.end(), span.label, span.score, span.source)
        out.append(span)
    return out
