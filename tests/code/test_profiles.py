"""The anonymization profiles (deid.anonymizer.profiles, docs/anonymization-policy.md): one
behaviour test per row of the policy table, on real sentences as German decisions write them,
under ``strict`` and ``federal``, through the chain's ``policy`` step; roles from context
(deid.words.roles); gold sets scored under a profile (deid.evaluation.profiles).

The sentences are written in the form of the bundled decisions; every name in them is made up.
The spans stand for what the model and the recognizers find (each with the label it would
give), so each test shows what the profile makes of it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
from deid.anonymizer.profiles import (
    FEDERAL,
    STRICT,
    TABLE,
    ProfileError,
    apply_profile,
    policy_table,
)
from deid.evaluation.profiles import set_aside, under_profile
from deid.schema import PROFILES, Document, Span
from deid.words.gazetteer import is_big_city
from deid.words.roles import role_label, seat_in_name


def spans_of(text: str, *found: tuple[str, str]) -> list[Span]:
    """Model spans on the first occurrence of each surface (score 0.99)."""
    out = []
    for surface, label in found:
        start = text.index(surface)
        out.append(Span(start, start + len(surface), label, 0.99, "model"))
    return out


def run(profile: str, text: str, *found: tuple[str, str]) -> list[tuple[str, str]]:
    """What the rule chain with the policy step under ``profile`` neutralizes of the spans."""
    pipeline = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": profile})
    result = pipeline.analyze_many([text], [spans_of(text, *found)])[0]
    return [(text[s.start : s.end], s.label) for s in result]


# (row, sentence, spans found, neutralized under strict, neutralized under federal)
ROWS = [
    ("parties, witnesses, experts",
     "Die Zeugin Anneliese Brunnthaler bestätigte, dass der Sachverständige Dr. Volkhart Semmelrock das Gutachten erstellt habe.",
     [("Anneliese Brunnthaler", "PERSON"), ("Volkhart Semmelrock", "PERSON")],
     [("Anneliese Brunnthaler", "PERSON"), ("Volkhart Semmelrock", "PERSON")],
     [("Anneliese Brunnthaler", "PERSON"), ("Volkhart Semmelrock", "PERSON")]),
    ("lawyers (by the model's role)",
     "Die Klägerin wird vertreten durch Rechtsanwältin Dr. Gundula Wetterauer.",
     [("Gundula Wetterauer", "LAWYER")],
     [("Gundula Wetterauer", "PERSON")],
     []),
    ("lawyers (a person after a lawyer's title: the role from the context)",
     "Prozessbevollmächtigter: Rechtsanwalt Bertold Kimmerle",
     [("Bertold Kimmerle", "PERSON")],
     [("Bertold Kimmerle", "PERSON")],
     []),
    ("private companies",
     "Die Beklagte, die Semmelrock Kältetechnik GmbH, lieferte die Anlage.",
     [("Semmelrock Kältetechnik GmbH", "ORGANIZATION")],
     [("Semmelrock Kältetechnik GmbH", "FIRM_NAME")],  # the name before its form (firm_name.v1)
     [("Semmelrock Kältetechnik GmbH", "FIRM_NAME")]),
    ("addresses of private persons",
     "Der Kläger wohnt in der Lindenallee 17 in Oberhaching.",
     [("Lindenallee 17", "STREET"), ("Oberhaching", "LOCATION")],
     [("Lindenallee 17", "STREET_ADDRESS"), ("Oberhaching", "LOCATION")],  # the recognizer's fine label
     [("Lindenallee 17", "STREET_ADDRESS"), ("Oberhaching", "LOCATION")]),
    ("places of residence unless a big city",
     "Der Kläger zog 2019 von Kleinhausen nach Nürnberg.",
     [("Kleinhausen", "LOCATION"), ("Nürnberg", "LOCATION")],
     [("Kleinhausen", "LOCATION")],
     [("Kleinhausen", "LOCATION")]),
    ("a local authority's seat (by the model's role)",
     "Mit Bescheid vom 3. Mai 2021 entzog das Landratsamt Ebersberg dem Kläger die Fahrerlaubnis.",
     [("Ebersberg", "SEAT")],
     [("Ebersberg", "LOCATION")],
     []),
    ("a police station's seat (a place after the authority: the role from the context)",
     "Die Polizeiinspektion Bad Tölz nahm den Unfall auf.",
     [("Bad Tölz", "LOCATION")],
     [("Bad Tölz", "LOCATION")],
     []),
    ("an authority's seat in a big city",
     "Die Staatsanwaltschaft München I stellte das Verfahren ein.",
     [("München I", "SEAT")],
     [],
     []),
    ("an animal's name and breed (the row added where the policy was silent; every mention: test_animals.py)",
     "Die Beklagte hält den Rottweiler-Mischling „Bruno“, der die Zeugin Anneliese Brunnthaler biss.",
     [("Rottweiler", "LOCATION"), ("Bruno", "PERSON"), ("Anneliese Brunnthaler", "PERSON")],
     [("Anneliese Brunnthaler", "PERSON")],
     [("Anneliese Brunnthaler", "PERSON")]),
    ("persons of public life named by their office or fame (every mention: test_public_figures.py)",
     "Die Regierung unter Präsident Adama Barrow gilt als stabil, bestätigte die Zeugin Anneliese Brunnthaler.",
     [("Adama Barrow", "PERSON"), ("Anneliese Brunnthaler", "PERSON")],
     [("Anneliese Brunnthaler", "PERSON")],
     [("Anneliese Brunnthaler", "PERSON")]),
    ("dates of birth",
     "Der am 14.02.1979 geborene Kläger ist ledig.",
     [("14.02.1979", "DATE_OF_BIRTH")],
     [("14.02.1979", "DATE_OF_BIRTH")],
     [("14.02.1979", "DATE_OF_BIRTH")]),
    ("dates of death (a model's DATE: the role from its clause)",
     "Die Erblasserin verstarb am 19.10.2022 in Kulmbach. Am 12.12.2022 erteilte das Nachlassgericht den Erbschein.",
     [("19.10.2022", "DATE"), ("12.12.2022", "DATE")],
     [("19.10.2022", "DATE_OF_DEATH")],  # date_of_death.v1 finds it too; its fine label wins
     [("19.10.2022", "DATE_OF_DEATH")]),
    ("other dates and years, also where the model called one an identifier",
     "Mit Schriftsatz vom 06.04.2023 (Bl. 214 ff. d.A.) nahm die Klägerin Stellung; das Grundstück hatte sie 1991 geerbt.",
     [("06.04.2023", "ID"), ("214", "ID"), ("1991", "DATE")],
     [],
     []),
    ("a land register's sheet and a warrant's number stay identifiers",
     "Eingetragen im Grundbuch des Amtsgerichts Landshut von Ergolding, Blatt 2093; es liegt der Haftbefehl Nr. 3318/2023 vor.",
     [("2093", "ID"), ("3318/2023", "ID")],
     [("2093", "PARCEL_NUMBER"), ("3318/2023", "ID")],  # the parcel recognizer's fine label
     [("2093", "PARCEL_NUMBER"), ("3318/2023", "ID")]),
    ("amounts",
     "Der Streitwert wird auf 5.000,00 EUR festgesetzt.",
     [("5.000,00 EUR", "MONEY")],
     [],
     []),
    ("identifiers",
     "Die Zahlung erfolgte auf das Konto IBAN DE89 3704 0044 0532 0130 00 (Kundennummer 4711-0815).",
     [("DE89 3704 0044 0532 0130 00", "IBAN"), ("4711-0815", "CONTRACT_NUMBER")],
     [("DE89 3704 0044 0532 0130 00", "IBAN"), ("4711-0815", "CONTRACT_NUMBER")],
     [("DE89 3704 0044 0532 0130 00", "IBAN"), ("4711-0815", "CONTRACT_NUMBER")]),
    ("a web page a decision cites (a URL with a path) and a party's own website",
     "Der Begriff ist lexikalisch erfasst (vgl. https://www.duden.de/rechtschreibung/Kagura); die Beklagte "
     "wirbt unter www.kugler-testet.de und https://www.instagram.com/kugler.testet für ihre Brillen.",
     [("https://www.duden.de/rechtschreibung/Kagura", "URL"), ("www.kugler-testet.de", "URL"),
      ("https://www.instagram.com/kugler.testet", "URL")],
     [("https://www.duden.de/rechtschreibung/Kagura", "URL"), ("www.kugler-testet.de", "URL"),
      ("https://www.instagram.com/kugler.testet", "URL")],
     [("www.kugler-testet.de", "URL"), ("https://www.instagram.com/kugler.testet", "URL")]),
    ("a party's own patent",
     "Die Klägerin ist eingetragene Inhaberin des Streitpatents DE 10 2015 123 456 B4.",
     [("DE 10 2015 123 456 B4", "PATENT")],
     [("DE 10 2015 123 456 B4", "PATENT")],
     []),
    ("a party's own mark",
     "Die angegriffene Marke „Wolkenhammer“ ist für Waren der Klasse 25 eingetragen.",
     [("Wolkenhammer", "BRAND")],
     [("Wolkenhammer", "BRAND_NAME")],  # the brand_name recognizer's fine label (shown as OTHER)
     []),
]  # fmt: skip


@pytest.mark.parametrize(("row", "text", "found", "strict", "federal"), ROWS, ids=[r[0] for r in ROWS])
def test_each_row_of_the_policy_under_both_profiles(row, text, found, strict, federal) -> None:
    assert run(STRICT, text, *found) == strict
    assert run(FEDERAL, text, *found) == federal


@pytest.mark.parametrize(
    ("text", "surface", "label", "role"),
    [
        ("Der am 26. November 1948 geborene Kläger", "26. November 1948", "DATE", "DATE"),
        ("Der Kläger ist seit 1990 verheiratet.", "1990", "DATE", "DATE"),
        ("Geburtsdatum: 01.03.1985", "01.03.1985", "ID", "DATE"),
        ("Schreiben vom 13.11.2023", "2023", "DATE", "EVENT_DATE"),  # the year of a full date
        ("im Schriftsatz vom 30.08.2022 (Bl. 152 d.A.)", "08.2022", "ID", "EVENT_DATE"),
        ("Diese verstarb am 19.10.2022. Am 12.12.2022 erteilte", "12.12.2022", "DATE", "EVENT_DATE"),
        ("vgl. Anlage K 3 sowie Bl. 256 und 262 der Akte", "262", "ID", "FILE_REFERENCE"),
        ("vgl. Anlage K 3 sowie Bl. 256 und 262 der Akte", "3", "ID", "FILE_REFERENCE"),
        ("Führerscheinnummer 95917", "95917", "ID", "ID"),
        ("Aktenzeichen 123/2023", "123/2023", "ID", "ID"),
        ("Grundbuch von Ahorn, Bl. 1287", "1287", "ID", "ID"),
    ],
)
def test_the_role_of_a_date_or_a_place_in_the_file(text: str, surface: str, label: str, role: str) -> None:
    """Only a date of birth, death or marriage is a DATE the policy neutralizes; its cue is in
    the same clause, before or after it. The policy step reads these roles since version 2;
    version 1 (and the training labels) never do."""
    start = text.rindex(surface)
    span = Span(start, start + len(surface), label)
    assert role_label(text, span, dates=True) == role
    assert role_label(text, span) == label


@pytest.mark.parametrize(
    ("text", "word", "kept_under_federal"),
    [
        # a compound of ordinary words the model doubts: strict neutralizes it (when in doubt)
        ("Die Ampel zeigte Rotlicht, nachdem sie zuvor fünf Sekunden Gelblicht gezeigt hatte.", "Gelblicht", False),
        ("In Eilfällen steht vorläufiger Rechtsschutz offen.", "Eilfällen", False),
        # ... federal too where it is built like a surname or follows a person's role
        ("Das Landgericht hat ihn verurteilt; Trosthuber legte Revision ein.", "Trosthuber", True),
        ("Die Revision des Angeklagten Schneedreher ist unbegründet.", "Schneedreher", True),
    ],
)  # fmt: skip
def test_a_word_the_model_doubts_is_neutralized_under_strict_only(text: str, word: str, kept_under_federal: bool) -> None:
    start = text.index(word)
    doubted = [Span(start, start + len(word), "PERSON", 0.6, "model")]
    for profile in (STRICT, FEDERAL):
        pipeline = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": profile})
        found = [text[s.start : s.end] for s in pipeline.analyze_many([text], [doubted])[0]]
        assert found == ([word] if profile == STRICT or kept_under_federal else [])
    sure = [Span(start, start + len(word), "PERSON", 0.97, "model")]  # a sure model span stays under both
    pipeline = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": FEDERAL})
    assert [text[s.start : s.end] for s in pipeline.analyze_many([text], [sure])[0]] == [word]


def test_policy_version_1_neutralizes_every_date_as_it_was_gated() -> None:
    text = "Mit Schriftsatz vom 06.04.2023 nahm die Klägerin Stellung."
    spans = spans_of(text, ("06.04.2023", "DATE"))
    assert apply_profile(STRICT, text, spans) == spans
    assert apply_profile(STRICT, text, spans, dates=True) == []
    new = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": STRICT})
    assert [(c.name, c.version) for c in new.config.chain if c.name == "policy"] == [("policy", 3)]


def test_policy_version_2_neutralizes_a_cited_web_page_under_federal_as_it_was_gated() -> None:
    """Version 3 keeps a page the decision cites under ``federal``; version 2 did not."""
    text = "Nach der Auskunft (http://www.ecoi.net/local_link/323719/463296_de.html, Zugriff am 28. September 2017)"
    spans = spans_of(text, ("http://www.ecoi.net/local_link/323719/463296_de.html", "URL"))
    assert apply_profile(FEDERAL, text, spans, dates=True) == spans
    assert apply_profile(FEDERAL, text, spans, dates=True, pages=True) == []
    assert apply_profile(STRICT, text, spans, dates=True, pages=True) == spans
    for version, kept in ((2, False), (3, True)):
        pipeline = build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": FEDERAL})
        chain = [replace(c, version=version) if c.name == "policy" else c for c in pipeline.config.chain]
        pipeline = build_pipeline(config=replace(pipeline.config, chain=chain))
        assert (pipeline.analyze_many([text], [[]])[0] == []) is kept


@pytest.mark.parametrize(
    ("surface", "role"),
    [
        ("https://de.wikipedia.org/wiki/Lack", "WEB_PAGE"),
        ("www.g-ba.de/informationen/beschluesse/3013/", "WEB_PAGE"),
        ("https://www.dict.cc/?s=shisha", "WEB_PAGE"),  # a query is a page too
        ("www.sehwerk-erding.de", "URL"),  # a bare domain: a party's site
        ("https://www.sehwerk-erding.de/", "URL"),
        ("https://www.facebook.com/max.obermaier.75", "URL"),  # a profile is a handle
        ("m.obersojer@posteo.de", "EMAIL"),
    ],
)
def test_the_role_of_a_web_address(surface: str, role: str) -> None:
    text = f"Siehe {surface} dazu."
    start = text.index(surface)
    label = "EMAIL" if "@" in surface else "URL"
    assert role_label(text, Span(start, start + len(surface), label), pages=True) == role


def test_judges_courts_and_laws_stay_under_both_profiles() -> None:
    """Keep rows no model span reaches: the keep zones drop what touches them, whichever
    profile, and a keep type that reaches the policy step is dropped there."""
    text = ("Das Amtsgericht München hat durch die Richterin am Amtsgericht Dr. Hollerbach entschieden; "
            "§ 3 Abs. 1 StVG ist anzuwenden.")  # fmt: skip
    found = [("Amtsgericht München", "ORGANIZATION"), ("Hollerbach", "PERSON"), ("StVG", "ORGANIZATION")]
    for profile in PROFILES:
        assert run(profile, text, *found) == []
    assert apply_profile(STRICT, text, spans_of(text, ("Hollerbach", "JUDGE"))) == []


def test_a_name_the_profile_neutralizes_is_neutralized_in_every_mention_and_a_kept_one_in_none() -> None:
    """Consistency runs after the policy step: under strict the lawyer's later mentions are
    neutralized too; under federal none is."""
    text = ("Für den Kläger erschien Rechtsanwalt Ortwin Kleebauer. Herr Kleebauer beantragte, "
            "den Bescheid aufzuheben. Kleebauer legte die Vollmacht vor.")  # fmt: skip
    strict = run(STRICT, text, ("Ortwin Kleebauer", "LAWYER"))
    assert [s for s, _ in strict] == ["Ortwin Kleebauer", "Kleebauer", "Kleebauer"]
    assert run(FEDERAL, text, ("Ortwin Kleebauer", "LAWYER")) == []


def test_an_unknown_profile_is_a_clear_error_and_so_is_a_pipeline_without_one() -> None:
    with pytest.raises(ProfileError, match="unknown anonymization profile 'lax': use strict or federal"):
        build_pipeline(config=PipelineConfig.rules_only(), overrides={"profile": "lax"})
    old = PipelineConfig.rules_only().without("policy")
    with pytest.raises(ProfileError, match="evaluated without an anonymization profile"):
        old.override(profile=FEDERAL)
    assert old.profile is None and PipelineConfig().profile == STRICT


def test_the_table_covers_every_span_label_and_its_rows_are_the_policy_page() -> None:
    from deid.schema import FINE_TO_COARSE, SPAN_LABELS

    assert set(SPAN_LABELS) <= set(TABLE)
    assert all(TABLE.get(label) or TABLE.get(coarse) for label, coarse in FINE_TO_COARSE.items())
    rows = {r["label"]: r for r in policy_table()}
    assert rows["LAWYER"][STRICT] == "neutralize" and rows["LAWYER"][FEDERAL] == "keep"
    assert rows["SEAT"][FEDERAL] == "keep" and rows["MONEY"][STRICT] == "keep"


@pytest.mark.parametrize(
    ("text", "surface", "label", "role"),
    [
        ("vertreten durch Rechtsanwalt Dr. Anton Wirsching", "Anton Wirsching", "PERSON", "LAWYER"),
        ("Prozessbevollmächtigte: Rechtsanwälte Wirsching, Anna Kleebauer", "Anna Kleebauer", "PERSON", "LAWYER"),
        ("die Zeugin Anna Kleebauer", "Anna Kleebauer", "PERSON", "PERSON"),
        ("beim Landratsamt Rottal-Inn", "Rottal-Inn", "LOCATION", "SEAT"),
        ("das Amtsgericht – Familiengericht – Erding", "Erding", "LOCATION", "SEAT"),
        ("das Landratsamt des Landkreises Miesbach", "Miesbach", "LOCATION", "SEAT"),
        ("wohnhaft in Miesbach", "Miesbach", "LOCATION", "LOCATION"),
    ],
)
def test_roles_from_context(text: str, surface: str, label: str, role: str) -> None:
    start = text.index(surface)
    assert role_label(text, Span(start, start + len(surface), label)) == role


def test_a_seat_at_the_end_of_an_authoritys_name() -> None:
    text = "Bescheid des Landratsamts Neumarkt i.d.OPf. und das Amtsgericht München I sowie das Bundesverwaltungsgericht"
    found = [seat_in_name(text, Span(text.index(n), text.index(n) + len(n), "INN"))
             for n in ("Landratsamts Neumarkt i.d.OPf", "Amtsgericht München I", "Bundesverwaltungsgericht")]  # fmt: skip
    assert [text[s.start : s.end] if s else None for s in found] == ["Neumarkt i.d.OPf", "München I", None]


def test_big_cities_are_the_shipped_lists() -> None:
    assert all(is_big_city(c) for c in ("München", "Frankfurt am Main", "Frankfurt", "Landau", "Traunstein", "Münchens"))
    assert not any(is_big_city(c) for c in ("Ebersberg", "Kleinhausen", "Erding", "Bad Tölz"))


def test_a_gold_set_under_each_profile_and_what_its_court_did_otherwise() -> None:
    """A Bavarian-style document (strict): the lawyer and the seat are sensitive under strict
    and keep spans under federal; a big city the court blanked is set aside under strict
    (neither for nor against). An LER-style document (federal): a lawyer the court printed is
    a keep span under federal and sensitive under strict."""
    text = "Rechtsanwalt Anton Wirsching vertrat die Klägerin vor dem Landratsamt Erding und in München."
    bavarian = Document("b", text, spans=spans_of(text, ("Anton Wirsching", "PERSON"), ("Erding", "LOCATION"),
                                                  ("München", "LOCATION")))  # fmt: skip
    strict = under_profile([bavarian], STRICT, STRICT)
    assert [(text[s.start : s.end], s.label) for s in strict.docs[0].spans] == [
        ("Anton Wirsching", "PERSON"), ("Erding", "LOCATION")]  # fmt: skip
    assert [text[s.start : s.end] for s in strict.disagreements["b"]] == ["München"]
    federal = under_profile([bavarian], FEDERAL, STRICT)
    assert federal.docs[0].spans == [] or [text[s.start : s.end] for s in federal.docs[0].spans] == []
    assert {s.label for s in federal.docs[0].keep} == {"LAWYER", "SEAT", "LOCATION"}
    predicted = {"b": spans_of(text, ("München", "LOCATION"), ("Erding", "LOCATION"))}
    assert [text[s.start : s.end] for s in set_aside(predicted, strict)["b"]] == ["Erding"]
    inherited = "Der Kläger hat das Grundstück 1991 geerbt; die Erblasserin verstarb am 19.10.1990."
    blanked = Document("d", inherited, spans=spans_of(inherited, ("1991", "DATE"), ("19.10.1990", "DATE")))
    dates = under_profile([blanked], STRICT, STRICT)  # the court blanked an event date too
    assert [inherited[s.start : s.end] for s in dates.docs[0].spans] == ["19.10.1990"]
    assert [(inherited[s.start : s.end], s.label) for s in dates.disagreements["d"]] == [("1991", "EVENT_DATE")]
    ler = Document("l", text, keep=[Span(text.index("Anton"), text.index(" vertrat"), "LAWYER")])
    assert under_profile([ler], FEDERAL, FEDERAL).docs[0].spans == []
    assert [s.label for s in under_profile([ler], STRICT, FEDERAL).docs[0].spans] == ["PERSON"]


def test_a_town_or_street_a_federal_court_printed_is_scored_by_its_role() -> None:
    """The LER gold set keeps a printed town or street with its type (deid.rewrite.gold.
    keep_labels.PRINTED_PLACES): under ``federal`` a party's town and an accident's street
    are the court's disagreement with its profile (set aside), a big city and an authority's
    seat stay keep spans; under ``strict`` the town, the seat and the street are sensitive."""
    text = ("Der in Wunsiedel wohnende Kläger fuhr auf der Elisabethstraße in Karlsruhe; "
            "das Landratsamt Tirschenreuth entzog ihm die Fahrerlaubnis.")  # fmt: skip
    printed = [("Wunsiedel", "LOCATION"), ("Elisabethstraße", "STREET"), ("Karlsruhe", "LOCATION"),
               ("Tirschenreuth", "LOCATION")]  # fmt: skip
    ler = Document("l", text, keep=spans_of(text, *printed))
    federal = under_profile([ler], FEDERAL, FEDERAL)
    assert federal.docs[0].spans == []
    assert [(text[s.start : s.end], s.label) for s in federal.docs[0].keep] == [
        ("Karlsruhe", "LOCATION"), ("Tirschenreuth", "SEAT")]  # fmt: skip
    assert [text[s.start : s.end] for s in federal.disagreements["l"]] == ["Wunsiedel", "Elisabethstraße"]
    strict = under_profile([ler], STRICT, FEDERAL)
    assert [(text[s.start : s.end], s.label) for s in strict.docs[0].spans] == [
        ("Wunsiedel", "LOCATION"), ("Elisabethstraße", "STREET"), ("Tirschenreuth", "LOCATION")]  # fmt: skip
    predicted = {"l": spans_of(text, ("Wunsiedel", "LOCATION"), ("Karlsruhe", "LOCATION"))}
    assert [text[s.start : s.end] for s in set_aside(predicted, federal)["l"]] == ["Karlsruhe"]


def test_a_date_of_birth_a_federal_court_printed_is_set_aside_under_federal() -> None:
    """The LER gold set keeps a printed date of birth as a DATE keep span (deid.rewrite.gold.
    auto): both profiles neutralize it, so under ``federal`` (the set's own) it is the court's
    disagreement, and the product's hit on it counts neither way; under ``strict`` it is
    sensitive. The printed event date has no keep span, and a hit on it stays false."""
    from deid.evaluation.gold_sets import Predictions, evaluate_predictions

    text = "Der am 26. November 1948 geborene Kläger wurde am 3. Mai 1978 zur Rechtsanwaltschaft zugelassen."
    ler = Document("l", text, keep=spans_of(text, ("26. November 1948", "DATE")))
    federal = under_profile([ler], FEDERAL, FEDERAL)
    assert federal.docs[0].spans == [] and federal.docs[0].keep == []
    assert [text[s.start : s.end] for s in federal.disagreements["l"]] == ["26. November 1948"]
    assert [text[s.start : s.end] for s in under_profile([ler], STRICT, FEDERAL).docs[0].spans] == [
        "26. November 1948"]  # fmt: skip
    precision = {}
    for found in ("26. November 1948", "3. Mai 1978"):
        pred = {"l": spans_of(text, (found, "DATE"))}
        report = evaluate_predictions([ler], Predictions(pred, None, {STRICT: pred, FEDERAL: pred}), profile=FEDERAL)
        precision[found] = report["overall"]["elements"]["fp"]
    assert precision == {"26. November 1948": 0, "3. Mai 1978": 3}


def test_a_firms_gold_span_is_its_whole_name_and_a_form_left_in_clear_is_no_leak() -> None:
    """The court blanked only the name ("T. Dienstleistungs GmbH"): scored under a profile,
    the firm's gold span is the whole name with the legal form (issue 26: a form left in
    clear counts against recall), but a prediction that leaves only the form is no leak."""
    from deid.evaluation.gold_sets import Predictions, evaluate_predictions

    text = "Der Kläger war bei der Tessner Dienstleistungs GmbH beschäftigt, die ihn nicht bezahlte."
    gold = [Document("f", text, spans=spans_of(text, ("Tessner", "ORGANIZATION")))]
    for profile in PROFILES:
        assert [text[s.start : s.end] for s in under_profile(gold, profile, STRICT).docs[0].spans] == [
            "Tessner Dienstleistungs GmbH"]  # fmt: skip
    reports = {}
    for found in ("Tessner Dienstleistungs", "Tessner Dienstleistungs GmbH", "Tessner"):
        pred = {"f": spans_of(text, (found, "ORGANIZATION"))}
        report = evaluate_predictions(gold, Predictions(pred, None, {STRICT: pred, FEDERAL: pred}), profile=STRICT)
        reports[found] = (report["overall"]["elements"]["recall"], report["leakage"]["leaked_spans"])
    assert reports == {"Tessner Dienstleistungs": (0.6667, 0), "Tessner Dienstleistungs GmbH": (1.0, 0),
                       "Tessner": (0.3333, 1)}  # fmt: skip


def test_a_report_under_a_profile_names_the_committed_documents_it_scored() -> None:
    """The gate checks an evaluation's documents against the committed gold file by sha256:
    a set scored under a profile that sets a span aside still names the file's documents,
    not the profile's view of them."""
    from deid.evaluation.gold_sets import Predictions, evaluate_predictions
    from deid.sources.io import documents_sha256

    text = "Rechtsanwalt Anton Wirsching vertrat die Klägerin vor dem Landratsamt Erding und in München."
    gold = [Document("b", text, spans=spans_of(text, ("Anton Wirsching", "PERSON"), ("München", "LOCATION")))]
    found = {"b": spans_of(text, ("Anton Wirsching", "PERSON"))}
    report = evaluate_predictions(gold, Predictions(found, None, {STRICT: found, FEDERAL: found}), profile=STRICT)
    assert report["disagreements"] == {"spans": 1, "documents": 1, "by_label": {"LOCATION": 1}}  # München
    assert under_profile(gold, STRICT, STRICT).docs != gold  # the profile's view differs …
    assert report["inputs"]["gold_sha256"] == documents_sha256(gold)  # … the report names the file's
