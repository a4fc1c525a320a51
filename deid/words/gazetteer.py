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
    names = set(read_lines("surnames.txt.xz")) | set(read_lines("cities.txt.xz"))
    return frozenset(names | first_names())


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
