"""The tables the data checks hand to Great Expectations: ids, numbers and labels only.

GX Data Docs print sample values of failing columns, so no column may ever hold document
text, a span surface or anything derived from it that could be read back (no hashes of short
strings either). Each builder returns one pandas row per document or per gold set.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from deid.schema import KEEP_LABELS, LABELS, REVIEWER, ROLE_LABELS, Document, Span, spans_from_dicts
from deid.sources.corpus import SPLITS, is_reserved
from deid.sources.elements import Confusion
from deid.sources.io import read_documents, read_jsonl

if TYPE_CHECKING:
    from deid.sources.reviews.dataset import PreparedReviews, ReservedIndex

Detector = Callable[[str], list[Span]]
Placeholders = Mapping[str, list[Span]]
PlaceholderSource = str | Path | Placeholders | None
TRAINING_SPLITS: tuple[str, ...] = ("train", "validation")
_ELEMENT = re.compile(r"\S+")  # deid.sources.elements' unit


def load_splits(
    corpus_dir: str | Path, splits: Iterable[str] = SPLITS
) -> dict[str, list[Document]]:
    """Documents of each split file ``<corpus_dir>/<split>.jsonl``; a missing file is an
    error (a check on a half-built corpus would pass for the wrong reason)."""
    corpus_dir = Path(corpus_dir)
    out: dict[str, list[Document]] = {}
    for name in splits:
        path = corpus_dir / f"{name}.jsonl"
        if not path.exists():
            raise FileNotFoundError(f"missing split file {path}; run 'deid corpus build' first")
        out[name] = read_documents(path)
    return out


def resolve_placeholders(source: PlaceholderSource) -> dict[str, list[Span]]:
    """Precomputed placeholders (``deid placeholders`` output or a mapping) by document id;
    ``None`` gives an empty mapping, so every document is detected on the fly."""
    if source is None:
        return {}
    if isinstance(source, (str, Path)):
        return {str(r["id"]): spans_from_dicts(r.get("placeholders")) for r in read_jsonl(source)}
    return dict(source)


def _spans(doc: Document, placeholders: Placeholders, detect: Detector | None) -> list[Span]:
    spans = placeholders.get(doc.id)
    if spans is None:
        if detect is None:
            from deid.rewrite.placeholders import detect_placeholders as detect
        spans = detect(doc.text)
    return list(spans)


def element_counts(text: str, spans: Iterable[Span]) -> tuple[int, int]:
    """(elements, placeholder elements) with the units of ``deid.sources.elements`` (``\\S+`` runs;
    an element counts once if any non-empty span overlaps it), without building an element
    list: the corpus has two million elements and the checks run often."""
    covered = 0  # end of the last element counted
    marked = 0
    for span in sorted(spans):
        if span.end <= span.start or span.end <= covered:
            continue
        lo = max(span.start, covered)
        while lo > covered and not text[lo].isspace() and not text[lo - 1].isspace():
            lo -= 1  # back to the start of the element the span begins in
        last = None
        for match in _ELEMENT.finditer(text, lo, span.end):
            marked += 1
            last = match.end()
        if last is not None:
            covered = last
            while covered < len(text) and not text[covered].isspace():
                covered += 1  # finditer stopped at span.end: the element runs on
    return len(text.split()), marked


def _encoding(doc: Document) -> str | None:
    """LER is rebuilt from UTF-8 CoNLL files (read strictly), raw decisions record theirs."""
    encoding = doc.meta.get("encoding")
    if encoding is None and doc.meta.get("corpus") == "ler":
        return "utf-8"
    return encoding


def corpus_table(
    splits: Mapping[str, Iterable[Document]],
    *,
    min_chars: int,
    placeholders: Placeholders | None = None,
    detect: Detector | None = None,
) -> pd.DataFrame:
    """One row per document of every split: size, encoding, placeholder density, reserved."""
    placeholders = placeholders or {}
    rows: list[dict] = []
    for split, docs in splits.items():
        for doc in docs:
            elements, marked = element_counts(doc.text, _spans(doc, placeholders, detect))
            n_chars = len(doc.text)
            rows.append(
                {
                    "id": doc.id,
                    "split": split,
                    "corpus": doc.meta.get("corpus"),
                    "court": doc.court,
                    "n_chars": n_chars,
                    "n_lines": doc.text.count("\n") + 1 if doc.text else 0,
                    "encoding": _encoding(doc),
                    "non_empty": bool(doc.text.strip()),
                    "short": int(n_chars < min_chars),
                    "elements": elements,
                    "placeholder_elements": marked,
                    "placeholder_density": marked / elements if elements else 0.0,
                    "reserved": is_reserved(doc),
                }
            )
    return pd.DataFrame(rows, columns=_CORPUS_COLUMNS)


_CORPUS_COLUMNS = [
    "id", "split", "corpus", "court", "n_chars", "n_lines", "encoding", "non_empty", "short",
    "elements", "placeholder_elements", "placeholder_density", "reserved",
]  # fmt: skip


def label_column(label: str) -> str:
    """Column of the placeholder span count of one label in the training table."""
    return f"spans_{label}"


def training_table(
    splits: Mapping[str, Iterable[Document]],
    *,
    placeholders: Placeholders | None = None,
    detect: Detector | None = None,
) -> pd.DataFrame:
    """One row per training document as ``deid.training.documents.source_documents`` prepares it:
    placeholder labels, keep spans and reserved status.

    ``placeholder_element_share`` is a document's placeholder elements divided by all
    elements of the table, so its column sum is the training set's placeholder share.
    """
    from deid.training.documents import ReservedDataError, source_documents

    placeholders = dict(placeholders or {})
    rows: list[dict] = []
    for split, docs in splits.items():
        for doc in docs:
            try:
                (src,) = source_documents([doc], placeholders)
                spans, keep, keep_known, reserved = (
                    src.placeholders,
                    src.keep,
                    src.keep_known,
                    False,
                )
            except ReservedDataError:  # counted, so the expectation on `reserved` names it
                spans, keep, keep_known, reserved = (
                    _spans(doc, placeholders, detect),
                    (),
                    False,
                    True,
                )
            elements, marked = element_counts(doc.text, spans)
            labels = Counter(s.label for s in spans)
            row = {
                "id": doc.id,
                "split": split,
                "corpus": doc.meta.get("corpus"),
                "court": doc.court,
                "reserved": reserved,
                "has_text": bool(doc.text.strip()),
                "elements": elements,
                "placeholder_elements": marked,
                "placeholder_spans": len(spans),
                "unknown_label_spans": sum(n for lab, n in labels.items() if lab not in LABELS),
                "keep_known": keep_known,
                "keep_spans": len(keep),
                "unknown_keep_spans": sum(1 for k in keep if k.label not in KEEP_LABELS + ROLE_LABELS),
            }
            row.update({label_column(lab): labels.get(lab, 0) for lab in LABELS})
            rows.append(row)
    table = pd.DataFrame(rows, columns=_TRAINING_COLUMNS)
    total = int(table["elements"].sum()) if len(table) else 0
    table["placeholder_element_share"] = table["placeholder_elements"] / total if total else 0.0
    return table


_TRAINING_COLUMNS = [
    "id", "split", "corpus", "court", "reserved", "has_text", "elements", "placeholder_elements",
    "placeholder_spans", "unknown_label_spans", "keep_known", "keep_spans", "unknown_keep_spans",
    *(label_column(lab) for lab in LABELS),
]  # fmt: skip


def quality_table(reports: Mapping[str, dict]) -> pd.DataFrame:
    """One row per gold set from ``DetectionReport.to_dict()``: counts and element-level
    precision/recall (the error list, with offsets, stays out)."""
    rows = []
    for name, report in reports.items():
        overall = report["overall"]
        counts = Confusion(overall["tp"], overall["fp"], overall["fn"], overall["tn"])
        rows.append(
            {
                "gold_set": name,
                "documents": report["documents"],
                "gold_elements": overall["tp"] + overall["fn"],
                "predicted_elements": overall["tp"] + overall["fp"],
                "tp": overall["tp"],
                "fp": overall["fp"],
                "fn": overall["fn"],
                "precision": counts.precision,  # unrounded: 0.96996 must not pass 0.97
                "recall": counts.recall,
                "f1": counts.f1,
            }
        )
    return pd.DataFrame(rows, columns=_QUALITY_COLUMNS)


_QUALITY_COLUMNS = [
    "gold_set", "documents", "gold_elements", "predicted_elements", "tp", "fp", "fn",
    "precision", "recall", "f1",
]  # fmt: skip


def reviews_table(
    records: Sequence[tuple[int, Any]],
    prepared: PreparedReviews,
    reserved: ReservedIndex,
    reserved_overlap: float,
) -> pd.DataFrame:
    """One row per line of the review store (``deid.sources.reviews.read_records``): each property a
    saved review must have, checked here on its own (not through ``check_review``), what
    became of it (``prepared``: train, evaluation, superseded, reserved, invalid) and whether
    its text is a reserved document, recomputed from ``reserved``. The document is its key's
    prefix (a hash of the whole normalized text), never text."""
    from deid.sources.reviews.dataset import INVALID
    from deid.sources.reviews.record import text_sha256

    uses = {row.line: row for row in prepared.rows}
    rows: list[dict[str, Any]] = []
    for line, record in records:
        rec = record if isinstance(record, Mapping) else {}
        text, spans, reviewer = rec.get("text"), rec.get("spans"), rec.get("reviewer")
        has_text = isinstance(text, str)
        spans = spans if isinstance(spans, list) else None
        row = uses[line]
        checks = {
            "sha256_ok": has_text and text_sha256(text) == rec.get("sha256"),
            "offsets_ok": has_text and spans is not None and _review_offsets_ok(text, spans),
            "labels_known": spans is not None
            and all(isinstance(s, Mapping) and s.get("label") in LABELS for s in spans),
            "reviewer_present": isinstance(reviewer, str) and bool(REVIEWER.fullmatch(reviewer)),
            "consistent": row.use != INVALID,
        }
        if not isinstance(record, Mapping):  # not JSON: only records_parsed fails for it
            checks = dict.fromkeys(checks)
        rows.append(
            {
                "line": line,
                "id": row.id,
                "document": row.document[:16] if row.document else None,
                "use": row.use,
                "parsed": isinstance(record, Mapping),
                **checks,
                "reserved": has_text and reserved.overlap(text) >= reserved_overlap,
                "spans": len(spans) if spans is not None else 0,
            }
        )
    return pd.DataFrame(rows, columns=_REVIEW_COLUMNS)


_REVIEW_COLUMNS = [
    "line", "id", "document", "use", "parsed", "sha256_ok", "offsets_ok", "labels_known",
    "reviewer_present", "consistent", "reserved", "spans",
]  # fmt: skip


def _review_offsets_ok(text: str, spans: list[Any]) -> bool:
    """Integer offsets inside the text, non-empty, sorted and disjoint (gold spans)."""
    end = 0
    for span in spans:
        if not isinstance(span, Mapping):
            return False
        start, stop = span.get("start"), span.get("end")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, stop)):
            return False
        if not end <= start < stop <= len(text):
            return False
        end = stop
    return True
