"""The placeholder-decisions file: the single source of truth of a manual rewrite.

One JSON record per line, three kinds (``record``):

* ``document``: ``doc_id``, ``text_hash`` of the text the offsets refer to, ``status``
  (``open``/``done``), ``seed`` and ``pool`` the proposed surrogates came from;
* ``decision``: ``doc_id``, ``start``, ``end`` (offsets in the ORIGINAL text), ``decision``
  (``placeholder``/``not_placeholder``), ``label``, ``surrogate`` (placeholders only),
  ``suggested`` (the detector suggested a span overlapping it);
* ``correction``: ``doc_id``, ``start``, ``end``, ``text``: a small fix of the original text
  ("Anw alt" → "Anwalt", thesis 5.5.2), applied together with the surrogates.

Rewritten documents are derived from it by the pure function :func:`apply_decisions`, so
they can be rebuilt at any time; records are written sorted (document, offsets) so the file
diffs well under version control.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from deid.schema import LABELS, Document, Span
from deid.sources.io import InputError, text_hash
from deid.sources.textedit import apply_replacements

PLACEHOLDER = "placeholder"
NOT_PLACEHOLDER = "not_placeholder"
DECISIONS = (PLACEHOLDER, NOT_PLACEHOLDER)
OPEN = "open"
DONE = "done"
_CORRECTION_LABEL = "_correction"


@dataclass(frozen=True, order=True)
class Decision:
    """A person's verdict on one element (not a placeholder) or one span (placeholder)."""

    start: int
    end: int
    decision: str
    label: str | None = None
    surrogate: str | None = None
    suggested: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(f"invalid decision offsets {self.start}..{self.end}")
        if self.decision not in DECISIONS:
            raise ValueError(f"unknown decision {self.decision!r}")
        if self.decision == PLACEHOLDER and (self.label not in LABELS or not self.surrogate):
            raise ValueError(f"placeholder {self.start}..{self.end} needs a label and a surrogate")

    @property
    def is_placeholder(self) -> bool:
        return self.decision == PLACEHOLDER

    def overlaps(self, start: int, end: int) -> bool:
        return self.start < end and start < self.end


@dataclass(frozen=True, order=True)
class Correction:
    """Replace ``text[start:end]`` of the original by ``text`` (offsets in the original)."""

    start: int
    end: int
    text: str

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(f"invalid correction offsets {self.start}..{self.end}")

    def overlaps(self, start: int, end: int) -> bool:
        return self.start < end and start < self.end


@dataclass(frozen=True)
class DocumentRecord:
    """Which text the offsets belong to and whether the person finished the document."""

    text_hash: str
    status: str = OPEN
    seed: int | None = None
    pool: str | None = None


@dataclass(frozen=True)
class DocDecisions:
    """Everything decided about one document. Immutable, so a snapshot for undo is just a
    reference and every change returns a new value."""

    doc_id: str
    document: DocumentRecord | None = None
    decisions: tuple[Decision, ...] = ()
    corrections: tuple[Correction, ...] = ()

    @property
    def placeholders(self) -> list[Decision]:
        return [d for d in self.decisions if d.is_placeholder]

    @property
    def done(self) -> bool:
        return self.document is not None and self.document.status == DONE

    def with_document(self, document: DocumentRecord) -> DocDecisions:
        return replace(self, document=document)

    def with_status(self, status: str) -> DocDecisions:
        if self.document is None:
            raise ValueError(f"{self.doc_id}: no document record to set a status on")
        return replace(self, document=replace(self.document, status=status))

    def with_decision(self, decision: Decision) -> DocDecisions:
        """Add ``decision``; earlier decisions it overlaps are replaced by it."""
        kept = [d for d in self.decisions if not d.overlaps(decision.start, decision.end)]
        return replace(self, decisions=tuple(sorted(kept + [decision])))

    def without_decision(self, decision: Decision) -> DocDecisions:
        return replace(self, decisions=tuple(d for d in self.decisions if d != decision))

    def with_correction(self, correction: Correction) -> DocDecisions:
        if any(c.overlaps(correction.start, correction.end) for c in self.corrections):
            raise ValueError("correction overlaps another correction")
        return replace(self, corrections=tuple(sorted(self.corrections + (correction,))))

    def without_correction(self, correction: Correction) -> DocDecisions:
        return replace(self, corrections=tuple(c for c in self.corrections if c != correction))

    def records(self) -> Iterator[dict[str, Any]]:
        """This document's lines of the decisions file, in file order."""
        if self.document is not None:
            doc = self.document
            yield {
                "record": "document",
                "doc_id": self.doc_id,
                "text_hash": doc.text_hash,
                "status": doc.status,
                "seed": doc.seed,
                "pool": doc.pool,
            }
        for d in self.decisions:
            yield {
                "record": "decision",
                "doc_id": self.doc_id,
                "start": d.start,
                "end": d.end,
                "decision": d.decision,
                "label": d.label,
                "surrogate": d.surrogate if d.is_placeholder else None,
                "suggested": d.suggested,
            }
        for c in self.corrections:
            yield {
                "record": "correction",
                "doc_id": self.doc_id,
                "start": c.start,
                "end": c.end,
                "text": c.text,
            }


