"""A gold set written by hand from scratch: decisions in inline markup, one source of truth.

The rewritten sets start from a court's placeholders. A decision written from scratch (made-up
people, firms and places in the manner of a court) has none; its author marks each entity
where it stands. ``=== <id>`` starts a decision; ``[[surface|T]]`` is a span the profile
neutralizes, ``{{surface|T}}`` a keep span, ``T`` one letter of :data:`SENSITIVE` or
:data:`KEEP`. The set is scored like the others (``deid evaluate-model``), under its declared
profile (deid.evaluation.profiles.GOLD_PROFILES).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from deid.schema import (
    CASE_REFERENCE,
    CONTACT,
    COURT,
    DATE,
    ID,
    JUDGE,
    LAW,
    LOCATION,
    ORGANIZATION,
    OTHER,
    PERSON,
    PUBLIC_ENTITY,
    STREET,
    Document,
    Span,
)
from deid.sources.errors import UserError

SENSITIVE = {"P": PERSON, "O": ORGANIZATION, "L": LOCATION, "S": STREET, "D": DATE, "I": ID,
             "C": CONTACT, "X": OTHER}  # fmt: skip
KEEP = {"J": JUDGE, "G": COURT, "W": LAW, "A": CASE_REFERENCE, "E": PUBLIC_ENTITY}
_MARK = re.compile(r"\[\[(?P<s>[^\]|]+)\|(?P<sl>[A-Z])\]\]|\{\{(?P<k>[^}|]+)\|(?P<kl>[A-Z])\}\}")
_HEADER = re.compile(r"^=== (?P<id>[\w.-]+)[ \t]*$", re.MULTILINE)


class MarkupError(UserError, ValueError):
    """A decision whose markup cannot be read (an unknown type letter, an unclosed mark)."""


def parse_decision(doc_id: str, marked: str, court: str) -> Document:
    """One decision's plain text with its gold spans and keep spans."""
    out: list[str] = []
    spans: list[Span] = []
    keep: list[Span] = []
    pos = 0
    for match in _MARK.finditer(marked):
        out.append(marked[pos : match.start()])
        surface = match.group("s") or match.group("k")
        letter = match.group("sl") or match.group("kl")
        table, target = (SENSITIVE, spans) if match.group("s") else (KEEP, keep)
        if letter not in table:
            raise MarkupError(f"{doc_id}: unknown type letter {letter!r} at offset {match.start()}")
        start = sum(map(len, out))
        target.append(Span(start, start + len(surface), table[letter]))
        out.append(surface)
        pos = match.end()
    out.append(marked[pos:])
    text = "".join(out).rstrip("\n")
    if "[[" in text or "{{" in text or "]]" in text or "}}" in text:
        raise MarkupError(f"{doc_id}: a mark is not closed or has no type")
    meta = {"rewrite": "scratch", "source_hash": hashlib.sha256(text.encode()).hexdigest()[:16]}
    return Document(doc_id, text, court=court, meta=meta, spans=spans, keep=keep)


def parse_file(path: str | Path, court: str = "bavaria_scratch") -> list[Document]:
    """Every decision of a markup file, in order."""
    raw = Path(path).read_text(encoding="utf-8")
    heads = list(_HEADER.finditer(raw))
    ends = [h.start() for h in heads[1:]] + [len(raw)]
    return [parse_decision(h.group("id"), raw[h.end() + 1 : end], court) for h, end in zip(heads, ends, strict=True)]
