"""Person surrogates: gazetteer names that keep the placeholder's form, initials and the
gender its context implies."""

from __future__ import annotations

from deid.rewrite.surrogates.gazetteers import GENDERS, Sampler
from deid.rewrite.surrogates.gender import after_salutation, infer_gender
from deid.rewrite.surrogates.request import Request
from deid.rewrite.surrogates.surface import Part, parse_name

_PARTICLES = {"v.": "von"}


def _draw(sampler: Sampler, req: Request, letters: tuple[str, ...], parts: int) -> str:
    """A name of ``parts`` hyphenated pieces, piece i starting with ``letters[i]``."""
    if parts > 1:
        sampler = sampler.unhyphenated
    pieces = []
    for i in range(parts):
        prefix = letters[i] if i < len(letters) else ""
        pieces.append(
            sampler.sample_initial(req.rng, prefix) if prefix else sampler.sample(req.rng)
        )
    return "-".join(pieces)


def _hyphen_parts(part: Part | None) -> tuple[tuple[str, ...], int]:
    """(initial letters, number of hyphenated pieces) a name part asks for."""
    if part is None or part.kind == "opaque":
        return (), 1
    if part.kind == "initial":
        return part.letters, len(part.letters)
    return (), part.text.count("-") + 1  # a written-out name: keep the form, not the letters


def _surname(req: Request, part: Part | None) -> str:
    """The surname for ``part``; reused within a document for the same initials or name."""
    letters, pieces = _hyphen_parts(part)
    key = None
    if part is not None and part.kind in ("initial", "word"):
        raw = "-".join(letters) if part.kind == "initial" else part.text
        key = f"{part.kind}:{raw.casefold()}"
    memory = req.memory
    if memory is not None and key is not None and key in memory.surnames:
        return memory.surnames[key]
    shown = {w.casefold() for w in req.surface.replace("-", " ").split()}
    name = _draw(req.gaz.surnames, req, letters, pieces)
    for _ in range(8):  # a written-out surname must not come back (pseudonymization)
        if not shown.intersection(name.casefold().split("-")):
            break
        name = _draw(req.gaz.surnames, req, letters, pieces)
    if memory is not None and key is not None:
        memory.surnames[key] = name
    return name


def _gender(req: Request, words: list[Part]) -> str:
    gender = infer_gender(req.context, req.after)
    if gender is None and words:
        gender = req.gaz.first_name_genders.get(words[0].text.split("-")[0])
    return gender or req.rng.choice(GENDERS)


def generate_person(req: Request) -> str:
    """ "K." after "Herr" -> a K-surname; "A. G." -> "Arnold Griesmann"; "…" -> a full
    name, or a surname right after a salutation."""
    surface = parse_name(req.surface)
    names = list(surface.names)
    if not names:  # nothing visible: choose the form from the context
        slots: list[Part | None] = [None] if after_salutation(req.context) else [None, None]
    else:
        slots = list(names)
    words = [p for p in names if p.kind == "word"][:1] if len(names) > 1 else []
    first_names = req.gaz.first_names[_gender(req, words)] if len(slots) > 1 else None
    out: list[str] = [surface.titles] if surface.titles else []
    filled = 0
    for part in surface.parts if names else slots:
        if part is not None and part.kind == "particle":
            out.append(_PARTICLES.get(part.text, part.text))
            continue
        if part is not None and part.kind == "opaque":
            continue
        filled += 1
        if filled == len(slots):
            out.append(_surname(req, part))
        else:
            assert first_names is not None
            letters, pieces = _hyphen_parts(part)
            out.append(_draw(first_names, req, letters, pieces))
    return " ".join(out)
