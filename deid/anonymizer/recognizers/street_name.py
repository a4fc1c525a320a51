"""Street names without a house number: "in der Lindenstraße", "die Landshuter Straße",
"Ludwig-Thoma-Straße", "über den Weiherweg".

The policy neutralizes a street that points to a home or an accident site also without a
number (docs/anonymization-policy.md); a decision names the street of a party's home or of the
accident again and again without one ("das Anwesen des Klägers in der Lindenstraße"). The
model finds most street names in running text but not all, and a street word is no name shape
it can rely on. The street's own word is the evidence:

* a compound ending in "-straße", "-gasse" or "-allee" ("Lindenstraße", "Kirchgasse"), a
  hyphenated name ending in a street noun ("Ludwig-Thoma-Straße", "Martin-Luther-Platz"), or a
  town's adjective before "Straße", "Gasse", "Allee", "Weg", "Platz", "Ring" ("Landshuter
  Straße");
* the weaker street words ("-weg", "-platz", "-ring", "-damm", "-anger") only after a
  cue that a street follows ("in der", "an der", "am", "über den", "Anwesen", "Straße"): "Weg"
  and "Platz" end many everyday compounds ("Rechtsweg", "Arbeitsplatz").

Never a word for a kind of street ("Einbahnstraße", "Sackgasse", "Hauptstraße", which names the
main road as often as a street) or a road class ("Bundesstraße", "Staatsstraße 2074"), a weak
street word's everyday compound of the lexicon ("am Arbeitsplatz", "am Parkplatz"), or a legal
"way" ("Rechtsweg", "Instanzenweg"). The lexicon does not judge "-straße" words: Wiktionary
lists real street names as nouns ("Lindenstraße", "Dorfstraße").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.lexicon import is_common_noun
from deid.words.vocab import (
    FIELD_STREET_HEADS,
    LOWER,
    STREET_PREFIX_WORD,
    STREET_PREPOSITION,
    TITLE_ABBREVIATION,
    alternation,
)

_S = r"[ \u00a0]"
_W = r"[A-ZÄÖÜ][a-zäöüß]+"
# "-strasse" is left out: "Antragstrasse" is the applied-for route (Antrags-Trasse); courts
# write "-straße"
_STRONG = r"(?:straße|gasse|allee)"
_WEAK = r"(?:weg|platz|ring|damm|anger|steig|pfad)"  # not "-ufer": "Fahrzeugkäufer"
_NOUNS = ("Straße", "Strasse", "Gasse", "Allee", "Weg", "Platz", "Ring", "Damm", "Ufer", "Steig")
_CUE = (
    rf"(?:(?<![\w-])(?:[Ii]n{_S}der|[Aa]n{_S}der|[Aa]uf{_S}der|[Aa]m|[Ii]m|[Aa]uf{_S}dem|über{_S}den|"
    rf"[Dd]er|[Dd]ie|[Dd]en|Anwesen|Anschrift|Straße|Kreuzung|Einmündung){_S})"
)


def _name(nouns: tuple[str, ...]) -> str:
    """A street's name by its own word; ``nouns``: those a town's adjective stands before."""
    spaced = "|".join(nouns)
    return (
        rf"(?<![\w\-])(?P<value>{_W}{_STRONG}"  # Lindenstraße
        rf"|(?:{_W}-)+(?:{'|'.join(_NOUNS)})"  # Ludwig-Thoma-Straße, Martin-Luther-Platz
        rf"|{_W}er{_S}(?:{spaced}))(?![\w\-])"  # Landshuter Straße
    )


_NAME = _name(_NOUNS)
_WEAK_NAME = rf"(?P<cue>{_CUE})(?P<value>{_W}{_WEAK})(?![\w\-])"
# road classes and the everyday words for a kind of street: no street's name ("die Einbahnstraße")
_GENERIC_HEADS = (
    "Bundes", "Staats", "Kreis", "Landes", "Land", "Gemeinde", "Orts", "Durchgangs", "Verbindungs",
    "Zufahrts", "Erschließungs", "Umgehungs", "Haupt", "Neben", "Seiten", "Quer", "Wohn", "Privat",
    "Einbahn", "Hauptverkehrs", "Anlieger", "Fahr", "Spiel", "Sack", "Rettungs", "Fußgänger",
    "Zubringer", "Ausfall", "Wirtschafts", "Forst", "Feld", "Wald", "Durchfahrts", "Stich", "Sammel",
)  # fmt: skip


def _generic(heads: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"^(?:{'|'.join(heads)})[\- ]?(?:straße|strasse|gasse|allee)$", re.IGNORECASE)


_GENERIC = _generic(_GENERIC_HEADS)
_LEGAL_WAYS = re.compile(
    r"(?:rechts|instanzen|dienst|beschwerde|klage|verwaltungs|gerichts|rechtsmittel|arbeits|schul|heim)weg$",
    re.IGNORECASE,
)


class StreetNameRecognizer(PatternRecognizer):
    """A street's name by its street word, without a house number."""

    NAME = "street_name"
    LABEL = "STREET_NAME"
    PATTERNS = (Pattern("street_word", _NAME, 0.7), Pattern("street_word_after_cue", _WEAK_NAME, 0.6))
    GENERIC: re.Pattern[str] = _GENERIC

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span("value")
        name = text[start:end]
        if self.GENERIC.match(name) or _LEGAL_WAYS.search(name):
            return
        if match.re.groupindex.get("cue") is not None and is_common_noun(name):
            return  # a weak street word's everyday compound ("am Arbeitsplatz", "am Parkplatz")
        yield start, end


