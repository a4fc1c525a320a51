"""Decisions written from scratch for training: the Bavarian courts' manner, which no corpus
here holds in clear text.

The LER courts teach the model federal court language, and the Bavarian decisions are
reserved for evaluation. A decision written from scratch in the Bavarian manner (made-up
people, firms, places, streets and numbers, each marked where it stands, in the markup of
:mod:`deid.rewrite.gold.markup`, brief in ``data/written/conventions.md``) trains like a reviewed
decision: every epoch replaces its marked spans by fresh surrogates of their type, so the
model learns the language around them and never a written name. Its keep marks (judges,
courts, case numbers, public bodies) train the keep labels.

A written decision must not be, or copy from, an evaluation document: one whose share of
word 8-grams found in reserved documents reaches ``reviews.reserved_overlap`` (the corpus's
test split and every gold set of ``reviews.reserved_gold``, the dev decisions written the
same way included) is refused, as a review would be, and so is an id used twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deid.rewrite.gold.markup import parse_file
from deid.schema import Document
from deid.sources.params import check_keys, field_names, section
from deid.sources.reviews.dataset import ReservedIndex

COURT = "written"  # the court field of every written decision (never a reserved court's name)
CORPUS = "written"  # meta["corpus"]: where a training document came from
TRAIN_FILE = "train.jsonl"


class WrittenCorpusError(ValueError):
    """A written decision that must not train (reserved overlap, a repeated id); the
    message names ids and shares only."""


@dataclass(frozen=True)
class WrittenSettings:
    """``params.yaml`` → ``written:``. What is reserved, and how close is too close, is the
    ``reviews`` section's (one home for what evaluation owns)."""

    files: tuple[str, ...] = ("data/written/decisions.txt",)

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> WrittenSettings:
        data = section(params.get("written"), "written")
        check_keys("written", data, field_names(cls))
        if "files" in data:
            data["files"] = tuple(map(str, data["files"] or ()))
        return cls(**data)


@dataclass
class WrittenCorpus:
    """The written decisions and, per id, the share of its 8-grams found in reserved documents."""

    documents: list[Document] = field(default_factory=list)
    overlap: dict[str, float] = field(default_factory=dict)

    def report(self) -> dict[str, Any]:
        """Counts only (no text): documents, spans and keep spans per type, the highest overlap."""
        spans = Counter(s.label for d in self.documents for s in d.spans)
        keep = Counter(s.label for d in self.documents for s in d.keep)
        return {
            "documents": len(self.documents),
            "spans": dict(sorted(spans.items())),
            "keep_spans": dict(sorted(keep.items())),
            "max_overlap": max(self.overlap.values(), default=0.0),
        }


def read_written(
    files: Iterable[str | Path], reserved: ReservedIndex, max_overlap: float
) -> WrittenCorpus:
    """Every decision of the markup ``files`` as a training document (court :data:`COURT`,
    corpus :data:`CORPUS`); one that shares ``max_overlap`` or more of its word 8-grams with the
    ``reserved`` documents, or repeats an id, stops the run."""
    corpus = WrittenCorpus()
    for path in files:
        for doc in parse_file(path, court=COURT):
            if doc.id in corpus.overlap:
                raise WrittenCorpusError(f"{path}: decision id {doc.id} is used twice")
            share = round(reserved.overlap(doc.text), 4)
            if share >= max_overlap:
                raise WrittenCorpusError(
                    f"{path}: decision {doc.id} shares {share:.0%} of its 8-grams with reserved "
                    f"evaluation documents (refused from {max_overlap:.0%} on): it must not train"
                )
            doc.meta["corpus"] = CORPUS
            corpus.documents.append(doc)
            corpus.overlap[doc.id] = share
    return corpus
