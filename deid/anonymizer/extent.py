"""A name's whole extent: the first name before a surname, the suffix of a town's name.

The model learns persons and places from the courts' placeholders, which write a surname
alone ("Zeuge K.") and a town without its river ("in P."), so its spans often stop short of
what a decision written in clear spells out:

* a first name before a person span ("Rechtsanwältin Veronika [PERSON]"): taken in when it is
  a first name of the bundled list (:func:`deid.words.gazetteer.first_names`) and no ordinary
  word or lowercase word at a sentence start ("Frau", "Klein", "Will");
* a town's abbreviated suffix ("Landau a. d. Isar", "Neumarkt i. d. OPf.", "Mühldorf a.
  Inn"): the town before the suffix and the river or region after it are one place. Only the
  abbreviations: "am Lech" or "an der Ilm" also follow a place where a street comes next
  ("wohnt in Reichertshausen am Kapellenweg");
* version 2: the head of a street's name before its own word ("[Alte] Poststraße 4", "[Große]
  Rosengasse", "[Auf dem] Hassel", "[In der Kleinen] Heide"): a capitalized adjective, title or
  saint before a street (its label, or a street or field word ending it), and a capitalized
  preposition before any span where no sentence begins (after a lowercase word, a comma, a
  quote or a bracket: "wohnt Am Anger", not "Im Jahr …"). The model learned streets from
  placeholders ("Kstraße"), which have no such head, and the lexicon filters drop the
  adjective it does find ("Alte" is a noun too). Chosen on probes of OpenStreetMap's streets
  in sentences written for the purpose.

* version 3: a house number after a name where an address stands ("Georg Niedermeier
  ([Kirchberg] 14)", "[Thonhausen] 4, 85416 Langenbach"): a village without streets numbers its
  houses, and the model reads the village as a place or a person. In brackets or before a
  postcode the name and its number are an address; and a town after its postcode takes its
  suffix too, on its own or at the end of an address span ("92318 Neumarkt i. d. OPf.") (the
  from-scratch dev set).

* version 4 (the from-scratch dev set): a number's whole token ("CHA-J-[0612]", "SG
  32-[1431].[2/22]-187"): the model reads the digits of an identifier and leaves its letters and
  the parts after a hyphen, so an identifier span that starts or ends inside a token of letters
  and digits joined by hyphens, dots or slashes grows to the whole token (not its brackets or a
  sentence's full stop); a surname after a first name the model found alone ("von ihrer Mutter
  [Theresia] Kranz": a surname of the bundled list that is no frequent word, so not "Anna
  Geld"); a first name before a one-word span the model read as some other detail ("Der Kläger,
  Christoph [Obermüller]", OTHER: the two are a person); a room or flat after an address
  ("Edlmairstraße 6, Zimmer 214"); the rest of a hyphenated place ("Landratsamt
  [Straubing]-Bogen").

* version 5 (the from-scratch dev set): a town's river or region spelled out ("Weißenburg [in
  Bayern]", "Mühldorf [am Inn]"; only rivers and regions of a closed list, so "am Kapellenweg"
  stays a street); a place span without the function words the model ran on with
  ("[Eggenfelden an der] Schellenbruckstraße"), a street span without the sentence's stop after
  its number ("Landshuter Straße 11[.]"); a first name before a one-word place span that is a
  surname and no town of the list ("Maria [Huber-Kiefl]": a person); and the town a person
  comes from right after the name ("Dr. Sieglinde Kerscher aus [Bogen]", a town of the list
  that is no big city, before a comma, a stop, "und" or a bracket: "aus Grund des …" is none).

* version 6 (the from-scratch dev set): a town named with its neighbour ("Neufahrn [bei]
  Freising", "Au b. Bad Aibling"): two place spans joined by "bei" or "b." are one place's
  name, which versions up to 5 left with "bei" in clear between them; and a hamlet's numbered
  house after the town ("betreibt in Reisbach, [Oberhausen 2], einen Betrieb"): a place span, a
  comma, a name and a house number before a comma, a bracket or a stop is an address, as the
  name and number before a postcode are (version 3); no ordinary or frequent word ("in Eitting,
  Blatt 2231").

* version 7 (the from-scratch dev set): a name in quotes whole ("die App „[TimeTrack] Pro“",
  "eine Gartenlounge „[Toscana] XL“", "unter dem Zwingernamen „vom [Isarauenhof]“"): a
  name's span inside quotes of at most five words shaped as a name (each word capitalized, a
  number or a name's function word: "am", "zum", "&", so no quoted sentence; no article first)
  grows to the quotes where every word it takes in is a function word or no title, Wiktionary
  noun or compound of ordinary words ("Pro", "XL", "2.0": a kind word stays outside, "Haus
  [Arberblick]", as does a title, "Herr [Baumgartner]"); the spans inside become one, with the
  longest one's label. An identifier's token joined by a double slash too ("BG-Nummer
  [83702]//0049317", a Jobcenter's number that version 4 cut at the slashes).

* version 8 (the batch of the twenty-second session, written before the chain ran on it): a
  hamlet's numbered house the model read as a place, before a comma, a bracket, a stop or "in"
  or "bei" and the town ("des Hofes [Hinterberg] 2 in Schleching"), or after the word for the
  house whatever follows ("Ihr Wohnhaus [Oed] 4 liegt"): version 3 took the number
  only in brackets or before a postcode, version 6 only after a town and a comma. One rare word
  (no Wiktionary noun, Zipf below 4), no big city ("Berlin 2" names no house).

* version 9 (probes written for the purpose in the twenty-second session): the same house
  number after a street named by a declined adjective and a field word that the model read as a
  place ("Sie wohnt [Unterer Markt] 3 in Eslarn", "[Hinterer Anger] 7, gleich neben der Kirche").

* version 10 (the batch of the twenty-third session, written before the chain ran on it): the
  words hyphenated before a span that starts right after a hyphen ("Karl-[Heinz Reindl]",
  "Dr.-[Michael-Baumgartner-Straße]", "Bürgermeister-Dr.-[Hauser-Straße 2]"): a capitalized
  word, an abbreviated title or a name's particle ("Graf-von-") joined to the span by hyphens
  is the name's own beginning, which the model cut at the hyphen; and a span without a closing
  bracket it ran on with where it opens none ("(Sonnenfeldstraße 7[)]"), an opening one
  likewise, a comma, semicolon or colon ("wohnhaft in Tann[,] Pfarrkirchener Straße 31"), or
  the quotes around a name ("die Pizzeria [„]La Lanterna[“]"; version 7 grew a name to them).

None grows into a keep zone (a judge's first name stays where the judge's zone begins).
Chosen on the dev halves and the from-scratch dev set (docs/results.md).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence

from deid.anonymizer.consistency import Ranges
from deid.schema import ID, LOCATION, ORGANIZATION, OTHER, PERSON, SEAT, STREET, Span, coarse_label
from deid.words.gazetteer import cities, is_big_city, surnames
from deid.words.lexicon import is_common_noun
from deid.words.ordinary import is_plain_first_name
from deid.words.shape_cues import is_role
from deid.words.shapes import plain_compound, zipf
from deid.words.vocab import (
    FIELD_STREET_WORD,
    LOWER,
    STREET_PREFIX_WORD,
    STREET_PREPOSITION,
    STREET_WORD,
)

_WORD_BEFORE = re.compile(r"([A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)[ \u00a0]$")
# "a. d.", "a.", "i. d.", "i.", "b.", "o." and the river or region after it ("Isar", "OPf.")
_SUFFIX = r"(?:[abio]\.(?:[ \u00a0]?d\.)?)[ \u00a0]?[A-ZÄÖÜ][\wäöüß]*\.?"
_SUFFIX_AFTER = re.compile(rf"[ \u00a0]{_SUFFIX}(?![\wäöüß])")
_TOWN_BEFORE = re.compile(rf"[A-ZÄÖÜ][\wäöüß\-]*[ \u00a0]{_SUFFIX}$")
_PLACES = frozenset({LOCATION, SEAT})
_TOWN_LABELS = frozenset({"POSTAL_TOWN"})  # version 3: "92318 Neumarkt [i. d. OPf.]" of an address
_POSTAL_TOWN_END = re.compile(r"\d{5}[ \u00a0][A-ZÄÖÜ][\wäöüß\-]*$")
# version 4: an identifier's token: parts of letters and digits joined by - . / (one digit at least)
_LONGEST_TOKEN = 40
_TOKEN_BEFORE = re.compile(r"[^\s]{0,40}$")
_TOKEN_AFTER = re.compile(r"[^\s]{0,40}")
_TRAILING = ".,;:)]"
# a surname after a first name alone: one of the bundled list, no frequent word (Zipf below this)
_ONE_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?")  # a surname-like word
_SURNAME_AFTER = re.compile(rf"[ \u00a0]({_ONE_WORD.pattern})(?![\w\-])")
_SURNAME_MAX_ZIPF = 4.5
# the rest of a hyphenated place the model found in part ("Straubing[-Bogen]")
_HYPHENATED_PLACE = re.compile(r"(?:-[A-ZÄÖÜ][a-zäöüß]+)+(?![\w\-])")
# a room or flat after an address: ", Zimmer 214", ", Wohnung 12", ", App. 3"
_ROOM_AFTER = re.compile(r",[ \u00a0](?:Zimmer|Zi\.|Wohnung|Whg\.|Appartement|Apartment|App\.)[ \u00a0](?:Nr\.[ \u00a0])?\d{1,4}[a-z]?(?![\w\-])")
# version 5: a town's river or region spelled out ("Weißenburg in Bayern", "Neumarkt in der
# Oberpfalz", "Mühldorf am Inn", "Pfaffenhofen an der Ilm"): only these words, since "am" or "an
# der" also lead to a street ("wohnt in Reichertshausen am Kapellenweg")
_REGIONS = (
    "Bayern|Oberbayern|Niederbayern|Oberpfalz|Schwaben|Oberfranken|Mittelfranken|Unterfranken|Inn|Ilm|Isar|"
    "Donau|Lech|Main|Waldnaab|Naab|Saale|Regen|Vils|Rott|Rottal|Salzach|Alz|Mindel|Wertach|Iller|Altmühl|Amper|"
    "Glonn|Paar|Abens|Laaber|Loisach|Ammer|Rhön|Fichtelgebirge|Aisch|Tauber|Wörnitz|Pegnitz|Regnitz"
)
_REGION_AFTER = re.compile(rf"[ \u00a0](?:in|am|an[ \u00a0]der|in[ \u00a0]der|im)[ \u00a0](?P<region>{_REGIONS})(?![\w\-])")
# version 5: the function words a place span of the model ran on with ("[Eggenfelden an der]
# Schellenbruckstraße"), and a street's house number with the sentence's stop ("Straße 11.")
_FUNCTION_WORDS_END = re.compile(r"(?:[ \u00a0](?:an|am|in|im|der|die|den|dem|des|und|auf|bei|zur|zum|vom|von))+$")
_NUMBER_STOP_END = re.compile(r"[ \u00a0]\d{1,4}[a-z]?\.$")
_TAIL_WINDOW = 40  # the function words or the stop a span ran on with fit in its last characters
# version 5: a person's town right after the name, before a comma, a stop, "und" or a bracket
_TOWN_AFTER_PERSON = re.compile(
    r"[ \u00a0]aus[ \u00a0](?P<town>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)(?=[,.;:)]|[ \u00a0](?:und|sowie|hat|war|ist|\())"
)
_JOINED_TOKEN = re.compile(r"(?=[^\d]*\d)[A-Za-zÄÖÜäöü0-9]+(?:[-./][A-Za-zÄÖÜäöü0-9]+)*")
# version 7: parts joined by a double slash too (a Jobcenter's "BG-Nummer 83702//0049317")
_JOINED_TOKEN_V7 = re.compile(r"(?=[^\d]*\d)[A-Za-zÄÖÜäöü0-9]+(?:(?:[-./]|//)[A-Za-zÄÖÜäöü0-9]+)*")
# version 10: the words (capitalized, an abbreviated title, a name's particle) hyphenated before a
# span that starts after a hyphen, and the marks a span may not begin or end with
_HYPHEN_HEAD = re.compile(
    r"(?<![\w\-.])(?:[A-ZÄÖÜ][a-zäöüß]*\.?-)(?:(?:[A-ZÄÖÜ][a-zäöüß]*\.?|von|vom|zu|zum|zur|der|den|dem|de|van|und)-)*$"
)
_HEAD_WINDOW = 60  # characters before a span: "Bürgermeister-Dr.-" fits
_CLOSERS = {")": "(", "]": "["}
_OPENERS = {"(": ")", "[": "]"}
_QUOTES = "„“”\"‚‘’»«"  # a quoted name's marks: the gold sets mark the name inside them
_TRAILING_MARKS = ",;:"  # a list's or a clause's mark the model ran on with ("in [Tann,] Pfarrkirchener Straße")


def _ends_in_town(text: str, span: Span) -> bool:
    """A postal town's span, or an address span that ends with one (version 3)."""
    start = max(span.start, span.end - _TOWN_WINDOW)  # a megabyte-long span is searched at its end only
    return span.label in _TOWN_LABELS or _POSTAL_TOWN_END.search(text, start, span.end) is not None
