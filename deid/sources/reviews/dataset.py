"""Saved reviews as data: training documents, the gate's ``reviews`` set, agreement counts.

A saved review's final spans are gold for its text (:mod:`deid.sources.reviews.record`). Here the
review store becomes

* training documents whose gold spans take the placeholders' part: every epoch replaces
  them by fresh surrogates of their type (``deid.training.data.surrogate_texts``), so the model
  never trains on a real name;
* the evaluation set ``reviews`` of the gate, from documents training never sees;
* the model's agreement with its reviewers: per type, how many proposed spans were
  accepted, relabelled, widened or rejected, and how many spans reviewers added.

What becomes of each line of the store (:func:`prepare_reviews`), in this order:

1. a record that fails its checks (:func:`deid.sources.reviews.check_review`) is ``invalid``;
2. one review per document: the last one saved for a text wins (texts compared after
   :func:`normalize`, so a DOCX and the same decision pasted are one document); earlier
   ones are ``superseded``;
3. a review of a reserved evaluation document (LER ``bgh``/``bverwg``, the Bavarian
   decisions, the rewritten gold sets) is ``reserved``: kept out of training and evaluation,
   only counted. Reserved means the same normalized text, or a share ``reserved_overlap`` of
   its word 8-grams found in reserved documents (a part of one, another extraction of it);
4. a review that leaves spans open (state ``open`` or ``in_review``) is ``unfinished``: its
   text is not gold where nobody decided, so it is neither trained nor evaluated on; the
   spans it decided count in the agreement;
5. the rest goes to ``evaluation`` (a share ``evaluation_share`` of the documents, by a
   salted hash of the normalized text) or to ``train``: deterministic, stable as reviews are
   added, and a document is never on both sides.

Nothing here logs or returns text: rows, reports and metrics hold line numbers, review ids,
hashes of whole documents and counts.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deid.schema import Document, Span, coarse_label
from deid.sources.params import check_keys, field_names, load_params, section
from deid.sources.reviews.record import (
    ADDED,
    DECIDED,
    DECISIONS,
    OPEN,
    REVIEW_ID,
    STATE_DONE,
    ReviewError,
    check_review,
    review_state,
)

logger = logging.getLogger(__name__)

TRAIN, EVALUATION, SUPERSEDED, RESERVED, INVALID, UNFINISHED = (
    "train", "evaluation", "superseded", "reserved", "invalid", "unfinished"
)  # fmt: skip
USES: tuple[str, ...] = (TRAIN, EVALUATION, SUPERSEDED, RESERVED, INVALID, UNFINISHED)
SET_NAME = "reviews"  # the gate's gold set
TRAIN_FILE, EVALUATION_FILE = "train.jsonl", "evaluation.jsonl"
SHINGLE_WORDS = 8
SHINGLE_SAMPLE = 4  # one 8-gram hash in four (by value): the same share, a quarter of the memory
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class ReviewSettings:
    """``params.yaml`` → ``reviews:``."""

    folder: str = "data/reviews"
    evaluation_share: float = 0.3
    salt: str = "reviews"
    reserved_overlap: float = 0.5
    reserved_gold: tuple[str, ...] = (
        "data/gold/ler_rewritten.jsonl",
        "data/gold/ler_rewritten_novel.jsonl",
        "data/gold/bavaria/rewritten.jsonl",
        "data/gold/bavaria_scratch/rewritten.jsonl",
        "data/gold/bavaria_scratch_dev/rewritten.jsonl",
    )

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> ReviewSettings:
        data = section(params.get("reviews"), "reviews")
        check_keys("reviews", data, field_names(cls))
        if "reserved_gold" in data:
            data["reserved_gold"] = tuple(map(str, data["reserved_gold"]))
        cfg = cls(**data)
        if not 0.0 <= cfg.evaluation_share <= 1.0 or not 0.0 < cfg.reserved_overlap <= 1.0:
            raise ValueError("reviews: evaluation_share in [0, 1], reserved_overlap in (0, 1]")
        return cfg


def load_review_settings(path: str | Path = "params.yaml") -> ReviewSettings:
    """From a params file, read with PyYAML only (no model imports)."""
    return ReviewSettings.from_params(load_params(path))


# --- documents and reserved texts -----------------------------------------------------------


def _clean(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("\u00ad", "")


def normalize(text: str) -> str:
    """The text as any extraction of the same decision gives it: NFKC, soft hyphens dropped,
    every run of whitespace one blank (DOCX paragraphs, PDF lines, pasted text)."""
    return " ".join(_clean(text).split())


def document_key(text: str) -> str:
    """sha256 of the normalized text: which document a review is of."""
    return hashlib.sha256(normalize(text).encode("utf-8", "surrogatepass")).hexdigest()


def shingles(text: str) -> set[int]:
    """Hashes of the text's word 8-grams (case-folded words), one in :data:`SHINGLE_SAMPLE`
    kept by value, so two texts keep the same 8-grams and their overlap stays measurable."""
    words = [w.casefold() for w in _WORD.findall(_clean(text))]
    out: set[int] = set()
    for i in range(len(words) - SHINGLE_WORDS + 1):
        gram = "\x1f".join(words[i : i + SHINGLE_WORDS]).encode("utf-8", "surrogatepass")
        value = int.from_bytes(hashlib.blake2b(gram, digest_size=8).digest(), "big")
        if value % SHINGLE_SAMPLE == 0:
            out.add(value)
    return out


@dataclass
class ReservedIndex:
    """The reserved evaluation documents, as document keys and 8-gram hashes (no text)."""

    keys: set[str] = field(default_factory=set)
    grams: set[int] = field(default_factory=set)
    documents: int = 0

    @classmethod
    def build(cls, texts: Iterable[str]) -> ReservedIndex:
        index = cls()
        for text in texts:
            index.keys.add(document_key(text))
            index.grams |= shingles(text)
            index.documents += 1
        return index

    def overlap(self, text: str) -> float:
        """Share of the text's 8-grams found in reserved documents (1.0 for the same text)."""
        if document_key(text) in self.keys:
            return 1.0
        own = shingles(text)
        return len(own & self.grams) / len(own) if own else 0.0


