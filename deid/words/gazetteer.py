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
    names |= {line.split("\t")[0] for line in read_lines("first_names.tsv.xz")}
    return frozenset(names)
