"""A small business named by its kind and its owner's name, without quotes or a legal form:
"des Vermessungsbüros Hausladen", "die Metzgerei Pichlmaier", "der Spedition Brandl".

The policy neutralizes a private firm's name (docs/anonymization-policy.md). A craftsman's,
surveyor's or engineer's business is usually called by its kind and the owner's surname; the
model reads the surname as a person or a place, or leaves it, and no legal form or quote marks
it (deid.anonymizer.recognizers.firm_name, .quoted_name). The kind word is the evidence; the
name after it is one capitalized word (or a hyphenated pair) that no lexicon lists as an
ordinary noun ("die Bäckerei Brot und Kuchen verkauft" names no one). The kind stays outside
the span, as the gold sets mark it. Law firms are left out ("Kanzlei Huber"): the profiles
treat a practice of lawyers apart (the model's and legal_form's business). Chosen on the
from-scratch dev set; the 598 training and validation decisions have no such phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.gazetteer import cities, is_big_city
from deid.words.lexicon import is_common_noun

_S = r"[ \u00a0]"
_KINDS = (
    r"(?:Ingenieur|Vermessungs|Architektur|Planungs|Sachverständigen|Gutachter)büros?"
    r"|[A-ZÄÖÜ][a-zäöüß]*(?:erei|orei)|Spedition"  # Metzgerei, Fliesenlegerei, Konditorei
    r"|Autohaus(?:es)?|Fahrschule|Gasthof(?:s|es)?|Gasthaus(?:es)?|Brauerei"
    r"|(?:Maler|Elektro|Sanitär|Dachdecker|Bau|Abbruch|Transport)betrieb(?:s|es)?"
)
_NAME = rf"(?<![\w-])(?:{_KINDS}){_S}(?P<value>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)(?![\w-])"


class BusinessNameRecognizer(PatternRecognizer):
    """The owner's name after a small business's kind."""

    NAME = "business_name"
    LABEL = "FIRM_NAME"
    PATTERNS = (Pattern("kind_and_name", _NAME, 0.7),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span("value")
        if not is_common_noun(text[start:end]):
            yield start, end


# Version 2 (the from-scratch dev set): a kindergarten, a nursery or a travel agency by its
# name ("den Kindergarten St. Josef", "die Kita Pusteblume-Nord", "im Reisebüro Urlaubswelt
# Kelheim"), a saint's name too ("St. Josef", "Sankt Martin"), which version 1 did not read.
_KINDS_V2 = (
    rf"{_KINDS}|Kindergartens?|Kinderhaus(?:es)?|Kinderkrippe|Kinderhort(?:s|es)?|Kita|Kindertagesstätte"
    r"|Reisebüros?"
)
_SAINT = rf"(?:St\.|Sankt){_S}[A-ZÄÖÜ][a-zäöüß]+(?![\w-])"
_NAME_V2 = (
    rf"(?<![\w-])(?:{_KINDS_V2}){_S}(?P<value>{_SAINT}|[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?(?![\w-]))"
)


# a village club by its name and its town ("des Schützenvereins Edelweiß Gangkofen", "der
# Trachtenverein Alpenrose Massing"): the name is an ordinary word as often as not, the town
# after it (one of the list) is the evidence
_CLUB_KINDS = (
    r"(?:Schützen|Trachten|Sport|Turn|Musik|Gesang|Burschen|Krieger|Heimat|Garten|Ski|Fußball|Tennis"
    r"|Reit|Kegel|Schachklub|Fischerei|Angel)verein(?:s|es)?"
)
_CLUB = rf"(?<![\w-]){_CLUB_KINDS}{_S}(?P<club>[A-ZÄÖÜ][a-zäöüß]+{_S}(?P<town>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?))(?![\w-])"


class BusinessNameRecognizerV2(BusinessNameRecognizer):
    """Version 1, and a kindergarten's or travel agency's name, a saint's too, and a village
    club's name with its town."""

    PATTERNS = (Pattern("kind_and_name", _NAME_V2, 0.7), Pattern("club_and_town", _CLUB, 0.7))

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if "club" in match.re.groupindex:
            if self.club_town(match.group("town")):
                yield match.span("club")
            return
        start, end = match.span("value")
        if text.startswith(("St.", "Sankt"), start) or not is_common_noun(text[start:end]):
            yield start, end

    def club_town(self, town: str, abbreviation: str | None = None) -> bool:
        """Whether the word after a club's name or abbreviation is its town: one of the list
        (versions 2 and 3)."""
        return town in cities()


# Version 3 (the from-scratch dev set): a sports club by its abbreviation and its town ("im
# Sportheim des SV Hebertsfelden", "der TSV Eggenfelden", "beim FC Ergolding 1921"): the
# abbreviation and the town (one of the list, no big city: "TSV 1860 München" and "FC Bayern"
# are public names) are the club's name, which version 2 left with the abbreviation in clear
_CLUB_ABBREVIATION = r"(?:SV|TSV|FC|SC|SpVgg|TuS|DJK|ASV|FSV|TV|SG|SSV|VfB|VfL|VfR|FFW|FF)"
_ABBREVIATED_CLUB = (
    rf"(?<![\w-])(?P<abbreviated>{_CLUB_ABBREVIATION}{_S}(?P<club_town>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)"
    rf"(?:{_S}(?:19|20)\d\d)?)(?![\w-])"
)


