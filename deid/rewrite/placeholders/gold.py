"""Gold placeholders from the LER annotation.

LER (Leitner et al. 2019) annotates persons, places and companies in decisions the courts
had already anonymized, so its entities of those types whose surface is a court placeholder
tell us, independently of our detector, where the placeholders are. The definition is
context-free and deliberately simple:

* a *placeholder entity* is an LER entity of a person/place/company type (PER, RR, AN, UN,
  ORG, INN, MRK, ST, LD, LDS, STR) with at least one placeholder-shaped token: an ellipsis,
  a single letter (``K``, ``K.``, ``B1``), a short name abbreviation inside a person entity
  (``Sch.``, ``Al.``), hyphenated initials (``E.-N.``), a letter compound (``A-GbR``,
  ``K-Straße``), a letter fused with a street word (``Kstraße``) or an x-run (``xx.xx.2015``);
* not placeholders: road designations (``B 214``, ``A 2``, ``Kreisstraße K 74``), real names
  written with an initial (``M. Rennpferdt``, ``A. Schuster``: a full surname is present)
  and a few abbreviations (``U. K.``, ``E. ON``);
* the gold span covers the placeholder tokens (and glue such as ``-``/``&`` between them);
  for streets the whole reference (street word and house number are part of it).
"""

from __future__ import annotations

import re

from deid.schema import LOCATION, ORGANIZATION, PERSON, STREET, Document, Span
from deid.words.vocab import COMMON_LEGAL_FORMS, STREET_SUFFIXES, alternation

LER_PLACEHOLDER_TYPES: dict[str, str] = {
    "PER": PERSON,
    "RR": PERSON,
    "AN": PERSON,
    "UN": ORGANIZATION,
    "ORG": ORGANIZATION,
    "INN": LOCATION,  # institutions are named by their seat: "Landratsamt O.", "JVA T."
    "MRK": ORGANIZATION,
    "ST": LOCATION,
    "LD": LOCATION,
    "LDS": LOCATION,
    "STR": STREET,
}
_PERSON_TAGS = frozenset({"PER", "RR", "AN"})
_TITLES = frozenset({"Dr.", "Prof.", "Dres.", "von", "van", "de", "zu", "vom"})
_NOT_PLACEHOLDER = frozenset({"U. K.", "U. S.", "U.K.", "U.S.", "E. ON", "E.ON", "S. A.", "N. V.", "B. V."})
_ROAD = re.compile(
    r"^(?:(?:Bundes|Kreis|Land|Staats|Gemeinde)straße\s)?(?:[ABKLS]|St)\s?\d+[a-z]?$"
)
_LEGAL_WORD = re.compile(rf"^(?:{alternation(COMMON_LEGAL_FORMS)})$")
_UNIT_CODE = re.compile(r"^[IVX]{1,4}$")
_GLUE = frozenset({"-", "&", "+", "/"})
# Legal-form abbreviations are never placeholders: "e. V.", "e. K.", "B. V.", "S. A. R. L.".
# The gold rules were written without the "ss" spelling ("Kstrasse" is no shaped placeholder
# in the gold); adding it would change the gold sets.
_GOLD_STREET_SUFFIXES = tuple(s for s in STREET_SUFFIXES if s != "strasse")
_LEGAL_FORM_ABBREV = re.compile(
    r"(?<!\S)(?:e\.\s?V\.|e\.\s?K\.|B\.\s?V\.|N\.\s?V\.|S\.\s?A\.(?:\s?R\.\s?L\.)?|"
    r"S\.\s?à\s?r\.\s?l\.|Co\.|K\.\s?G\.)(?!\S)"
)

_SHAPED = [
    re.compile(r"…|\.\.\."),
    re.compile(r"^[A-ZÄÖÜ]\d?\.?$"),
    re.compile(r"^[A-ZÄÖÜ]\.?-[A-ZÄÖÜ]\.?$"),
    re.compile(r"^[A-ZÄÖÜ]\.?-(?:\w+)?$|^[A-ZÄÖÜ]\.?-\w+"),
    re.compile(rf"^-?[A-ZÄÖÜ](?:{alternation(_GOLD_STREET_SUFFIXES)})$"),
    re.compile(r"^[xX]{2,}|^X[xX]{2,}"),
]
_ORG_TAGS = frozenset({"UN", "ORG"})
_PERSON_ABBREV = re.compile(r"^[A-ZÄÖÜ][a-zäöü]{1,2}\.$")
_FULL_WORD = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]{2,}(?:-[A-ZÄÖÜ][a-zäöüß]+)*$")


