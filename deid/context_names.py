"""Names recognized by the context that gave their placeholders away.

The same cues that tell the placeholder detector what "K." stands for ("Zeuge K.", "S …
GmbH", "Kstraße 5") mark real names in non-anonymized text: a capitalized word right after a
person role ("der Zeuge Hassner", "Herrn Dr. Kebekus"), capitalized words right before a
legal form ("Feinberg Projektbau GmbH"), a street name with a house number ("Rosenstraße
14"), the cadastral district of a parcel ("Gemarkung Ahorn"). A common first name followed
by a capitalized word ("des Reinhard Hartleben") is a person too, with or without a role:
the model, trained mostly on role-cued placeholders, misses such full names. High
precision, so the pipeline adds them to the model's spans.
"""

from __future__ import annotations

import re
from functools import cache

from deid.placeholders import lexicon as lx
from deid.placeholders.rules import is_role
from deid.schema import LOCATION, ORGANIZATION, PERSON, STREET, Span

_WORD = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?"
_TITLE = r"(?:(?:Dr\.|Prof\.|Dres\.|med\.|jur\.)\s)*(?:(?:von|van|de|zu)\s)?"
_CAPITALIZED = re.compile(rf"(?<![\wäöüß]){_WORD}(?=\s)")
_NAME_AFTER = re.compile(rf"\s{_TITLE}(?P<name>{_WORD}(?:\s{_WORD})?)(?=[\s,;.:)]|$)")
_ORG_NAME = re.compile(
    rf"(?P<name>{_WORD}(?:[\s-]{_WORD}){{0,2}})\s(?:GmbH|gGmbH|AG|KG|OHG|GbR|UG|SE|mbH|e\.\s?V\.|Ltd\.?|Inc\.?)\b"
)
_STREET = re.compile(
    r"(?<![\wäöüß])(?:[A-ZÄÖÜ][\wäöüß\-]*(?:straße|strasse|weg|platz|allee|gasse|ring|damm|ufer)"
    r"|[A-ZÄÖÜ][\wäöüß\-]+\s(?:Straße|Weg|Platz|Allee|Gasse|Ring))\s\d{1,4}[a-z]?(?![\wäöüß]|[,.]\d)"
)
_FULL_NAME = re.compile(  # one line only: signatures list one judge per line
    rf"(?<![\w\-])(?P<first>{_WORD})(?: (?P<second>{_WORD}|[A-ZÄÖÜ]\.))?"
    rf" (?:(?:von|van|de|zu|vom) )?(?P<last>{_WORD})(?![\w\-]|\.\w)"
)
# the cadastral district names where a parcel lies: the training courts anonymize it every
# time ("der Gemarkung B."), and the land register is kept by the same district
_CADASTRAL = re.compile(
    rf"(?<![\w\-])(?:Gemarkung(?:en)?|Grundbuch(?:es|s)?(?: des Amtsgerichts {_WORD})? von)"
    rf" (?P<name>{_WORD}(?: (?:am|an der|im|bei) {_WORD})?)(?![\w\-])"
)
FIRST_NAME_MIN_COUNT = 50  # in the Berlin first-name statistics: common names only
_NOT_NAMES = lx.SENTENCE_STARTERS | lx.LEGAL_FORMS | lx.ORG_CUES | lx.LOCATION_CUES | frozenset(
    "Gericht Senat Kammer Beschluss Urteil Klage Antrag Verfahren Vertrag Schreiben Bescheid "
    "Revision Berufung Beschwerde Termin Verhandlung Aussage Angaben Vortrag".split()
)


def _name_ok(name: str) -> bool:
    from deid.features import SHAPE_SUFFIX, plain_compound, word_shape
    from deid.lexicon import is_common_noun, known_name
    from deid.placeholders.vocabulary import noun_words
    from deid.public_words import public_words

    first = name.split()[0]
    if not _could_be_name(first):
        return False
    # ("der Angeklagte Hilfe geleistet", "die Klägerin Kontrollen", "Konsum von Kokain":
    # nouns). A Wiktionary noun that is also a known surname stays ("Basler", "Versen").
    return not (
        len(name.split()) == 1
        and (
            first in noun_words()
            or first in public_words()
            or word_shape(first) == SHAPE_SUFFIX
            or plain_compound(first)
            or (is_common_noun(first) and not known_name(first))
        )
    )


