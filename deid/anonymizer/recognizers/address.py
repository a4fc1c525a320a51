"""Postal addresses: a street with its house number(s), and a postal code with its town.

A street name alone is as often a public place as a party's home ("Messstation
Corneliusstraße"), but a street *with a house number* ("Ziegeleiweg 8, 10, 12",
"Am Dornberg 3", "Hohenwarter Straße 41") or a five-digit postal code before a town
("85283 Wolnzach") is an address, and addresses are what courts anonymize ("…straße …",
"in … 8…"). The model finds street names in running text; these rules add the shape it
cannot learn from placeholders: the numbers.
"""

from __future__ import annotations

import re

from deid.anonymizer.recognizers.base import (
    NUM_RIGHT,
    Pattern,
    PatternRecognizer,
    list_item_patterns,
)
from deid.anonymizer.recognizers.street_name import HYPHEN_STREET
from deid.words.vocab import (
    ADDRESS_STREET_SUFFIXES,
    CAPITALIZED_WORD,
    FIELD_STREET_WORD,
    ROAD_CLASSES,
    STREET_ADJECTIVE,
    STREET_PREFIX_WORD,
    STREET_SUFFIXES,
    STREET_WORD,
    TITLE_ABBREVIATION,
    alternation,
)

_S = r"[ \u00a0]"
_W = CAPITALIZED_WORD
_SUFFIX = rf"(?:{alternation(ADDRESS_STREET_SUFFIXES)})"
# Capitalized street nouns after a hyphen ("Martin-Luther-Platz"); "Strasse" was never one.
_STREET_NOUNS = tuple(s.capitalize() for s in STREET_SUFFIXES if s != "strasse")
_SPACED_STREET_NOUNS = (*_STREET_NOUNS, "Steig", "Ufer")  # "Fischbacher Steig"
_STREET = (
    rf"(?:{_W}(?:-{_W})*-?{_SUFFIX}"  # Bahnhofstraße, Ziegeleiweg, Otto-Hahn-Str.
    rf"|(?:{_W}-)+(?:{alternation(_STREET_NOUNS)})"  # Martin-Luther-Platz
    rf"|{_W}(?:er|sche){_S}(?:{alternation(_SPACED_STREET_NOUNS)})"  # Fischbacher Straße
    rf"|(?P<prep>(?:Am|An{_S}der|Auf{_S}der|Auf{_S}dem|Im|In{_S}der|Zum|Zur|Hinter{_S}der"
    rf"|Hinter{_S}dem){_S}(?P<noun>{_W})))"  # Am Dornberg
)
_HOUSE = (
    r"\d{1,4}(?:[ \u00a0]?[a-z](?![\w]))?(?:[ \u00a0]?[-–/][ \u00a0]?\d{1,4}(?:[a-z](?![\w]))?)?"
)
_NOT_A_MEASURE = (
    r"(?![ \u00a0]?(?:%|Abs\.|Nr\.|Rn\.|Jahre|Jahren|Monate|Euro|EUR|€|Uhr|m\b|km|qm|ha\b|Prozent))"
)
_ITEM_SEP = r"(?:,[ \u00a0]|[ \u00a0](?:und|u\.)[ \u00a0])"
_MAX_ITEMS = 6
_CITATION = re.compile(r"(?:19|20)\d\d,[ \u00a0]$")
_YEAR = re.compile(r"\b(?:19|20)\d\d$")
# legal words that end like a street ("Rechtsweg 2" in a list of numbered points) and road
# classes, whose number is a road, not an address ("Bundesstraße 308")
_LEGAL_WAYS = r"\w*(?:rechts|instanzen|dienst|beschwerde|klage|verwaltungs|gerichts|rechtsmittel)weg|ausweg|umweg"
_ROAD_CLASSES = ROAD_CLASSES
_NOT_A_STREET = re.compile(rf"^(?:{_LEGAL_WAYS}|(?:{_ROAD_CLASSES}|haupt|neben|wohn|privat)stra(?:ß|ss)e)$")
# Version 2: "Hauptstraße" is the commonest street name a house number follows ("Hauptstraße
# 12"), no road class; version 1 left such a number in clear where the model marked the name
_NOT_A_STREET_V2 = re.compile(rf"^(?:{_LEGAL_WAYS}|(?:{_ROAD_CLASSES}|neben|wohn|privat)stra(?:ß|ss)e)$")
# towns follow a postal code; amounts and counts follow other five-digit numbers
_NOT_A_TOWN = frozenset(
    "Euro EUR DM Einwohner Einwohnern Menschen Personen Fälle Fällen Stunden Tage Tagen Kilometer "
    "Meter Quadratmeter Mitglieder Beschäftigte Arbeitnehmer Exemplare Stück Tonnen Liter Seiten "
    "Kunden Besucher Fahrzeuge Verfahren Anträge Euro-Cent Punkte Stimmen Wohnungen Rdnr Rdn".split()
)


