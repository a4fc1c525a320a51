"""Readers of the bundled gazetteer files (surnames, first names, cities, streets, countries).

Plain readers only: what the word tests need to know a name when they see one. Cleaning,
pooling and weighted sampling for surrogates build on these in
:mod:`deid.rewrite.surrogates.gazetteers`.
"""

from __future__ import annotations

import lzma
from functools import cache
from importlib import resources


def read_lines(name: str) -> list[str]:
    """Non-empty stripped lines of a bundled gazetteer file."""
    path = resources.files("deid") / "resources" / "gazetteers" / name
    with path.open("rb") as raw, lzma.open(raw, "rt", encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


@cache
def person_and_place_names() -> frozenset[str]:
    """Every surname, first name and city of the raw lists (all pools, uncleaned): what a
    list of ordinary words must leave out."""
    return surnames() | cities() | first_names()


@cache
def surnames() -> frozenset[str]:
    """Every surname of the raw list (surnames.txt.xz, GermaNER)."""
    return frozenset(read_lines("surnames.txt.xz"))


@cache
def cities() -> frozenset[str]:
    """Every town of the raw list (cities.txt.xz, OpenStreetMap)."""
    return frozenset(read_lines("cities.txt.xz"))


@cache
def countries() -> frozenset[str]:
    """Every country's short and official German name (countries.txt.xz)."""
    return frozenset(read_lines("countries.txt.xz"))


SURNAME_HEAD_MIN = 10  # surnames of the list that end in a head for it to make surnames


@cache
def surname_heads() -> frozenset[str]:
    """Surnames of the list (lower case, 4 letters or more) that end at least
    :data:`SURNAME_HEAD_MIN` longer surnames of it ("huber": "Oberhuber", "Niederhuber" …;
    "moser", "hammer", "thaler"): a word ending in one is built like a surname, however
    ordinary its parts ("Trosthuber" = "Trost" + "Huber")."""
    lowered = {name.lower() for name in surnames() if name.isalpha()}
    ends: dict[str, int] = {}
    for name in lowered:
        for cut in range(3, len(name) - 3):
            ends[name[cut:]] = ends.get(name[cut:], 0) + 1
    return frozenset(head for head, n in ends.items() if n >= SURNAME_HEAD_MIN and head in lowered)


@cache
def _longest_surname_head() -> int:
    return max(map(len, surname_heads()), default=0)


def ends_in_surname_head(word: str) -> bool:
    """Whether ``word`` is a longer word ending in one of :func:`surname_heads` (only its last
    characters are looked at, however long the word)."""
    lower = word.lower()
    heads = surname_heads()
    first = max(3, len(lower) - _longest_surname_head())
    return any(lower[cut:] in heads for cut in range(first, len(lower) - 3))


@cache
def first_names() -> frozenset[str]:
    """Every first name of the raw list (first_names.tsv.xz: name, gender, count)."""
    return frozenset(line.split("\t")[0] for line in read_lines("first_names.tsv.xz"))


@cache
def big_cities() -> frozenset[str]:
    """The policy's big cities (``deid/resources/big_cities.txt``: the seats of Landgerichte
    and Oberlandesgerichte and the cities of at least 100,000 inhabitants, sources named
    there), each in its full and its short form ("Frankfurt am Main", "Frankfurt")."""
    path = resources.files("deid") / "resources" / "big_cities.txt"
    names: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            names.update(part.strip() for part in line.split("|") if part.strip())
    return frozenset(names)


def is_big_city(name: str) -> bool:
    """A big city's name, also inflected with a genitive "s" or as "Landgericht München I"'s
    "München I" ("Münchens", "Frankfurt a.M." are not normalized further)."""
    name = " ".join(name.split())
    cities = big_cities()
    return name in cities or name.removesuffix("s") in cities or name.rsplit(" ", 1)[0] in cities
