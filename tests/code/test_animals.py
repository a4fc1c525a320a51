"""An animal's name and breed are kept where the text names the animal, in every mention
(animals@1, deid.words.animals); a breeding name with a farm or place, a surname that is an
animal's word and a place that ends like one stay."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import LOCATION, MODEL_SOURCE, OTHER, PERSON, Span


def _all(text: str, surface: str, label: str) -> list[Span]:
    """A model span on every occurrence of ``surface``."""
    out, start = [], text.find(surface)
    while start >= 0:
        out.append(Span(start, start + len(surface), label, 0.9, MODEL_SOURCE))
        start = text.find(surface, start + 1)
    return out


@pytest.mark.parametrize(
    "text, words",
    [
        # the from-scratch dev set's sentences (shortened): the name in quotes, after "namens", bare
        (("Die Beklagte, Melanie Rieder aus Saal an der Donau, brachte ihren Labrador „Balu“ mit einer "
          "Magendrehung in die Praxis."), [("Balu", PERSON)]),
        ("Der Kläger hält einen Schäferhundmischling namens „Rocky“ (Transponder-Nr. 276098106543217).",
         [("Rocky", OTHER)]),
        ("Er lebt allein auf der Hofstelle, nur begleitet vom Hofhund Hasso. Die Flächen sind verpachtet.",
         [("Hasso", OTHER)]),
        # the breed, and the name in every later mention
        (("Die Beklagten sind Halter des Rhodesian-Ridgeback-Rüden mit dem Zuchtnamen „Amaru vom Keilberger "
          "Hang“, genannt „Bruno“. Am 3. Januar 2023 biss Bruno die Klägerin; Bruno hatte schon früher geschnappt."),
         [("Rhodesian-Ridgeback", OTHER), ("Bruno", PERSON)]),
        ("Sie hält seit 2021 den American-Staffordshire-Mischling „Ronja“. Ronja ist nicht angeleint.",
         [("American-Staffordshire", OTHER), ("Ronja", PERSON)]),
    ],
)  # fmt: skip
def test_an_animals_name_and_breed_are_kept_in_every_mention(text: str, words: list[tuple[str, str]]) -> None:
    spans = [s for surface, label in words for s in _all(text, surface, label)]
    assert Chain([step("animals", 1)])(text, spans) == []


@pytest.mark.parametrize(
    "text, surface, label",
    [
        # a breeding name names the breeder's farm or place
        ("Sie hält ihre Stute und den Wallach „Balou vom Hirschbachtal“ im Offenstall.", "Balou vom Hirschbachtal",
         OTHER),
        # a surname that is an animal's word, a town that ends like one
        ("Der Zeuge Stier hat den Unfall beobachtet.", "Stier", PERSON),
        ("Die Kläger wohnen in einer Gemeinschaftsunterkunft in Zwiesel, Frauenauer Straße 48.", "Zwiesel", LOCATION),
        # a person after the animal's word: a title, the owner's name after the article
        ("Die Klägerin führte den Hund Frau Brunnhuber vor.", "Brunnhuber", PERSON),
        ("Der Hund der Zeugin Anneliese Brunnthaler biss den Kläger.", "Anneliese Brunnthaler", PERSON),
    ],
)  # fmt: skip
def test_a_breeding_name_a_surname_and_a_place_stay(text: str, surface: str, label: str) -> None:
    spans = _all(text, surface, label)
    assert Chain([step("animals", 1)])(text, spans) == spans
