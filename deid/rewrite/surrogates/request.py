"""What a surrogate generator gets: the placeholder, its surroundings and the document's
memory, bundled so every generator has the same signature."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from deid.rewrite.surrogates.gazetteers import Gazetteers


@dataclass
class Memory:
    """What earlier surrogates of a document imply for later ones.

    ``surnames`` maps a surname key (the initials "g", or a real surname "müller") to the
    surname chosen, so "Herr A. G." … "Herr G." become "Arnold Griesmann" … "Griesmann".
    """

    surnames: dict[str, str] = field(default_factory=dict)


@dataclass
class Request:
    """One surrogate to generate.

    ``surface`` is the placeholder text (or the real entity when pseudonymizing),
    ``context`` the text just before it, ``after`` the text just after it (``None`` when
    the caller does not know it).
    """

    label: str
    surface: str
    context: str
    after: str | None
    rng: Random
    gaz: Gazetteers
    memory: Memory | None = None
