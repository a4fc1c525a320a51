"""Reading a placeholder's surface: initials, visible words, opaque marks.

Courts write "A. G.", "U. Sch.", "E.-N.", "Z", "S …", "N.N."; a surrogate keeps what the
placeholder shows (the initials and their number) and fills in the rest. A surface made of
real words (pseudonymization) keeps its form but none of its letters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UP = "A-ZÄÖÜ"
_LOW = "a-zäöüß"
# "A.", "Sch.", a bare capital "Z" (not followed by a lowercase letter).
_INITIAL = rf"(?:[{_UP}][{_LOW}]{{0,2}}\.|[{_UP}](?![{_LOW}\w]))"
_GROUP = rf"{_INITIAL}(?:\s?-\s?{_INITIAL})*"
_TOKEN_RE = re.compile(
    rf"(?P<particle>\b(?:von|vom|van|de|zu|v\.)(?=\s))"
    rf"|(?P<nn>\bN\.\s?N\.)"
    rf"|(?P<group>{_GROUP})"
    rf"|(?P<word>[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*)"
    rf"|(?P<opaque>…|\.{{2,}}|\*+|_+)"
)
_TITLES_RE = re.compile(
    r"^(?:(?:Dr|Prof|Dipl|Ing|med|dent|vet|jur|rer|nat|pol|oec|phil|habil|h\.c|Priv\.-Doz)\."
    r"(?:-[\w]+\.)?\s*)+"
)
_OPAQUE_WORD_RE = re.compile(r"^(?:X+|XY|XYZ|NN)$")
_HOLES_RE = re.compile(r"[xX]{2,}")  # "xx.xx.2015": x-runs hide digits
_SHOWN_RE = re.compile(r"[^\W_]")


@dataclass(frozen=True)
class Part:
    """One piece of a name: ``initial`` (``letters`` per hyphen part, e.g. ("E", "N")),
    ``word`` (a written-out name), ``particle`` ("von") or ``opaque`` ("…")."""

    kind: str
    text: str
    letters: tuple[str, ...] = ()


@dataclass(frozen=True)
class NameSurface:
    titles: str  # leading academic titles, kept verbatim if a caller put them in the span
    parts: tuple[Part, ...]

    @property
    def names(self) -> tuple[Part, ...]:
        """Initials and words: the parts a surrogate name must fill."""
        return tuple(p for p in self.parts if p.kind in ("initial", "word"))

    @property
    def is_placeholder(self) -> bool:
        """True unless the surface is a written-out (real) name."""
        return not any(p.kind == "word" for p in self.parts)


def parse_name(surface: str) -> NameSurface:
    """Split a person/organization/place surface into initials, words and marks."""
    text = surface.strip()
    titles_match = _TITLES_RE.match(text)
    titles = titles_match.group(0) if titles_match else ""
    text = text[len(titles) :]
    parts: list[Part] = []
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup or "opaque"
        token = m.group(0)
        if kind == "nn" or (kind == "word" and _OPAQUE_WORD_RE.match(token)):
            parts.append(Part("opaque", token))
        elif kind == "group":
            letters = tuple(x.strip(" .") for x in token.split("-"))
            parts.append(Part("initial", token, letters))
        else:
            parts.append(Part(kind, token))
    return NameSurface(titles.strip(), tuple(parts))


def shows_nothing(surface: str) -> bool:
    """The surface shows no letter or digit: "…", "...", "xx.xx.", "***" (but "X" is an
    initial and "xx.xx.2015" shows a year)."""
    return _SHOWN_RE.search(_HOLES_RE.sub("", surface)) is None


def normalize(surface: str) -> str:
    """The key under which a document reuses a surrogate: same placeholder, same key
    ("A. G." = "A.G." = "A G", "K." = "K", "..." = "…")."""
    text = " ".join(surface.split()).replace("...", "…")
    text = re.sub(r"\s*([.\-])\s*", r"\1", text)
    text = re.sub(rf"(?<=\b[{_UP}]) (?=[{_UP}]\b)", ".", text)
    return text.rstrip(".").strip()