# where the town before a suffix is looked for: "Pfaffenhofen a. d. Ilm" fits many times over;
# searching a megabyte-long span the model read as a place ("Gericht-Gericht-…") took minutes
_TOWN_WINDOW = 160
# the head before a street span: a prefix word, or a preposition where no sentence begins
_PREFIX_BEFORE = re.compile(rf"(?<![\w.\-]){STREET_PREFIX_WORD}[ \u00a0\-]$")
_PREPOSITION_BEFORE = re.compile(rf"(?:(?<=[{LOWER},][ \u00a0])|(?<=[(„\"]))(?:{STREET_PREPOSITION})[ \u00a0]$")


# a house number closing a bracket the name opened, or before a postcode (version 3)
_HOUSE_NUMBER_AFTER = re.compile(r"[ \u00a0]\d{1,3}[a-z]?(?=\)|,[ \u00a0]\d{5}[ \u00a0])")
_ADDRESS_NAMES = frozenset({PERSON, LOCATION, SEAT, STREET, OTHER})


# version 8: a hamlet's numbered house the model read as a place, before a comma, a bracket, a
# stop or "in"/"bei" and the town ("des Hofes [Hinterberg] 2 in Schleching", "in Haidenkofen,
# [Haidenkofen] 3"): one rare word that is no big city, as version 6's hamlet after a comma
_HOUSE_NUMBER_BEFORE_TOWN = re.compile(
    r"[ \u00a0]\d{1,3}[a-z]?(?=[,;)]|\.(?:\s|$)|[ \u00a0](?:in|bei)[ \u00a0][A-ZÄÖÜ])"
)
_HAMLET_MAX_ZIPF = 4.0  # a hamlet's name is a rare word ("Hofmark" 2.3); "Blatt", "Heft" are not