# Version 2. The commonest street names are no road class: "Hauptstraße", "Waldstraße" and
# "Feldstraße" name a village's streets; the bundled training and validation decisions write
# none of them, in either sense.
_GENERIC_HEADS_V2 = tuple(h for h in _GENERIC_HEADS if h not in {"Haupt", "Wald", "Feld"})
_GENERIC_V2 = _generic(_GENERIC_HEADS_V2)
_NAME_V2 = _name((*_NOUNS, "Promenade", "Chaussee"))  # "Berliner Promenade"
# A street named with a preposition, capitalized where no sentence begins: after a lowercase
# word or a comma ("wohnt Am Hieb", "die Straße Zur Vogelhecke", "Anwesen, Auf der Pferdeweide"),
# not after a sentence's number ("1 Im Weiteren"), a full stop or a line's start. Where a
# sentence's full stop was lost, a year follows ("… Schliessleder Im Mai 1937"); a title in a
# citation goes on with its genitive ("Fahl, Zur Bedeutung des Regeltatbildes"): neither is one.
_PREPOSITION_NAME = (
    rf"(?<=[{LOWER},]{_S})(?P<value>(?P<head>{STREET_PREPOSITION}){_S}(?:{STREET_PREFIX_WORD}{_S})?{_W}(?:-{_W})*)"
    rf"(?![\w\-])(?!{_S}(?:(?:19|20)\d\d\b|(?:des|der|dem|den|eines|einer|von|vom|für|über){_S}))"
)


class StreetNameRecognizerV2(StreetNameRecognizer):
    """Version 1; "Hauptstraße", "Waldstraße", "Feldstraße" and "Berliner Promenade" are
    streets, and so is a name that begins with a preposition capitalized in mid-sentence ("wohnt
    Am Hieb", "an der Straße Zur Vogelhecke")."""

    PATTERNS = (
        Pattern("street_word", _NAME_V2, 0.7),
        Pattern("street_word_after_cue", _WEAK_NAME, 0.6),
        Pattern("street_preposition", _PREPOSITION_NAME, 0.6),
    )

    GENERIC = _GENERIC_V2

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if match.re.groupindex.get("head") is not None:  # the preposition is the evidence
            yield match.span("value")
            return
        yield from super().candidates(text, match)


