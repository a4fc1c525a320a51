"""The no_name_shape filter, version 3: a person, place or firm span of the model without a
letter is no name (a margin number after a town at a paragraph's end)."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import LOCATION, MODEL_SOURCE, STREET, Span


def _after(text: str, surface: str, label: str, at: str) -> Span:
    start = text.index(surface, text.index(at) + len(at))
    return Span(start, start + len(surface), label, 0.9, MODEL_SOURCE)


@pytest.mark.parametrize(
    "text",
    [
        "Der Vater ist Berufskraftfahrer bei der Spedition Zollner in Velden.\n2\nDas Zentrum bewilligte Elterngeld.",
        "Er ist Schichtleiter bei der Lindner Kunststoffe GmbH in Massing.\n2\nSeit Sommer 2022 lebt er dort.",
    ],
)
def test_version_3_drops_a_margin_number_read_as_a_place(text: str) -> None:
    number = _after(text, "2", LOCATION, "\n")
    assert Chain([step("no_name_shape", 3)])(text, [number]) == []
    assert Chain([step("no_name_shape", 2)])(text, [number]) == [number]  # version 2 keeps its meaning


def test_a_bare_house_number_of_a_street_and_a_recognizers_span_stay() -> None:
    text = "Die Grundstücke 10, 12 und 14 liegen am Mühlweg.\n2\nDer Kläger wohnt dort."
    house = _after(text, "12", STREET, "Grundstücke ")
    recognized = Span(house.start, house.end, LOCATION, 0.9, "postal_town")
    assert Chain([step("no_name_shape", 3)])(text, [house]) == [house]
    assert Chain([step("no_name_shape", 3)])(text, [recognized]) == [recognized]


@pytest.mark.parametrize("word", ["der", "in", "am"])
def test_version_4_drops_a_lone_article_or_preposition(word: str) -> None:
    text = f"Er wohnte zuletzt bei seiner Lebensgefährtin {word} Griesbacher Straße in Ortenburg."
    lone = _after(text, word, STREET, "Lebensgefährtin ")
    street = _after(text, "Griesbacher Straße", STREET, "Lebensgefährtin ")
    assert Chain([step("no_name_shape", 4)])(text, [lone, street]) == [street]
    assert Chain([step("no_name_shape", 3)])(text, [lone, street]) == [lone, street]  # version 3 keeps its meaning


def test_version_4_keeps_a_name_that_holds_an_article() -> None:
    text = "Die Klägerin wohnt in der Straße Zur Vogelhecke in Essenbach."
    street = _after(text, "Zur Vogelhecke", STREET, "Straße ")
    assert Chain([step("no_name_shape", 4)])(text, [street]) == [street]