def _rare_name(word: str) -> bool:
    """A hamlet's name: no ordinary or frequent word ("Blatt 22", "Heft 3", "Markt 3")."""
    return not is_common_noun(word) and zipf(word) < _HAMLET_MAX_ZIPF


# or after the word for the house, whatever follows ("Ihr Wohnhaus [Oed] 4 liegt etwa 290 m")
_DWELLING_BEFORE = re.compile(
    r"(?<![\w\-])(?:Wohnhaus(?:es)?|Wohnanwesen(?:s)?|Anwesen(?:s)?|Hof(?:es|s)?|Hofstelle|Haus(?:es)?|Gebäude(?:s)?)[ \u00a0]$"
)
_HOUSE_NUMBER = re.compile(r"[ \u00a0]\d{1,3}[a-z]?(?![\w\-/.,]\d|\w)")


# version 9: a street of a declined adjective and a field word the model read as a place
# ("Sie wohnt [Unterer Markt] 3 in Eslarn")
_ADJECTIVE_STREET = re.compile(rf"{STREET_PREFIX_WORD}[ \u00a0][A-ZÄÖÜ][a-zäöüß]+")


def _hamlet_house(text: str, span: Span, version: int = 8) -> re.Match[str] | None:
    """The house number after a place span that is a hamlet's name (version 8), or a street of
    an adjective and a field word (version 9)."""
    name = text[span.start : span.end]
    if version >= 9 and span.label in _PLACES and _ADJECTIVE_STREET.fullmatch(name) and FIELD_STREET_WORD.search(name):
        return _HOUSE_NUMBER_BEFORE_TOWN.match(text, span.end)
    if span.label not in _PLACES or not _ONE_WORD.fullmatch(name) or is_big_city(name) or not _rare_name(name):
        return None
    if _DWELLING_BEFORE.search(text, max(0, span.start - 20), span.start):
        return _HOUSE_NUMBER.match(text, span.end)
    return _HOUSE_NUMBER_BEFORE_TOWN.match(text, span.end)


