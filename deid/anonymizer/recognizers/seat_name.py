"""The place in an authority's name ("Agentur für Arbeit Weilheim", "Landratsamt Regen",
"Polizeiinspektion in Bad Tölz"): a town of the bundled list right after the authority's word
(:data:`deid.words.roles.SEAT_CUE`), as a seat (``SEAT``); not a court's seat ("Amtsgericht
Erding"), which the model and the court zones judge as before.

The model learned seats from the courts' placeholders ("Landratsamt E.") and the LER training
courts' annotations; it leaves a seat after a word they rarely write ("Agentur für Arbeit")
and a town that is an ordinary word too ("Regen"). The profile decides what a seat is worth
(deid.anonymizer.profiles): strict neutralizes it unless it is a big city, federal keeps it;
the extent step adds a town's abbreviated suffix ("Mühldorf [a. Inn]"). Chosen on the
from-scratch dev set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.schema import SEAT
from deid.words.gazetteer import cities
from deid.words.roles import SEAT_CUE

# a town's name: one word, hyphenated words or "Bad …" ("Weißenburg-Gunzenhausen", "Bad Tölz")
_TOWN = r"(?:Bad[ \u00a0])?[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)*"


class SeatNameRecognizer(PatternRecognizer):
    """A town of the list right after an authority's or a lower court's word."""

    NAME = "seat_name"
    LABEL = SEAT
    PATTERNS = (Pattern("seat_after_authority", rf"{SEAT_CUE}(?P<value>{_TOWN})(?![\w\-])", 0.8),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if match.group("value") not in cities():
            return  # "Landratsamt Ostallgäu" (a district), "Jobcenter Nord"
        if "gericht" in text[match.start() : match.start("value")]:
            return  # a court's seat ("Amtsgericht Erding"): the model and the court zones judge it, as before
        yield from super().candidates(text, match)