# Version 3. A kind of road may join two kind words ("Gemeindeverbindungsstraße",
# "Ortsverbindungsstraße") or name what it serves ("Anbaustraße", the law of development
# charges): no street's name either (the from-scratch dev set's development-charge decision).
_GENERIC_V3 = re.compile(
    rf"^(?:{'|'.join((*_GENERIC_HEADS_V2, 'Anbau'))})"
    rf"(?:{'|'.join(h.lower() for h in _GENERIC_HEADS)})?[\- ]?(?:straße|strasse|gasse|allee)$",
    re.IGNORECASE,
)


class StreetNameRecognizerV3(StreetNameRecognizerV2):
    """Version 2, but no kind of road made of two kind words ("Gemeindeverbindungsstraße") and no
    "Anbaustraße"."""

    GENERIC = _GENERIC_V3


# Version 4. The second street of a corner or junction, after a slash ("an der Ecke
# Kirchgasse/Rathausplatz", "an der Kreuzung Moosburger Straße / Am Angerbach"): the first
# street (after "Ecke" or "Kreuzung" where its word is a weak one) is the cue, so a weak
# street word or a preposition's name counts there (the from-scratch dev set).
_TOWN_ADJECTIVE_STREET = rf"{_W}er{_S}(?:Straße|Gasse|Allee|Weg|Platz)"  # "Landshuter Straße"
_AFTER_SLASH = (
    rf"(?<![\w\-])(?:(?:Ecke|Kreuzung|Einmündung){_S}{_W}(?:{_STRONG}|{_WEAK})|{_W}{_STRONG}"
    rf"|{_TOWN_ADJECTIVE_STREET})(?![\w\-]){_S}?/{_S}?"
    rf"(?P<value>{_W}{_STRONG}|{_W}{_WEAK}"
    rf"|(?P<head>{STREET_PREPOSITION}){_S}(?:{STREET_PREFIX_WORD}{_S})?{_W}(?:-{_W})*"
    rf"|{_W}er{_S}(?:{'|'.join(_NOUNS)}))(?![\w\-])"
)


class StreetNameRecognizerV4(StreetNameRecognizerV3):
    """Version 3 and the second street of a corner after a slash ("Ecke Kirchgasse/Rathausplatz")."""

    PATTERNS = (*StreetNameRecognizerV3.PATTERNS, Pattern("street_after_slash", _AFTER_SLASH, 0.6))


# Version 5 (the batch of the twenty-second session, written before the chain ran on it): a
# street of a weak word in the genitive after a word of a road's part or place ("im Bereich der
# Einmündung des Kapellenwegs", "der Ausbau des Mühlwegs", "auf Höhe des Lindenplatzes"),
# which version 4 read only after its cues of the nominative and dative ("am Kapellenweg"). "des"
# alone is no cue: "des Verwaltungsrechtswegs", "des Lösungswegs" are the law's ways; an everyday
# compound of the lexicon stays out ("des Gehweges", "des Parkplatzes"); a side is no road's part
# ("auf der gegenüberliegenden Seite des Stadtplatzes": a town's square, which the dev set leaves).
_ROAD_PART = (
    r"(?:Einmündung|Kreuzung|Ende|Anfang|Beginn|Verlauf|Ausbau|Abschnitt|Anlieger|Höhe|Bereich|Fahrbahn"
    r"|Rand|Einfahrt|Ausfahrt|Ecke|Anwesen)(?:s|es|n)?"
)
_GENITIVE_NAME = rf"(?P<cue>(?<![\w\-]){_ROAD_PART}{_S}des{_S})(?P<value>{_W}{_WEAK}e?s)(?![\w\-])"
_LEGAL_WAYS_GENITIVE = re.compile(
    r"(?:rechts|instanzen|dienst|beschwerde|klage|verwaltungs|gerichts|rechtsmittel|arbeits|schul|heim|lösungs"
    r"|zugangs|wirtschafts|flur|feld|wald|forst|rad|geh|fuß|zufahrts|park|spiel)(?:weg|platz)e?s$",
    re.IGNORECASE,
)


