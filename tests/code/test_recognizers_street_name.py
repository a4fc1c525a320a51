"""A street's name without its house number, by its street word."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.street_name import StreetNameRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Das Vorhaben an der [[Mühlenstraße]] grenzt an das Anwesen des Klägers in der [[Lindenstraße]].",
        "später am Parkplatz an der [[Schulstraße]] abgestellt",
        "Der Unfall ereignete sich auf der Kreuzung [[Ludwig-Thoma-Straße]]/[[Bahnhofstraße]] in Ebersberg.",
        "Der Kläger befuhr die [[Landshuter Straße]] stadtauswärts.",
        "Die Quelle fließt über den [[Weiherweg]] zum Anwesen der Kläger.",
        "am [[Martin-Luther-Platz]] und in der [[Kirchgasse]]; die [[Dorfstraße]] ist schmal",
        # negatives: words for a kind of street, road classes, legal ways, everyday compounds
        "die Einbahnstraße und die Sackgasse; die Hauptstraße war gesperrt",
        "auf der Bundesstraße 12 und der Staatsstraße 2074",
        "Der Verwaltungsrechtsweg ist eröffnet; der Arbeitsweg ist versichert.",
        "am Arbeitsplatz und am Parkplatz",
        "das Vertrauen der Fahrzeugkäufer",
        'dass "die Antragstrasse zw. Hügelheim und Auggen" verlaufe',
    ],
)
def test_street_name_table(marked: str) -> None:
    check_table_row(StreetNameRecognizer(), marked, "STREET_NAME")
