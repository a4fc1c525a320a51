"""A person of public life named by the office or fame before the name is kept, in every
mention (public_figures@1, deid.words.public_figures); a mayor, a district administrator, a
court's president with his court, and a name the text also gives a party or a plain person
stay neutralized."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import MODEL_SOURCE, ORGANIZATION, PERSON, Span
from deid.words.public_figures import public_figures


def _all(text: str, surface: str, label: str = PERSON) -> list[Span]:
    """A model span on every occurrence of ``surface``."""
    out, start = [], text.find(surface)
    while start >= 0:
        out.append(Span(start, start + len(surface), label, 0.9, MODEL_SOURCE))
        start = text.find(surface, start + 1)
    return out


def _chain(text: str, spans: list[Span]) -> list[Span]:
    return Chain([step("public_figures", 1)])(text, spans)


@pytest.mark.parametrize(
    "text, words",
    [
        # the written decisions' second batch (not trained, not a test set) and the LER validation split
        ("Die gambische Regierung unter Präsident Adama Barrow steht für einen demokratischen Übergang.",
         [("Adama Barrow", PERSON)]),
        (("Nach den Erklärungen des damaligen Bundeswirtschaftsministers Robert Habeck rechnete die Klägerin mit "
          "der Förderung. Habeck habe sie öffentlich angekündigt."), [("Robert Habeck", PERSON), ("Habeck", PERSON)]),
        (("Namentlich durch die Werbefigur Bar Refaeli habe die Widerspruchsmarke Bekanntheit erlangt, seitens des "
          "Models Bar Refaeli und des Schauspielers Josh Duhamel seit dem Jahr 2011."),
         [("Bar Refaeli", PERSON), ("Josh Duhamel", PERSON)]),
        # a minister's portfolio between the office and the name; a regime's leader; the surname alone later
        (("Die Streitkräfte unterstehen dem Minister für Verteidigung Arkadi Wolkow. Im Frühjahr ordnete Wolkow "
          "die Einberufung der Reservisten an."), [("Arkadi Wolkow", PERSON), ("Wolkow", ORGANIZATION)]),
        (("Oppositionelle werden vom Geheimdienst des Regimes von Ramsan Tagirow verfolgt; Tagirow lässt "
          "Kritiker inhaftieren."), [("Ramsan Tagirow", PERSON), ("Tagirow", PERSON)]),
        # the model splits the name: each part inside it goes
        ("Der Staatsrat trat zusammen, nachdem Präsident Beji Caid Marzouki das Parlament aufgelöst hatte.",
         [("Beji", PERSON), ("Caid Marzouki", PERSON)]),
    ],
)  # fmt: skip
def test_a_person_of_public_life_is_kept_in_every_mention(
    text: str, words: list[tuple[str, str]]
) -> None:
    spans = [s for surface, label in words for s in _all(text, surface, label)]
    assert _chain(text, spans) == []


@pytest.mark.parametrize(
    "text, surface",
    [
        # local officials: the strict gold sets neutralize them
        ("Die Beigeladene, vertreten durch ihren Ersten Bürgermeister Alois Kerscher, beantragt Klageabweisung.",
         "Alois Kerscher"),
        ("Unter den geladenen Gästen war Landrat Korbinian Weißenbacher.", "Korbinian Weißenbacher"),
        # a court's president with his court: no name right after the office
        ("Der Präsident des Landgerichts Dr. Hans Obermaier ordnete die Vertretung an.", "Hans Obermaier"),
        # the name is also given to a party or a plain person: neutralized everywhere, when in doubt
        (("Die Klägerin, die Schauspielerin Anna Bergmoser, wendet sich gegen den Artikel. Frau Bergmoser sei auf "
          "dem Foto erkennbar."), "Bergmoser"),
        ("Präsident Huber des Schützenvereins und der Zeuge Huber bestätigten den Ablauf.", "Huber"),
        # a word that is a surname too, before another surname in a judges' signature line
        ("Kaiser Berger Mosbacher", "Berger"),
        ("Reiter Dr. Sänger Kugler", "Kugler"),
        # a saint: a first name, which a party may bear too
        ("Die Klägerin begehrt, ihren Vornamen Hedwig abzulegen; die heilige Hedwig sei Schutzpatronin Schlesiens.",
         "Hedwig"),
    ],
)  # fmt: skip
def test_local_officials_courts_presidents_and_parties_stay(text: str, surface: str) -> None:
    spans = _all(text, surface)
    assert _chain(text, spans) == spans


def test_the_names_and_their_forms() -> None:
    text = "Präsidentin von der Leyen und Premierminister Keir Starmer trafen sich. Starmer sprach zuerst."
    names, surfaces = public_figures(text)
    assert [text[n.start : n.end] for n in names] == ["von der Leyen", "Keir Starmer"]
    assert surfaces == {"von der Leyen", "Leyen", "Keir Starmer", "Starmer"}
    # a clause's first word after the office is no name
    assert public_figures("Gewählt wurde der Präsident. Der Präsident Der Vorsitz wechselte.") == (
        [],
        set(),
    )
    # a noun the office governs is no name (the LER training courts' BVerfG)
    assert public_figures(
        "Von dem Begnadigungsrecht hat der Staatspräsident Gebrauch gemacht."
    ) == ([], set())
    assert public_figures("die Abhängigkeit des Kanzlers von der Hochschulleitung") == ([], set())


def test_a_long_text_is_one_pass() -> None:
    """Many officials in a large document: linear in the text (no scan per name)."""
    text = " ".join(f"Minister Name{i:05d}x sprach." for i in range(20_000))
    names, surfaces = public_figures(text)
    assert len(names) == 20_000 and "Name19999x" in surfaces