class StreetAddressRecognizer(PatternRecognizer):
    """A street and house number, and the further house numbers of the same street."""

    NAME = "street_address"
    LABEL = "STREET_ADDRESS"
    PATTERNS = (
        Pattern(
            "street_number",
            rf"(?<![\w-])(?P<value>{_STREET}{_S}{_HOUSE}){NUM_RIGHT}{_NOT_A_MEASURE}",
            0.8,
        ),
        *list_item_patterns(
            "house_number_item",
            rf"(?<![\w-]){_STREET}{_S}",
            _HOUSE,
            _ITEM_SEP,
            0.75,
            _MAX_ITEMS,
            NUM_RIGHT + _NOT_A_MEASURE,
        ),
    )

    NOT_A_STREET: re.Pattern[str] = _NOT_A_STREET

    def candidates(self, text: str, match: re.Match[str]):  # type: ignore[override]
        if match.group("prep") and (_common(match.group("noun")) or _YEAR.search(match.group(0))):
            return  # "Im Jahr 2019", "Am Ende 3", "Im Streitjahr 2010"
        if self.NOT_A_STREET.match(match.group(0).split()[0].lower()):
            return
        yield from super().candidates(text, match)


class StreetAddressRecognizerV2(StreetAddressRecognizer):
    """Version 1, and "Hauptstraße" with its house number is an address."""

    NOT_A_STREET = _NOT_A_STREET_V2


# A business park's address: "Gewerbepark Ost 12", "Industriegebiet Süd 4a", "Gewerbering 14"
# ends like a street already; a park or estate takes a compass word or a name word before the
# number ("Technologiepark Mitte 2", "Gewerbepark Schwaig 7").
_AREA_AND_NUMBER = rf"{_S}(?:Nord|Süd|Ost|West|Mitte|{_W}){_S}{_HOUSE}"  # " Ost 12", " Schwaig 7"
_PARK = rf"(?:Gewerbe|Industrie|Technologie|Business|Wirtschafts)(?:park|gebiet){_AREA_AND_NUMBER}"
_PARK_PATTERN = Pattern("park_number", rf"(?<![\w-])(?P<value>{_PARK}){NUM_RIGHT}{_NOT_A_MEASURE}", 0.8)
# A farmstead or hamlet addressed by its own name and a number, as rural Bavaria writes it, after
# a word that says an address follows ("das Anwesen Grub 3", "mit der Anschrift Sonnenhof 2",
# "wohnhaft in Oberhaun 7"); the street recognizer's words never end such a name.
# the words that say an address follows, shared with version 4's street test
_ADDRESS_WORDS = rf"Anwesen|Anwesens|Anschrift|[Ww]ohnhaft(?:{_S}in)?"
_HAMLET_CUE = rf"(?:{_ADDRESS_WORDS}|[Ww]ohnhaft{_S}im){_S}"
_HAMLET_PATTERN = Pattern(
    "hamlet_number", rf"(?<![\w-]){_HAMLET_CUE}(?P<value>{_W}(?:-{_W})?{_S}{_HOUSE}){NUM_RIGHT}{_NOT_A_MEASURE}", 0.75
)


