"""Names recognized by the context that gave their placeholders away.

The same cues that tell the placeholder detector what "K." stands for ("Zeuge K.", "S …
GmbH", "Kstraße 5") mark real names in non-anonymized text: a capitalized word right after a
person role ("der Zeuge Hassner", "Herrn Dr. Kebekus"), capitalized words right before a
legal form ("Feinberg Projektbau GmbH"), a street name with a house number ("Rosenstraße
14"). High precision, so the pipeline adds them to the model's spans.
"""

from __future__ import annotations

import re

from deid.placeholders import lexicon as lx
from deid.placeholders.rules import is_role
from deid.schema import ORGANIZATION, PERSON, STREET, Span

_WORD = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?"
_TITLE = r"(?:(?:Dr\.|Prof\.|Dres\.|med\.|jur\.)\s)*(?:(?:von|van|de|zu)\s)?"
_ROLE = re.compile(rf"(?<![\wäöüß]){_WORD}(?=\s)")
_NAME_AFTER = re.compile(rf"\s{_TITLE}(?P<name>{_WORD}(?:\s{_WORD})?)(?=[\s,;.:)]|$)")
_ORG_NAME = re.compile(
    rf"(?P<name>{_WORD}(?:[\s-]{_WORD}){{0,2}})\s(?:GmbH|gGmbH|AG|KG|OHG|GbR|UG|SE|mbH|e\.\s?V\.|Ltd\.?|Inc\.?)\b"
)
_STREET = re.compile(
    r"(?<![\wäöüß])(?:[A-ZÄÖÜ][\wäöüß\-]*(?:straße|strasse|weg|platz|allee|gasse|ring|damm|ufer)"
    r"|[A-ZÄÖÜ][\wäöüß\-]+\s(?:Straße|Weg|Platz|Allee|Gasse|Ring))\s\d{1,4}[a-z]?(?![\wäöüß]|[,.]\d)"
)
_NOT_NAMES = lx.SENTENCE_STARTERS | lx.LEGAL_FORMS | lx.ORG_CUES | lx.LOCATION_CUES | frozenset(
    "Gericht Senat Kammer Beschluss Urteil Klage Antrag Verfahren Vertrag Schreiben Bescheid "
    "Revision Berufung Beschwerde Termin Verhandlung Aussage Angaben Vortrag".split()
)


def _name_ok(name: str) -> bool:
    from deid.placeholders.vocabulary import lowercase_words, noun_words
    from deid.public_words import public_words

    first = name.split()[0]
    if first in _NOT_NAMES or is_role(first) or lx.INSTITUTION_NOUN.search(first):
        return False
    if len(name.split()) == 1 and (first in noun_words() or first in public_words()):
        return False  # "der Angeklagte Hilfe geleistet", "die Klägerin Kontrollen": nouns
    return first.lower() not in lowercase_words()  # "dem Kläger Recht geben"


def context_names(text: str) -> list[Span]:
    """Persons after roles, organizations before legal forms, streets with house numbers."""
    spans: list[Span] = []
    for r in _ROLE.finditer(text):
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
        start = m.end("name") - len(" ".join(words)) if " " in name else m.start("name")
        start = text.find(words[0], m.start("name"), m.end("name"))
        spans.append(Span(start, m.end("name"), ORGANIZATION, 0.85, "context:legal-form"))
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
