"""A small business named by its kind and its owner (the policy neutralizes a private firm)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.business_name import (
    BusinessNameRecognizer,
    BusinessNameRecognizerV2,
    BusinessNameRecognizerV3,
    BusinessNameRecognizerV4,
    BusinessNameRecognizerV5,
)


@pytest.mark.parametrize(
    "marked",
    [
        "Sie legte eine Erklärung des Vermessungsbüros [[Hausladen]] und Luftbilder vor.",
        "Die Beklagte zu 2) ist als Verkäuferin in der Metzgerei [[Pichlmaier]] am Max-Josefs-Platz beschäftigt.",
        "Es stützte sich auf das Schallgutachten des Ingenieurbüros [[Rauchenberger]] vom 3. Mai 2022.",
        "Der Kläger ließ die Garage vom Abbruchbetrieb [[Zellner-Huber]] abreißen.",
        # the kind's everyday sense, a noun after it, and a law firm are no such name
        "Die Bäckerei Brot und Kuchen verkaufte auch sonntags.",
        "Die Brauerei Gebäude wurden 1998 abgerissen.",
        "vertreten durch die Kanzlei Wimmer Rechtsanwälte",
        "Er arbeitete in einer Metzgerei in Landau.",
    ],
)
def test_business_name_table(marked: str) -> None:
    check_table_row(BusinessNameRecognizer(), marked, "FIRM_NAME")


def test_the_recognizer_joins_the_set_in_version_8() -> None:
    assert "deid.recognizers.business_name.v1" in RECOGNIZER_SETS[8]
    assert "deid.recognizers.business_name.v1" not in RECOGNIZER_SETS[7]


@pytest.mark.parametrize(
    "marked",
    [
        "Noah besucht die Grundschule, Mila den Kindergarten [[St. Josef]].",
        "Die Eltern buchten im Reisebüro [[Urlaubswelt]] Kelheim eine Pauschalreise.",
        "Der Platz in der Kita [[Zwergerlburg]] ist 16 km entfernt.",
        "Die Beklagte zu 2) arbeitet in der Metzgerei [[Pichlmaier]].",
        # a village club's name with its town
        "Die beiden treten bei Festen des Schützenvereins [[Edelweiß Gangkofen]] als Paar auf.",
        # an everyday noun after the kind word is no name, nor a club's name without a town
        "Der Kindergarten Besuch war freiwillig.",
        "Der Vorstand des Sportvereins Beschlüsse fassen zu lassen, war üblich.",
        "Im Kindergarten Probleme zu lösen fiel ihm schwer.",
    ],
)
def test_business_name_v2_table(marked: str) -> None:
    check_table_row(BusinessNameRecognizerV2(), marked, "FIRM_NAME")


def test_version_1_keeps_its_meaning() -> None:
    assert BusinessNameRecognizer().analyze("den Kindergarten St. Josef und das Reisebüro Urlaubswelt") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Er war mit seinem Pkw von einer Feier im Sportheim des [[SV Hebertsfelden]] gekommen.",
        "Der Kläger spielte bis 2021 beim [[TSV Eggenfelden]] Fußball.",
        # negatives: a big city's club is a public name; an abbreviation before no town
        "Er ist Mitglied des TSV 1860 München und des FC Bayern.",
        "Die SG hat die Klage abgewiesen.",
    ],
)
def test_business_name_v3_table(marked: str) -> None:
    check_table_row(BusinessNameRecognizerV3(), marked, "FIRM_NAME")


def test_business_name_version_2_keeps_its_meaning() -> None:
    assert BusinessNameRecognizerV2().analyze("im Sportheim des SV Hebertsfelden") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Einen Nutzungsausfall für die entgangene Teilnahme am Turnier des [[RFV Aholming]] schuldet die Beklagte nicht.",
        "Er ist Sportschütze und Mitglied der Schützengesellschaft [[Edelweiß Rohrbach]].",
        "Der Kläger war mit seinem Pkw von einer Feier im Sportheim des [[SV Hebertsfelden]] gekommen.",
        # negatives: a law's abbreviation before a marginal number or a participle; a professional
        # club; a big city's club
        "Vgl. Fürst/Franke/Geis/Weiß, GKÖD I, § 22 SG Rn. 15.",
        "nach dem Vierten oder Fünften Abschnitt SG Dienstleistenden (Reservistendienst)",
        "Er ist Mitglied des FC Bayern und des TSV 1860 München.",
    ],
)  # fmt: skip
def test_business_name_v4_table(marked: str) -> None:
    check_table_row(BusinessNameRecognizerV4(), marked, "FIRM_NAME")


def test_business_name_version_3_keeps_its_meaning() -> None:
    assert BusinessNameRecognizerV3().analyze("am Turnier des RFV Aholming und der Schützengesellschaft Edelweiß Rohrbach") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Am 1. Mai 2023 stellte der Verein vor dem Gasthof [[Zum Kirchenwirt]] den neuen Maibaum auf.",
        "Die Hochzeitsfeier fand im Gasthaus [[Zur Post]] in Großholzhausen statt.",
        "Der Wirt des Gasthauses [[Zum Schwarzen Adler]] hat ausgesagt.",
        # as version 4: the owner's name after the kind; negative: a preposition after no inn's kind
        "Sie arbeitet in der Metzgerei [[Pichlmaier]] in Wasserburg.",
        "Der Weg führt zum Gasthof und zur Post.",
    ],
)  # fmt: skip
def test_business_name_v5_table(marked: str) -> None:
    check_table_row(BusinessNameRecognizerV5(), marked, "FIRM_NAME")


def test_business_name_version_4_keeps_its_meaning() -> None:
    spans = BusinessNameRecognizerV4().analyze("vor dem Gasthof Zum Kirchenwirt den Maibaum")
    assert [(s.end - s.start) for s in spans] == [len("Zum")]  # version 4 read "Zum" alone, the reason for 5


def test_recognizer_set_21_runs_this_sessions_versions() -> None:
    assert {"deid.recognizers.business_name.v5", "deid.recognizers.brand_name.v6",
            "deid.recognizers.contract_number.v12"} <= set(RECOGNIZER_SETS[21])  # fmt: skip
    assert "deid.recognizers.business_name.v4" not in RECOGNIZER_SETS[21]
    assert "deid.recognizers.business_name.v5" not in RECOGNIZER_SETS[20]


def test_recognizer_set_22_runs_this_sessions_versions() -> None:
    assert {"deid.recognizers.contract_number.v13", "deid.recognizers.brand_name.v7",
            "deid.recognizers.firm_name.v5"} <= set(RECOGNIZER_SETS[22])  # fmt: skip
    assert "deid.recognizers.contract_number.v12" not in RECOGNIZER_SETS[22]
    assert "deid.recognizers.firm_name.v5" not in RECOGNIZER_SETS[21]
