"""Addresses: street + house number(s) and postal code + town fire; years, amounts and legal
"ways" do not."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.address import (
    PostalTownRecognizer,
    StreetAddressRecognizer,
    StreetAddressRecognizerV2,
    StreetAddressRecognizerV3,
    StreetAddressRecognizerV4,
    StreetAddressRecognizerV5,
    StreetAddressRecognizerV6,
    StreetAddressRecognizerV7,
    StreetAddressRecognizerV8,
    StreetAddressRecognizerV9,
)


@pytest.mark.parametrize(
    "marked",
    [
        "mit der Anschrift [[Lerchenweg 3]], [[5]], [[7]], [[9]], 84166 Adlkofen",
        "Das Anwesen „[[Am Kalvarienberg 6]]“ liegt an einem Hang",
        "unter deren neuer Anschrift „[[Mainburger Straße 17]], 93333 Neustadt a. d. Donau“",
        "wohnhaft in der [[Otto-Hahn-Str. 12a]] in Leipzig",
        "am Standort [[Martin-Luther-Platz 2-4]] in Augsburg",
        "des Anwesens [[Lerchenweg 11]], [[13]] und [[15]] sei es",
        # negatives: no house number, years and measures, legal ways, numbered points
        "In der Goethestraße liegt ein Kindergarten",
        "Im Jahr 2019 wurde der Bescheid erlassen",
        "Am Ende 3 Wochen später",
        "Im Streitjahr 2010 wird der Kläger",
        "In den Unteransprüchen 7 und 11",
        "Am Stichtag 30. Juni 1990",
        "Am Handgriff 2 ist ein Schaft",
        "der Verwaltungsrechtsweg 2 ist eröffnet",
        "auf der Bahnhofstraße 30 km/h gefahren",
        "Die Bundesstraße 308 verläuft",
    ],
)
def test_street_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizer(), marked, "STREET_ADDRESS")


@pytest.mark.parametrize(
    "marked",
    [
        "Er wohnt [[Hauptstraße 12]] in 85560 Ebersberg.",
        "mit der Anschrift [[Lerchenweg 3]], [[5]], [[7]], [[9]], 84166 Adlkofen",
        # road classes and legal ways stay out, as in version 1
        "Die Bundesstraße 308 verläuft",
        "der Verwaltungsrechtsweg 2 ist eröffnet",
        "In der Hauptstraße befindet sich eine Grundschule",
    ],
)
def test_street_v2_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV2(), marked, "STREET_ADDRESS")


@pytest.mark.parametrize(
    "marked",
    [
        "Er wohnt [[Hauptstraße 12]] in 85560 Ebersberg.",
        # a street named with a common word that is itself a street word (from-scratch dev set)
        "des Grundstücks FlNr. 1183/2 ([[Am Kirchplatz 4]]). Die Zufahrt",
        "Das Anwesen [[Am Marktplatz 3]] liegt gegenüber; [[An der Kirchgasse 2]] und [[5]]",
        "wohnhaft in Geisenhausen, [[Am Anger 17]], wendet sich",
        # a business park's address
        "die Verwaltungs GmbH, [[Gewerbepark Ost 12]], 93083 Obertraubling",
        "mit Sitz im [[Industriegebiet Süd 4a]] in Dingolfing",
        # a hamlet's name and number after a word that says an address follows
        "Der Kläger ist Eigentümer des Anwesens [[Grub 3]] in der Gemeinde Wartenberg.",
        "auf dem Anwesen [[Sonnenhof 2]], 84424 Isen; die Zeugin, wohnhaft in [[Oberhaun 7]], sagte aus",
        "Das Anwesen Nr. 3 wurde 1990 erworben; wohnhaft in Erding seit 2010, wohnhaft in Erding 2010",
        # negatives: a common word that is no street, a legal way, a year, a road class
        "Am Ende 3 der Liste",
        "Im Jahr 2019 wurde",
        "am Rechtsweg 2 fehlt es",
        "Die Bundesstraße 308 verläuft",
        "Im Gewerbegebiet gilt die Baunutzungsverordnung 1990",
    ],
)
def test_street_v3_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV3(), marked, "STREET_ADDRESS")


@pytest.mark.parametrize(
    "marked",
    [
        # version 3's table holds for version 4
        "des Grundstücks FlNr. 1183/2 ([[Am Kirchplatz 4]]). Die Zufahrt",
        "die Verwaltungs GmbH, [[Gewerbepark Ost 12]], 93083 Obertraubling",
        "Am Ende 3 der Liste",
        "Im Jahr 2019 wurde",
        # a street named with a preposition and a common field, water or landmark word
        "Die Klägerin wohnt im Anwesen [[Am Mühlbach 3]], das an das Vorhabengrundstück grenzt.",
        "Die Beigeladene plant auf dem Grundstück [[An der Leiten 12]] ein Wohnhaus.",
        "[[Am Schlossberg 2]] befindet sich das Wohnhaus der Kläger.",
        "Der Hund lief vom Grundstück [[Im Winkel 7]] auf die Fahrbahn.",
        "Der Unfall ereignete sich vor dem Haus [[Zur Schmiede 4]].",
        # any word where an address is written: a word before that says so, a postal code after
        "Die Klägerin ist Eigentümerin des Anwesens [[An der Elbe 4]] in Dessau.",
        "Der Beklagte zog 2019 nach [[Im Stift 3]], 85229 Markt Indersdorf.",
        # negatives: a year, a document's numbered parts, an everyday word without an address
        "Im Jahr 2019 und im Zeitraum 2015 bis 2018",
        "Im Anhang 1 und im Zusammenhang 2 der Richtlinie",
        "Im Hintergrund 3 Personen; Am Anfang 2 Zeugen",
        "In der Anlage 3 zum Vertrag",
        "Am Berg 3 km weiter",
    ],
)
def test_street_v4_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV4(), marked, "STREET_ADDRESS")


@pytest.mark.parametrize(
    "marked",
    [
        # a street named after a titled person or a saint, the title abbreviated before the hyphen
        "Die Beklagte betreibt in der [[Bgm.-Schmid-Str. 4]] eine Gaststätte.",
        "Er hatte seinen Wohnsitz bis 2019 in der [[St.-Martin-Str. 18]] in Landshut.",
        "Die Beklagte hat ihren Sitz in der [[Dr.-Johann-Maier-Straße 3]], 93049 Regensburg.",
        "Die Anwesen [[St.-Martin-Str. 18]], [[20]] und [[22]] sind betroffen.",
        # version 4's rows keep their meaning
        "Die Klägerin wohnt im Anwesen [[Am Mühlbach 3]], das an das Vorhabengrundstück grenzt.",
        "Im Jahr 2019 und im Zeitraum 2015 bis 2018",
        "vgl. Art.-Nr. 5 der Liste und BGH, Urt. v. 12.3.2019 – VI ZR 3/18",
    ],
)
def test_street_v5_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV5(), marked, "STREET_ADDRESS")


@pytest.mark.parametrize(
    "marked",
    [
        "Die Hofstelle [[Grub 6]] liegt rund 2 km von dem Ortskern entfernt.",
        "Das Hofanwesen [[Oberhaun 7]] gehört dem Kläger.",
        "das Anwesen [[Grub 3]] in Arrach",
        # negatives: a year after the name, no number
        "Die Hofstelle Grub 2019 kaufte er.",
        "Die Hofstelle liegt im Außenbereich.",
    ],
)
def test_street_v6_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV6(), marked, "STREET_ADDRESS")


def test_version_5_keeps_its_meaning() -> None:
    assert StreetAddressRecognizerV5().analyze("Die Hofstelle Grub 6 liegt abseits.") == []


def test_version_4_keeps_its_meaning() -> None:
    assert StreetAddressRecognizerV4().analyze("in der St.-Martin-Str. 18 und der Bgm.-Schmid-Str. 4") == []


def test_version_3_keeps_its_meaning() -> None:
    assert StreetAddressRecognizerV3().analyze("Das Anwesen Am Mühlbach 3 und An der Leiten 12") == []


def test_version_2_keeps_its_meaning() -> None:
    assert StreetAddressRecognizerV2().analyze("Das Anwesen Am Kirchplatz 4 und Gewerbepark Ost 12") == []


def test_version_1_keeps_its_meaning() -> None:
    assert StreetAddressRecognizer().analyze("Er wohnt Hauptstraße 12 in Ebersberg.") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Lerchenweg 3, [[84166 Adlkofen]], das unmittelbar angrenzt",
        "Rosenauer Straße 14 in [[84307 Eggenfelden]] ab",
        "Mainburger Straße 17, [[93333 Neustadt a. d. Donau]]“ zuzustellen",
        "Kellerstraße 7, [[85283 Wolnzach]]",
        # negatives: amounts and counts, postal-code-less towns, numbers inside other numbers
        "ein Betrag von 12.500, 10000 Euro und mehr",
        "in 12000 Fällen",
        "die Stadt Sch. 127815 Einwohner",
        "Az. 1100 Js 28714/20",
        "vgl. BayVGH BeckRS 2017, 31874 Rn. 7; BeckRS 2012, 60215 Rdnr. 22",
    ],
)
def test_postal_town_table(marked: str) -> None:
    check_table_row(PostalTownRecognizer(), marked, "POSTAL_TOWN")


@pytest.mark.parametrize(
    "marked",
    [
        "Die Beklagte, die Dachdeckerei Gottfried Rankl GmbH, [[Gewerbepark 11]], 94474 Vilshofen an der Donau, lehnte ab.",
        "Er lebte zuletzt bei seiner Freundin in Osterhofen, [[Am Schlosspark 12]].",
        "Er lebt bei seinen Eltern in Tiefenbach, [[Am Kalvarienberg 3]].",
        # negatives: a park without a postal code after it; "Im Jahr …" where no town precedes
        "Im Gewerbepark 11 Betriebe haben sich angesiedelt.",
        "Im Jahr 2019 kamen 3 Anträge hinzu.",
    ],
)  # fmt: skip
def test_street_address_v7_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV7(), marked, "STREET_ADDRESS")


@pytest.mark.parametrize(
    "marked",
    [
        "Er ist im Lager ihres Standorts Pfaffenhofen an der Ilm, [[Gewerbering Nord 14]], beschäftigt.",
        "Die Halle liegt am [[Industriering Ost 3a]] in Mainburg.",
        # negatives: a ring's length; a ring road without a number
        "Der Gewerbering Nord 14 km weiter ist gesperrt.",
        "Der Gewerbering Nord wurde 2019 ausgebaut.",
    ],
)  # fmt: skip
def test_street_address_v8_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV8(), marked, "STREET_ADDRESS")


def test_street_address_version_7_keeps_its_meaning() -> None:
    assert StreetAddressRecognizerV7().analyze("ihres Standorts, Gewerbering Nord 14, beschäftigt.") == []


def test_street_address_version_6_keeps_its_meaning() -> None:
    assert StreetAddressRecognizerV6().analyze("GmbH, Gewerbepark 11, 94474 Vilshofen, und in Osterhofen, Am Schlosspark 12.") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Der Beigeladene wohnt [[Graf-von-Stauffenberg-Weg 37]] in Moosburg.",
        "Die Eheleute aus der [[Bürgermeister-Dr.-Hauser-Straße 2]] beschwerten sich.",
        "Der Kläger wohnt in Hebertsfelden, [[Im Oberen Feld 4]]. Er ist Rentner.",
        "Das Anwesen [[Am großen Bleek 35]] liegt am Hang.",
        "die Anwesen [[Am Kapellenfeld 2]] bis [[8]] seien über einen Privatweg erschlossen",
        "Die Zufahrt zu den Anwesen [[Oberreit 1]], [[2]] und [[4]] führt über den Hofraum.",
        "Das Anwesen „[[Tintengraben 11]]“ liegt am Hang.",
        "auf dem Grundstück FlNr. 412/3 der Gemarkung Aholming ([[Unterer Weiler 20]]) genehmigt",
        # negatives: "bis" before a year; an adjective and an everyday word; a plot's district
        # and a bracket that holds no address
        "Sie wohnte in der [[Lindenstraße 5]] bis 2020 mit ihrem Sohn.",
        "Im Alten Testament 3 Stellen belegen dies.",
        "FlNr. 412/3 der Gemarkung Aholming (Teilfläche 300 m²)",
    ],
)  # fmt: skip
def test_street_address_v9_table(marked: str) -> None:
    check_table_row(StreetAddressRecognizerV9(), marked, "STREET_ADDRESS")


def test_street_address_version_8_keeps_its_meaning() -> None:
    text = "Er wohnt in Hebertsfelden, Im Oberen Feld 4. Das Anwesen „Tintengraben 11“ liegt am Hang."
    assert StreetAddressRecognizerV8().analyze(text) == []
