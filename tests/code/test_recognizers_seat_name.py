"""The town after an authority's word, as a seat the profile decides on
(deid.anonymizer.recognizers.seat_name)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.seat_name import SeatNameRecognizer
from deid.schema import SEAT


@pytest.mark.parametrize(
    "marked",
    [
        "Der Kläger meldete sich am 2. Januar 2023 bei der Agentur für Arbeit [[Weilheim]] arbeitslos.",
        "Die Klägerin ist seit 2015 beim Landratsamt [[Regen]] als Sachbearbeiterin beschäftigt.",
        "Den Unfall nahm die Polizeiinspektion in [[Bad Tölz]] auf.",
        "Das Jobcenter Landkreis [[Erding]] lehnte den Antrag ab.",
        "Das Jobcenter [[Mühldorf]] a. Inn bewilligte Leistungen.",
        # negatives: a district or a region, no authority's word, a word after a court's name
        "Das Landratsamt Ostallgäu erließ eine Allgemeinverfügung.",
        "Die Familienkasse Bayern Nord lehnte den Kinderzuschlag ab.",
        "Der Kläger zog 2019 nach Weilheim um.",
        "Das Landgericht verwies die Sache an das Amtsgericht zurück. Erding liegt im Bezirk.",
        "Das Amtsgericht Erding verurteilte den Angeklagten; das Sozialgericht Landshut wies ab.",
    ],
)  # fmt: skip
def test_seat_name_table(marked: str) -> None:
    check_table_row(SeatNameRecognizer(), marked, SEAT)


@pytest.mark.parametrize(
    "profile, kept",
    [("strict", False), ("federal", True)],
)
def test_the_profile_decides_on_the_seat(profile: str, kept: bool) -> None:
    """Strict neutralizes an authority's seat that is no big city, federal keeps it; a big
    city's stays under both (the policy's table)."""
    chain = Chain([step("recognizers", 23), step("policy", 2, profile=profile)])
    text = "Der Kläger meldete sich bei der Agentur für Arbeit Weilheim arbeitslos."
    found = [text[s.start : s.end] for s in chain(text, [])]
    assert found == ([] if kept else ["Weilheim"])
    big = "Der Kläger meldete sich bei der Agentur für Arbeit Regensburg arbeitslos."
    assert chain(big, []) == []
    # recognizers@22 keeps its meaning
    assert Chain([step("recognizers", 22), step("policy", 2, profile=profile)])(text, []) == []


def test_recognizers_23_adds_the_seat_recognizer() -> None:
    assert set(RECOGNIZER_SETS[23]) - set(RECOGNIZER_SETS[22]) == {"deid.recognizers.seat_name.v1"}
