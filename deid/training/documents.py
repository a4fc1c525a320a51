"""Training documents as the data stages see them: a corpus document with its placeholders
and keep spans, and the refusal of reserved evaluation documents.

Kept apart from ``deid.training.job`` (torch, transformers, the anonymize policy) so that the
``validate`` and ``dataset`` stages, which prepare and check these documents, do not depend
on the model stack: a change to the policy or the model must not re-run them under DVC.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from deid.rewrite.placeholders import detect_placeholders
from deid.schema import Document, Span, spans_from_dicts
from deid.sources.corpus import is_reserved
from deid.sources.io import read_jsonl


class ReservedDataError(RuntimeError):
    """A reserved evaluation document reached training: the run must not go on."""


@dataclass(frozen=True)
class SourceDocument:
    """A training document: its text, its typed placeholder spans and, where an annotation
    says which entities stay in clear text (LER), those as keep spans."""

    id: str
    text: str
    placeholders: tuple[Span, ...]
    keep: tuple[Span, ...] = ()
    keep_known: bool = False


def load_placeholders(path: str | Path | None) -> dict[str, list]:
    """The ``placeholders`` stage's spans by document id (none without a path)."""
    if not path:
        return {}
    return {str(r["id"]): spans_from_dicts(r.get("placeholders")) for r in read_jsonl(path)}


def source_documents(docs: Iterable[Document], placeholders: dict[str, list]) -> list[SourceDocument]:
    """Training documents with their placeholders (precomputed, or detected now) and, for
    LER documents, the entities that stay in clear text (judges, courts, laws …) as keep
    spans with their keep type, or their role (a lawyer, an authority's seat)."""
    from deid.rewrite.gold.keep_labels import ler_keep_spans

    out: list[SourceDocument] = []
    for doc in docs:
        if is_reserved(doc):
            raise ReservedDataError(f"reserved evaluation document {doc.id} in training input")
        spans = placeholders.get(doc.id)
        if spans is None:
            spans = detect_placeholders(doc.text)
        annotated = doc.meta.get("corpus") == "ler"
        keep = tuple(ler_keep_spans(doc, spans)) if annotated else ()
        out.append(SourceDocument(doc.id, doc.text, tuple(spans), keep, annotated))
    return out
