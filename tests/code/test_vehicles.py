"""A vehicle's make and model are kept where the text describes a vehicle (vehicles@1,
deid.words.vehicles), and a device's or a model named by its type (vehicles@2); a surname that
is also a make stays a name, a party's own mark stays."""

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


@pytest.mark.parametrize(
    "text, words",
    [
        # a model named by its type (made-up sentences in the Bavarian manner)
        (("Die Beklagte wird verurteilt, Zug um Zug gegen Übereignung des Fahrzeugs der Marke Audi vom Typ A6 "
          "3.0 TDI Quattro 23.400 € zu zahlen."), [("A6", OTHER), ("3.0 TDI Quattro", OTHER)]),
        # the from-scratch dev set's sentences
        ("Genehmigt ist eine Windenergieanlage vom Typ Enercon E-160 mit einer Gesamthöhe von 246 m.",
         [("Enercon", PERSON), ("E-160", ID)]),
        ("Nur mit dem Modell „Phonak Audéo P90“ erreichte die Klägerin im Freiburger Sprachtest 80 %.",
         [("Phonak Audéo P90", OTHER)]),
        ("Das sichergestellte Mobiltelefon Samsung Galaxy A54 (IMEI 356938114207785) wird eingezogen.",
         [("Samsung Galaxy A54", OTHER)]),
        ("Die Polizei maß mit dem Lasermessgerät Riegl FG21-P (Gerätenummer S 8812) 144 km/h.",
         [("Riegl", LOCATION), ("FG21-P", "STREET")]),
        ("Entwendet wurden eine Armbanduhr Rolex Submariner (Seriennummer 7K2X4481) und ein Laptop.",
         [("Rolex Submariner", OTHER)]),
    ],
)  # fmt: skip
def test_version_2_keeps_a_product_named_by_its_type_or_before_its_number(
    text: str, words: list[tuple[str, str]]
) -> None:
    spans = [_at(text, w, label) for w, label in words]
    assert Chain([step("vehicles", 2)])(text, spans) == []
    assert Chain([step("vehicles", 1)])(text, spans) == spans  # version 1 keeps its meaning


@pytest.mark.parametrize(
    "text, word, label",
    [
        # a party's own mark or product: "Bezeichnung", "Marke" are no type
        ("Die Klägerin vertreibt unter der Bezeichnung „AquaDos 300“ Dosierpumpen für Schwimmbäder.",
         "AquaDos 300", OTHER),
        ("Die Beklagte bietet Biere unter der Marke „Kellerfürst“ an.", "Kellerfürst", OTHER),
        # a device without its own number after it; a person after a device word
        ("Der Angeklagte verkaufte das Mobiltelefon Samsung Galaxy A54 an den Zeugen.", "Samsung Galaxy A54", OTHER),
        ("Der Angeklagte überließ das Mobiltelefon Frau Maier (IMEI 356938114207785) zur Nutzung.", "Maier", PERSON),
    ],
)  # fmt: skip
def test_version_2_keeps_a_partys_mark_and_a_device_without_its_number(text: str, word: str, label: str) -> None:
    span = _at(text, word, label)
    assert Chain([step("vehicles", 2)])(text, [span]) == [span]


def test_version_2_drops_a_plate_that_is_a_make_and_model() -> None:
    """A plate's district is never a make's name: "BMW X5" after "Pkw" is the car, the plate
    after "Kennzeichen" stays."""
    text = "Der Betroffene befuhr mit dem Pkw BMW X5, amtliches Kennzeichen PA-BL 460, die Staatsstraße."
    car, plate = (_at(text, s, "LICENSE_PLATE", "recognizer") for s in ("BMW X5", "PA-BL 460"))
    assert Chain([step("vehicles", 2)])(text, [car, plate]) == [plate]
    assert Chain([step("vehicles", 1)])(text, [car, plate]) == [car, plate]