def _address(text: str, span: Span, zones: Ranges, version: int = 3) -> Span | None:
    """The span and the house number after it as an address, where one stands (version 3;
    version 8: a hamlet's house before a comma, a stop or its town)."""
    m = _HOUSE_NUMBER_AFTER.match(text, span.end)
    if m is None and version >= 8:
        m = _hamlet_house(text, span, version)
    if span.label not in _ADDRESS_NAMES or m is None or zones.overlaps(span.end, m.end()):
        return None
    if text[m.end()] == ")" and text[max(0, span.start - 1) : span.start] != "(":
        return None
    return Span(span.start, m.end(), STREET, span.score, span.source)




def _street_like(text: str, span: Span) -> bool:
    """A street by its label or by a street or field word ending one of its words."""
    if coarse_label(span.label) == STREET:
        return True
    return any(STREET_WORD.search(w) or FIELD_STREET_WORD.search(w) for w in text[span.start : span.end].split())


def _street_head(text: str, start: int, street: bool, zones: Ranges) -> int:
    """Where a street's name begins that the span from ``start`` ends (version 2)."""
    if street and (m := _PREFIX_BEFORE.search(text, max(0, start - 12), start)) and not zones.overlaps(m.start(), start):
        start = m.start()
    if (m := _PREPOSITION_BEFORE.search(text, max(0, start - 14), start)) and not zones.overlaps(m.start(), start):
        start = m.start()
    return start


