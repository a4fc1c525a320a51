"""Regions and places abroad that the policy keeps, from Wiktionary's toponyms.

The policy keeps "countries, Länder, regions, big cities" (docs/anonymization-policy.md). The
countries list names states, the big-city list cities; an asylum seeker's "Dagestan",
"Tschetschenien" or "Punjab", a wine region's "Markgräflerland", a landscape's "Allgäu" are
in neither, and the model calls them places or even persons. Wiktionary (the ``german-nouns``
package the lexicon reads) tags every such name as a toponym. What it also tags are German
towns, and a town is a place of residence the policy neutralizes: every name of the German
places gazetteer (OpenStreetMap's cities, towns and villages) is left out, and so is every
name that is also a surname or first name ("Krim", "Lincoln"), which a person may carry, or
an everyday noun of the lexicon ("Stall", also an Austrian village; a noun that declines, so
not "Dagestan", which Wiktionary also lists as a carpet).
"""

from __future__ import annotations

import csv
from functools import cache
from importlib import resources

from deid.words.gazetteer import person_and_place_names


@cache
def regions() -> frozenset[str]:
    """Every form of a Wiktionary toponym that no German place, surname or first name shares
    (the genitive "Dagestans" included)."""
    toponyms: list[set[str]] = []
    nouns: set[str] = set()
    with resources.files("german_nouns").joinpath("nouns.csv").open(encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        first_form = header.index("nominativ singular")
        for row in rows:
            forms = {row[0], *(form for form in row[first_form:] if form)}
            tags = row[1].split(",")
            if "Toponym" in tags:
                toponyms.append(forms)
            elif tags == ["Substantiv"] and forms - {row[0]}:
                nouns.add(row[0])  # a noun that declines ("Stall", "Ställe"), not a product's name
    taken = person_and_place_names() | nouns
    return frozenset(
        form for forms in toponyms if not forms & taken for form in forms if form[:1].isupper()
    )


def is_region(surface: str) -> bool:
    """The whole of ``surface`` is a region or a place abroad the policy keeps, also with a
    genitive "s" ("Dagestans")."""
    name = " ".join(surface.split())
    return name in regions() or (name.endswith("s") and name[:-1] in regions())
