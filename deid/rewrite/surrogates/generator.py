"""The entry point: one surrogate for one labelled placeholder."""

from __future__ import annotations

import re
from random import Random

from deid.rewrite.surrogates.gazetteers import Gazetteers, gazetteers
from deid.rewrite.surrogates.registry import GENERATORS, generator_name
from deid.rewrite.surrogates.request import Memory, Request
from deid.schema import LOCATION, PERSON, coarse_label

MAX_TRIES = 16
_WORD_RE = re.compile(r"[^\W\d_]{3,}")


def leaks(label: str, surface: str, surrogate: str) -> bool:
    """The surrogate repeats the surface, or (names, places) one of its words: a real
    "Hans Müller" must not become "Hans Griesmann"."""
    if surrogate.strip().casefold() == surface.strip().casefold():
        return True
    if coarse_label(label) not in (PERSON, LOCATION):
        return False
    shown = {w.casefold() for w in _WORD_RE.findall(surface)}
    return any(w.casefold() in shown for w in _WORD_RE.findall(surrogate))


class SurrogateGenerator:
    """Type-faithful German surrogates from the gazetteers of one pool.

    ``pool="train"`` for training-time replacement, ``"eval"`` for rewritten test sets (the
    two never share an entry), ``"all"`` for production pseudonymization. ``source``
    replaces the pool's gazetteers by other material with the same samplers (the novel
    names of ``deid.rewrite.surrogates.novel``); ``pool`` then becomes the source's name. Without
    an explicit ``rng`` draws come from one generator seeded with ``seed``.
    """

    def __init__(self, seed: int = 0, pool: str = "all", source: Gazetteers | None = None) -> None:
        if source is None:
            gazetteers(pool)  # validates the pool name; loads nothing yet
        self.seed = seed
        self.pool = pool if source is None else source.pool
        self._source = source
        self._rng = Random(seed)

    @property
    def gazetteers(self) -> Gazetteers:
        """The source, else the process-wide cached gazetteers of the pool (not pickled with
        the generator, so data-loader workers can receive a generator and load lazily)."""
        return self._source if self._source is not None else gazetteers(self.pool)

    def generate(
        self,
        label: str,
        surface: str = "",
        context: str = "",
        rng: Random | None = None,
        *,
        after: str | None = None,
        memory: Memory | None = None,
    ) -> str:
        """A surrogate for the ``label`` placeholder ``surface`` that follows ``context``
        (and precedes ``after`` where known); never equal to the surface."""
        name = generator_name(label)
        request = Request(label, surface, context, after, rng or self._rng, self.gazetteers, memory)
        produce = GENERATORS[name]
        out = produce(request)
        for _ in range(MAX_TRIES):
            if out and not leaks(label, surface, out):
                break
            out = produce(request)
        return out