@dataclass
class DecisionBook:
    """All documents' decisions, keyed by document id (the content of one decisions file)."""

    docs: dict[str, DocDecisions] = field(default_factory=dict)

    def get(self, doc_id: str) -> DocDecisions:
        return self.docs.get(doc_id) or DocDecisions(doc_id)

    def put(self, value: DocDecisions) -> None:
        self.docs[value.doc_id] = value

    def records(self) -> Iterator[dict[str, Any]]:
        for doc_id in sorted(self.docs):
            yield from self.docs[doc_id].records()

    @classmethod
    def from_records(cls, records: Iterable[dict[str, Any]]) -> DecisionBook:
        """Parse decisions-file records; a bad record raises with its number, no content."""
        book = cls()
        for number, rec in enumerate(records, 1):
            try:
                _add_record(book, rec)
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(f"decisions record {number}: {exc}") from None
        return book


def _add_record(book: DecisionBook, rec: dict[str, Any]) -> None:
    doc_id = str(rec["doc_id"])
    current = book.get(doc_id)
    kind = rec.get("record", "decision")
    if kind == "document":
        status = rec.get("status", OPEN)
        if status not in (OPEN, DONE):
            raise ValueError(f"unknown status {status!r}")
        record = DocumentRecord(str(rec["text_hash"]), status, rec.get("seed"), rec.get("pool"))
        book.put(current.with_document(record))
    elif kind == "decision":
        decision = Decision(
            int(rec["start"]),
            int(rec["end"]),
            str(rec["decision"]),
            rec.get("label"),
            rec.get("surrogate"),
            bool(rec.get("suggested", False)),
        )
        if any(d.overlaps(decision.start, decision.end) for d in current.decisions):
            raise ValueError(
                f"{doc_id}: decision {decision.start}..{decision.end} overlaps another"
            )
        book.put(current.with_decision(decision))
    elif kind == "correction":
        book.put(
            current.with_correction(
                Correction(int(rec["start"]), int(rec["end"]), str(rec["text"]))
            )
        )
    else:
        raise ValueError(f"unknown record kind {kind!r}")


def manual_id(source_id: str) -> str:
    """Id of a manually rewritten document (distinct from its source's)."""
    return f"{source_id}.manual"


def gold_placeholders(decisions: DocDecisions) -> list[Span]:
    """The placeholders a person marked, as spans over the ORIGINAL text: the gold set for
    validating placeholder detection on these documents."""
    return [Span(d.start, d.end, d.label or "") for d in decisions.placeholders]


def check_text(doc: Document, decisions: DocDecisions) -> None:
    """Refuse decisions made on another version of the text (their offsets would be wrong)."""
    record = decisions.document
    if record is not None and record.text_hash != text_hash(doc.text):
        raise ValueError(
            f"{doc.id}: decisions were made on a different text "
            f"(hash {record.text_hash}, input {text_hash(doc.text)})"
        )


def apply_decisions(doc: Document, decisions: DocDecisions) -> Document:
    """The rewritten document: placeholders replaced by their surrogates, corrections
    applied, gold ``spans`` over the surrogates, ``keep`` spans of the source shifted.

    Pure: the same document and decisions give the same output, byte for byte.
    """
    check_text(doc, decisions)
    placeholders = decisions.placeholders
    replacements: list[tuple[Span, str]] = [
        (Span(d.start, d.end, d.label or ""), d.surrogate or "") for d in placeholders
    ]
    replacements += [
        (Span(c.start, c.end, _CORRECTION_LABEL), c.text) for c in decisions.corrections
    ]
    if any(s.end > len(doc.text) for s, _ in replacements):
        raise ValueError(f"{doc.id}: decision offsets beyond the end of the text")
    text, new_spans, keep = apply_replacements(doc.text, replacements, carry=doc.keep)
    spans = [s for s in new_spans if s.label != _CORRECTION_LABEL]
    record = decisions.document
    meta: dict[str, Any] = {
        "rewrite": "manual",
        "source_id": doc.id,
        "source_hash": text_hash(doc.text),
        "status": record.status if record else OPEN,
        "seed": record.seed if record else None,
        "surrogate_pool": record.pool if record else None,
        "placeholders": len(spans),
        "corrections": len(decisions.corrections),
    }
    return Document(
        id=manual_id(doc.id),
        text=text,
        court=doc.court,
        meta=meta,
        spans=sorted(spans),
        keep=sorted(keep),
    )