def _whole_token(text: str, span: Span, zones: Ranges, version: int = 4) -> Span:
    """An identifier span grown to the token of joined parts it starts or ends inside (version 4;
    version 7: also across a double slash)."""
    joined = _JOINED_TOKEN_V7 if version >= 7 else _JOINED_TOKEN
    low = max(0, span.start - _LONGEST_TOKEN)
    start = span.start - len(_TOKEN_BEFORE.search(text, low, span.start).group())  # type: ignore[union-attr]
    end = _TOKEN_AFTER.match(text, span.end).end()  # type: ignore[union-attr]
    token = text[start:end]
    while token and token[-1] in _TRAILING:
        token, end = token[:-1], end - 1
    while token and token[0] in "([":
        token, start = token[1:], start + 1
    if (start, end) == (span.start, span.end) or not joined.fullmatch(token) or zones.overlaps(start, end):
        return span
    return Span(start, end, span.label, span.score, span.source)


def _surname_after(text: str, span: Span, zones: Ranges) -> int:
    """Where a surname after a person span that is a first name alone ends, else the span's end
    (version 4)."""
    if not is_plain_first_name(text[span.start : span.end]):
        return span.end
    m = _SURNAME_AFTER.match(text, span.end)
    if m is None or zones.overlaps(span.end, m.end()):
        return span.end
    name = m.group(1)
    if name.split("-")[-1] not in surnames() or zipf(name) >= _SURNAME_MAX_ZIPF:
        return span.end
    return m.end()


def _room_after(text: str, span: Span, zones: Ranges) -> int:
    """Where a room or flat after an address span ends, else the span's end (version 4)."""
    m = _ROOM_AFTER.match(text, span.end)
    return m.end() if m is not None and not zones.overlaps(span.end, m.end()) else span.end


def _first_name_before(text: str, span: Span, zones: Ranges) -> bool:
    """Whether a first name of the list stands right before ``span`` (outside keep zones)."""
    m = _WORD_BEFORE.search(text, max(0, span.start - 40), span.start)
    return m is not None and is_plain_first_name(m.group(1)) and not zones.overlaps(m.start(1), span.start)


def _person_read_as_place(text: str, span: Span, zones: Ranges) -> bool:
    """A one-word place span after a first name that is a surname and no town of the list
    ("Maria [Huber-Kiefl]": the model read the double name as a place) (version 5)."""
    name = text[span.start : span.end]
    return (
        span.label == LOCATION
        and _ONE_WORD.fullmatch(name) is not None
        and name not in cities()
        and any(part in surnames() for part in name.split("-"))
        and _first_name_before(text, span, zones)
    )


def _named_person_or_room(text: str, span: Span, zones: Ranges, version: int = 4) -> Span:
    """Version 4's person, place and address parts: a one-word OTHER span after a first name is
    a person (the first name joins in :func:`_grown`; from version 5 a place that is a surname
    too), a first name alone takes the surname after it, a place the parts hyphenated to it, an
    address the room after it."""
    other_person = span.label == OTHER and _ONE_WORD.fullmatch(text, span.start, span.end) and _first_name_before(text, span, zones)
    if other_person or (version >= 5 and _person_read_as_place(text, span, zones)):
        span = Span(span.start, span.end, PERSON, span.score, span.source)
    if span.label == PERSON:
        return Span(span.start, _surname_after(text, span, zones), span.label, span.score, span.source)
    if coarse_label(span.label) == STREET:
        return Span(span.start, _room_after(text, span, zones), span.label, span.score, span.source)
    if span.label in _PLACES and (m := _HYPHENATED_PLACE.match(text, span.end)) and not zones.overlaps(span.end, m.end()):
        return Span(span.start, m.end(), span.label, span.score, span.source)
    return span