class StreetAddressRecognizerV3(StreetAddressRecognizerV2):
    """Version 2; a street named "Am"/"An der" … with a common word that is itself a street
    word ("Am Kirchplatz 4", "Am Marktplatz 3", "An der Kirchgasse 2"), which version 2 took
    for "Am Ende 3"; a business park's address ("Gewerbepark Ost 12"); a hamlet's name and
    number after "Anwesen", "Anschrift", "wohnhaft" ("das Anwesen Grub 3")."""

    PATTERNS = (*StreetAddressRecognizer.PATTERNS, _PARK_PATTERN, _HAMLET_PATTERN)

    def candidates(self, text: str, match: re.Match[str]):  # type: ignore[override]
        if match.re.groupindex.get("prep") is None:  # a park's or a hamlet's pattern
            if not _YEAR.search(match.group("value")):  # "wohnhaft in Erding 2010 …"
                yield from PatternRecognizer.candidates(self, text, match)
            return
        noun = match.group("noun")
        if match.group("prep") and noun and self._street_noun(text, match) and not _YEAR.search(match.group(0)):
            if not self.NOT_A_STREET.match(noun.lower()):
                yield from PatternRecognizer.candidates(self, text, match)
            return
        yield from super().candidates(text, match)

    def _street_noun(self, text: str, match: re.Match[str]) -> bool:
        """Whether the common word after "Am"/"An der" names a street all the same."""
        return bool(STREET_WORD.search(match.group("noun")))


# Where an address is written: a word before that says one follows, or its postal code after.
_ADDRESS_BEFORE = re.compile(
    rf"(?:{_ADDRESS_WORDS}|Adresse|[Ww]ohnt(?:{_S}in)?|Grundstück|Grundstücks|Grundstücke|Hauses|Haus){_S}$"
)
_POSTAL_AFTER = re.compile(rf",?{_S}\d{{5}}{_S}[A-ZÄÖÜ]")


class StreetAddressRecognizerV4(StreetAddressRecognizerV3):
    """Version 3; a street named "Am"/"An der" … with a common field, water or landmark word
    and its number ("Am Mühlbach 3", "An der Leiten 12", "Im Winkel 7", "Am Schlossberg 2"),
    or with any word where an address is written ("das Anwesen An der Elbe 4", "Am Anger 2,
    85229 …"); version 3 took them for "Im Jahr 2019" by the word's frequency alone."""

    def _street_noun(self, text: str, match: re.Match[str]) -> bool:
        if super()._street_noun(text, match) or FIELD_STREET_WORD.search(match.group("noun")):
            return True
        start, end = match.span("value")
        return bool(
            _ADDRESS_BEFORE.search(text, max(0, start - 24), start) or _POSTAL_AFTER.match(text, end)
        )


# Version 5: a street named after a titled person or a saint, the title abbreviated before the
# hyphen ("St.-Martin-Str. 18", "Bgm.-Schmid-Str. 4", "Dr.-Johann-Maier-Straße 3"): version 4 saw
# no street in it, so the model's part stood alone and the house number stayed in clear.
_TITLE_BEFORE = rf"(?:{TITLE_ABBREVIATION}-)?"
_STREET_V5 = _STREET.replace(rf"(?:{_W}(?:-{_W})*-?{_SUFFIX}", rf"(?:{_TITLE_BEFORE}{_W}(?:-{_W})*-?{_SUFFIX}", 1).replace(
    rf"|(?:{_W}-)+(?:{alternation(_STREET_NOUNS)})", rf"|{_TITLE_BEFORE}(?:{_W}-)+(?:{alternation(_STREET_NOUNS)})", 1
)


class StreetAddressRecognizerV5(StreetAddressRecognizerV4):
    """Version 4, and a street whose name begins with an abbreviated title ("St.-Martin-Str.
    18", "Bgm.-Schmid-Str. 4")."""

    PATTERNS = (
        Pattern("street_number", rf"(?<![\w-])(?P<value>{_STREET_V5}{_S}{_HOUSE}){NUM_RIGHT}{_NOT_A_MEASURE}", 0.8),
        *list_item_patterns(
            "house_number_item", rf"(?<![\w-]){_STREET_V5}{_S}", _HOUSE, _ITEM_SEP, 0.75, _MAX_ITEMS,
            NUM_RIGHT + _NOT_A_MEASURE,
        ),
        _PARK_PATTERN,
        _HAMLET_PATTERN,
    )  # fmt: skip


