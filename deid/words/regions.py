"""Regions that the policy keeps, from Wiktionary's toponyms.

The policy keeps "countries, Länder, regions, big cities" (docs/anonymization-policy.md). The
countries list names states, the big-city list cities; an asylum seeker's "Dagestan" or
"Tschetschenien", a wine region's "Markgräflerland", a landscape's "Allgäu" are in neither,
and the model calls them places or even persons. Wiktionary (the ``german-nouns`` package the
lexicon reads) tags each as a toponym, but it tags towns the same way, German, Austrian and
Swiss ones too ("Kitzbühel", "Tulln"), and a town is a place of residence the policy
neutralizes. So a toponym counts only when its name is formed as a region's is: "-ien",
"-stan", "-land", "-gau"/"-gäu" ("Schlesien", "Dagestan", "Havelland", "Breisgau"); and even
then not when a German place of the gazetteer, a surname or a first name shares a form of it,
nor a declining everyday noun of the lexicon.
"""

from __future__ import annotations

import re
from functools import cache

from deid.words.gazetteer import person_and_place_names
from deid.words.lexicon import entries

# how German forms a region's name; a town is named otherwise (or is in the gazetteer)
_REGION_NAME = re.compile(r"(?:ien|stan|land|gau|gäu)$")


@cache
def regions() -> frozenset[str]:
    """Every form of a Wiktionary toponym formed as a region's name that no German place,
    surname, first name or everyday noun shares (the genitive "Dagestans" included)."""
    toponyms: list[set[str]] = []
    nouns: set[str] = set()
    for lemma, tags, forms in entries():
        if "Toponym" in tags:
            if _REGION_NAME.search(lemma) and " " not in lemma:
                toponyms.append(set(forms))
        elif tags == {"Substantiv"} and set(forms) - {lemma}:
            nouns.add(lemma)  # a noun that declines ("Stall", "Ställe"), not a product's name
    taken = person_and_place_names() | nouns
    return frozenset(
        form for forms in toponyms if not forms & taken for form in forms if form[:1].isupper()
    )


def is_region(surface: str) -> bool:
    """The whole of ``surface`` is a region the policy keeps, also with a genitive "s"
    ("Dagestans")."""
    name = " ".join(surface.split())
    return name in regions() or (name.endswith("s") and name[:-1] in regions())


# The Bavarian government districts ("Regierungsbezirke"), which name a region as a Land does
# and an authority after them ("des Bezirks Oberbayern", "die Regierung von Niederbayern"): no
# town is called so, and Wiktionary forms none of them as a region. The other Länder name
# theirs after their seat cities (the big-city list).
GOVERNMENT_DISTRICTS: frozenset[str] = frozenset(
    ("Oberbayern", "Niederbayern", "Oberpfalz", "Oberfranken", "Mittelfranken", "Unterfranken", "Schwaben")
)


def is_government_district(surface: str) -> bool:
    """A Bavarian government district, also with a genitive "s" ("Oberbayerns")."""
    name = " ".join(surface.split())
    return name in GOVERNMENT_DISTRICTS or name.removesuffix("s") in GOVERNMENT_DISTRICTS
