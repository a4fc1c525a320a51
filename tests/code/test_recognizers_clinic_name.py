"""The clinic_name recognizer: a clinic's or hospital's name after its kind word, on sentences
written like the decisions (deid.anonymizer.recognizers.clinic_name)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.clinic_name import (
    ClinicNameRecognizer,
    ClinicNameRecognizerV2,
    ClinicNameRecognizerV3,
    ClinicNameRecognizerV4,
)


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


@pytest.mark.parametrize(
    "marked",
    [
        # a medical care centre named with "am" and a rare noun: the kind joins the span
        "Die Folgebescheinigung stellte die Orthopädin im [[MVZ am Regenbogen]] erst am 15. Mai aus.",
        # an animal clinic by a place or its vet's name after the title
        "Die Tierärztin von der Tierklinik [[Chiemgau]] stellte Kissing Spines fest.",
        "eine Ankaufsuntersuchung in der Pferdeklinik Dr. [[Rauscher]] in Freilassing",
        "Er wurde in der Praxisklinik Dr. med. [[Huber]] operiert.",
        "Er lag im Krankenhaus [[Mühldorf]].",
        # a surgery or pharmacy named with "am"; a practice by its doctor's name
        "Die Implantate wurden in der [[Mund-Kiefer-Gesichtschirurgie am Stadtpark]] in Altötting entfernt.",
        "Er wartete vor ihrer Arbeitsstelle, der [[Apotheke am Stadtplatz]] in Vilshofen.",
        "Patienten wurden an die Praxis Dr. [[Lohr]] in Neuötting überwiesen.",
        # negatives: an everyday noun after "Praxis"; the sentence goes on after "MVZ"
        "Dabei bereitete der Praxis Schwierigkeiten, dass das Gerät fehlte.",
        "Vorliegend sei das MVZ im Zeitraum 29.07.2021 bis 24.11.2021 ohne Zulassung tätig gewesen.",
        "Solange die Zulassung wirke, dürfe das betreffende MVZ an der Versorgung teilnehmen.",
        "Das MVZ am Ende des Quartals abzurechnen war üblich.",
    ],
)  # fmt: skip
def test_clinic_name_v2_table(marked: str) -> None:
    check_table_row(ClinicNameRecognizerV2(), marked, "FIRM_NAME")


def test_version_1_keeps_its_meaning() -> None:
    assert ClinicNameRecognizer().analyze("im MVZ am Regenbogen und in der Pferdeklinik Dr. Rauscher") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Das Gericht hat Befundberichte der Hausärztin und der [[Schmerzklinik am Lusen]] eingeholt.",
        "Die Augenklinik Dr. [[Hauser]] operierte den Kläger am 3. Mai 2022.",
        "Er nahm an einer Nachschulung beim Institut für Verkehrspsychologie Dr. [[Moosleitner]] in Traunreut teil.",
        "Die Klägerin wurde in der Rheumaklinik [[Bad Abbach]] behandelt.",
        # negatives: a university's or district's clinic is a public body; the sentence going on
        "Er wurde in der Universitätsklinik Regensburg und im Bezirksklinikum Mainkofen behandelt.",
        "Die Schmerzklinik hat die Behandlung abgelehnt.",
    ],
)
def test_clinic_name_v3_table(marked: str) -> None:
    check_table_row(ClinicNameRecognizerV3(), marked, "FIRM_NAME")


def test_clinic_name_version_2_keeps_its_meaning() -> None:
    assert ClinicNameRecognizerV2().analyze("der Schmerzklinik am Lusen und dem Institut für Verkehrspsychologie Dr. Moosleitner") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Nach zwei Bandscheibenoperationen in der [[Frankenklinik Bad Kissingen]] beantragte er Rente.",
        "Die Klägerin wurde im [[RoMed Klinikum Rosenheim]] operiert.",
        "Die Klägerin wurde in der Rheumaklinik [[Bad Abbach]] behandelt.",
        "Er lag vier Wochen im Krankenhaus [[Mühldorf]].",
        # negatives: a big city's hospital is named by its seat, which the policy keeps
        "Der Durchgangsarzt Dr. Gruber am Klinikum Passau diagnostizierte keinen Kreislaufbefund.",
        "Er wurde im Klinikum Ingolstadt und im Krankenhaus Landshut behandelt.",
    ],
)
def test_clinic_name_v4_table(marked: str) -> None:
    check_table_row(ClinicNameRecognizerV4(), marked, "FIRM_NAME")


def test_clinic_name_version_3_keeps_its_meaning() -> None:
    text = "in der Frankenklinik Bad Kissingen und am Klinikum Passau"
    assert [text[s.start : s.end] for s in ClinicNameRecognizerV3().analyze(text)] == ["Bad Kissingen", "Passau"]