def _mended_end(text: str, span: Span, version: int = 5) -> Span:
    """A place span without the function words the model ran on with, a street span without the
    sentence's full stop after its house number (version 5); from version 11 a person's, firm's
    or other name's span without those function words too ("die Schreinerei [Wörle] in
    Denklingen", read "Wörle in")."""
    end = span.end
    tail = max(span.start, end - _TAIL_WINDOW)  # a megabyte-long span is searched at its end only
    ends_in_words = span.label in _PLACES or (version >= 11 and coarse_label(span.label) in _WORDED_NAMES)
    if ends_in_words and (m := _FUNCTION_WORDS_END.search(text, tail, end)) and m.start() > span.start:
        end = m.start()
    elif coarse_label(span.label) == STREET and _NUMBER_STOP_END.search(text, tail, end):
        end -= 1
    return span if end == span.end else Span(span.start, end, span.label, span.score, span.source)


def _region_after(text: str, end: int, zones: Ranges) -> int:
    """Where a town's spelled-out river or region after ``end`` ends, else ``end`` (version 5)."""
    m = _REGION_AFTER.match(text, end)  # the region itself may be a Land's keep zone ("Bayern")
    return m.end() if m is not None and not zones.overlaps(end, m.start("region")) else end


def _unbracketed(text: str, span: Span) -> Span:
    """A span without the quotes at its edges, without the closing bracket it ends in where it
    opens none (the opening one likewise), and without a comma, semicolon or colon at its end
    (version 10)."""
    start, end = span.start, span.end
    while end - start > 1 and text[start] in _QUOTES:
        start += 1
    while end - start > 1 and text[end - 1] in _QUOTES + _TRAILING_MARKS:
        end -= 1
    if end - start > 1 and text[end - 1] in _CLOSERS and _CLOSERS[text[end - 1]] not in text[start : end - 1]:
        end -= 1
    if end - start > 1 and text[start] in _OPENERS and _OPENERS[text[start]] not in text[start + 1 : end]:
        start += 1
    return span if (start, end) == (span.start, span.end) else Span(start, end, span.label, span.score, span.source)


def _hyphen_head(text: str, span: Span, zones: Ranges) -> Span:
    """A span that starts right after a hyphen, with the words hyphenated before it (version 10)."""
    if text[span.start - 1 : span.start] != "-":
        return span
    m = _HYPHEN_HEAD.search(text, max(0, span.start - _HEAD_WINDOW), span.start)
    if m is None or zones.overlaps(m.start(), span.start):
        return span
    return Span(m.start(), span.end, span.label, span.score, span.source)


# version 11: names of persons, firms and other details, whose spans end in no function word
_WORDED_NAMES = frozenset({PERSON, ORGANIZATION, OTHER})
# version 11: a club's name after the Bavarian elided article ("der GTEV D'Mangfalltaler
# Großholzhausen e.V.", "Trachtenverein D'Hochplattler"), which the model reads from the word
# after the apostrophe: the article and a club's abbreviation before it are the name's
_ELIDED_ARTICLE_BEFORE = re.compile(r"(?:(?<![\w\-.])[A-ZÄÖÜ]{2,6}[ \u00a0])?(?<![\w\-.])[Dd]['’]$")
# version 11: an organization's name that begins with an adjective of a Land or region,
# capitalized because it is part of the name ("der Bayerischen Handwerker-Lebensversicherung a.
# G.", "der Süddeutschen …"): the model reads from the noun after it. Mid-sentence, German
# capitalizes such an adjective only in a name
_NAME_ADJECTIVE_BEFORE = re.compile(r"(?<![\w\-.])[A-ZÄÖÜ][a-zäöüß]+(?:ische|deutsche)[nmrs]?[ \u00a0]$")
# version 11: the full stop after a quoted name's closing quote ("der Wortmarke „Kellerfürst“.")
_QUOTE_STOP_END = re.compile(rf"[{_QUOTES}]\.$")


def _name_head(text: str, span: Span, zones: Ranges) -> Span:
    """An organization's span with the elided article and abbreviation, or the adjective of a
    firm's name, that stand before it (version 11)."""
    if coarse_label(span.label) != ORGANIZATION:
        return span
    m = _ELIDED_ARTICLE_BEFORE.search(text, max(0, span.start - 12), span.start)
    if m is None:
        m = _NAME_ADJECTIVE_BEFORE.search(text, max(0, span.start - 30), span.start)
    if m is None or zones.overlaps(m.start(), span.start):
        return span
    return Span(m.start(), span.end, span.label, span.score, span.source)