def reserved_texts(corpus_dir: str | Path | None, gold: Iterable[str | Path]) -> Iterator[str]:
    """Texts of every reserved evaluation document: the corpus's test split (where
    ``deid.sources.corpus`` puts them, and only them: ``deid.sources.corpus.is_reserved``) and every
    rewritten gold set."""
    from deid.sources.corpus import is_reserved
    from deid.sources.io import read_documents

    if corpus_dir is not None:
        test = read_documents(Path(corpus_dir) / "test.jsonl")
        yield from (d.text for d in test if is_reserved(d))
    for path in gold:
        if not Path(path).exists():
            raise FileNotFoundError(f"missing gold set {path}: its reviews could not be refused")
        yield from (d.text for d in read_documents(path))


def review_split(key: str, share: float, salt: str) -> str:
    """``evaluation`` for a share of documents (salted sha256 of the document key), else
    ``train``: the same document always lands on the same side."""
    digest = hashlib.sha256(f"{salt}\x00{key}".encode()).digest()
    return EVALUATION if int.from_bytes(digest[:8], "big") / 2**64 < share else TRAIN


def review_document(record: Mapping[str, Any], key: str) -> Document:
    """A checked review as a gold document: its final spans are the gold ``spans``."""
    model = record.get("model") or {}
    meta = {
        "corpus": SET_NAME,
        "review_id": record["id"],
        "sha256": record["sha256"],
        "reviewer": record["reviewer"],
        "model_version": model.get("version"),
        "created": record["created"],
    }
    spans = [Span(s["start"], s["end"], s["label"]) for s in record["spans"]]
    return Document(id=f"review-{key[:16]}", text=record["text"], meta=meta, spans=spans)


# --- the store, line by line ----------------------------------------------------------------


@dataclass(frozen=True)
class ReviewRow:
    """What became of one line of the store: no text, the document only as its key."""

    line: int
    id: str | None
    document: str | None
    use: str
    overlap: float = 0.0  # share of its 8-grams in reserved documents (latest reviews only)


@dataclass
class PreparedReviews:
    rows: list[ReviewRow]
    train: list[Document]
    evaluation: list[Document]
    agreement: dict[str, dict[str, int]]
    effort: dict[str, float] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        seen = Counter(r.use for r in self.rows)
        return {"records": len(self.rows), **{use: seen.get(use, 0) for use in USES}}

    def report(self) -> dict[str, Any]:
        """Counts, agreement, the ids each side holds and the lines refused (no text)."""
        return {
            "counts": self.counts(),
            "agreement": self.agreement,
            "effort": self.effort,
            "train_ids": [d.id for d in self.train],
            "evaluation_ids": [d.id for d in self.evaluation],
            "invalid_lines": [r.line for r in self.rows if r.use == INVALID],
            "reserved_lines": [r.line for r in self.rows if r.use == RESERVED],
        }


def _review_id(record: Any) -> str | None:
    value = record.get("id") if isinstance(record, Mapping) else None
    return value if isinstance(value, str) and REVIEW_ID.fullmatch(value) else None


def prepare_reviews(
    records: Iterable[tuple[int, Any]], reserved: ReservedIndex, settings: ReviewSettings
) -> PreparedReviews:
    """Each line of the store (``deid.sources.reviews.read_records``) → its use (module docstring);
    the training and evaluation documents; agreement over each document's latest review."""
    rows: dict[int, ReviewRow] = {}
    latest: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for line, record in records:
        try:
            check_review(record)
        except (ReviewError, TypeError, KeyError, AttributeError):  # a hand-edited line
            rows[line] = ReviewRow(line, _review_id(record), None, INVALID)
            continue
        key = document_key(record["text"])
        if key in latest:
            old_line, old = latest[key]
            rows[old_line] = ReviewRow(old_line, old["id"], key, SUPERSEDED)
        latest[key] = (line, record)
    sides: dict[str, list[Document]] = {TRAIN: [], EVALUATION: []}
    for key, (line, record) in sorted(latest.items(), key=lambda item: item[1][0]):
        overlap = reserved.overlap(record["text"])
        if overlap >= settings.reserved_overlap:
            use = RESERVED
        elif review_state(record) != STATE_DONE:
            use = UNFINISHED
        else:
            use = review_split(key, settings.evaluation_share, settings.salt)
        rows[line] = ReviewRow(line, record["id"], key, use, round(overlap, 4))
        if use in sides:
            sides[use].append(review_document(record, key))
    reviews = [record for _, record in latest.values()]
    prepared = PreparedReviews(
        [rows[line] for line in sorted(rows)], sides[TRAIN], sides[EVALUATION], agreement_counts(reviews),
        effort_summary(reviews),
    )  # fmt: skip
    logger.info("reviews: %s", prepared.counts())
    return prepared


