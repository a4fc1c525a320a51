"""A mark's, product's or venue's name in quotes after the word that names it so; a quoted
term after any other word stays."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
from deid.anonymizer.recognizers.quoted_name import (
    BrandNameRecognizer,
    BrandNameRecognizerV2,
    BrandNameRecognizerV3,
    BrandNameRecognizerV4,
    BrandNameRecognizerV5,
    BrandNameRecognizerV6,
    BrandNameRecognizerV7,
    VenueNameRecognizer,
    VenueNameRecognizerV2,
    VenueNameRecognizerV3,
    VenueNameRecognizerV4,
    VenueNameRecognizerV5,
)


@pytest.mark.parametrize(
    "marked",
    [
        "Die Klägerin vertreibt unter der Marke „[[Bergkristall]]“ Mineralwasser aus Bad Abbach.",
        "Die Wortmarke „[[ALPENGLUT]]“ ist unter der Nummer 30 2018 104 567 eingetragen.",
        "Die Klägerin ist Inhaberin der Unionsmarke Nr. 018 123 456 „[[Waldgeist]]“.",
        "Das Produkt „[[Kräuterhexe Classic]]“ wird in Supermärkten der Region verkauft.",
        "Energiegetränke, die sie unter dem Zeichen „[[Monster]]“ vertreibe",
        # BPatG's spellings (training text): straight quotes, "!" and a hyphen in the name
        'die Wortmarke "[[Kö-Bogen]]" angemeldet; die Widerspruchsmarke „[[JOOP!]]“ betreffe',
        "zwischen der angegriffenen Marke „[[Rap Shot]]“ und der älteren Widerspruchsmarke „[[RAP]]“",
        # negatives: a quoted term after another word, an empty or lower-case quote, no quotes
        "Die Berufsbezeichnung „Facharzt“ darf er führen; der Begriff „Wohnung“ ist weit.",
        "Die Aufgaben werden unter der Bezeichnung „Jobcenter“ wahrgenommen.",
        "Die Marke „“ und die Marke „das ist klein“",
        "ein Pkw der Marke BMW, Typ 530d",
    ],
)
def test_brand_table(marked: str) -> None:
    check_table_row(BrandNameRecognizer(), marked, "BRAND_NAME")


# what version 2 adds: a product a party sells or a suit attacks (patent and competition suits)
_SOLD_OR_ATTACKED = [
    "Die Beklagte vertreibt unter der Bezeichnung „[[AquaDos 300]]“ Dosierpumpen für Schwimmbäder.",
    "Die angegriffene Ausführungsform „[[AquaDos 300]]“ macht von der Lehre des Klagepatents Gebrauch.",
    "Die Beklagte verkaufte in ihrem Laden Spirituosen, unter anderem unter der Bezeichnung „[[Bayerwald Feuer]]“.",
    "die streitgegenständlichen Produkte „[[Kräuterzauber]]“ seien verwechselbar",
    "Die Beklagte bewirbt ihre Sonnencreme unter der Produktbezeichnung „[[Sonnenwacht 50+]]“ im Internet.",
]


@pytest.mark.parametrize(
    "marked",
    [
        *_SOLD_OR_ATTACKED,
        # version 1's rows stay
        "Das Produkt „[[Kräuterhexe Classic]]“ wird in Supermärkten der Region verkauft.",
        # negatives: a term under a name without a verb of selling; an attacked form without quotes;
        # a verb of selling in an earlier sentence
        "Die Aufgaben werden unter der Bezeichnung „Jobcenter“ wahrgenommen.",
        "Im Patentrecht ist eine angegriffene Ausführungsform lediglich daraufhin zu untersuchen, ob sie",
        "Die Beklagte vertreibt Pumpen. Das Amt führt sie unter der Bezeichnung „Pumpenbau“.",
        "eine Fußball-Lizenzmannschaft, die unter der Bezeichnung „MSV Duisburg“ am Spielbetrieb teilnimmt",
    ],
)
def test_brand_v2_table(marked: str) -> None:
    check_table_row(BrandNameRecognizerV2(), marked, "BRAND_NAME")


@pytest.mark.parametrize(
    "marked",
    [
        # a court's order: the verb of selling after the name
        "Die Beklagte wird verurteilt, es zu unterlassen, Bier unter der Bezeichnung „[[Holledauer Gold]]“ anzubieten.",
        "es zu unterlassen, Dosierpumpen unter der Bezeichnung „[[AquaDos 300]]“ in den Verkehr zu bringen",
        # negatives: a term the court discusses
        "die unter der Bezeichnung „Jobcenter“ wahrgenommenen Aufgaben",
    ],
)
def test_brand_v3_table(marked: str) -> None:
    check_table_row(BrandNameRecognizerV3(), marked, "BRAND_NAME")


@pytest.mark.parametrize(
    "marked",
    [
        # whatever the attacked thing is called
        "Das angegriffene Scharnier „[[FlexiMove 2]]“ macht von der Lehre des Anspruchs 1 Gebrauch.",
        "Die beanstandete Leuchte „[[Lumina Pro]]“ wird seit 2021 vertrieben.",
        # negatives: no quote after the noun; a quoted word that is no name
        "Das angegriffene Urteil hält der rechtlichen Überprüfung stand.",
        "Der beanstandete Satz „wir liefern sofort“ ist irreführend.",
    ],
)  # fmt: skip
def test_brand_v4_table(marked: str) -> None:
    check_table_row(BrandNameRecognizerV4(), marked, "BRAND_NAME")


@pytest.mark.parametrize(
    "marked",
    [
        # a word with a capital inside in quotes, whatever word names it
        "Die Beklagte vertreibt die Herdenverwaltung „[[HerdPilot 4]]“ für Milchviehbetriebe.",
        "Er sollte die Arbeitszeit mit der App „[[TimeTrack Pro]]“ erfassen.",
        'die angemeldete Wortfolge "[[PatientAssist]]" sei beschreibend',  # BPatG's straight quotes
        # negatives: a platform named in passing; a word without a capital inside; an
        # abbreviation's mixed case
        "Er schickte ihr die Fotos über „WhatsApp“ und „YouTube“.",
        "Die Buchstabenfolge „WiR“ steht für die Begriffe Wirtschaftsring und wir.",
        "Die Bezeichnung „Herdenverwaltung“ ist beschreibend.",
    ],
)  # fmt: skip
def test_brand_v5_table(marked: str) -> None:
    check_table_row(BrandNameRecognizerV5(), marked, "BRAND_NAME")


@pytest.mark.parametrize(
    "marked",
    [
        # a mark after its register number without "Nr."
        "Die Klägerin ist Inhaberin der beim DPMA eingetragenen Wortmarke 30 2014 052 318 „[[Kellerfürst]]“, die für Biere eingetragen ist.",
        "Der Widerspruch aus der Unionsmarke 1315550 „[[Wohlfühlfarbe]]“ hat Erfolg.",
        # as version 5: after "Nr."; negative: a number and a quote after no mark's word
        "Die Marke Nr. 30 2008 062 828 „[[Bergkristall]]“ ist eingetragen.",
        "Nach Randnummer 30 2014 „Auslegung“ des Kommentars ist das anders.",
    ],
)  # fmt: skip
def test_brand_v6_table(marked: str) -> None:
    check_table_row(BrandNameRecognizerV6(), marked, "BRAND_NAME")


@pytest.mark.parametrize(
    "marked",
    [
        # a product's name after the word for its type or model
        "Die Beklagte lieferte dem Kläger einen Melkroboter des Typs „[[Lactomat VX 2]]“ zum Preis von 148.750,00 €.",
        "Sie wird mit einem Holzofen des Typs „[[Glutkern 16]]“ mit einer Nennwärmeleistung von 9 kW beheizt.",
        "Er hatte an der Kasse das Programm „[[Glanzwerk Premium]]“ erworben.",
        "Der Kläger kaufte ein E-Mountainbike des Modells „[[Velantis Trail E7]]“ zum Preis von 5.490 €.",
        # as version 6; negatives: the word for a type before a term in quotes that starts small,
        # a quote after another word
        "Die Marke Nr. 30 2008 062 828 „[[Bergkristall]]“ ist eingetragen.",
        "Der Typ „unbefristeter Vertrag“ ist gemeint.",
        "Die Bezeichnung „Facharzt“ ist geschützt.",
    ],
)  # fmt: skip
def test_brand_v7_table(marked: str) -> None:
    check_table_row(BrandNameRecognizerV7(), marked, "BRAND_NAME")


def test_brand_version_6_keeps_its_meaning() -> None:
    assert BrandNameRecognizerV6().analyze("einen Melkroboter des Typs „Lactomat VX 2“ zum Preis") == []


def test_brand_version_5_keeps_its_meaning() -> None:
    assert BrandNameRecognizerV5().analyze("der Wortmarke 30 2014 052 318 „Kellerfürst“, die") == []


def test_brand_version_4_keeps_its_meaning() -> None:
    assert BrandNameRecognizerV4().analyze("die Herdenverwaltung „HerdPilot 4“ für Milchviehbetriebe") == []


def test_brand_version_3_keeps_its_meaning() -> None:
    assert BrandNameRecognizerV3().analyze("Das angegriffene Scharnier „FlexiMove 2“ macht Gebrauch.") == []


def test_brand_version_2_keeps_its_meaning() -> None:
    assert BrandNameRecognizerV2().analyze("Bier unter der Bezeichnung „Holledauer Gold“ anzubieten") == []


@pytest.mark.parametrize("marked", _SOLD_OR_ATTACKED[:2])
def test_version_1_keeps_its_meaning(marked: str) -> None:
    """A saved ``recognizers@6`` chain runs version 1, which finds no product after these cues."""
    text = marked.replace("[[", "").replace("]]", "")
    assert BrandNameRecognizer().analyze(text) == []


@pytest.mark.parametrize(
    "marked",
    [
        "hielt sich der Angeklagte in der Shisha-Bar „[[Orient Lounge]]“ in der Bahnhofstraße auf",
        "Der Beklagte betreibt den Onlineshop „[[Holzwerk Huber]]“ unter der Domain holzwerk-huber.de.",
        "die Ausübung des Gewerbes in seinem Betrieb „[[Auto-Center Kiefl]]“",
        "ein Angebot der Firma „[[Auto-Kraus Abschleppservice]]“ hin",
        "die Gaststätte „[[Zum Hirschen]]“ in Moosach",
        # negatives: the kind's word in quotes, a lower-case phrase, a kind without quotes
        "der Begriff „Gaststätte“ und ein Betrieb „ohne Namen“",
        "Die Gaststätte liegt an der Dorfstraße.",
    ],
)
def test_venue_table(marked: str) -> None:
    check_table_row(VenueNameRecognizer(), marked, "FIRM_NAME")


@pytest.mark.parametrize(
    "marked",
    [
        "Der Antragsteller ist Sprecher der Bürgerinitiative „[[Lebenswertes Isartal]]“.",
        "Die Beklagte betreibt dort seit 2019 den Friseursalon „[[Haarwerk by Sandra]]“.",
        "Sie schrieb in der WhatsApp-Gruppe „[[Küche Seeblick]]“ an die Kollegen.",
        "Die Reitanlage „[[Gut Eichenried]]“ liegt am Ortsrand.",
        "Die Shisha-Bar „[[Orient Lounge]]“ öffnete um 18 Uhr.",
        "Sie betreibt in der Ingolstädter Straße 60 die Spielhalle „[[Spielothek Royal]]“.",
        # a business by the name it trades under
        "der als Finanzanlagenvermittler unter der Bezeichnung „[[Vermögensplanung Käsbauer]]“ tätig ist",
        # a term the court discusses after another word stays, and one under a name nobody trades
        "der Begriff „Wohnung“ im Sinne des Gesetzes",
        "die unter der Bezeichnung „Jobcenter“ wahrgenommenen Aufgaben",
    ],
)
def test_venue_v2_table(marked: str) -> None:
    check_table_row(VenueNameRecognizerV2(), marked, "FIRM_NAME")


def test_venue_version_1_keeps_its_meaning() -> None:
    assert VenueNameRecognizer().analyze("die Bürgerinitiative „Lebenswertes Isartal“, der Friseursalon „Haarwerk“") == []


@pytest.mark.parametrize(
    ("profile", "expected"),
    [("strict", ["Kräuterhexe Classic", "Orient Lounge"]), ("federal", ["Orient Lounge"])],
)
def test_a_party_s_product_is_neutralized_under_strict_only(profile: str, expected: list[str]) -> None:
    """The policy's row: a party's own brand or product is neutralized under `strict` and kept
    under `federal`; a venue is a firm under both."""
    text = "Das Produkt „Kräuterhexe Classic“ wurde in der Shisha-Bar „Orient Lounge“ verkauft."
    pipe = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": profile})
    assert [text[s.start : s.end] for s in pipe.analyze(text)] == expected


@pytest.mark.parametrize(
    "marked",
    [
        "Es kam zu einem Streit um einen Platz am Tisch der Blaskapelle „[[Ilztaler Musikanten]]“.",
        "Die Stadt habe dem Kaffeewagen „[[Bohne & Blech]]“ der Frau K. eine Erlaubnis erteilt.",
        "Der Kläger betreibt unter der Bezeichnung „[[Memo’s Grill]]“ einen Imbisswagen.",
        # negatives: a police car's call sign; a term the court discusses
        "Der Streifenwagen „Isar 12/3“ traf um 22:10 Uhr ein.",
        "Die Tätigkeit wird unter der Bezeichnung „Jobcenter“ wahrgenommen.",
    ],
)  # fmt: skip
def test_venue_name_v3_table(marked: str) -> None:
    check_table_row(VenueNameRecognizerV3(), marked, "FIRM_NAME")


def test_venue_name_version_2_keeps_its_meaning() -> None:
    assert VenueNameRecognizerV2().analyze("der Blaskapelle „Ilztaler Musikanten“ und dem Kaffeewagen „Bohne & Blech“") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Der Kläger betreibt unter der Bezeichnung „[[Lichtmoment Fotografie]]“ ein Fotostudio in Rottenburg.",
        "Er betreibt seit 2016 unter der Bezeichnung „[[Kiosk am Ludwigsplatz]]“ einen Kiosk mit Lottoannahme.",
        # negatives: a term the court discusses; no business after the quote
        "Die Tätigkeit wird unter der Bezeichnung „Jobcenter“ wahrgenommen.",
    ],
)  # fmt: skip
def test_venue_name_v4_table(marked: str) -> None:
    check_table_row(VenueNameRecognizerV4(), marked, "FIRM_NAME")


def test_venue_name_version_3_keeps_its_meaning() -> None:
    assert VenueNameRecognizerV3().analyze("betreibt unter der Bezeichnung „Lichtmoment Fotografie“ ein Fotostudio") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Sie ist mit der Apotheke „[[Am Rathaus]]“ in Neuötting zu einem Notdienstkreis zusammengefasst.",
        "Der Kläger betreibt unter der Bezeichnung „[[Lichtmoment Fotografie]]“ ein Fotostudio in Rottenburg.",
        # negatives: a pharmacy without a name in quotes; a term the court discusses
        "Die Apotheke lehnte die Abgabe des Arzneimittels ab.",
        "Die Tätigkeit wird unter der Bezeichnung „Jobcenter“ wahrgenommen.",
    ],
)  # fmt: skip
def test_venue_name_v5_table(marked: str) -> None:
    check_table_row(VenueNameRecognizerV5(), marked, "FIRM_NAME")


def test_venue_name_version_4_keeps_its_meaning() -> None:
    assert VenueNameRecognizerV4().analyze("mit der Apotheke „Am Rathaus“ in Neuötting") == []
