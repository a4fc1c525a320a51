"""Surrogates for OTHER: anonymized names that fit no coarse type (a ship, a product, a
farm). A surname or a place name with the placeholder's initial reads plausibly in most of
these slots."""

from __future__ import annotations

from deid.rewrite.surrogates.request import Request
from deid.rewrite.surrogates.surface import parse_name


def generate_other(req: Request) -> str:
    initials = [p.letters[0] for p in parse_name(req.surface).parts if p.kind == "initial"]
    letter = initials[0] if initials else ""
    sampler = req.gaz.surnames if req.rng.random() < 0.5 else req.gaz.simple_cities
    return sampler.sample_initial(req.rng, letter, minimum=5) if letter else sampler.sample(req.rng)
