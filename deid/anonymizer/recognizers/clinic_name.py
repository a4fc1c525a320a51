"""A clinic's or hospital's name after its kind word: "im RoMed Klinikum Wasserburg", "das
Krankenhaus Mühldorf", "die Fachklinik St. Lukas".

The policy neutralizes clinics as it does other private firms (docs/anonymization-policy.md);
their names are places and brands the model reads as a town, or leaves ("RoMed", "DONAUISAR").
The kind word is the evidence; the name after it is one to three capitalized words, a saint
("St. Lukas") or a town with its river ("Wasserburg am Inn"), and no ordinary noun that names
no town ("legte die Klinik Rechtsbeschwerde ein"). A brand written before the kind
word with a capital inside ("RoMed", "DONAUISAR", "InnKlinikum"'s "Inn…") makes the whole a
name, as the gold sets mark it ("[RoMed Klinikum Wasserburg]"); without one the kind word
stays outside the span ("Krankenhaus [Mühldorf]"). A university's or district's hospital
("Universitätsklinikum …", "Bezirksklinikum …", "Klinikum der Universität …", "Klinikum rechts
der Isar") is a public body the policy keeps: its kind word is no match, or no capitalized
name follows. Chosen on the from-scratch dev set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.gazetteer import cities, is_big_city
from deid.words.lexicon import LEX_PROPER, is_common_noun, lexical_class
from deid.words.shapes import noun_compound, zipf

_S = r"[ \u00a0]"
_KIND = r"(?:Klinikum|Klinik|Kliniken|Krankenhaus|Kreisklinik(?:um)?|Kreiskrankenhaus|Fachklinik|Rehaklinik)(?:s|es)?"
_BRAND = r"(?P<brand>[A-ZÄÖÜ][A-Za-zÄÖÜäöü]*[A-ZÄÖÜ][A-Za-zÄÖÜäöü]*" + _S + r")"
_WORD = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)*"
_NAME = (
    rf"(?P<name>(?:St\.{_S})?{_WORD}"
    rf"(?:{_S}(?:am|an{_S}der|im|ob|a\.{_S}?d\.|a\.|i\.){_S}?{_WORD}|(?:{_S}{_WORD}){{0,2}}))"
)
_CLINIC = rf"(?=[A-ZÄÖÜ])(?<![\w\-]){_BRAND}?{_KIND}{_S}{_NAME}(?![\w\-])"  # a capital first: fast to skip


class ClinicNameRecognizer(PatternRecognizer):
    """A clinic's name after its kind word, with its brand before it."""

    NAME = "clinic_name"
    LABEL = "FIRM_NAME"
    PATTERNS = (Pattern("kind_and_name", _CLINIC, 0.7),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if self.no_name(match.group("name")):
            return  # "die Klinik Rechtsbeschwerde …": no name; "Wasserburg" is a town too
        start = match.start("brand") if match.group("brand") else match.start("name")
        yield start, match.end("name")

    def no_name(self, name: str) -> bool:
        """Whether the words after the kind name nothing: an ordinary noun first that names no
        town."""
        first = name.split()[0]
        noun = is_common_noun(first) or noun_compound(first)
        return first != "St." and noun and first not in cities()


# Version 2 (the from-scratch dev set): a medical care centre, a surgery, a practice, a pharmacy
# and an animal clinic ("im MVZ am Regenbogen", "in der Mund-Kiefer-Gesichtschirurgie am
# Stadtpark", "der Apotheke am Stadtplatz", "die Tierklinik Chiemgau", "die
# Pferdeklinik Dr. Rauscher": a vet's name after his title). A name begun by "am" and a rare
# noun ("am Regenbogen") names nothing without its kind, so the kind joins the span there; "im
# Zeitraum", "an der Versorgung" (the Bavarian dev half) are the sentence going on.
_KIND_V2 = (
    r"(?:Klinikum|Klinik|Kliniken|Krankenhaus|Kreisklinik(?:um)?|Kreiskrankenhaus|Fachklinik|Rehaklinik"
    r"|Praxisklinik|Tierklinik|Pferdeklinik|Kleintierklinik|Tagesklinik|MVZ|Apotheke|Gemeinschaftspraxis"
    r"|Zahnarztpraxis|Tierarztpraxis|Praxis|(?:[A-ZÄÖÜ][a-zäöüß]*-)*[A-ZÄÖÜ][a-zäöüß]*chirurgie"
    rf"|Medizinische[sn]?{_S}Versorgungszentrum)(?:s|es)?"
)
_AFTER_PREPOSITION = rf"(?P<prep>am{_S}(?P<noun>{_WORD}))"
# a name's noun after "am" is a rare word ("am Regenbogen", "am Stadtpark"); a frequent one is
# the sentence going on ("das MVZ am Ende des Quartals")
_NAME_NOUN_MAX_ZIPF = 4.0
_AFTER_TITLE = rf"(?:(?:Dr|Prof)\.{_S}(?:(?:med|vet|med\.{_S}vet)\.{_S})?)+(?P<titled>{_WORD})"
_CLINIC_V2 = (
    rf"(?=[A-ZÄÖÜ])(?<![\w\-]){_BRAND}?(?P<kind>{_KIND_V2}){_S}"
    rf"(?:{_AFTER_TITLE}|{_AFTER_PREPOSITION}|{_NAME})(?![\w\-])"
)


class ClinicNameRecognizerV2(ClinicNameRecognizer):
    """Version 1, and a medical care centre's, surgery clinic's or animal clinic's name."""

    PATTERNS = (Pattern("kind_and_name", _CLINIC_V2, 0.7),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if match.group("prep"):
            if zipf(match.group("noun")) >= _NAME_NOUN_MAX_ZIPF:
                return
            yield match.start("brand") if match.group("brand") else match.start("kind"), match.end("prep")
        elif match.group("titled"):
            yield match.span("titled")
        elif match.group("name").split()[0] not in ("Dr", "Prof"):
            yield from super().candidates(text, match)


# Version 3 (the from-scratch dev set): a clinic of any speciality ("der Schmerzklinik am Lusen",
# "die Augenklinik Dr. Hauser"), which version 2 knew only by its listed kinds, and an institute
# named by its field and its head's name ("beim Institut für Verkehrspsychologie Dr.
# Moosleitner": only the name after the title, as after a vet's clinic); a spa town's name of two
# words after any kind ("Rheumaklinik Bad Abbach"), whose "Bad" versions 1 and 2 read as a noun
# a university's or district's clinic stays a public body the policy keeps (version 1's docstring)
_KIND_V3 = rf"(?:{_KIND_V2}|(?!Universitäts|Bezirks)[A-ZÄÖÜ][a-zäöüß]{{2,}}klinik(?:um|en)?(?:s|es)?)"
_INSTITUTE = (
    rf"(?P<institute>Institut(?:s|es)?{_S}für{_S}{_WORD}(?:-[A-ZÄÖÜ]?[a-zäöüß]+)?{_S}"
    rf"(?:(?:Dr|Prof)\.{_S})+(?P<head>{_WORD}))"
)
_CLINIC_V3 = (
    rf"(?=[A-ZÄÖÜ])(?<![\w\-])(?:{_INSTITUTE}|{_BRAND}?(?P<kind>{_KIND_V3}){_S}"
    rf"(?:{_AFTER_TITLE}|{_AFTER_PREPOSITION}|{_NAME}))(?![\w\-])"
)


class ClinicNameRecognizerV3(ClinicNameRecognizerV2):
    """Version 2, a clinic of any speciality and an institute by its head's name."""

    PATTERNS = (Pattern("kind_and_name", _CLINIC_V3, 0.7),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if match.group("institute"):
            yield match.span("head")
        else:
            yield from super().candidates(text, match)

    def no_name(self, name: str) -> bool:
        # a spa town's two words ("Rheumaklinik Bad Abbach") name one: "Bad" alone is a noun
        return super().no_name(name) and " ".join(name.split()[:2]) not in cities()


_PROPER_KIND = re.compile(r"(?P<proper>[A-ZÄÖÜ][a-zäöüß]{2,})klinik(?:um|en)?(?:s|es)?")


class ClinicNameRecognizerV4(ClinicNameRecognizerV3):
    """Version 3, but a big city alone after the kind word names no clinic ("am Klinikum
    Passau"): the city's hospital is named by its seat, which the policy keeps (a big city, as
    everywhere else); a brand before the kind word still makes the whole a name ("RoMed
    Klinikum Rosenheim"). And a kind compounded with a region's or a place's name (Wiktionary's
    toponyms and proper names: "in der Frankenklinik Bad Kissingen", "Chiemseeklinik") is part of
    the name, where "Schmerzklinik" or "Augenklinik" stays outside. The batch of the
    twenty-second session, written before the chain ran on it."""

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        name = match.group("name")
        if name is not None and not match.group("brand") and is_big_city(name):
            return
        kind = match.group("kind")
        proper = _PROPER_KIND.fullmatch(kind) if kind else None
        named = proper is not None and lexical_class(proper.group("proper")) == LEX_PROPER
        for start, end in super().candidates(text, match):
            yield (match.start("kind") if named and name is not None and start == match.start("name") else start), end
