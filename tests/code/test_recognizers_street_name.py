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


@pytest.mark.parametrize(
    "marked",
    [
        # the commonest street names are streets in version 2
        "Die Zufahrt erfolgt über die [[Waldstraße]]; der Unfall geschah an der Einmündung in die [[Hauptstraße]].",
        "Die Anwohner der [[Feldstraße]] und der [[Berliner Promenade]] beschwerten sich.",
        # a name begun by a preposition capitalized in mid-sentence
        "Der Kläger wohnt [[Am Hieb]] in Moosburg.",
        "Das Grundstück an der Straße [[Zur Vogelhecke]] ist unbebaut.",
        "Der Zeuge, [[Auf der Pferdeweide]], bestätigte dies; sie wohnt [[In der Kleinen Heide]].",
        # road classes stay no street; a sentence's start, a lost full stop before a year and
        # a citation's title are no name
        "die Einbahnstraße und die Sackgasse; die Bundesstraße war gesperrt",
        "Im Übrigen wird auf die Akten verwiesen. Am Ende blieb es dabei.",
        "1 Im Weiteren gilt der Tarifvertrag.",
        "an Emil Schliessleder Im Mai 1937 wurde der Vertrag geschlossen",
        "(vgl. Foth, JR 1985, 398; Fahl, Zur Bedeutung des Regeltatbildes)",
    ],
)
def test_street_name_v2_table(marked: str) -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV2

    check_table_row(StreetNameRecognizerV2(), marked, "STREET_NAME")


def test_version_1_keeps_its_meaning() -> None:
    text = "Die Zufahrt erfolgt über die Waldstraße; der Kläger wohnt Am Hieb."
    assert StreetNameRecognizer().analyze(text) == []


@pytest.mark.parametrize(
    "marked",
    [
        # a kind of road of two kind words, or named for what it serves, is no street's name
        "Die Beklagte hat die [[Sonnenfeldstraße]] als Anbaustraße mit einer Wendeanlage hergestellt.",
        "Der Weg zweigt von der Gemeindeverbindungsstraße nach Uttlau ab; die Ortsverbindungsstraße ist gesperrt.",
        # the names of version 2 stay streets
        "Die Anwohner der [[Feldstraße]] und der [[Hauptstraße]] beschwerten sich.",
        "Der Kläger wohnt [[Am Hieb]] in Moosburg.",
    ],
)
def test_street_name_v3_table(marked: str) -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV3

    check_table_row(StreetNameRecognizerV3(), marked, "STREET_NAME")


def test_version_2_read_a_kind_of_road_as_a_street() -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV2

    text = "von der Gemeindeverbindungsstraße als Anbaustraße"
    assert [text[s.start : s.end] for s in StreetNameRecognizerV2().analyze(text)] == [
        "Gemeindeverbindungsstraße", "Anbaustraße"]  # fmt: skip


@pytest.mark.parametrize(
    "marked",
    [
        # the second street of a corner or junction, after a slash
        "Die Klägerin betreibt an der Ecke [[Kirchgasse]]/[[Rathausplatz]] in Mainburg eine Bar.",
        "Der Unfall ereignete sich an der Kreuzung [[Moosburger Straße]] / [[Am Angerbach]].",
        # no street before the slash: an everyday compound is no cue
        "Er wechselte den Arbeitsplatz / Am Morgen darauf kündigte er.",
    ],
)
def test_street_name_v4_table(marked: str) -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV4

    check_table_row(StreetNameRecognizerV4(), marked, "STREET_NAME")


def test_version_3_keeps_its_meaning_for_a_corner() -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV3

    text = "an der Ecke Kirchgasse/Rathausplatz"
    assert [text[s.start : s.end] for s in StreetNameRecognizerV3().analyze(text)] == ["Kirchgasse"]


@pytest.mark.parametrize(
    "marked",
    [
        "Im Bereich der Einmündung des [[Kapellenwegs]] bog der Beklagte mit seinem Traktor ein.",
        "Die Gemeinde rechnet den Ausbau des [[Mühlweges]] als erstmalige Herstellung ab.",
        "Der Unfall ereignete sich auf Höhe des [[Lindenplatzes]].",
        # negatives: the law's way, a field track, an everyday compound, no road's part before
        "Im Bereich des Verwaltungsrechtswegs gilt anderes.",
        "Am Ende des Feldwegs stand ein Stadel.",
        "Die Einmündung des Gehweges war vereist.",
        "Die Kosten des Lösungsweges trägt der Kläger.",
    ],
)  # fmt: skip
def test_street_name_v5_table(marked: str) -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV5

    check_table_row(StreetNameRecognizerV5(), marked, "STREET_NAME")


def test_version_4_keeps_its_meaning_for_a_genitive() -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV4

    assert StreetNameRecognizerV4().analyze("Im Bereich der Einmündung des Kapellenwegs bog er ein.") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Der Unfall ereignete sich an der Kreuzung [[Unterer Markt]] / [[Oberer Graben]].",
        "Sie wartete an der Ecke [[Hauptstraße]]/[[Oberer Graben]] auf den Bus.",
        "Er bog an der Einmündung [[Alter Stadtgraben]]/[[Kirchgasse]] ab.",
        # negatives: no street's field word after the adjective; no corner's word before
        "Die Sache liegt beim Großen Senat/Kleinen Senat.",
        "Der Weg führt vom Unteren Markt zum Oberen Graben.",
    ],
)  # fmt: skip
def test_street_name_v6_table(marked: str) -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV6

    check_table_row(StreetNameRecognizerV6(), marked, "STREET_NAME")


def test_version_5_keeps_its_meaning_for_an_adjectives_corner() -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV5

    assert StreetNameRecognizerV5().analyze("an der Kreuzung Unterer Markt / Oberer Graben") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Die Anlieger der [[Graf-von-Stauffenberg-Straße]] wurden zu Beiträgen herangezogen.",
        "Das Grundstück liegt an der Ecke [[Dr.-Michael-Baumgartner-Straße]]/Am Kapellenfeld.",
        "Die Eheleute wohnen in der [[Bürgermeister-Dr.-Hauser-Straße]] in Neumarkt-Sankt Veit.",
        "zwischen der [[Von-der-Tann-Str.]] und dem [[St.-Godehard-Weg]]",
        # negatives: hyphenated names that end in no street's word
        "Er besuchte das Graf-von-Galen-Gymnasium und das Max-Planck-Institut.",
        "Die Nord-Süd-Verbindung ist gesperrt.",
    ],
)  # fmt: skip
def test_street_name_v7_table(marked: str) -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV7

    check_table_row(StreetNameRecognizerV7(), marked, "STREET_NAME")


def test_version_6_keeps_its_meaning_for_a_title_or_particle() -> None:
    from deid.anonymizer.recognizers.street_name import StreetNameRecognizerV6

    assert StreetNameRecognizerV6().analyze("Die Anlieger der Graf-von-Stauffenberg-Straße zahlen.") == []