def is_placeholder_token(token: str, ler_tag: str) -> bool:
    """Context-free shape test of one whitespace token of an LER entity."""
    token = token.strip("\"„“”‚‘'«»,;:()")
    if not token or token in _TITLES:
        return False
    if any(p.search(token) for p in _SHAPED):
        return True
    return ler_tag in _PERSON_TAGS and bool(_PERSON_ABBREV.match(token))


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    return [(start + m.start(), start + m.end(), m.group(0)) for m in re.finditer(r"\S+", text[start:end])]


def placeholder_spans_of_entity(text: str, entity: Span) -> list[Span]:
    """Gold placeholder spans inside one LER entity (empty if it is not a placeholder)."""
    tag = entity.label
    if tag not in LER_PLACEHOLDER_TYPES:
        return []
    surface = text[entity.start : entity.end].strip("\"„“” ")
    if surface in _NOT_PLACEHOLDER or _ROAD.match(surface):
        return []
    tokens = _tokens(text, entity.start, entity.end)
    legal = [(m.start() + entity.start, m.end() + entity.start) for m in _LEGAL_FORM_ABBREV.finditer(text[entity.start : entity.end])]
    shaped = [
        is_placeholder_token(t, tag) and not any(a <= s and e <= b for a, b in legal)
        for s, e, t in tokens
    ]
    for i, (_, _, tok) in enumerate(tokens):
        nxt = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        prv = tokens[i - 1][2] if i else ""
        if not shaped[i] and tag in _ORG_TAGS and re.fullmatch(r"[a-zäöü]", tok) and _LEGAL_WORD.match(nxt):
            shaped[i] = True  # "w GmbH"
        if not shaped[i] and _PERSON_ABBREV.match(tok) and (
            re.fullmatch(r"[A-ZÄÖÜ]\.", prv) or re.fullmatch(r"[A-ZÄÖÜ]\.", nxt)
        ):
            shaped[i] = True  # "T. Ts. & Partner": a name abbreviation beside an initial
    # "Bundesministerium der Verteidigung - R II 2 -": a letter before a roman numeral is an
    # organizational unit code, not an anonymized name
    for i in range(len(tokens) - 1):
        if shaped[i] and _UNIT_CODE.match(tokens[i + 1][2]) and re.fullmatch(r"[A-ZÄÖÜ]{1,3}", tokens[i][2]):
            shaped[i] = False
        if shaped[i] and _UNIT_CODE.match(tokens[i][2]) and tokens[i + 1][2].isdigit():
            shaped[i] = False  # "SE I 4", "PoL I 5"
    if not any(shaped):
        return []
    label = LER_PLACEHOLDER_TYPES[tag]
    if tag in _PERSON_TAGS:
        words = [t.strip(",;:\"„“") for (_, _, t), sh in zip(tokens, shaped) if not sh]
        if any(_FULL_WORD.match(w) for w in words if w not in _TITLES):
            return []  # "M. Rennpferdt": a real name with an initial
    if tag == "STR":
        first = next(i for i, sh in enumerate(shaped) if sh)
        lo = tokens[first][0] if tokens[0][2] in ("„", '"') else tokens[0][0]
        lo = min(lo, tokens[first][0])
        toks = [t for t in tokens if t[2] not in ("„", "“", '"')]
        return [Span(lo, toks[-1][1], label, source="ler-gold")]
    spans: list[Span] = []
    run: list[int] = []
    for i, sh in enumerate(shaped):
        if sh:
            run.append(i)
        elif run and tokens[i][2] in _GLUE and i + 1 < len(shaped) and shaped[i + 1]:
            run.append(i)
        elif run:
            spans.append(Span(tokens[run[0]][0], tokens[run[-1]][1], label, source="ler-gold"))
            run = []
    if run:
        spans.append(Span(tokens[run[0]][0], tokens[run[-1]][1], label, source="ler-gold"))
    return spans


def ler_gold_placeholders(doc: Document) -> list[Span]:
    """All gold placeholder spans of an LER document (from ``doc.entities``)."""
    out: list[Span] = []
    for entity in doc.entities:
        out += placeholder_spans_of_entity(doc.text, entity)
    return sorted(out)


def ler_covered(doc: Document) -> list[Span]:
    """LER entities of the covered (person/place/company) types, for scoring decisions."""
    return [e for e in doc.entities if e.label in LER_PLACEHOLDER_TYPES]


def ler_unjudged(doc: Document) -> list[Span]:
    """LER entities outside the covered types that still contain a placeholder shape, such as
    a court named by an anonymized place ("Amtsgericht P."): LER gives no verdict on whether
    they are placeholders, so their elements are left out of scoring (and counted)."""
    out: list[Span] = []
    for entity in doc.entities:
        if entity.label != "GRT":
            continue
        tokens = _tokens(doc.text, entity.start, entity.end)
        if any(is_placeholder_token(t, "PER") and len(t.strip("()")) <= 3 for _, _, t in tokens):
            out.append(entity)
    return out
