"""The clinic_name recognizer: a clinic's or hospital's name after its kind word, on sentences
written like the decisions (deid.anonymizer.recognizers.clinic_name)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.clinic_name import ClinicNameRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        # a brand before the kind word makes the whole a name
        "Die Klägerin wurde im [[RoMed Klinikum Wasserburg]] vom Durchgangsarzt behandelt.",
        "Die um 2:25 Uhr im [[DONAUISAR Klinikum Deggendorf]] entnommene Blutprobe ergab 1,34 Promille.",
        # without one the kind word stays outside: a town, a saint, a town with its river
        "Er wurde im Krankenhaus [[Mühldorf]] der Kreiskliniken versorgt.",
        "Sie arbeitet in der Fachklinik [[St. Lukas]] in Bad Griesbach.",
        "Er lag im Krankenhaus [[Wasserburg am Inn]].",
        # negatives: a university's hospital, a department, an ordinary noun after the kind word
        "Er wurde im Klinikum rechts der Isar operiert.",
        "Das Universitätsklinikum Regensburg nahm ihn auf.",
        "Die Klinik für Psychiatrie und Psychotherapie lehnte ab.",
        "Mit Schriftsatz vom 30. November 2016 legte die Klinik Rechtsbeschwerde ein.",
        "Das Krankenhaus Personal fehlte.",
    ],
)  # fmt: skip
def test_clinic_name_table(marked: str) -> None:
    check_table_row(ClinicNameRecognizer(), marked, "FIRM_NAME")
