"""Place surrogates: cities with the placeholder's initials ("Landratsamt O." -> "Landratsamt
Oberkirch", "Universität E.-N." -> a hyphenated pair of E- and N-places)."""

from __future__ import annotations

from deid.rewrite.surrogates.request import Request
from deid.rewrite.surrogates.surface import parse_name


def generate_location(req: Request) -> str:
    """A city; initials kept, hyphenated groups become hyphenated pairs, and "L.er"
    (adjective) gets a one-word city so the suffix attaches."""
    surface = parse_name(req.surface)
    groups = [p.letters for p in surface.parts if p.kind == "initial"]
    if not groups:
        groups = [("",) * (p.text.count("-") + 1) for p in surface.parts if p.kind == "word"][:1]
    if not groups:
        groups = [("",)]
    letters = [letter for group in groups for letter in group]
    adjective = bool(req.after and req.after[:2] == "er")
    sampler = (
        req.gaz.simple_cities if len(letters) > 1 or adjective else req.gaz.unhyphenated_cities
    )
    pieces = [
        sampler.sample_initial(req.rng, letter, minimum=5) if letter else sampler.sample(req.rng)
        for letter in letters
    ]
    return "-".join(pieces)
