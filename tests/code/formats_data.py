"""Real decisions for the format tests: a bundled BVerwG decision whose placeholders for
the witnesses ("Zeugin S.", "Zeugin N.") are replaced by full names, as the court's
unredacted original would have them, plus an account number for the rule recognizers."""

from __future__ import annotations

import re

from deid.schema import Span
from tests.conftest import read_source

DECISION = "decisions/bverwg/010224U2A7.23.0.txt.xz"
NAMES = {"Zeugin S.": "Sabine Kowalczyk", "Zeugin N.": "Nadja Pietrowski"}
IBAN = "DE89 3704 0044 0532 0130 00"


def decision() -> str:
    """The decision with the witnesses' names and, after its fourth paragraph, a sentence
    with an account number."""
    text = read_source(DECISION)
    for placeholder, name in NAMES.items():
        text = text.replace(placeholder, f"{placeholder.split()[0]} {name}")
    lines = text.split("\n")
    lines.insert(30, f"Die Zahlung ging auf das Konto der Zeugin, IBAN {IBAN}.")
    return "\n".join(lines)


def paragraphs(text: str | None = None) -> list[str]:
    return [line for line in (text if text is not None else decision()).split("\n") if line.strip()]


def name_spans(text: str) -> list[Span]:
    """Every mention of a planted name (and the account number) in ``text``, also one
    broken over two lines."""
    wanted = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in [*NAMES.values(), IBAN])
    return [Span(m.start(), m.end(), "IBAN" if m.group()[:2] == IBAN[:2] else "PERSON")
            for m in re.finditer(wanted, text)]  # fmt: skip


def surnames() -> list[str]:
    return [name.split()[-1] for name in NAMES.values()]