def prepare_store(
    folder: str | Path, corpus_dir: str | Path | None, settings: ReviewSettings, limit: int | None = None
) -> tuple[list[tuple[int, Any]], ReservedIndex, PreparedReviews]:
    """The store's lines (its first ``limit`` bytes), the index of the reserved documents (the
    corpus's test split and ``settings.reserved_gold``) and what became of each line."""
    from deid.sources.reviews.store import read_records

    records = list(read_records(folder, limit))
    reserved = ReservedIndex.build(reserved_texts(corpus_dir, settings.reserved_gold))
    return records, reserved, prepare_reviews(records, reserved, settings)


def write_prepared(prepared: PreparedReviews, output_dir: str | Path) -> tuple[Path, Path]:
    """``train.jsonl`` and ``evaluation.jsonl`` (documents with gold ``spans``) in
    ``output_dir``, both written even when empty (an empty set is a valid stage output)."""
    from deid.sources.io import write_documents

    out = Path(output_dir)
    train, evaluation = out / TRAIN_FILE, out / EVALUATION_FILE
    write_documents(train, prepared.train)
    write_documents(evaluation, prepared.evaluation)
    return train, evaluation


# --- agreement ----------------------------------------------------------------------------------

AGREEMENT_COLUMNS: tuple[str, ...] = ("proposed", *DECISIONS, "gold")
ALL = "all"


def agreement_counts(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Per coarse type (and ``all``): the spans the model proposed that a person decided
    (``proposed``) and what they decided (``accepted``, ``relabelled``, ``widened``,
    ``rejected``: by the proposed span's type), the spans left ``open`` (counted apart, in no
    share), the spans reviewers ``added`` and the ``gold`` spans (by the final span's type)."""
    table: dict[str, dict[str, int]] = {}

    def row(label: str) -> dict[str, int]:
        return table.setdefault(label, dict.fromkeys(AGREEMENT_COLUMNS, 0))

    for record in records:
        for item in record["decisions"]:
            if item["decision"] == ADDED:
                row(item["final"]["label"])[ADDED] += 1
                continue
            counts = row(coarse_label(item["model"]["label"]))
            counts[item["decision"]] += 1
            if item["decision"] != OPEN:
                counts["proposed"] += 1
        for span in record["spans"]:
            row(span["label"])["gold"] += 1
    out = dict(sorted(table.items()))
    out[ALL] = {col: sum(r[col] for r in table.values()) for col in AGREEMENT_COLUMNS}
    return out


def agreement_metrics(
    agreement: Mapping[str, Mapping[str, int]], prefix: str = "reviews.agreement"
) -> dict[str, float]:
    """``<prefix>.<TYPE>.<column>`` counts, each decision's share of the decided proposed
    spans (``accepted_share`` …) and ``added_share``: the share of gold spans the model had
    not proposed at all. Open spans are in no share: nobody decided them."""
    out: dict[str, float] = {}
    for label, counts in agreement.items():
        out |= {f"{prefix}.{label}.{col}": float(counts.get(col, 0)) for col in AGREEMENT_COLUMNS}
        if counts["proposed"]:
            out |= {f"{prefix}.{label}.{d}_share": counts[d] / counts["proposed"] for d in DECIDED}
        if counts["gold"]:
            out[f"{prefix}.{label}.{ADDED}_share"] = counts[ADDED] / counts["gold"]
    return out


# --- effort ---------------------------------------------------------------------------------------


def effort_summary(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """The reviewers' effort over the reviews that recorded it (schema 2): ``documents``,
    ``seconds`` and ``actions`` in all, the ``spans`` they looked at (proposed and added),
    ``seconds_per_document`` and ``actions_per_span``. Counts only."""
    documents = seconds = actions = spans = 0
    for record in records:
        effort = record.get("effort")
        if not effort:
            continue
        documents += 1
        seconds += effort["seconds"]
        actions += effort["actions"]
        spans += len(record["decisions"])
    return {
        "documents": documents, "seconds": seconds, "actions": actions, "spans": spans,
        "seconds_per_document": round(seconds / documents, 1) if documents else 0.0,
        "actions_per_span": round(actions / spans, 3) if spans else 0.0,
    }  # fmt: skip
