"""A vehicle's make and model are kept where the text describes a vehicle (vehicles@1,
deid.words.vehicles); a surname that is also a make stays a name."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import ID, LOCATION, MODEL_SOURCE, ORGANIZATION, OTHER, PERSON, Span


def _at(text: str, surface: str, label: str, source: str = MODEL_SOURCE) -> Span:
    start = text.index(surface)
    return Span(start, start + len(surface), label, 0.9, source)


@pytest.mark.parametrize(
    "text, words",
    [
        (("Am 4. Mai 2023 parkte die Angeklagte ihren Pkw Skoda Octavia, amtliches Kennzeichen RO-EK 318, "
         "vor dem Supermarkt."), [("Skoda", ORGANIZATION), ("Octavia", OTHER)]),
        ("Der Betroffene fuhr mit dem Firmenwagen VW Passat, amtliches Kennzeichen R-BB 2211, zu schnell.",
         [("Passat", LOCATION)]),
        (("Die Beklagte wird verurteilt, den Kaufpreis Zug um Zug gegen Rückgabe des Traktors Fendt 309 Vario "
         "zu erstatten."), [("Fendt", LOCATION)]),
        (("Die Betroffene stellte als Halterin des Fahrzeugs (blauer Dacia Logan, Kennzeichen: CJ 07 RMT) den "
         "Wagen ab."), [("Dacia Logan", PERSON)]),
    ],
)  # fmt: skip
def test_a_make_and_model_of_a_described_vehicle_are_kept(text: str, words: list[tuple[str, str]]) -> None:
    spans = [_at(text, w, label) for w, label in words]
    assert Chain([step("vehicles", 1)])(text, spans) == []


@pytest.mark.parametrize(
    "text, word",
    [
        # a surname that is a make: no vehicle described, or a person's role or title before it
        ("Der Zeuge Ford hat den Unfall von der Bushaltestelle aus beobachtet.", "Ford"),
        ("Der Halter des Fahrzeugs, Herr Opel, war zur Unfallzeit in Rosenheim.", "Opel"),
        ("Die Klägerin Mercedes Huber wohnt seit 2010 in Traunreut.", "Mercedes"),
    ],
)
def test_a_name_that_is_a_make_stays(text: str, word: str) -> None:
    span = _at(text, word, PERSON)
    assert Chain([step("vehicles", 1)])(text, [span]) == [span]


def test_a_recognizers_span_inside_the_phrase_stays() -> None:
    """Only the model's readings are dropped: a rule that found something there meant it."""
    text = "Er fuhr mit seinem Pkw BMW X5, amtliches Kennzeichen PA-BL 14, nach Passau."
    span = _at(text, "BMW X5", ID, "recognizer")
    assert Chain([step("vehicles", 1)])(text, [span]) == [span]
