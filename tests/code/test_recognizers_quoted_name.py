"""A mark's, product's or venue's name in quotes after the word that names it so; a quoted
term after any other word stays."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
from deid.anonymizer.recognizers.quoted_name import BrandNameRecognizer, VenueNameRecognizer


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
    ("profile", "expected"),
    [("strict", ["Kräuterhexe Classic", "Orient Lounge"]), ("federal", ["Orient Lounge"])],
)
def test_a_party_s_product_is_neutralized_under_strict_only(profile: str, expected: list[str]) -> None:
    """The policy's row: a party's own brand or product is neutralized under `strict` and kept
    under `federal`; a venue is a firm under both."""
    text = "Das Produkt „Kräuterhexe Classic“ wurde in der Shisha-Bar „Orient Lounge“ verkauft."
    pipe = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": profile})
    assert [text[s.start : s.end] for s in pipe.analyze(text)] == expected