# Version 6: a farmstead's name and number after the word for a farm's yard ("Die Hofstelle Grub
# 6 liegt …", "das Hofanwesen Oberhaun 7"), which version 5's address words did not include
# (the from-scratch dev set).
_HAMLET_CUE_V6 = rf"(?:{_ADDRESS_WORDS}|Hofstelle|Hofanwesen|Hofanwesens|[Ww]ohnhaft{_S}im){_S}"
_HAMLET_PATTERN_V6 = Pattern(
    "hamlet_number",
    rf"(?<![\w-]){_HAMLET_CUE_V6}(?P<value>{_W}(?:-{_W})?{_S}{_HOUSE}){NUM_RIGHT}{_NOT_A_MEASURE}",
    0.75,
)


class StreetAddressRecognizerV6(StreetAddressRecognizerV5):
    """Version 5, and a farmstead's name and number after "Hofstelle" or "Hofanwesen"."""

    PATTERNS = (*StreetAddressRecognizerV5.PATTERNS[:-1], _HAMLET_PATTERN_V6)


# Version 7 (the from-scratch dev set): a business park's address of the park's word and number
# alone where a postal code follows ("die Dachdeckerei …, Gewerbepark 11, 94474 Vilshofen"), and
# a street named "Am"/"Im" … with any word after its town ("wohnt in Osterhofen, Am Schlosspark
# 12"): version 6 wanted a compass or name word after the park, and after the town no word that
# says an address follows.
_PARK_BEFORE_POSTAL = Pattern(
    "park_postal",
    rf"(?<![\w-])(?P<value>(?:Gewerbe|Industrie|Technologie|Business|Wirtschafts)(?:park|gebiet){_S}{_HOUSE})"
    rf"(?=,?{_S}\d{{5}}{_S}[A-ZÄÖÜ])",
    0.8,
)
_TOWN_BEFORE = re.compile(rf"\bin{_S}{_W}(?:(?:{_S}|-){_W}){{0,3}},{_S}$")


class StreetAddressRecognizerV7(StreetAddressRecognizerV6):
    """Version 6, and a business park's number before a postal code, and "Am …" with its number
    after the town."""

    PATTERNS = (*StreetAddressRecognizerV6.PATTERNS, _PARK_BEFORE_POSTAL)

    def _street_noun(self, text: str, match: re.Match[str]) -> bool:
        start = match.span("value")[0]
        return super()._street_noun(text, match) or bool(_TOWN_BEFORE.search(text, max(0, start - 40), start))


# Version 8 (the from-scratch dev set): a business ring's address with a compass or name word
# before the number ("im Lager ihres Standorts …, Gewerbering Nord 14"); version 7 read a park or
# an estate so, and "Gewerbering 14" as a street's name and number.
_RING_PATTERN = Pattern(
    "ring_number",
    rf"(?<![\w-])(?P<value>(?:Gewerbe|Industrie)ring{_AREA_AND_NUMBER}){NUM_RIGHT}{_NOT_A_MEASURE}",
    0.8,
)


class StreetAddressRecognizerV8(StreetAddressRecognizerV7):
    """Version 7, and a business ring's compass or name word before its number."""

    PATTERNS = (*StreetAddressRecognizerV7.PATTERNS, _RING_PATTERN)


class PostalTownRecognizer(PatternRecognizer):
    """A German postal code and the town after it, where an address is written."""

    NAME = "postal_town"
    LABEL = "POSTAL_TOWN"
    PATTERNS = (
        Pattern(
            "postal_code_town",
            rf"(?:(?<=,{_S})|(?<=\bin{_S})|(?<=\n)|(?<=„)|^)(?P<value>(?P<code>\d{{5}}){_S}(?P<town>{_W}(?:-{_W})*)"
            rf"(?:{_S}(?:a\.{_S}?d\.{_S}?{_W}|am{_S}{_W}|an{_S}der{_S}{_W}|i\.{_S}?{_W}|\({_W}\)))?)(?![\w-])",
            0.75,
            flags=re.MULTILINE,
        ),
    )

    def candidates(self, text: str, match: re.Match[str]):  # type: ignore[override]
        town = match.group("town")
        if len(town) < 3 or town in _NOT_A_TOWN or not 1001 <= int(match.group("code")) <= 99998:
            return
        if _CITATION.search(text, max(0, match.start() - 8), match.start()):
            return  # "BeckRS 2020, 24670 Rn. 11"
        yield from super().candidates(text, match)


