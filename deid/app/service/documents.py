"""Uploaded files in, anonymized files out, in the format they came in: the service's seam to
the document-format registry :mod:`deid.sources.formats` (plain text, DOCX, HTML, the courts' XML
zip, and whatever else it registers).

The registry is handed a neutral file name (``upload.docx``), never the user's: a
decision's file name often holds a party's name, and the registry's error messages name the
file. The document id that keys label numbers and pseudonyms is a prefix of the text's
sha256, so a preview of the text and the downloaded file agree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

from deid.anonymizer.operators import anonymize_text
from deid.anonymizer.writer import anonymize as anonymize_file
from deid.schema import Document, Span
from deid.sources import formats
from deid.sources.errors import UserError
from deid.sources.formats.base import DocumentFormat

NEUTRAL_NAME = "upload"


class UnsupportedFormat(UserError):
    """A file whose suffix names no format the registry reads."""


@dataclass(frozen=True)
class Upload:
    """A read upload: the document (its ``text`` is what spans index) and the original bytes
    its format's writer needs."""

    data: bytes
    doc: Document
    fmt: DocumentFormat


@dataclass(frozen=True)
class Rendered:
    """An anonymized document: the file (in the upload's format, or UTF-8 text), its plain
    text and the neutralized spans at their offsets in that text."""

    data: bytes
    media_type: str
    filename: str
    text: str
    spans: list[Span]


def doc_id(text: str) -> str:
    from deid.sources.reviews.record import text_sha256

    return text_sha256(text)[:16]


def read_upload(name: str | None, data: bytes, *, max_bytes: int) -> Upload:
    """The document in an uploaded file; :class:`deid.sources.io.InputError` when it cannot be read
    (empty, binary, broken, encrypted), :class:`UnsupportedFormat` for an unknown suffix."""
    path = PurePath(name or "")
    suffix = "".join(path.suffixes[-2:] if path.suffix.lower() == formats.COMPRESSED else path.suffixes[-1:]).lower()
    neutral = NEUTRAL_NAME + suffix
    if suffix and formats.by_suffix(neutral) is None:
        known = sorted({s for f in formats.FORMATS.values() if f.writes for s in f.suffixes})
        raise UnsupportedFormat(f"files of type {suffix!r} are not supported: use one of {', '.join(known)}")
    doc = formats.read(data, name=neutral, max_bytes=max_bytes)
    return Upload(data, replace(doc, id=doc_id(doc.text)), formats.format_of(doc))


def render(
    upload: Upload | None, text: str, spans: list[Span], operator: str, *, secret: bytes | None, max_bytes: int
) -> Rendered:
    """``spans`` (offsets into ``text``) neutralized by ``operator``: in the upload's format
    when there is an upload, else as UTF-8 text."""
    if upload is None:
        result = anonymize_text(text, spans, operator, doc_id=doc_id(text), secret=secret)
        return Rendered(result.text.encode("utf-8"), "text/plain; charset=utf-8", "anonymized.txt", result.text,
                        result.spans)  # fmt: skip
    out = anonymize_file(upload.data, upload.doc, spans, operator, secret=secret, max_bytes=max_bytes)
    return Rendered(out.data, out.format.media_type, f"anonymized{out.format.output_suffix}", out.text, out.spans)


def describe(upload: Upload) -> dict[str, Any]:
    """What a response says about an upload: its format, encoding and sizes (no name, no
    metadata: a court XML's head holds file numbers and parties)."""
    return {"format": upload.fmt.name, "encoding": upload.doc.meta.get("encoding"), "bytes": len(upload.data),
            "characters": len(upload.doc.text)}  # fmt: skip
