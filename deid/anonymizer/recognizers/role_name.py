"""A person's full name after a noun that names the person ("des Versicherungsvertreters Günther
Kronschnabl", "der Monteur Igor Petrenko").

The model finds most full names; one after an occupation it never saw in the courts'
placeholders ("Versicherungsvertreter", "Baumkontrolleur") it may leave in clear, surname and
all. A capitalized noun, a first name of the bundled list that is no ordinary word
(:func:`deid.words.ordinary.is_plain_first_name`) and a capitalized word that is no common noun
are a person's name where the noun names a person (a role noun, or one ending as such nouns do:
"-er", "-in", "-eur", "-ent", "-te", "-ge"): "die Kirche Maria Himmelfahrt" is none (a common
noun), nor "eine Armbanduhr Rolex Submariner" (a thing), nor "Frau Maria" alone. A judge's or
lawyer's name is left to the model and the keep zones, whose roles the profiles need; where the
model found a name too, its label and role stand (deid.schema.BACKUP_NAME_LABELS). Chosen on the from-scratch dev set (a pension insurer's agent named once).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.lexicon import is_common_noun
from deid.words.ordinary import is_plain_first_name
from deid.words.roles import LAWYER_BEFORE
from deid.words.shape_cues import is_role

_S = r"[ \u00a0]"
_WORD = r"[A-ZÄÖÜ][a-zäöüß]+"
# the noun before the name is all a match consumes: the name is read in a lookahead, so that
# "Die Zeugin Sabine Hausberger" is tried at "Zeugin" too after "Die Zeugin Sabine" failed
_NAME = (
    rf"(?=[A-ZÄÖÜ])(?<![\w\-]){_WORD}{_S}"
    rf"(?=(?P<value>(?P<first>{_WORD}(?:-{_WORD})?){_S}(?P<last>{_WORD}(?:-{_WORD})?))(?![\w\-]))"
)

# how a noun that names a person ends ("Versicherungsvertreters", "Monteuren", "Zeugin",
# "Patientin", "Sachbearbeiterin", "Kollegen"), beside the role nouns of deid.words.shape_cues
_PERSON_NOUN_END = re.compile(r"(?:er|ers|ern|erin|erinnen|eur|eure|euren|eurs|ent|enten|ant|anten|or|ors|oren|te|ten|ge|gen)$")

# a judge's, a lawyer's or a prosecutor's title: the profiles treat them apart (kept, or kept
# under federal), so the model's role and the keep zones decide, not this backup
_COURT_OR_COUNSEL = re.compile(
    r"(?:Richter|Vorsitzende|Präsident|Beisitzer|Schöff|Staatsanw|Rechtsanw|Patentanw|Anw[aä]lt|Notar|Verteidiger)"
)


class RoleNameRecognizer(PatternRecognizer):
    """A first name of the list and a surname-like word after a capitalized noun."""

    NAME = "role_name"
    LABEL = "ROLE_NAME"
    PATTERNS = (Pattern("noun_first_last", _NAME, 0.7),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if self.names_a_person(text, match, match.group(0).split()[0]):
            yield match.span("value")

    def names_a_person(self, text: str, match: re.Match[str], noun: str, closed: bool = False) -> bool:
        """Whether ``noun`` names a person and the match's first and last name are a name (a last
        name that is a first name too only where ``closed``: no third name follows)."""
        first, last = match.group("first"), match.group("last")
        if not (is_role(noun) or _PERSON_NOUN_END.search(noun)):
            return False  # "eine Armbanduhr Rolex Submariner": a thing's noun, a brand after it
        if _COURT_OR_COUNSEL.match(noun) or LAWYER_BEFORE.search(text, max(0, match.start() - 60), match.end(0)):
            return False  # a judge or a lawyer: their role is the model's and the keep zones' to give
        if is_plain_first_name(noun) or not all(is_plain_first_name(p) for p in first.split("-")):
            return False  # "Anna Maria Huber": the model's, whose first names the extent step joins
        return not (any(is_common_noun(p) for p in last.split("-")) or (is_plain_first_name(last) and not closed))


# Version 2 (the from-scratch dev set): a hyphenated noun names a person as well ("dem
# Kfz-Händler Ahmet Kaya", "der Kfz-Meister Andreas Pfisterer"); its last part decides, as
# version 1's noun does. A surname that the list holds as a first name too ("Kaya") is one where
# no third name follows ("Ahmet Kaya," but not "Anna Maria Huber", the model's and the extent
# step's).
_NAME_V2 = (
    rf"(?=[A-ZÄÖÜ])(?<![\w\-])(?:[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]*-)*{_WORD}{_S}"
    rf"(?=(?P<value>(?P<first>{_WORD}(?:-{_WORD})?){_S}(?P<last>{_WORD}(?:-{_WORD})?))(?![\w\-]))"
)
_THIRD_NAME = re.compile(rf"{_S}[A-ZÄÖÜ]")  # a third name after the pair ("Anna Maria Huber")


class RoleNameRecognizerV2(RoleNameRecognizer):
    """Version 1, and a hyphenated noun before the name ("dem Kfz-Händler Ahmet Kaya")."""

    PATTERNS = (Pattern("noun_first_last", _NAME_V2, 0.7),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        noun = match.group(0).split()[0].rsplit("-", 1)[-1]
        if self.names_a_person(text, match, noun, closed=_THIRD_NAME.match(text, match.end("value")) is None):
            yield match.span("value")



# Version 3 (the batch of the twenty-second session, written before the chain ran on it): the
# name in apposition after the noun and whose it is, between commas ("Der Marktmeister der Stadt,
# Hans Wagner, hat …", "die Sachbearbeiterin des Landratsamts, Petra Huber,"), which versions 1
# and 2 read only right after the noun; the model left this one whole.
_APPOSITION = (
    rf"(?=[A-ZÄÖÜ])(?<![\w\-])(?:[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]*-)*{_WORD}{_S}(?:des|der){_S}{_WORD}(?:{_S}{_WORD})?,{_S}"
    rf"(?=(?P<value>(?P<first>{_WORD}(?:-{_WORD})?){_S}(?P<last>{_WORD}(?:-{_WORD})?))(?:,|{_S}\())"
)


class RoleNameRecognizerV3(RoleNameRecognizerV2):
    """Version 2, and the name in apposition after the noun and whose it is ("Der Marktmeister
    der Stadt, Hans Wagner, hat …")."""

    PATTERNS = (*RoleNameRecognizerV2.PATTERNS, Pattern("noun_of_whom_first_last", _APPOSITION, 0.7))
