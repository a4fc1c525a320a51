"""Fixed phrases whose noun is also a place or a surname: "sich zur Wehr setzen", "zu Buche
schlagen", "außer Acht lassen", "im Stich lassen", "vor Ort".

The model reads "Wehr" (a town in Baden) as a place in "sich gegen den Abwehranspruch zur Wehr
setzen" (the Bavarian dev half twice, the LER dev half once). After its preposition the noun of
such a phrase names nothing: no name stands between "zur" and "Wehr setzen".
"""

from __future__ import annotations

import re

# each noun and the prepositions it follows in the phrase, as decisions print them (the noun
# capitalized; a compound or an inflected noun is another word: "zur Wehrpflicht", "vor Ortsterminen")
_PHRASES: dict[str, tuple[str, ...]] = {
    "Wehr": ("zur",), "Buche": ("zu",), "Acht": ("außer",), "Stich": ("im",), "Rate": ("zu",),
    "Kauf": ("in",), "Fuß": ("zu",), "Ort": ("vor",), "Tage": ("zu",), "Lasten": ("zu",),
    "Gunsten": ("zu",), "Gewicht": ("ins",), "Felde": ("zu",), "Schaden": ("zu",), "Grunde": ("zu",),
    "Grund": ("auf",), "Gang": ("in",), "Zuge": ("im", "zum"),
}  # fmt: skip
IDIOM = re.compile(
    r"(?<![\wäöüß\-])(?:"
    + "|".join(rf"(?:{'|'.join(preps)})[ \u00a0]{noun}" for noun, preps in _PHRASES.items())
    + r")(?![\wäöüß\-])"
)
_WINDOW = 8  # the longest preposition and its space ("außer ")


def in_idiom(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is the noun of a fixed phrase (the module's docstring)."""
    if text[start:end] not in _PHRASES:
        return False
    window = IDIOM.finditer(text, max(0, start - _WINDOW), min(len(text), end + 1))
    return any(m.end() == end for m in window)