def _common(word: str) -> bool:
    """After "Am"/"Im" a street name is a rare word ("Dornberg"); "Jahr", "Ende", "Stichtag"
    are common (wordfreq)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "de") >= 2.5


# Version 9 (probes of OpenStreetMap's streets in sentences written for the purpose, and the
# from-scratch dev set's batch 55, twenty-third session):
# * a hyphenated street with a title or a particle and its number ("Graf-von-Stauffenberg-Weg
#   37", "Bürgermeister-Dr.-Hauser-Straße 2"), street_name version 7's names;
# * "Am"/"Im" … with a declined adjective before the word ("Im Oberen Feld 4", "Am Alten
#   Friedhof 22", "Am großen Bleek 35"), which versions up to 8 read only without one;
# * the last house number of a range written with "bis" ("die Anwesen Am Kapellenfeld 2 bis 8"),
#   and a hamlet's further house numbers ("zu den Anwesen Oberreit 1, 2 und 4");
# * a hamlet's or a field street's name and number in quotes after an address word ("Das
#   Anwesen „Tintengraben 11“ liegt …"), or in brackets after a plot's district ("FlNr. 412/3 der
#   Gemarkung Ast (Hammerschlag 37)"), also with an adjective or a town's adjective before
#   ("Unterer Weiler 20", "Hevener Mark 29").
_STREET_V9 = _STREET_V5.replace(
    rf"{_S}(?P<noun>{_W})", rf"{_S}(?:{STREET_ADJECTIVE}{_S})?(?P<noun>{_W})", 1
)
# "bis" before a year is a time ("wohnte in der Lindenstraße 5 bis 2020"), not a range's end
_ITEM_SEP_V9 = rf"(?:,[ \u00a0]|[ \u00a0](?:und|u\.)[ \u00a0]|[ \u00a0]bis[ \u00a0](?!(?:19|20)\d\d(?!\d)))"
_HAMLET_NAME = rf"(?:(?:{STREET_PREFIX_WORD}|{_W}er){_S})?{_W}(?:-{_W})?"
_HAMLET_QUOTED = Pattern(
    "hamlet_quoted",
    rf"(?<![\w-])(?:{_ADDRESS_WORDS}|Hofstelle|Hofanwesen|Hofanwesens){_S}„(?P<value>{_HAMLET_NAME}{_S}{_HOUSE})“",
    0.75,
)
_HAMLET_AFTER_DISTRICT = Pattern(
    "hamlet_after_district",
    rf"(?<![\w-])Gemarkung{_S}{_W}(?:(?:-|{_S}){_W})?{_S}\((?P<value>{_HAMLET_NAME}{_S}{_HOUSE})\)",
    0.75,
)


class StreetAddressRecognizerV9(StreetAddressRecognizerV8):
    """Version 8; a hyphenated street with a title or particle, "Am"/"Im" … with an adjective,
    a range's last number after "bis", a hamlet's further numbers, a hamlet's address in quotes
    after an address word or in brackets after a plot's district."""

    PATTERNS = (
        Pattern("street_number", rf"(?<![\w-])(?P<value>{_STREET_V9}{_S}{_HOUSE}){NUM_RIGHT}{_NOT_A_MEASURE}", 0.8),
        Pattern("hyphen_street_number", rf"(?<![\w\-.])(?P<value>{HYPHEN_STREET}{_S}{_HOUSE}){NUM_RIGHT}{_NOT_A_MEASURE}", 0.8),
        *list_item_patterns(
            "house_number_item", rf"(?<![\w-])(?:{_STREET_V9}|{HYPHEN_STREET}){_S}", _HOUSE, _ITEM_SEP_V9, 0.75,
            _MAX_ITEMS, NUM_RIGHT + _NOT_A_MEASURE,
        ),
        *(p for p in StreetAddressRecognizerV8.PATTERNS if not p.name.startswith(("street_number", "house_number_item"))),
        _HAMLET_QUOTED,
        _HAMLET_AFTER_DISTRICT,
        *list_item_patterns(
            "hamlet_item", rf"(?<![\w-]){_HAMLET_CUE_V6}{_HAMLET_NAME}{_S}", _HOUSE, _ITEM_SEP_V9, 0.75, _MAX_ITEMS,
            NUM_RIGHT + _NOT_A_MEASURE,
        ),
    )  # fmt: skip
