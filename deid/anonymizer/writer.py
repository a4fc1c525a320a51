"""Writing an anonymized document back in the format it was read from.

Apart from the readers (``deid.sources.formats``) because it needs the operators: reading a corpus
must not depend on how spans are neutralized.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deid.anonymizer.operators import anonymize_text
from deid.schema import Document, Span, spans_from_dicts
from deid.sources.formats import DocumentFormat, format_of, load
from deid.sources.io import (
    DEFAULT_MAX_BYTES,
    InputError,
    output_path,
    write_bytes_atomic,
    write_text_atomic,
)


@dataclass(frozen=True)
class AnonymizedFile:
    """The anonymized file (``data``, in the document's format), its plain text as the
    operators made it (``text``) and the neutralized spans at their offsets in ``text``."""

    data: bytes
    text: str
    spans: list[Span]
    format: DocumentFormat


def anonymize(
    data: bytes, doc: Document, spans: Iterable[Span], operator: str = "label", *,
    secret: bytes | None = None, params: Mapping[str, Any] | None = None,
    per_label: Mapping[str, str] | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
) -> AnonymizedFile:  # fmt: skip
    """Neutralize ``spans`` (offsets into ``doc.text``) with ``operator`` (the operators'
    engine: overlaps merged, one replacement per span) and write the result in the format
    ``doc`` was read from. ``data`` must be the file ``doc`` was read from: a file that no
    longer gives ``doc.text`` is refused (InputError)."""
    fmt = format_of(doc)
    name = doc.source or doc.id
    if not fmt.writes:
        raise InputError(f"{name}: format {fmt.name} has no file writer")
    if fmt.parse(data, name, max_bytes).text != doc.text:
        raise InputError(f"{name}: the file no longer gives the text that was analyzed")
    result = anonymize_text(doc.text, spans, operator, doc_id=doc.id, secret=secret, params=params,
                            per_label=per_label)  # fmt: skip
    return AnonymizedFile(fmt.write(data, result.replacements(), max_bytes), result.text, result.spans, fmt)


def write_document(
    folder: str | Path, doc: Document, record: Mapping[str, Any], operator: str, *,
    secret: bytes | None = None, plain_text: bool = True, data: bytes | None = None,
) -> Path | None:  # fmt: skip
    """``folder/<id><suffix>``: a document read from a file comes back in that file's format
    (the runs of a DOCX, the redacted pages of a PDF ...), neutralized like ``record`` (the
    pipeline's result for ``doc``); ``data``: that file's bytes (default: read from
    ``doc.source``). A plain-text or JSONL document is written as UTF-8 text when
    ``plain_text`` (the batch flow keeps those in its results file only: None). The CLI and
    the anonymize flow both write through here."""
    fmt = format_of(doc)
    if not fmt.writes or fmt.name == "text" or doc.source is None:
        if not plain_text:
            return None
        path = output_path(folder, doc.id, ".txt")
        write_text_atomic(path, record["text"])
        return path
    data = load(doc.source) if data is None else data
    result = anonymize(data, doc, spans_from_dicts(record["spans"]), operator, secret=secret)
    path = output_path(folder, doc.id, fmt.output_suffix)
    write_bytes_atomic(path, result.data)
    return path
