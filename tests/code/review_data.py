"""Real decisions for the review workbench's tests and benchmark: bundled decisions of three
courts, each with the contact block an unredacted original carries (a managing director's
name, an authorised officer's, an address, an e-mail address, a phone and an account number)
after its first lines, so the rules propose spans of several types and scores, and a name is
left for the reviewer (the officer's surname after "Frau", which no rule reads; the director's
name in apposition has been a rule's since role_name.v3).
Three are written as text files, two as DOCX, as a queue folder holds them. And a 100-page
DOCX of the longest bundled decisions, for progress and cancel."""

from __future__ import annotations

import io
from pathlib import Path

import docx

from tests.conftest import read_source

QUEUE = ("bverwg/010224U2A7.23.0", "bag/9-azr-115-23", "bfh/STRE202450071", "bag/5-azr-177-23",
         "bverwg/010324B20F14.23.0")  # fmt: skip
DIRECTOR = "Thomas Brückner"
OFFICER = "Lechner"
IBAN = "DE89 3704 0044 0532 0130 00"
CONTACT = (f"Der Geschäftsführer der Klägerin, {DIRECTOR}, wohnt in der Lindenallee 17, 80331 München. "
           f"Prokuristin der Klägerin ist Frau {OFFICER}. "
           "Die Klägerin ist erreichbar unter kanzlei.berger@beispiel-recht.de oder Telefon 089 12345678, "
           f"Konto IBAN {IBAN}.")  # fmt: skip


def with_contact(text: str, line: int = 6) -> str:
    lines = text.split("\n")
    lines.insert(min(line, len(lines)), CONTACT)
    return "\n".join(lines)


def queue_texts() -> dict[str, str]:
    """Document id → text, in queue order (the ids sort as listed)."""
    return {f"{i + 1}-{Path(rel).name}": with_contact(read_source(f"decisions/{rel}.txt.xz")) for i, rel in enumerate(QUEUE)}


LONG_PAGES = 100  # pages of 3,000 characters


def docx_bytes(text: str) -> bytes:
    """``text`` as a DOCX, one paragraph a line."""
    document = docx.Document()
    for paragraph in text.split("\n"):
        document.add_paragraph(paragraph)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def write_docx(path: Path, text: str) -> None:
    path.write_bytes(docx_bytes(text))


def long_docx() -> bytes:
    """A 100-page DOCX: the longest bundled decisions joined (``bench.review_page``)."""
    from bench.review_page import long_decision

    return docx_bytes(long_decision(LONG_PAGES)[1])


def write_queue(folder: Path) -> dict[str, str]:
    """The five decisions in ``folder``: the 2nd and 4th as DOCX, the rest as text; returns
    document id → the text the service reads from each."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = queue_texts()
    for i, (name, text) in enumerate(texts.items()):
        if i % 2:
            write_docx(folder / f"{name}.docx", text)
        else:
            (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return texts
