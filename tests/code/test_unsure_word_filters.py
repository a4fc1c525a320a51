"""The filters that drop a model's unsure ordinary words (deid.anonymizer.components), in the
versions that spare what the text itself names: a place after a residence, seat or authority
cue (common_nouns@2), and a plot number's label word or a police rank dropped as no name
(no_name_shape@2)."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import LOCATION, MODEL_SOURCE, ORGANIZATION, OTHER, PERSON, SEAT, Span


def _at(text: str, surface: str, label: str, nth: int = 0, score: float = 0.6) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(surface, start + 1)
    return Span(start, start + len(surface), label, score, MODEL_SOURCE)


@pytest.mark.parametrize(
    "text, place, names",
    [
        # a town that is also a noun's form, where the text names a place
        ("Ihr Sohn Stefan Obermayr wohnt in Stephanskirchen.", "Stephanskirchen", []),
        ("Der Angeklagte, wohnhaft in Laufen, räumte die Tat ein.", "Laufen", []),
        ("Die Beklagte mit Sitz in Au betreibt eine Spedition.", "Au", []),
        ("Das Grundstück FlNr. 1024 der Gemarkung Laufen ist unbebaut.", "Laufen", []),
        ("Die Polizeiinspektion Laufen nahm den Unfall auf.", "Laufen", []),
        # "in" right after a person's or a firm's name
        ("Das Testament wurde vor der Notarin Dr. Ulrike Hagenauer in Laufen beurkundet.", "Laufen",
         [("Ulrike Hagenauer", PERSON)]),
        ("Die Beigeladene, die Bürgerwind GmbH in Laufen, trägt ihre Kosten.", "Laufen",
         [("Bürgerwind GmbH", ORGANIZATION)]),
    ],
)  # fmt: skip
def test_version_2_keeps_a_place_where_the_text_names_one(
    text: str, place: str, names: list[tuple[str, str]]
) -> None:
    spans = sorted([_at(text, place, LOCATION), *(_at(text, n, label, score=0.99) for n, label in names)])
    kept = Chain([step("common_nouns", 2)])(text, spans)
    assert _at(text, place, LOCATION) in kept
    assert _at(text, place, LOCATION) not in Chain([step("common_nouns", 1)])(text, spans)  # version 1 drops it


@pytest.mark.parametrize(
    "text, word, label",
    [
        # the same nouns in prose, or a place without a cue: unsure, they are dropped as before
        ("Nach dem Laufen klagte der Zeuge über Schmerzen.", "Laufen", LOCATION),
        ("Die Kirche feiert in Stephanskirchen ihre Feste, sagte der Zeuge Laufen.", "Laufen", PERSON),
        ("Er war in Laufen und Springen gleichermaßen gut.", "Laufen", LOCATION),
        ("Er wohnt in der Nähe der Stephanskirchen von Wien.", "Stephanskirchen", SEAT),
    ],
)
def test_version_2_still_drops_an_unsure_noun_without_a_place_cue(text: str, word: str, label: str) -> None:
    span = _at(text, word, label)
    assert Chain([step("common_nouns", 2)])(text, [span]) == []


@pytest.mark.parametrize(
    "text, word",
    [
        ("Der Kläger ist Eigentümer des Grundstücks FlNr. 862/14 der Gemarkung Mamming.", "FlNr"),
        ("auf den Grundstücken FlNrn. 1183/4 und 1183/5 der Gemarkung Obertraubling", "FlNrn"),
        ("als Eigentümerin des Grundstücks Flst. 318/7 eingetragen", "Flst"),
        ("das Grundstück Flur-Nr. 687 an Thomas Kraußer verkauft", "Flur-Nr"),
        # a police rank before the officer's name
        ("Gegenüber dem Polizeibeamten POM Kagerer räumte der Antragsteller ein", "POM"),
    ],
)
def test_no_name_shape_v2_drops_a_plot_numbers_label_word_or_a_rank(text: str, word: str) -> None:
    span = _at(text, word, LOCATION)
    assert Chain([step("no_name_shape", 2)])(text, [span]) == []
    assert Chain([step("no_name_shape", 1)])(text, [span]) == [span]  # version 1 keeps its meaning
    place = "Der Zeuge wohnt in Flintsbach."  # a name that begins so stays
    assert Chain([step("no_name_shape", 2)])(place, [_at(place, "Flintsbach", LOCATION)]) != []


FEDERAL_COMPOUNDS = [step("plain_compounds", 2), step("policy", 2, profile="federal")]


@pytest.mark.parametrize(
    "text, word",
    [
        # compounds of ordinary words the model took for names (LER dev half's kinds)
        ("Die Ampel zeigte Rotlicht, nachdem sie zuvor fünf Sekunden Gelblicht gezeigt hatte.", "Gelblicht"),
        ("Den Gurt hatte er hinter seinem Rücken in das Gurtschloss gesteckt.", "Gurtschloss"),
        ("In Eilfällen steht vorläufiger Rechtsschutz offen.", "Eilfällen"),
        ("lieferte die Firma Fleischprodukte, unter anderem Speck, in die Ukraine", "Fleischprodukte"),
    ],
)
def test_plain_compounds_v2_drops_an_unsure_compound_of_ordinary_words(text: str, word: str) -> None:
    span = _at(text, word, ORGANIZATION)
    assert Chain(FEDERAL_COMPOUNDS)(text, [span]) == []
    assert Chain(FEDERAL_COMPOUNDS)(text, [_at(text, word, ORGANIZATION, score=0.97)]) != []  # sure
    assert Chain([step("plain_compounds", 2)])(text, [span]) == [span]  # strict: when in doubt, neutralize


@pytest.mark.parametrize(
    "text, word",
    [
        # built like a surname: its end is a surname that ends many others ("-huber", "-moser")
        ("Das Landgericht hat ihn verurteilt; Trosthuber legte Revision ein.", "Trosthuber"),
        ("Die Lieferungen bestellte Vogelmoser, einer der Geschäftsführer.", "Vogelmoser"),
        # after a person's role or title, whatever its parts
        ("Die Revision des Angeklagten Schneedreher ist unbegründet.", "Schneedreher"),
        ("Der Zeuge Dr. Glockenwirt bestätigte das.", "Glockenwirt"),
    ],
)
def test_plain_compounds_v2_keeps_a_compound_built_like_a_surname(text: str, word: str) -> None:
    span = _at(text, word, PERSON)
    assert [(s.start, s.end) for s in Chain(FEDERAL_COMPOUNDS)(text, [span])] == [(span.start, span.end)]
    assert Chain([step("plain_compounds", 1)])(text, [span]) == []  # version 1 keeps its meaning


FEDERAL_WORDS = [step("frequent_words", 1), step("policy", 2, profile="federal")]


@pytest.mark.parametrize(
    "text, word, label",
    [
        # a capitalized sentence start and a noun of legal prose the model took for a name
        ("Scheitert die Einreichung der Beschwerde, trägt der Bevollmächtigte die Verantwortung.",
         "Scheitert", OTHER),
        ("Triftige Gründe für die Benutzung des eigenen Kraftfahrzeugs lagen nicht vor.", "Triftige", LOCATION),
        ("Eine solche Unterscheidung hat die einschlägige Judikatur bisher nicht vorgenommen.", "Judikatur", PERSON),
        # an English or Dutch word the federal courts quote untranslated
        ("Die Fluglehrer unterstanden dem 80th Flying Training Wing der US-Luftwaffe.", "Flying", ORGANIZATION),
        ("Die Klägerin erwarb ihren Bachelor an der Hogeschool in Zeist.", "Hogeschool", ORGANIZATION),
        ('Der Bericht "Chechens in Russia" nennt dazu keine Zahlen.', "Chechens", PERSON),
    ],
)  # fmt: skip
def test_frequent_words_drops_an_unsure_lone_everyday_word_under_federal(text: str, word: str, label: str) -> None:
    span = _at(text, word, label)
    assert Chain(FEDERAL_WORDS)(text, [span]) == []
    assert Chain(FEDERAL_WORDS)(text, [_at(text, word, label, score=0.97)]) != []  # sure
    assert Chain([step("frequent_words", 1)])(text, [span]) == [span]  # strict: when in doubt, neutralize


@pytest.mark.parametrize(
    "text, word, others",
    [
        # a name of the lists, whatever else the word means
        ("Die Revision der Angeklagten Jäger hat Erfolg.", "Jäger", []),
        ("Die Gleise werden von Mengen bis Müllheim in Tieflage geführt.", "Mengen", []),
        # after a person's role or title
        ("Der Zeuge Forward bestätigte die Angaben des Angeklagten.", "Forward", []),
        # a part of a longer name
        ("Die Beklagte schloss den Vertrag mit Aaron Flying ab.", "Flying", ["Aaron"]),
        # a made-up name no everyday text uses
        ("Dass Quasthoff andere zu falschen Aussagen verleitet habe, steht nicht fest.", "Quasthoff", []),
    ],
)
def test_frequent_words_keeps_a_name(text: str, word: str, others: list[str]) -> None:
    span = _at(text, word, PERSON)
    spans = sorted([span, *(_at(text, other, PERSON, score=0.99) for other in others)])
    assert span in Chain(FEDERAL_WORDS)(text, spans)


@pytest.mark.parametrize(
    "text, road",
    [
        # a public road by its class, alone or with its number
        ("Er befuhr mit dem Motorrad die Staatsstraße 2125 von Lalling nach Hunding.", "Staatsstraße 2125"),
        ("Der Markt baute die Straße bis zur Einmündung in die Kreisstraße LA 9 aus.", "Kreisstraße"),
        ("Die Landshuter Straße ist dort Vorfahrtstraße und knickt nach links ab.", "Vorfahrtstraße"),
    ],
)
def test_no_name_shape_v5_drops_a_public_road_by_its_class(text: str, road: str) -> None:
    span = _at(text, road, "STREET")
    assert Chain([step("no_name_shape", 5)])(text, [span]) == []
    assert Chain([step("no_name_shape", 4)])(text, [span]) == [span]  # version 4 keeps its meaning


@pytest.mark.parametrize(
    "text, street",
    [
        ("Die Zeugin wohnt in der Landstraße 3 in Pfarrkirchen.", "Landstraße 3"),
        ("Der Unfall ereignete sich vor dem Anwesen Hauptstraße 12.", "Hauptstraße 12"),
        ("Der Kläger wohnt in der Kreuzstraße.", "Kreuzstraße"),
    ],
)
def test_no_name_shape_v5_keeps_a_street_of_an_address(text: str, street: str) -> None:
    span = _at(text, street, "STREET")
    assert Chain([step("no_name_shape", 5)])(text, [span]) == [span]


@pytest.mark.parametrize(
    "text, place, kept",
    [
        ("Die Beklagte meint, den Fehler habe ein Händler aus Bogen, die Landtechnik Wurm KG, verursacht.", "Bogen", True),
        ("Unter anderem überwies die Zeugin aus Au 250 €.", "Au", True),
        # not after "in" or "nach", where a verb's noun stands too; not a word no town bears
        ("Er war in Laufen und Springen gleichermaßen gut.", "Laufen", False),
        ("Er handelte aus Angst vor weiteren Schlägen.", "Angst", False),
    ],
)  # fmt: skip
def test_version_3_keeps_a_town_of_the_list_after_aus(text: str, place: str, kept: bool) -> None:
    span = _at(text, place, LOCATION)
    assert (Chain([step("common_nouns", 3)])(text, [span]) == [span]) is kept
    assert Chain([step("common_nouns", 2)])(text, [span]) == []  # version 2 keeps its meaning


@pytest.mark.parametrize(
    "text, word, dropped",
    [
        ("Der Kläger ist seit 2004 bei der Beklagten als Brauer und Mälzer beschäftigt.", "Brauer", True),
        ("Titel: Kündigung eines Brauers wegen Trunkenheit am Arbeitsplatz", "Brauers", True),
        ("Der Kläger ist Jäger. Er will festgestellt wissen, dass er die Tiere nicht melden muss.", "Jäger", True),
        # a surname after a role, a title or in a subject's place stays, however it reads
        ("Der Zeuge Jäger hat glaubhaft ausgesagt, dass die Leiter wegrutschte.", "Jäger", False),
        ("Geschäftsführer der Beklagten ist Herr Müller.", "Müller", False),
        ("Die Klägerin beauftragte als Verwalter Huber und Partner mit der Abrechnung.", "Huber", False),
        ("Das Gericht hat Herrn Weber als Sachverständigen gehört.", "Weber", False),
    ],
)  # fmt: skip
def test_version_4_drops_a_noun_the_grammar_makes_one(text: str, word: str, dropped: bool) -> None:
    span = _at(text, word, PERSON, score=0.99)
    assert (Chain([step("common_nouns", 4)])(text, [span]) == []) is dropped
    assert Chain([step("common_nouns", 3)])(text, [span]) == [span]  # version 3 keeps its meaning


def test_version_4_drops_the_other_mentions_of_a_noun_by_its_grammar() -> None:
    """Consistency would spread a mention left to every other: the document's other mentions of
    the noun go too, but not one after a role ("der Zeuge Jäger")."""
    text = "Der Kläger ist Jäger. Ab diesem Tag müssen Jäger die Tiere melden. Der Zeuge Jäger bestätigte das."
    spans = [_at(text, "Jäger", PERSON, nth=n, score=0.97) for n in range(3)]
    assert Chain([step("common_nouns", 4)])(text, spans) == [spans[2]]


@pytest.mark.parametrize(
    "text, word, dropped",
    [
        ("Der Angeklagte hat gestanden.\n4\nStrafschärfend wirkt, dass er planmäßig vorging.", "Strafschärfend", True),
        ("Der Schaden ist ersetzt. Strafmildernd wirkt das Geständnis.", "Strafmildernd", True),
        # not mid-sentence; not a place that ends so
        ("Das Gericht wertet Strafschärfend als Namen.", "Strafschärfend", False),
        ("Der Kläger zog 2019 um. Westend ist ein Stadtteil.", "Westend", False),
    ],
)  # fmt: skip
def test_lowercase_v2_drops_a_participle_at_a_sentences_start(text: str, word: str, dropped: bool) -> None:
    span = _at(text, word, OTHER, score=0.99)
    assert (Chain([step("lowercase", 2)])(text, [span]) == []) is dropped
    assert Chain([step("lowercase", 1)])(text, [span]) == [span]  # version 1 keeps its meaning


@pytest.mark.parametrize(
    "text, word, kept",
    [
        # a surname that is a noun too, right after a first name
        ("den Kläger zu 2), Thomas Weißgerber, und Katrin Weißgerber, wohnhaft Uhlandstraße 8", "Weißgerber", True),
        ("Die Klägerin ist seit 2004 bei Anna Kürschner als Bürokraft beschäftigt.", "Kürschner", True),
        # negatives: no first name before the noun; a first name that is an ordinary word too
        ("Der Kläger ist seit 2004 als Weißgerber beschäftigt.", "Weißgerber", False),
        ("Die Kosten Weißgerber trägt die Beklagte.", "Weißgerber", False),
    ],
)  # fmt: skip
def test_version_5_keeps_a_person_after_a_first_name(text: str, word: str, kept: bool) -> None:
    nth = text.count(word) - 1
    span = _at(text, word, PERSON, nth=nth, score=0.8)
    assert (Chain([step("common_nouns", 5)])(text, [span]) == [span]) is kept
    if kept:
        assert Chain([step("common_nouns", 4)])(text, [span]) == []  # version 4 keeps its meaning


@pytest.mark.parametrize(
    "text, surface, label",
    [
        # a Bavarian decision's header: the heading and the first outline mark of the Tenor
        ("Fundstelle:\nBeckRS 2023, 21884\nTenor\nI. Die Klage wird abgewiesen.", "Tenor", "STREET"),
        ("Fundstelle:\nBeckRS 2023, 21884\nTenor\nI. Die Klage wird abgewiesen.", "I", LOCATION),
        ("Fundstelle:\nBeckRS 2021, 65728\nTenor\n1. Die Klage wird abgewiesen.", "1.", "STREET"),
        # a margin number after an address that closes the paragraph before
        ("Der Kläger wohnt in Plattling, Mühlbachstraße 3.\n2\nDie Beklagte hatte gekündigt.", "2", "STREET"),
        ("Gründe\nI.\nDer Antragsteller begehrt die Erlaubnis.", "Gründe", LOCATION),
    ],
)
def test_no_name_shape_v6_drops_the_decisions_own_structure(text: str, surface: str, label: str) -> None:
    span = _at(text, surface, label)
    assert Chain([step("no_name_shape", 6)])(text, [span]) == []
    assert Chain([step("no_name_shape", 5)])(text, [span]) == [span]  # version 5 keeps its meaning


@pytest.mark.parametrize(
    "text, surface, label",
    [
        # a house number, a flat and a name that is a heading's word, none opening its line
        ("Die Zeugin wohnt in der Lindenstraße 2 in Pfarrkirchen.", "2", "STREET"),
        ("Der Sänger Titel trat in der Gaststätte auf.", "Titel", PERSON),
        ("Die Wohnung liegt im Anwesen\nAm Anger 12 in Au.", "Am Anger 12", "STREET"),
        # a heading's word that goes on as a sentence: a name at a line's start
        ("Der Zeuge heißt mit Nachnamen\nTenor und sang im Chor der Gemeinde.", "Tenor", PERSON),
    ],
)
def test_no_name_shape_v6_keeps_names_and_numbers_in_running_text(text: str, surface: str, label: str) -> None:
    span = _at(text, surface, label)
    assert Chain([step("no_name_shape", 6)])(text, [span]) == [span]


@pytest.mark.parametrize(
    "text, word, dropped",
    [
        # a word German writes in lowercase inside a sentence, capitalized as a sentence's first
        ("Die Klägerin hat die Frist versäumt. Unstreitig ist, dass ihr der Bescheid am 3. Mai zuging.",
         "Unstreitig", True),
        ("Der Beklagte beruft sich auf Verjährung. Maßgeblich ist der Zeitpunkt der Kenntnis.", "Maßgeblich", True),
        ("Das Arbeitsverhältnis endete im März.\nBeruht die Kündigung auf einer Erkrankung, gilt anderes.",
         "Beruht", True),
        # a name of the lists, a name no everyday word ends like, one after a role: they stay
        ("Der Zeuge wurde vernommen. Fröhlich gab an, er habe nichts gesehen.", "Fröhlich", False),
        ("Die Ladung wurde zugestellt. Schneedreher erschien nicht.", "Schneedreher", False),
        ("Vernommen wurde die Zeugin Maßgeblich.", "Maßgeblich", False),
    ],
)  # fmt: skip
def test_lowercase_v3_drops_a_word_that_is_lowercase_inside_a_sentence_at_a_sentences_start(
    text: str, word: str, dropped: bool
) -> None:
    span = _at(text, word, PERSON, score=0.99)
    for profile in ("strict", "federal"):
        chain = Chain([step("lowercase", 3), step("policy", 2, profile=profile)])
        assert (chain(text, [span]) == []) is dropped
    assert Chain([step("lowercase", 2)])(text, [span]) == [span]  # version 2 keeps its meaning


FEDERAL_TERMS = [step("terms", 1), step("policy", 2, profile="federal")]


def test_terms_drops_a_term_the_document_introduces_in_every_mention_under_federal() -> None:
    text = ("Der Angeklagte überwies das Geld über die sogenannte Hawala an Schneedreher. "
            "Über die Hawala flossen insgesamt 40.000 €. Die sog. „Clearing-Stelle“ prüfte nichts.")  # fmt: skip
    terms = [_at(text, "Hawala", OTHER, score=0.99), _at(text, "Hawala", PERSON, nth=1, score=0.99),
             _at(text, "Clearing-Stelle", ORGANIZATION, score=0.99)]  # fmt: skip
    name = _at(text, "Schneedreher", PERSON, score=0.99)
    spans = sorted([*terms, name])
    assert Chain(FEDERAL_TERMS)(text, spans) == [name]
    # strict: when in doubt, neutralize
    assert Chain([step("terms", 1), step("policy", 2, profile="strict")])(text, spans) == spans


@pytest.mark.parametrize(
    "text, word",
    [
        # a name of the lists, one after a person's role, a word not introduced as a term
        ("Die sogenannte Fröhlich-Gruppe trat auf. Fröhlich leitete sie.", "Fröhlich"),
        ("Er traf den sogenannten Wolkenhammer. Der Zeuge Wolkenhammer bestätigte das.", "Wolkenhammer"),
        ("Die sogenannte Kasse führte Schneedreher.", "Schneedreher"),
    ],
)  # fmt: skip
def test_terms_keeps_a_name(text: str, word: str) -> None:
    span = _at(text, word, PERSON, nth=text.count(word) - 1, score=0.99)
    assert Chain(FEDERAL_TERMS)(text, [span]) == [span]