class StreetNameRecognizerV5(StreetNameRecognizerV4):
    """Version 4 and a street of a weak word in the genitive after a road's part ("der
    Einmündung des Kapellenwegs")."""

    PATTERNS = (*StreetNameRecognizerV4.PATTERNS, Pattern("street_genitive", _GENITIVE_NAME, 0.6))

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if _LEGAL_WAYS_GENITIVE.search(match.group("value")):
            return  # a field track's or the law's way, not a street's name
        yield from super().candidates(text, match)


# Version 6 (probes written for the purpose in the twenty-second session): both streets of a
# corner or junction where one is named by a declined adjective and a field word ("an der
# Kreuzung Unterer Markt / Oberer Graben", "Ecke Hauptstraße/Oberer Graben"), which version 5
# read only where each had a street's own word.
_FIELD_HEAD = rf"(?:{alternation(FIELD_STREET_HEADS)})"
_ADJECTIVE_STREET = rf"{STREET_PREFIX_WORD}{_S}(?:[A-ZÄÖÜ][a-zäöüß]*{_FIELD_HEAD}|(?i:{_FIELD_HEAD}))"
_ANY_STREET = rf"(?:{_ADJECTIVE_STREET}|{_W}{_STRONG}|{_W}{_WEAK}|{_TOWN_ADJECTIVE_STREET})"
_ADJECTIVE_CORNER = (
    rf"(?<![\w\-])(?:Ecke|Kreuzung|Einmündung){_S}(?P<first>{_ANY_STREET}){_S}?/{_S}?"
    rf"(?P<value>{_ANY_STREET})(?![\w\-])"
)


class StreetNameRecognizerV6(StreetNameRecognizerV5):
    """Version 5 and both streets of a corner where one is named by an adjective and a field
    word ("Kreuzung Unterer Markt / Oberer Graben")."""

    PATTERNS = (*StreetNameRecognizerV5.PATTERNS, Pattern("adjective_corner", _ADJECTIVE_CORNER, 0.6))

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if "first" in match.re.groupindex:
            if not any(re.fullmatch(_ADJECTIVE_STREET, match.group(g)) for g in ("first", "value")):
                return  # two streets of their own words: version 4's pattern reads them
            for group in ("first", "value"):
                name = match.group(group)
                if not (self.GENERIC.match(name) or _LEGAL_WAYS.search(name)):
                    yield match.span(group)
            return
        yield from super().candidates(text, match)


# Version 7 (probes of OpenStreetMap's streets in sentences written for the purpose, twenty-third
# session): a hyphenated name with an abbreviated title or a lowercase particle among its words
# ("Dr.-Michael-Baumgartner-Straße", "Bürgermeister-Dr.-Hauser-Straße", "Graf-von-Stauffenberg-
# Weg", "Von-der-Tann-Str."), which version 6 read only from the last capitalized word on
# ("-Baumgartner-Straße" would be a name's part, its title and first name left in clear).
_PARTICLE = r"(?:von|vom|zu|zum|zur|der|den|dem|de|van|am|an|auf|im|in|und)"
HYPHEN_STREET = (
    rf"(?:{TITLE_ABBREVIATION}|{_W})-(?:(?:{TITLE_ABBREVIATION}|{_W}|{_PARTICLE})-)*(?:{'|'.join(_NOUNS)}|Str\.)"
)  # shared with the address recognizer's version 9
_HYPHEN_NAME = rf"(?<![\w\-.])(?P<value>{HYPHEN_STREET})(?![\w\-])"


class StreetNameRecognizerV7(StreetNameRecognizerV6):
    """Version 6 and a hyphenated name with a title or a particle ("Graf-von-Stauffenberg-Weg",
    "Dr.-Michael-Baumgartner-Straße")."""

    PATTERNS = (*StreetNameRecognizerV6.PATTERNS, Pattern("hyphen_name", _HYPHEN_NAME, 0.7))
