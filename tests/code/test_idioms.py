"""The noun of a fixed phrase is no name (no_name_shape@8, deid.words.idioms): the model reads
"Wehr" in "sich zur Wehr setzen" as the town; the town, a surname and a compound stay."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import LOCATION, MODEL_SOURCE, ORGANIZATION, PERSON, Span


def _at(text: str, surface: str, label: str) -> Span:
    start = text.rindex(surface)
    return Span(start, start + len(surface), label, 0.9, MODEL_SOURCE)


@pytest.mark.parametrize(
    "text, surface, label",
    [
        # made up in the manner of the decisions (a neighbour's water, a witness, a cost decision)
        ("Der Unterlieger muss sich gegen das eindringende Hangwasser nicht erst zur Wehr setzen.", "Wehr", LOCATION),
        ("Die Mehrkosten schlagen bei der Klägerin mit 4.200 € zu Buche.", "Buche", PERSON),
        ("Das Gericht durfte die Angaben der Zeugin nicht außer Acht lassen.", "Acht", LOCATION),
        ("Der Angeklagte ließ den Geschädigten im Stich und fuhr davon.", "Stich", PERSON),
        ("Die Polizeibeamten stellten vor Ort fest, dass die Tür aufgebrochen war.", "Ort", LOCATION),
        ("Der Zeuge ging vom Bahnhof zu Fuß zur Wohnung.", "Fuß", ORGANIZATION),
    ],
)  # fmt: skip
def test_the_noun_of_a_fixed_phrase_is_no_name(text: str, surface: str, label: str) -> None:
    spans = [_at(text, surface, label)]
    assert Chain([step("no_name_shape", 8)])(text, spans) == []
    assert Chain([step("no_name_shape", 7)])(text, spans) == spans  # version 7 keeps its meaning


@pytest.mark.parametrize(
    "text, surface, label",
    [
        # the town, a surname after its title, a compound, the noun after another preposition
        ("Die Klägerin wohnt in Wehr und arbeitet in Bad Säckingen.", "Wehr", LOCATION),
        ("Die Zeugin Buche bestätigte den Ablauf.", "Buche", PERSON),
        ("Frau Acht erschien zur Verhandlung.", "Acht", PERSON),
        ("Er wurde zur Wehrübung einberufen.", "Wehrübung", ORGANIZATION),
        ("Das Grundstück liegt an der Wehr des Mühlbachs.", "Wehr", LOCATION),
    ],
)  # fmt: skip
def test_the_town_a_surname_and_a_compound_stay(text: str, surface: str, label: str) -> None:
    spans = [_at(text, surface, label)]
    assert Chain([step("no_name_shape", 8)])(text, spans) == spans