def _grown(text: str, span: Span, zones: Ranges, version: int = 1) -> Span:
    if version >= 5:
        span = _mended_end(text, span, version)
    if version >= 11:
        if _QUOTE_STOP_END.search(text, max(span.start, span.end - 2), span.end):
            span = Span(span.start, span.end - 1, span.label, span.score, span.source)
        span = _name_head(text, span, zones)
    if version >= 10:
        span = _unbracketed(text, span)
    if version >= 4 and coarse_label(span.label) == ID:
        return _whole_token(text, span, zones, version)
    if version >= 10:
        span = _hyphen_head(text, span, zones)
    if version >= 4:
        span = _named_person_or_room(text, span, zones, version)
    if version >= 3 and (address := _address(text, span, zones, version)) is not None:
        span = address
    start, end = span.start, span.end
    if version >= 2 and span.label != PERSON:
        start = _street_head(text, start, _street_like(text, span), zones)
    if span.label == PERSON:
        for _ in range(2):  # "Anna Maria Huber"
            m = _WORD_BEFORE.search(text, max(0, start - 40), start)
            if m is None or not is_plain_first_name(m.group(1)) or zones.overlaps(m.start(1), start):
                break
            start = m.start(1)
    elif span.label in _PLACES or (version >= 3 and _ends_in_town(text, span)):
        if (m := _SUFFIX_AFTER.match(text, end)) is not None and not zones.overlaps(end, m.end()):
            end = m.end()
        elif version >= 5 and span.label in _PLACES:
            end = _region_after(text, end, zones)
        low = max(0, start - 60)  # a town and its suffix fit in the window; a longer span has none
        m = _TOWN_BEFORE.search(text, low, end) if end - low <= _TOWN_WINDOW else None  # "$" holds at ``end``
        if m is not None and m.start() < start and not zones.overlaps(m.start(), start):
            start = m.start()
    return span if (start, end) == (span.start, span.end) else Span(start, end, span.label, span.score, span.source)


def _towns_after_persons(text: str, spans: Sequence[Span], zones: Ranges) -> list[Span]:
    """The town a person comes from right after the name ("Dr. Sieglinde Kerscher aus Bogen"):
    a town of the list that is no big city, not a preposition's noun ("aus Grund des …")
    (version 5)."""
    taken = Ranges((s.start, s.end) for s in spans)
    out = []
    for span in spans:
        if span.label != PERSON or (m := _TOWN_AFTER_PERSON.match(text, span.end)) is None:
            continue
        start, end = m.span("town")
        town = m.group("town")
        if town in cities() and not is_big_city(town) and not (taken.overlaps(start, end) or zones.overlaps(start, end)):
            out.append(Span(start, end, LOCATION, span.score, span.source))
    return out


# version 6: a hamlet's name and house number after a town and a comma
_HAMLET_AFTER = re.compile(
    r",[ \u00a0](?P<name>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)[ \u00a0]\d{1,3}[a-z]?(?=[,;)]|\.(?:\s|$))"
)


def _hamlet_addresses(text: str, spans: Sequence[Span], zones: Ranges) -> list[Span]:
    """The numbered house of a hamlet written after a town and a comma (version 6)."""
    taken = Ranges((s.start, s.end) for s in spans)
    out = []
    for span in spans:
        if not (span.label in _PLACES or _ends_in_town(text, span)):
            continue
        m = _HAMLET_AFTER.match(text, span.end)
        if m is None or not _rare_name(m.group("name")):
            continue  # an ordinary or a frequent word and its number: "Blatt 22", "Heft 3"
        start, end = m.start("name"), m.end()
        if not (taken.overlaps(start, end) or zones.overlaps(start, end)):
            out.append(Span(start, end, STREET, span.score, span.source))
    return out


_NEIGHBOUR_JOINT = re.compile(r"[ \u00a0](?:bei|b\.)[ \u00a0]")


def _joined_neighbours(text: str, spans: list[Span]) -> list[Span]:
    """Sorted ``spans`` with two places joined by "bei" made one ("Neufahrn bei Freising")
    (version 6)."""
    out: list[Span] = []
    for span in spans:
        prev = out[-1] if out else None
        if (
            prev is not None and prev.label in _PLACES and span.label in _PLACES
            and _NEIGHBOUR_JOINT.fullmatch(text, prev.end, span.start)
        ):  # fmt: skip
            out[-1] = Span(prev.start, span.end, prev.label, prev.score, prev.source)
            continue
        out.append(span)
    return out


# version 7: a name in quotes: German or straight quotes around one to five words, each one
# capitalized, a number ("2.0", "24", "9b") or a function word of names
_QUOTED = re.compile(r"„([^“”\"\n]{1,60})[“”]|\"([^\"\n]{1,60})\"")
_NAME_FUNCTION_WORDS = frozenset(
    "am an auf bei by da de del der des di die das dem den du im in la le of the und vom von zu zum zur & + - –".split()
)
_QUOTED_NAME_WORD = re.compile(r"[A-ZÄÖÜ0-9][\w.'’\-]*")
_NAME_TYPES = frozenset({PERSON, ORGANIZATION, LOCATION, STREET, OTHER})
_ARTICLES = frozenset("der die das den dem des ein eine einer eines".split())
_CAMEL_CASE = re.compile(r"\w*[a-zäöüß][A-ZÄÖÜ]\w*")  # "TimeTrack", "SmartFarm": a brand's name


