"""Document formats: one registry of readers and writers for the CLI, the flows and the service.

A reader turns a file into a :class:`~deid.schema.Document` whose ``text`` is what the
pipeline analyzes (spans are offsets into it, as everywhere in deid) and whose ``meta``
says the format (``meta["format"]``; absent for plain text) and what else the file told
(encoding, page offsets, the court's metadata). A writer takes the original file and the
replacements of spans of that text and returns the anonymized file in the same format,
everything but the sensitive characters kept. Readers are deterministic, so the writer
needs nothing but the original bytes: no layout travels with the document.

=========== ================================ =================================================
format      suffixes                         writer output
=========== ================================ =================================================
text        ``.txt`` (``.txt.xz``)           UTF-8 text (BOM kept)
jsonl       ``.jsonl`` (``.jsonl.xz``)       many documents: read by ``deid.sources.inputs.iter_input``;
                                             no file writer (the CLI writes records)
docx        ``.docx``                        DOCX, only the runs of sensitive spans changed
pdf         ``.pdf``                         PDF rebuilt from page images with black boxes
                                             over the spans and the anonymized text as an
                                             invisible text layer (nothing redacted stays
                                             extractable)
html        ``.html``, ``.htm``              HTML, markup kept, text of spans replaced
court-xml   ``.zip``, ``.xml``               the rechtsprechung-im-internet.de decision XML
                                             (in its zip), text of spans replaced
=========== ================================ =================================================

Use::

    from deid.sources import formats
    from deid.anonymizer.writer import anonymize

    data = formats.load(path)                       # bytes (.xz unpacked, size checked)
    doc = formats.read(data, name="urteil.docx")    # Document, or deid.sources.io.InputError
    spans = pipeline.analyze(doc.text)              # or a reviewer's spans
    out = anonymize(data, doc, spans, operator="label")
    out.data, out.text, formats.format_of(doc).output_suffix, format_of(doc).media_type

Readers import nothing above ``deid.sources.io`` (the corpus stages read through them); the writer
(:mod:`deid.anonymizer.writer`) needs the operators, so it is a module of its own.

:func:`detect` picks the format by the file name's suffix, else by the content.
Everything unreadable raises :class:`deid.sources.io.InputError` whose message is
``"<name>: <reason>"`` and never quotes content: an encrypted PDF or DOCX, a broken zip,
malformed XML, a PDF without a text layer. Batch readers (``deid.sources.inputs.iter_input``) turn it
into a quarantine row. Zip members and XML are read with limits (no zip bombs, no DTDs or
external entities).
"""

from __future__ import annotations

import lzma
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deid.schema import Document, Span
from deid.sources.formats.base import DocumentFormat, Parsed, Replacement
from deid.sources.formats.court_xml import COURT_XML
from deid.sources.formats.docx import DOCX
from deid.sources.formats.html import HTML
from deid.sources.formats.pdf import PDF
from deid.sources.formats.text import TEXT
from deid.sources.io import DEFAULT_MAX_BYTES, InputError


class JsonlFormat(DocumentFormat):
    """A JSONL file holds many documents (the data contract): ``deid.sources.inputs.iter_input`` reads
    its records one by one; there is no single-document reader or file writer."""

    name = "jsonl"
    suffixes = (".jsonl",)
    media_type = "application/jsonl"
    writes = False

    def parse(self, data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Parsed:
        raise InputError(f"{name}: a JSONL file holds several documents (read it with deid.sources.inputs.iter_input)")


JSONL = JsonlFormat()

# sniffed in this order when a file's name says nothing (a DOCX is a zip with one XML too)
FORMATS: dict[str, DocumentFormat] = {fmt.name: fmt for fmt in (TEXT, JSONL, DOCX, COURT_XML, HTML, PDF)}
COMPRESSED = ".xz"  # text and JSONL may come xz-compressed


def get(name: str) -> DocumentFormat:
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown document format {name!r}: one of {', '.join(sorted(FORMATS))}") from None


def format_of(doc: Document) -> DocumentFormat:
    """The format a document was read from (plain text when its meta does not say)."""
    return get(doc.meta.get("format", TEXT.name))


def by_suffix(name: str) -> DocumentFormat | None:
    """The format a file name's suffix names (``.txt.xz`` is text), or None."""
    lower = name.lower().removesuffix(COMPRESSED)
    return next((f for f in FORMATS.values() if lower.endswith(f.suffixes)), None)


def detect(name: str, data: bytes) -> DocumentFormat:
    """The format of a file: by its name's suffix, else by its content, else plain text
    (whose reader rejects binary content)."""
    fmt = by_suffix(name)
    if fmt is None:
        fmt = next((f for f in FORMATS.values() if f.sniff(data)), TEXT)
    return fmt


def strip_suffix(name: str) -> str:
    """``name`` without the suffix of its format (and ``.xz``): a document id."""
    fmt = by_suffix(name)
    stem = name.removesuffix(COMPRESSED) if name.lower().endswith(COMPRESSED) else name
    if fmt is not None:
        suffix = next(s for s in fmt.suffixes if stem.lower().endswith(s))
        stem = stem[: -len(suffix)]
    return stem


def load(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """A file's bytes (``.xz`` unpacked), refused over ``max_bytes`` before reading."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(f"{path}: {size} bytes exceeds the limit of {max_bytes} bytes")
    if path.name.lower().endswith(COMPRESSED):
        with lzma.open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InputError(f"{path}: unpacks beyond the limit of {max_bytes} bytes")
        return data
    return path.read_bytes()


def read(
    data: bytes, *, name: str, doc_id: str | None = None, fmt: str | DocumentFormat | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES, source: str | None = None,
) -> Document:  # fmt: skip
    """One document from a file's bytes; ``name`` (the file name) picks the format unless
    ``fmt`` does, and is the id unless ``doc_id`` is given. :class:`InputError` when it
    cannot be read."""
    if isinstance(fmt, str):
        fmt = get(fmt)
    fmt = fmt or detect(name, data)
    if len(data) > max_bytes:
        raise InputError(f"{name}: {len(data)} bytes exceeds the limit of {max_bytes} bytes")
    parsed = fmt.parse(data, name, max_bytes)
    return Document(id=doc_id or strip_suffix(Path(name).name), text=parsed.text, source=source, meta=parsed.meta)


def read_path(path: str | Path, doc_id: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    """One document from a file on disk (what ``deid.sources.inputs.iter_input`` calls per file)."""
    path = Path(path)
    return read(load(path, max_bytes=max_bytes), name=str(path), doc_id=doc_id, max_bytes=max_bytes,
                source=str(path))  # fmt: skip


__all__ = [
    "FORMATS",
    "DocumentFormat",
    "Parsed",
    "Replacement",
    "by_suffix",
    "detect",
    "format_of",
    "get",
    "load",
    "read",
    "read_path",
    "strip_suffix",
]
