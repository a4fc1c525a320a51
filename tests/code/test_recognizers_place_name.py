"""The place_name recognizer: a village after the word that says one follows, a town abroad
before its country in brackets (deid.anonymizer.recognizers.place_name)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.place_name import PlaceNameRecognizer, PlaceNameRecognizerV2
from deid.schema import LOCATION, coarse_label


@pytest.mark.parametrize(
    "marked",
    [
        "Der Antragsteller betreibt im Ortsteil [[Grub]] der Gemeinde Arrach einen Betrieb.",
        "Die Kläger bewohnen ein Haus im Ortsteil [[Oberhausen]] der Gemeinde Kirchdorf.",
        "Fl.Nr. 1024 der Gemarkung [[Oberhummel]] (Gemeinde Langenbach)",
        "Der Hof liegt im Weiler [[Hinterbuchet]].",
        # a town abroad before its country
        "eine Pauschalreise in das Hotel in [[Side]] (Türkei) für die Zeit vom 5. bis 19. August",
        "Der Kläger wurde am 12. Juli 1987 in [[Prizren]] (Kosovo) geboren.",
        # negatives: "Weiler" as a surname, a bracket that is no country, no name after the cue
        "Herr Weiler Anton bestätigte dies.",
        "Er kam aus Kiel (Foto) zurück.",
        "Die Beklagte ist eine Fluggesellschaft mit Sitz in Dublin (Irland).",
        "Der Ortsteil der Gemeinde hat 400 Einwohner.",
    ],
)
def test_place_name_table(marked: str) -> None:
    check_table_row(PlaceNameRecognizer(), marked, "PLACE_NAME")


def test_its_spans_are_places_that_the_set_runs_from_version_10() -> None:
    assert coarse_label(PlaceNameRecognizer.LABEL) == LOCATION
    assert "deid.recognizers.place_name.v1" in RECOGNIZER_SETS[10]
    assert "deid.recognizers.place_name.v1" not in RECOGNIZER_SETS[9]


@pytest.mark.parametrize(
    "marked",
    [
        "Sie stürzte auf der Terrasse der [[Mittelbergalpe]] oberhalb von [[Oberstaufen]], die der Beklagte bewirtschaftet.",
        "Die Windkraftanlage soll zwei Kilometer nördlich von [[Thalmassing]] errichtet werden.",
        "Der Kläger hütet im Sommer das Jungvieh auf der [[Kallbrunnalm]].",
        # negatives: a big city, a frequent word, a word that names no town; an ordinary pasture
        "Das Grundstück liegt südlich von München an der Autobahn.",
        "Der Stadel steht oberhalb von Berg am Waldrand.",
        "Die Hütte liegt oberhalb von Wiesen und Feldern.",
        "Das Vieh stand den Sommer über auf der Alm.",
    ],
)  # fmt: skip
def test_place_name_v2_table(marked: str) -> None:
    check_table_row(PlaceNameRecognizerV2(), marked, "PLACE_NAME")


def test_version_1_keeps_its_meaning() -> None:
    assert PlaceNameRecognizer().analyze("auf der Terrasse der Mittelbergalpe oberhalb von Oberstaufen") == []


def test_recognizers_19_runs_the_new_versions_in_place_of_the_old() -> None:
    from deid.anonymizer.recognizers import RECOGNIZER_SETS

    new = {f"deid.recognizers.{n}" for n in ("place_name.v2", "street_name.v6", "role_name.v3")}
    old = {f"deid.recognizers.{n}" for n in ("place_name.v1", "street_name.v5", "role_name.v2")}
    assert new <= set(RECOGNIZER_SETS[19]) and not old & set(RECOGNIZER_SETS[19])
    assert not new & set(RECOGNIZER_SETS[18])  # 18 keeps its meaning