@cache
def common_first_names() -> frozenset[str]:
    """First names frequent enough to cue a person, minus those that are also ordinary
    words ("Ernst", "Frank", "Hoffnung")."""
    from deid.placeholders.vocabulary import lowercase_words, noun_words
    from deid.public_words import public_words
    from deid.surrogates.gazetteers import first_name_counts

    ordinary = noun_words() | public_words()
    return frozenset(
        name
        for name, count in first_name_counts().items()
        if count >= FIRST_NAME_MIN_COUNT and name not in ordinary and name.lower() not in lowercase_words()
    )


def _could_be_name(word: str) -> bool:
    """No cue word, role or institution, and not normally written in lowercase ("dem Kläger
    Recht geben"). After a first name that is all a surname needs ("Helga Schneider")."""
    from deid.placeholders.vocabulary import lowercase_words

    return not (
        word in _NOT_NAMES or is_role(word) or lx.INSTITUTION_NOUN.search(word) or word.lower() in lowercase_words()
    )


def full_names(text: str) -> list[Span]:
    """"Katharina Hartl", "Peter M. Zöllner": a common first name, an optional second first
    name or initial, and a surname."""
    firsts = common_first_names()
    spans: list[Span] = []
    for w in _CAPITALIZED.finditer(text):  # every capitalized word: names may follow a cue word
        if w.group(0) not in firsts or (spans and w.start() < spans[-1].end):
            continue
        m = _FULL_NAME.match(text, w.start())
        if not m:
            continue
        second = m.group("second")
        last, end = m.group("last"), m.end()
        if second and not (second.endswith(".") or second in firsts):
            last, end = second, m.end("second")  # "Emil Schliessleder Im": the name ends early
        if _could_be_name(last):
            spans.append(Span(m.start(), end, PERSON, 0.85, "context:first-name"))
    return spans


def context_names(text: str) -> list[Span]:
    """Persons after roles or with a common first name, organizations before legal forms,
    cadastral districts, streets with house numbers."""
    spans: list[Span] = full_names(text)
    for r in _CAPITALIZED.finditer(text):
        if not is_role(r.group(0)):
            continue
        m = _NAME_AFTER.match(text, r.end())
        if not m:
            continue
        name = m.group("name")
        words = name.split()
        # "der Zeuge Hassner sagte" → "Hassner"; never swallow a following noun
        if len(words) == 2 and not _name_ok(words[1]):
            name = words[0]
        if _name_ok(name):
            start = m.start("name")
            spans.append(Span(start, start + len(name), PERSON, 0.9, "context:role"))
    for m in _ORG_NAME.finditer(text):
        name = m.group("name")
        words = name.replace("-", " ").split()
        while words and (words[0] in _NOT_NAMES or is_role(words[0]) or words[0] in lx.ORG_CUES):
            words = words[1:]
        if not words:
            continue
        start = text.find(words[0], m.start("name"), m.end("name"))
        spans.append(Span(start, m.end("name"), ORGANIZATION, 0.85, "context:legal-form"))
    for m in _CADASTRAL.finditer(text):
        if m.group("name") not in _NOT_NAMES:
            spans.append(Span(m.start("name"), m.end("name"), LOCATION, 0.85, "context:cadastral"))
    for m in _STREET.finditer(text):
        if re.match(r"(?:Bundes|Kreis|Land|Staats|Gemeinde)straße\s", m.group(0)):
            continue  # road designations are public
        spans.append(Span(m.start(), m.end(), STREET, 0.85, "context:street"))
    return sorted(_dedupe(spans))


def _dedupe(spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for s in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return out
