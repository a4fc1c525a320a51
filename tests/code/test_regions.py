"""Regions stay in clear (the chain's regions step): the policy keeps
"countries, Länder, regions, big cities"; a town (German or abroad), a surname or an everyday noun is no
region. Real sentences; the model's spans are given as the model writes them."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import LOCATION, MODEL_SOURCE, PERSON, SEAT, Span
from deid.words.regions import is_government_district, is_region


def _at(text: str, surface: str, label: str) -> Span:
    start = text.index(surface)
    return Span(start, start + len(surface), label, 0.9, MODEL_SOURCE)


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        (
            "Der Kläger stammt aus Dagestan und ist tschetschenischer Volkszugehöriger.",
            "Dagestan",
            LOCATION,
        ),
        ("Die Sicherheitslage Dagestans hat sich seit 2019 verschlechtert.", "Dagestans", PERSON),
        ("Er lebte bis zu seiner Ausreise in Tschetschenien.", "Tschetschenien", LOCATION),
        ("Die Familie stammt aus Anatolien.", "Anatolien", LOCATION),
        ("Der Betrieb liefert Milch an Molkereien im Allgäu.", "Allgäu", LOCATION),
    ],
)
def test_a_region_stays_in_clear(text: str, surface: str, label: str) -> None:
    assert Chain([step("regions")])(text, [_at(text, surface, label)]) == []


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        # a German town is a place of residence: the policy neutralizes it
        ("Der Kläger wohnt in Grafing und arbeitet in Ebersberg.", "Grafing", LOCATION),
        ("Die Zeugin wohnt seit 2010 in Müllheim.", "Müllheim", LOCATION),
        # a town abroad is a place of residence too: Wiktionary knows it, its name is a town's
        ("Der Beteiligte wohnt in Kitzbühel und arbeitet in Kufstein.", "Kitzbühel", LOCATION),
        ("Er ist in Tulln geboren.", "Tulln", LOCATION),
        # a toponym that is also a surname may be a person
        ("Der Zeuge Krim bestätigte die Angaben.", "Krim", PERSON),
        # a firm's name may hold a region; the legal-form step takes in the rest later
        ("Die Molkerei Oberbayern eG liefert an den Kläger.", "Oberbayern", "ORGANIZATION"),
        # a seat of an authority is the policy's to judge
        ("Das Landratsamt Allgäu erließ den Bescheid.", "Allgäu", SEAT),
    ],
)
def test_a_town_a_name_and_a_seat_are_no_region(text: str, surface: str, label: str) -> None:
    span = _at(text, surface, label)
    assert Chain([step("regions")])(text, [span]) == [span]


@pytest.mark.parametrize(
    ("word", "region"),
    [("Oberbayern", False), ("Schlesien", True), ("Dagestans", True), ("Breisgau", True), ("Stall", False),
     ("Landstraße", False), ("Grafing", False), ("Bregenz", False), ("Lincoln", False), ("Ost Dagestan", False)],
)  # fmt: skip
def test_the_region_list_leaves_out_towns_names_and_everyday_nouns(word: str, region: bool) -> None:
    assert is_region(word) is region


def test_a_region_inside_a_longer_span_leaves_the_span_alone() -> None:
    text = "Die Firma Allgäuer Alpenmilch GmbH aus dem Allgäu klagt."
    span = _at(text, "Allgäuer Alpenmilch GmbH", "ORGANIZATION")
    assert Chain([step("regions")])(text, [span]) == [span]


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("stellte der Fachberater für Fischerei des Bezirks Oberbayern, Dr. Frank Lenzer, fest", "Oberbayern", SEAT),
        ("Die Regierung von Niederbayern hat den Plan genehmigt.", "Niederbayern", SEAT),
        ("Er zog 2019 nach Mittelfranken.", "Mittelfranken", LOCATION),
    ],
)
def test_version_2_keeps_a_government_district(text: str, surface: str, label: str) -> None:
    span = _at(text, surface, label)
    assert Chain([step("regions", 2)])(text, [span]) == []
    assert Chain([step("regions", 1)])(text, [span]) == [span]  # version 1 keeps its meaning


def test_version_2_leaves_a_landkreis_named_like_a_region_to_the_policy() -> None:
    text = "Das Landratsamt Allgäu erließ den Bescheid."
    span = _at(text, "Allgäu", SEAT)
    assert Chain([step("regions", 2)])(text, [span]) == [span]
    assert is_government_district("Oberbayerns") and not is_government_district("Allgäu")