def _quoted_name_words(content: str) -> bool:
    words = content.split()
    return 1 <= len(words) <= 5 and words[0] not in _ARTICLES and all(
        w in _NAME_FUNCTION_WORDS or _QUOTED_NAME_WORD.fullmatch(w) is not None for w in words
    )


def _name_word(word: str) -> bool:
    """A word a quoted name may take in around the span found: a function word of names or a
    word that is no title or role (deid.words.shape_cues.is_role), no Wiktionary noun and no
    compound of ordinary words ("Pro", "XL", "2.0", "SmartFarm"; not "Haus" of "Haus
    Arberblick" nor "Herr", which stay outside as a kind word and a title do)."""
    if word in _NAME_FUNCTION_WORDS:
        return True
    bare = word.strip(".,;:!?")
    return not is_role(bare) and not is_common_noun(bare) and (
        _CAMEL_CASE.fullmatch(bare) is not None or not plain_compound(bare))


def _outside_words(text: str, start: int, end: int, inside: list[Span]) -> list[str]:
    """The words of ``text[start:end]`` that no span of ``inside`` touches."""
    return [m.group() for m in re.finditer(r"\S+", text[start:end])
            if not any(s.start < start + m.end() and start + m.start() < s.end for s in inside)]  # fmt: skip


def _whole_quoted_names(text: str, spans: list[Span], zones: Ranges, version: int = 7) -> list[Span]:
    """Sorted ``spans`` with a name's spans inside quotes grown to the quoted name (version 7);
    from version 11 over any words after the last span found ("„Anadolu Kebap & Pizza Haus“",
    "„Schneezwerge Gold“": a name's tail is a noun as often as not), the words before it still
    no kind word or title ("„Haus Arberblick“" keeps "Haus" outside)."""
    grown: list[Span] = []
    starts = [s.start for s in spans]  # sorted, without overlaps (extend_names)
    for match in _QUOTED.finditer(text):
        group = 1 if match.group(1) is not None else 2
        start, end = match.span(group)
        if not _quoted_name_words(text[start:end]) or zones.overlaps(start, end):
            continue
        first, last = bisect_left(starts, start), bisect_left(starts, end)
        within = spans[first:last]
        crossing = (first > 0 and spans[first - 1].end > start) or any(s.end > end for s in within)
        inside = [s for s in within if coarse_label(s.label) in _NAME_TYPES]
        if version >= 11 and inside:
            end_of_names = max(s.end for s in inside)
            outside = _outside_words(text, start, end_of_names, inside)
        else:
            outside = _outside_words(text, start, end, inside)
        if inside and not crossing and not any(s.start == start and s.end == end for s in inside) and all(
            _name_word(w) for w in outside
        ):
            longest = max(inside, key=lambda s: s.end - s.start)
            grown.append(Span(start, end, longest.label, longest.score, longest.source))
    if not grown:
        return spans
    kept = [s for s in spans if not any(g.start <= s.start and s.end <= g.end for g in grown)]
    return sorted([*kept, *grown], key=lambda s: (s.start, s.end))


def extend_names(text: str, spans: Iterable[Span], zones: Sequence[Span] = (), version: int = 1) -> list[Span]:
    """``spans`` with persons' first names and towns' suffixes taken in, and from ``version``
    2 a street's head (the module's docstring), sorted and without overlaps: a grown span
    absorbs the spans it now covers."""
    blocked = Ranges((z.start, z.end) for z in zones)
    spans = list(spans)
    if version >= 5:
        spans += _towns_after_persons(text, spans, blocked)
    if version >= 6:
        spans += _hamlet_addresses(text, spans, blocked)
    out: list[Span] = []
    for span in sorted((_grown(text, s, blocked, version) for s in spans), key=lambda s: (s.start, -s.end)):
        if out and span.start < out[-1].end:
            prev = out[-1]
            if span.end > prev.end:  # overlapping, not covered: the grown one keeps the stretch
                out[-1] = Span(prev.start, span.end, prev.label, prev.score, prev.source)
            continue
        out.append(span)
    out = _joined_neighbours(text, out) if version >= 6 else out
    return _whole_quoted_names(text, out, blocked, version) if version >= 7 else out