class BusinessNameRecognizerV3(BusinessNameRecognizerV2):
    """Version 2, and a sports club by its abbreviation and its town."""

    PATTERNS = (*BusinessNameRecognizerV2.PATTERNS, Pattern("abbreviated_club", _ABBREVIATED_CLUB, 0.7))

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if "abbreviated" in match.re.groupindex:
            town = match.group("club_town")
            if self.club_town(town, match.group("abbreviated").split()[0]) and not is_big_city(town):
                yield match.span("abbreviated")
            return
        yield from super().candidates(text, match)


# Version 4 (the from-scratch dev set): a riding, tennis or rifle club's abbreviation ("des RFV
# Aholming", "der TC Ergolding"), and a club's town that the list lacks ("Aholming"): a name
# no lexicon calls an ordinary noun, no big city, no professional club's name ("FC Bayern");
# and a rifle club's older kinds ("der Schützengesellschaft Edelweiß Rohrbach")
_CLUB_ABBREVIATION_V4 = rf"(?:{_CLUB_ABBREVIATION}|RFV|RuFV|RV|TC|ESV|SKC|FFC|JFG|SpG|KSV|BSC)"
_ABBREVIATED_CLUB_V4 = _ABBREVIATED_CLUB.replace(_CLUB_ABBREVIATION, _CLUB_ABBREVIATION_V4, 1)
_CLUB_V4 = _CLUB.replace(
    _CLUB_KINDS, rf"(?:{_CLUB_KINDS}|Schützen(?:gesellschaft|gilde|bruderschaft|kompanie)|Burschenschaft)", 1
)
_PROFESSIONAL_CLUBS = frozenset(
    ("Bayern", "Borussia", "Eintracht", "Fortuna", "Hertha", "Werder", "Union", "Dynamo", "Arminia", "Alemannia")
)


class BusinessNameRecognizerV4(BusinessNameRecognizerV3):
    """Version 3, and more clubs' abbreviations and kinds, a club's town the list lacks."""

    PATTERNS = (
        Pattern("kind_and_name", _NAME_V2, 0.7),
        Pattern("club_and_town", _CLUB_V4, 0.7),
        Pattern("abbreviated_club", _ABBREVIATED_CLUB_V4, 0.7),
    )

    def club_town(self, town: str, abbreviation: str | None = None) -> bool:
        """One of the list, or a word that may be a village's name; after "SG", which is also a
        law and a court ("§ 22 SG Rn. 15"), only one of the list."""
        return super().club_town(town, abbreviation) or (abbreviation != "SG" and _unlisted_town(town))


def _unlisted_town(word: str) -> bool:
    """A word that may be a village's name: no ordinary noun, no professional club's name, no
    abbreviation ("Rn") and no participle or adjective ("Dienstleistenden")."""
    return (len(word) >= 4 and word not in _PROFESSIONAL_CLUBS and not is_common_noun(word)
            and not _NOT_A_TOWN_ENDING.search(word))  # fmt: skip


_NOT_A_TOWN_ENDING = re.compile(r"(?:end|ig|lich|isch|ung)(?:e[nmrs]?)?$")


# Version 5 (a batch of the twenty-fourth session, written by another before the chain ran on
# it, and a probe): an inn by its name after "Zum", "Zur" or "Beim" ("vor dem Gasthof Zum
# Kirchenwirt", "der Gasthof Zur Post", "des Gasthauses Zum Schwarzen Adler"), of which version 4
# took "Zum" alone for the owner's name and left the name in clear. The preposition makes the
# words after it a name, an ordinary noun too ("Post")
_INN_KINDS = r"Gasthof(?:s|es)?|Gasthaus(?:es)?|Gasthäuser|Wirtshaus(?:es)?|Gaststätte|Landgasthof(?:s|es)?|Brauereigasthof(?:s|es)?"
_INN = (
    rf"(?<![\w-])(?:{_INN_KINDS}){_S}(?P<inn>(?:Zum|Zur|Beim|Zu{_S}den){_S}"
    rf"[A-ZÄÖÜ][a-zäöüß]+(?:{_S}[A-ZÄÖÜ][a-zäöüß]+)?)(?![\w-])"
)
_INN_PREPOSITIONS = frozenset({"Zum", "Zur", "Beim", "Zu"})


class BusinessNameRecognizerV5(BusinessNameRecognizerV4):
    """Version 4, and an inn's name after "Zum", "Zur" or "Beim", which is no owner's name."""

    PATTERNS = (*BusinessNameRecognizerV4.PATTERNS, Pattern("inn_name", _INN, 0.7))

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if "inn" in match.re.groupindex:
            yield match.span("inn")
        elif "value" not in match.re.groupindex or match.group("value").split()[0] not in _INN_PREPOSITIONS:
            yield from super().candidates(text, match)  # an owner's name, not an inn's preposition
