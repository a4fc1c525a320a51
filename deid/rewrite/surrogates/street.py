"""Street surrogates that keep what the placeholder shows: the street word and how it is
joined ("Kstraße" -> "Kirchstraße", "G. Straße 1" -> "Gothaer Straße 1", "S* …-Straße"
-> "Schiller-Straße"), the initial, and a visible house number."""

from __future__ import annotations

import re

from deid.rewrite.surrogates.request import Request
from deid.words.vocab import ADDRESS_STREET_SUFFIXES, alternation

# A placeholder's street word may be any an address has, and the rarer heads of real street
# names the gazetteer holds ("Am Markt", "Stadtgraben", "Lange Zeile").
_SURROGATE_STREET_WORDS: tuple[str, ...] = (
    *ADDRESS_STREET_SUFFIXES, "markt", "graben", "wall", "zeile", "promenade", "stieg", "twiete",
    "kamp", "hof", "feld", "garten", "park", "berg",
)  # fmt: skip
_WORDS = alternation(_SURROGATE_STREET_WORDS)
# The street words in lower case ("straße", "str", "weg" …): no name of their own.
STREET_WORDS: frozenset[str] = frozenset(w.replace(".", "") for w in _SURROGATE_STREET_WORDS)
_STREET_WORD_RE = re.compile(rf"(?P<sep>[ \-]?)(?P<word>(?i:{_WORDS}))(?![a-zäöüß])")
# What an abbreviated street shows before its street word: "K", "R. ", "F* … ", "Sch.".
_INITIAL_RE = re.compile(
    r"^\s*(?:(?P<init>[A-ZÄÖÜ])|(?P<init2>[A-ZÄÖÜ][a-zäöü]{1,2})\.)[\s.*…\-]*$"
)
_NUMBER_RE = re.compile(r"\d+\s?[a-zA-Z]?(?![\d])")
_PLACEHOLDER_RE = re.compile(r"…|\.{2,}|\b[xX]{1,4}\b|\*+")
# Context that ends in a street name: the placeholder is the (house or road) number.
_NUMBER_ONLY_RE = re.compile(
    r"(?:straße|Straße|str\.|weg|Weg|platz|Platz|allee|Allee|Nr\.|Hausnummer|\bB)\s*$"
)
_FALLBACK_WORD = "straße"


def house_number(req: Request) -> str:
    """Small numbers are far more common; sometimes with a letter suffix ("14a")."""
    rng = req.rng
    n = 1 + int(rng.random() ** 3 * 120)
    return f"{n}{'a' if rng.random() < 0.08 else ''}"


def _fill_numbers(rest: str, req: Request) -> str:
    """Keep visible digits, replace placeholder marks by house numbers."""
    return _PLACEHOLDER_RE.sub(lambda _m: house_number(req), rest)


def _street_name(req: Request, initial: str, word: str, style: str) -> str:
    """A gazetteer street with ``word`` joined in ``style``, else one built from a name."""
    canonical = (
        word
        if not word.casefold().startswith("str")
        else ("straße" if style == "glued" else "Straße")
    )
    sampler = req.gaz.streets_ending(canonical, style)
    if len(sampler) >= 20:
        restricted = sampler.with_prefix(initial) if initial else sampler
        if len(restricted) >= 3:
            name = restricted.sample(req.rng)
            if word.casefold() == "str.":
                name = name[: -len(canonical)] + word
            return name
    base = (
        req.gaz.surnames.sample_initial(req.rng, initial)
        if initial
        else req.gaz.surnames.sample(req.rng)
    )
    joiner = {"glued": "", "space": " ", "hyphen": "-"}[style]
    return f"{base}{joiner}{word}"


def generate_street(req: Request) -> str:
    """Street name (+ house number where the placeholder has or hides one)."""
    surface = req.surface.strip()
    if _NUMBER_ONLY_RE.search(req.context) and not re.search(r"[A-Za-zäöüß]{2,}", surface):
        return house_number(req)
    m = _STREET_WORD_RE.search(surface)
    if m is None:  # nothing shown, or a written-out street without a common street word
        name = req.gaz.streets.sample(req.rng)
        shows_number = bool(re.search(r"\d|…|\.\.\.", surface)) or not surface
        return f"{name} {house_number(req)}" if shows_number else name
    prefix, word, rest = surface[: m.start()], m.group("word"), surface[m.end() :]
    init = _INITIAL_RE.match(prefix)
    abbreviated = init is not None
    initial = (init.group("init") or init.group("init2")) if init else ""
    if word[0].islower():
        style = "glued"
    elif m.group("sep") == "-" or prefix.rstrip().endswith("-"):
        style = "hyphen"
    else:
        style = "space"
    name = _street_name(req, initial, word, style)
    if not abbreviated and _NUMBER_RE.search(rest):  # a written-out address: new number too
        rest = _NUMBER_RE.sub(lambda _m: house_number(req), rest, count=1)
    return f"{name} {_fill_numbers(rest, req).strip()}".strip()
