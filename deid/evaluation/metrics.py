"""Model evaluation: how well predicted sensitive spans match the gold spans of a test set.

Every promotion decision rests on these numbers, so each one is defined here, once.

Inputs are gold :class:`~deid.schema.Document` s (``spans`` = sensitive gold spans, ``keep`` =
insensitive entities such as judges, courts, laws) and, per document id, predicted spans with
character offsets into the same text. Labels of both sides are mapped to coarse types first
(``IBAN`` → ``ID``). Predicted spans are deduplicated by ``(start, end, label)``; overlapping
predictions are each scored. Empty or out-of-range predicted spans are dropped and counted.

Convention for every ratio: an empty denominator gives 1.0 (nothing to find / nothing
wrongly predicted), as :class:`deid.sources.elements.Confusion` does. All counts are summed over
documents (micro) unless a name says *macro*.

Element level (Schamberger 2019), binary sensitive vs. not, over whitespace elements:
an element is gold-positive if any gold sensitive span overlaps it, predicted-positive if any
predicted span overlaps it (keep entities are negatives). ``precision = tp/(tp+fp)``,
``recall = tp/(tp+fn)``, ``f1``, ``f2`` (recall weighted: a leak costs more than a needless
mask), ``accuracy = (tp+tn)/all``, ``specificity = tn/(tn+fp)``.

Entity level, four schemes; each counts on the gold side ``gold``/``found`` (recall =
found/gold) and on the prediction side ``pred``/``correct`` (precision = correct/pred):

- ``strict``: exact character span and type — a gold span is found, a predicted span correct,
  iff the other side has the same ``(start, end, label)``. What pseudonymization needs.
- ``bio``: strict entity scores over element BIO tags (IOB2) — each span becomes a run of
  the elements it overlaps; entities are extracted with seqeval's strict IOB2 scheme and count
  iff element boundaries and type are equal. Forgives sub-element offsets ("Müller," vs
  "Müller"); comparable to token-level NER scores. An element overlapped by several spans
  belongs to the first (by start, end).
- ``overlap`` (relaxed, Vorstenbosch 2022): a gold span is found iff at least one predicted
  span overlaps it by ≥ 1 character, any type; a predicted span is correct iff it overlaps
  ≥ 1 gold sensitive span, any type. What anonymization needs.
- ``covered`` (relaxed, stricter): a gold span is found iff every non-whitespace character of
  it lies inside the union of predicted spans, any type; a predicted span is correct iff every
  non-whitespace character of it lies inside the union of gold sensitive spans.

Per type, gold-side counts use the gold label and prediction-side counts the predicted label.
*Macro* = unweighted mean of per-type values: precision over the types with predictions, recall
over the types with gold spans, F1 over the types on either side (a type on one side only has F1
0 under the strict schemes, so predicting a type the gold lacks costs macro F1).

Leakage: a gold sensitive span *leaks* iff at least one element it overlaps is overlapped by no
predicted span (element granularity, as the element metrics); a firm's legal form left in clear
is no leak (deid.words.firms.name_part), though its elements count against recall. A document is leak-free iff none
of its gold spans leaks (documents without gold spans are trivially leak-free; the share is
also given over documents with gold spans).

Over-anonymization: a keep entity is *hit* iff a predicted span overlaps it in at least one
non-whitespace character that belongs to no gold sensitive span.

Errors (ids, offsets, labels, never text), one per gold span, predicted span or keep entity:
``missed`` (no prediction overlaps the gold span), ``partial`` (overlapped, not covered),
``wrong_type`` (covered, no overlapping prediction has the gold type), ``boundary`` (covered,
right type, but no exact span), ``false_positive`` (prediction overlaps no gold span and no keep
entity), ``keep_hit`` (keep entity hit, see above).

Candidate-restricted element metrics reproduce the thesis' three evaluation methods: the same
element confusion, counted only over a chosen subset of elements (random candidates, NER-chosen
candidates, all elements = "without candidates").

Dev and sealed halves: every gold document lies in one half, ``dev`` or ``sealed``, by a stable
hash of its source decision's id (:func:`gold_half`). Error analysis and tuning may look at
``dev`` only; ``sealed`` is reported, never studied, so a fix fitted to seen errors cannot
inflate it. The report gives the overall metrics and the same metrics per half; the halves'
counts add up to the whole.
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
import warnings
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from deid.schema import LABELS, Document, Span, coarse_label
from deid.sources.elements import (
    Confusion,
    Element,
    element_confusion,
    element_flags,
    text_elements,
)
from deid.sources.io import documents_sha256
from deid.words.firms import name_part

logger = logging.getLogger(__name__)

SCHEMES: tuple[str, ...] = ("strict", "bio", "overlap", "covered")
ERROR_KINDS: tuple[str, ...] = (
    "missed",
    "partial",
    "wrong_type",
    "boundary",
    "false_positive",
    "keep_hit",
)
# Upper bounds in elements (exclusive) and the bucket names; the last bucket is open.
LENGTH_BUCKETS: tuple[tuple[int | None, str], ...] = (
    (1000, "<1k"),
    (3000, "1k-3k"),
    (10000, "3k-10k"),
    (None, ">=10k"),
)
# German file numbers ("8 Sa 425/22", "1 AZR 129/21", "VI ZR 12/19"): style guide slice.
AKTENZEICHEN = re.compile(r"\b(?:[IVX]+|\d{1,3}) ?[A-Z][A-Za-z]{0,4} ?\d{1,5}/\d{2}\b")
DENSE_AKTENZEICHEN_PER_1000 = 5.0
HALVES: tuple[str, ...] = ("dev", "sealed")
_HALF_PERSON = b"deid-gold-half"  # blake2b personalization: this split, no other hash of ids


def _ratio(num: int, den: int) -> float:
    return num / den if den else 1.0


def _f_beta(p: float, r: float, beta: float) -> float:
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r) if (b2 * p + r) else 0.0


def confusion_dict(conf: Confusion) -> dict[str, float | int]:
    """The thesis' element metrics plus F2 (recall-weighted, the anonymization view)."""
    return conf.as_dict() | {"f2": round(conf.f_beta(2), 4)}


# --- entity counts ----------------------------------------------------------------------


class EntityScore(NamedTuple):
    """Entity counts of one scheme: recall on the gold side, precision on the pred side."""

    gold: int = 0
    found: int = 0
    pred: int = 0
    correct: int = 0

    @property
    def precision(self) -> float:
        return _ratio(self.correct, self.pred)

    @property
    def recall(self) -> float:
        return _ratio(self.found, self.gold)

    @property
    def f1(self) -> float:
        return _f_beta(self.precision, self.recall, 1.0)

    @property
    def f2(self) -> float:
        return _f_beta(self.precision, self.recall, 2.0)

    def prf(self) -> dict[str, float]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }

    def as_dict(self) -> dict[str, float | int]:
        return self._asdict() | self.prf() | {"f2": round(self.f2, 4)}


@dataclass
class EntityCounts:
    """Additive per-label entity counts of one scheme (keys: gold or predicted label)."""

    gold: Counter = field(default_factory=Counter)
    found: Counter = field(default_factory=Counter)
    pred: Counter = field(default_factory=Counter)
    correct: Counter = field(default_factory=Counter)

    def update(self, other: EntityCounts) -> None:
        for name in ("gold", "found", "pred", "correct"):
            getattr(self, name).update(getattr(other, name))

    def labels(self) -> list[str]:
        return _ordered_labels(set(self.gold) | set(self.pred))

    def score(self, label: str | None = None) -> EntityScore:
        """Counts for one label, or summed over all labels (micro) for ``None``."""
        if label is None:
            return EntityScore(
                *(sum(getattr(self, n).values()) for n in ("gold", "found", "pred", "correct"))
            )
        return EntityScore(
            self.gold[label], self.found[label], self.pred[label], self.correct[label]
        )

    def macro(self) -> dict[str, float]:
        """Unweighted means over types: precision over types with predictions, recall over
        types with gold spans, F1 over types on either side (vacuous 1.0s would inflate P/R)."""
        scores = [self.score(label) for label in self.labels()]
        return {
            "precision": _mean([s.precision for s in scores if s.pred]),
            "recall": _mean([s.recall for s in scores if s.gold]),
            "f1": _mean([s.f1 for s in scores]),
        }

    def as_dict(self) -> dict[str, Any]:
        return {"micro": self.score().as_dict(), "macro": self.macro()}


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 1.0


def _ordered_labels(labels: Iterable[str]) -> list[str]:
    """Known labels in schema order, unknown ones after, sorted: stable report layout."""
    known = [label for label in LABELS if label in labels]
    return known + sorted(set(labels) - set(LABELS))


# --- span and element helpers -----------------------------------------------------------


class _SpanIndex:
    """Spans overlapping a range in O(log n + k): sorted by start, bounded by the longest."""

    def __init__(self, spans: Iterable[Span]) -> None:
        self.spans = sorted(spans)
        self.starts = [s.start for s in self.spans]
        self.longest = max((s.length for s in self.spans), default=0)

    def overlapping(self, start: int, end: int) -> list[Span]:
        lo = bisect_left(self.starts, start - self.longest)
        hi = bisect_left(self.starts, end)
        return [s for s in self.spans[lo:hi] if s.end > start]


def _element_range(starts: Sequence[int], ends: Sequence[int], span: Span) -> range:
    """Indices of the elements a span overlaps (elements are sorted and disjoint)."""
    return range(bisect_right(ends, span.start), bisect_left(starts, span.end))


def element_bio(elements: Sequence[Element], spans: Iterable[Span]) -> list[str]:
    """IOB2 tags per element: a span tags the elements it overlaps; the first span wins."""
    starts = [e.start for e in elements]
    ends = [e.end for e in elements]
    ordered = sorted(s for s in spans if s.end > s.start)
    owner = [-1] * len(elements)
    for k, span in enumerate(ordered):
        for i in _element_range(starts, ends, span):
            if owner[i] < 0:
                owner[i] = k
    tags = []
    for i, k in enumerate(owner):
        if k < 0:
            tags.append("O")
        else:
            tags.append(("I-" if i and owner[i - 1] == k else "B-") + ordered[k].label)
    return tags


def bio_entities(tags: Sequence[str]) -> set[tuple[str, int, int]]:
    """``(type, first element, end element)`` of each entity, by seqeval's strict IOB2 reader."""
    from seqeval.scheme import IOB2, Entities

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = Entities([list(tags)], IOB2).entities[0]
    return {(e.tag, e.start, e.end) for e in found}


def _coverage_mask(text: str, spans: Iterable[Span], base: bytearray | None = None) -> bytearray:
    """1 per character that is whitespace or inside a span: "covered" ignores whitespace."""
    mask = bytearray(map(str.isspace, text)) if base is None else bytearray(base)
    for s in spans:
        mask[s.start : s.end] = b"\x01" * s.length
    return mask


def _is_covered(mask: bytearray, span: Span) -> bool:
    return 0 not in mask[span.start : span.end]


def _clean_gold(spans: Iterable[Span], length: int, *, coarse: bool = True) -> list[Span]:
    """Gold spans as scored: non-empty, inside the text, coarse label, no duplicates."""
    out = {
        Span(s.start, s.end, coarse_label(s.label) if coarse else s.label)
        for s in spans
        if s.end > s.start and s.end <= length
    }
    return sorted(out)


def _clean_predictions(spans: Iterable[Span], length: int) -> tuple[list[Span], int]:
    """Predicted spans as scored, plus the number dropped (empty or past the text's end)."""
    spans = list(spans)
    kept = _clean_gold(spans, length)
    dropped = sum(1 for s in spans if not (s.end > s.start and s.end <= length))
    return kept, dropped


# --- one document -----------------------------------------------------------------------


@dataclass
class DocEval:
    """Every additive count of one document, so slices and totals are plain sums."""

    doc: Document = field(repr=False)
    n_elements: int = 0
    predicted: bool = True
    confusion: Confusion = field(default_factory=Confusion)
    entities: dict[str, EntityCounts] = field(
        default_factory=lambda: {s: EntityCounts() for s in SCHEMES}
    )
    gold_elements: Counter = field(default_factory=Counter)  # per gold type
    gold_elements_hit: Counter = field(default_factory=Counter)  # ... overlapped by a prediction
    leaked: Counter = field(default_factory=Counter)  # leaked gold spans per gold type
    keep_total: Counter = field(default_factory=Counter)
    keep_hit: Counter = field(default_factory=Counter)
    dropped_predictions: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def gold_spans(self) -> int:
        return sum(self.entities["strict"].gold.values())


def evaluate_document(
    doc: Document, predictions: Iterable[Span], *, predicted: bool = True
) -> DocEval:
    """Score one document's predictions against its gold spans and keep entities.

    Args:
        doc: gold document (``spans`` sensitive, ``keep`` insensitive).
        predictions: predicted spans, offsets into ``doc.text``.
        predicted: False if the prediction file had no record for this document.
    Returns:
        The document's additive counts and its error list (no text).
    """
    text = doc.text
    gold = _clean_gold(doc.spans, len(text))
    keep = _clean_gold(doc.keep, len(text), coarse=False)
    pred, dropped = _clean_predictions(predictions, len(text))
    elements = text_elements(text)
    ev = DocEval(
        doc=doc, n_elements=len(elements), predicted=predicted, dropped_predictions=dropped
    )
    ev.confusion = element_confusion(elements, gold, pred)[0]
    pred_flags = element_flags(elements, pred)
    gold_tags, pred_tags = element_bio(elements, gold), element_bio(elements, pred)
    for tag, hit in zip(gold_tags, pred_flags):
        if tag != "O":
            ev.gold_elements[tag[2:]] += 1
            ev.gold_elements_hit[tag[2:]] += hit
    whitespace = bytearray(map(str.isspace, text))
    pred_mask = _coverage_mask(text, pred, whitespace)
    gold_mask = _coverage_mask(text, gold, whitespace)
    gold_index, pred_index = _SpanIndex(gold), _SpanIndex(pred)
    _count_strict(ev.entities["strict"], gold, pred)
    _count_bio(ev.entities["bio"], gold_tags, pred_tags)
    _count_relaxed(ev, gold, pred, gold_index, pred_index, gold_mask, pred_mask)
    starts, ends = [e.start for e in elements], [e.end for e in elements]
    exact = set(pred)
    for g in gold:
        leaked = any(not pred_flags[i] for i in _element_range(starts, ends, name_part(text, g)))
        ev.leaked[g.label] += leaked
        _gold_error(ev, g, pred_index.overlapping(g.start, g.end), pred_mask, exact, leaked)
    keep_index = _SpanIndex(keep)
    for p in pred:
        if not gold_index.overlapping(p.start, p.end) and not keep_index.overlapping(
            p.start, p.end
        ):
            ev.errors.append(_error(doc, "false_positive", p, pred_label=p.label))
    for k in keep:
        _keep_hit(ev, k, pred_index.overlapping(k.start, k.end), gold_mask)
    return ev


def _count_strict(counts: EntityCounts, gold: list[Span], pred: list[Span]) -> None:
    gold_set, pred_set = set(gold), set(pred)
    for g in gold:
        counts.gold[g.label] += 1
        counts.found[g.label] += g in pred_set
    for p in pred:
        counts.pred[p.label] += 1
        counts.correct[p.label] += p in gold_set


def _count_bio(counts: EntityCounts, gold_tags: list[str], pred_tags: list[str]) -> None:
    gold_ents, pred_ents = bio_entities(gold_tags), bio_entities(pred_tags)
    for ent in gold_ents:
        counts.gold[ent[0]] += 1
        counts.found[ent[0]] += ent in pred_ents
    for ent in pred_ents:
        counts.pred[ent[0]] += 1
        counts.correct[ent[0]] += ent in gold_ents


def _count_relaxed(
    ev: DocEval,
    gold: list[Span],
    pred: list[Span],
    gold_index: _SpanIndex,
    pred_index: _SpanIndex,
    gold_mask: bytearray,
    pred_mask: bytearray,
) -> None:
    overlap, covered = ev.entities["overlap"], ev.entities["covered"]
    for g in gold:
        for counts in (overlap, covered):
            counts.gold[g.label] += 1
        overlap.found[g.label] += bool(pred_index.overlapping(g.start, g.end))
        covered.found[g.label] += _is_covered(pred_mask, g)
    for p in pred:
        for counts in (overlap, covered):
            counts.pred[p.label] += 1
        overlap.correct[p.label] += bool(gold_index.overlapping(p.start, p.end))
        covered.correct[p.label] += _is_covered(gold_mask, p)


def _gold_error(
    ev: DocEval, g: Span, hits: list[Span], pred_mask: bytearray, exact: set[Span], leaked: bool
) -> None:
    """Classify what went wrong with one gold span, if anything (see module docstring)."""
    if not hits:
        kind = "missed"
    elif not _is_covered(pred_mask, g):
        kind = "partial"
    elif g in exact:
        return
    elif g.label not in {p.label for p in hits}:
        kind = "wrong_type"
    else:
        kind = "boundary"
    pred_label = next(
        (p.label for p in hits if p.label == g.label), hits[0].label if hits else None
    )
    ev.errors.append(
        _error(ev.doc, kind, g, gold_label=g.label, pred_label=pred_label, pred=hits, leaked=leaked)
    )


def _keep_hit(ev: DocEval, k: Span, hits: list[Span], gold_mask: bytearray) -> None:
    """A keep entity is hit by predictions reaching into its non-sensitive characters."""
    ev.keep_total[k.label] += 1
    outside = [p for p in hits if 0 in gold_mask[max(k.start, p.start) : min(k.end, p.end)]]
    if outside:
        ev.keep_hit[k.label] += 1
        ev.errors.append(
            _error(
                ev.doc, "keep_hit", k, gold_label=k.label, pred_label=outside[0].label, pred=outside
            )
        )


def _error(
    doc: Document,
    kind: str,
    span: Span,
    *,
    gold_label: str | None = None,
    pred_label: str | None = None,
    pred: Sequence[Span] = (),
    leaked: bool | None = None,
) -> dict[str, Any]:
    """One error record: ids, offsets and labels only, never text."""
    out: dict[str, Any] = {
        "id": doc.id,
        "court": doc.court,
        "half": document_half(doc),
        "kind": kind,
        "start": span.start,
        "end": span.end,
        "gold_label": gold_label,
        "pred_label": pred_label,
    }
    if pred:
        out["pred"] = [[p.start, p.end, p.label] for p in pred]
    if leaked is not None:
        out["leaked"] = leaked
    return out


# --- totals, slices, report -------------------------------------------------------------


@dataclass
class Totals:
    """Sums of :class:`DocEval` counts over a set of documents."""

    documents: int = 0
    documents_with_gold: int = 0
    leak_free: int = 0
    leak_free_with_gold: int = 0
    confusion: Confusion = field(default_factory=Confusion)
    entities: dict[str, EntityCounts] = field(
        default_factory=lambda: {s: EntityCounts() for s in SCHEMES}
    )
    gold_elements: Counter = field(default_factory=Counter)
    gold_elements_hit: Counter = field(default_factory=Counter)
    leaked: Counter = field(default_factory=Counter)
    keep_total: Counter = field(default_factory=Counter)
    keep_hit: Counter = field(default_factory=Counter)

    def add(self, ev: DocEval) -> None:
        has_gold = ev.gold_spans > 0
        no_leak = not sum(ev.leaked.values())
        self.documents += 1
        self.documents_with_gold += has_gold
        self.leak_free += no_leak
        self.leak_free_with_gold += has_gold and no_leak
        self.confusion = self.confusion + ev.confusion
        for scheme, counts in ev.entities.items():
            self.entities[scheme].update(counts)
        for name in ("gold_elements", "gold_elements_hit", "leaked", "keep_total", "keep_hit"):
            getattr(self, name).update(getattr(ev, name))


def totals(evals: Iterable[DocEval]) -> Totals:
    out = Totals()
    for ev in evals:
        out.add(ev)
    return out


# --- dev and sealed halves --------------------------------------------------------------


def gold_half(doc_id: str) -> str:
    """``"dev"`` or ``"sealed"`` for an id, about half each: blake2b of the UTF-8 id, so the
    split is the same on every machine, run and Python version (no ``hash()`` salt)."""
    digest = hashlib.blake2b(doc_id.encode("utf-8"), digest_size=8, person=_HALF_PERSON).digest()
    return HALVES[int.from_bytes(digest, "big") % len(HALVES)]


def document_half(doc: Document) -> str:
    """The half of a gold document, drawn from its source decision (``meta.source_id``, else
    its id): every rewrite of one decision (another seed, by hand) lies in the same half."""
    return gold_half(str(doc.meta.get("source_id") or doc.id))


def overall_metrics(t: Totals) -> dict[str, Any]:
    """Element-level metrics and every entity scheme, micro and macro."""
    return {
        "documents": t.documents,
        "elements": confusion_dict(t.confusion),
        "entities": {scheme: t.entities[scheme].as_dict() for scheme in SCHEMES},
    }


def per_type_metrics(t: Totals) -> dict[str, dict[str, Any]]:
    """The per-type table: span counts, P/R/F1 per scheme, element recall, leaked spans."""
    strict = t.entities["strict"]
    out: dict[str, dict[str, Any]] = {}
    for label in strict.labels():
        row: dict[str, Any] = {"gold_spans": strict.gold[label], "pred_spans": strict.pred[label]}
        for scheme in SCHEMES:
            row[scheme] = t.entities[scheme].score(label).prf()
        row["gold_elements"] = t.gold_elements[label]
        row["element_recall"] = round(_ratio(t.gold_elements_hit[label], t.gold_elements[label]), 4)
        row["leaked_spans"] = t.leaked[label]
        out[label] = row
    return out


def leakage_metrics(t: Totals) -> dict[str, Any]:
    """Leak-free documents and leaked gold spans per type (see module docstring)."""
    gold = t.entities["strict"].gold
    leaked = sum(t.leaked.values())
    return {
        "documents": t.documents,
        "leak_free_documents": t.leak_free,
        "leak_free_share": round(_ratio(t.leak_free, t.documents), 4),
        "documents_with_gold": t.documents_with_gold,
        "leak_free_share_with_gold": round(_ratio(t.leak_free_with_gold, t.documents_with_gold), 4),
        "gold_spans": sum(gold.values()),
        "leaked_spans": leaked,
        "leaked_share": round(leaked / sum(gold.values()), 4) if sum(gold.values()) else 0.0,
        "per_type": {
            label: {"gold_spans": gold[label], "leaked": t.leaked[label]}
            for label in _ordered_labels(gold)
        },
    }


def keep_metrics(t: Totals) -> dict[str, Any]:
    """Over-anonymization: keep entities hit by a prediction, overall and per keep label."""
    total, hit = sum(t.keep_total.values()), sum(t.keep_hit.values())
    return {
        "total": total,
        "hit": hit,
        "hit_share": round(hit / total, 4) if total else 0.0,
        "per_label": {
            label: {
                "total": t.keep_total[label],
                "hit": t.keep_hit[label],
                "hit_share": round(t.keep_hit[label] / t.keep_total[label], 4),
            }
            for label in sorted(t.keep_total)
        },
    }


def report_metrics(t: Totals) -> dict[str, Any]:
    """The report's metric sections for a set of documents: the whole set, a half, a subset."""
    return {
        "overall": overall_metrics(t),
        "per_type": per_type_metrics(t),
        "leakage": leakage_metrics(t),
        "keep": keep_metrics(t),
    }


def half_metrics(evals: Iterable[DocEval]) -> dict[str, dict[str, Any]]:
    """:func:`report_metrics` of each half (both always present, an empty one with zeros)."""
    groups = {half: Totals() for half in HALVES}
    for ev in evals:
        groups[document_half(ev.doc)].add(ev)
    return {half: report_metrics(groups[half]) for half in HALVES}


def subset_metrics(evals: Sequence[DocEval], ids: Collection[str]) -> dict[str, Any]:
    """:func:`report_metrics` and halves of the documents whose id is in ``ids`` (e.g. those
    whose surrogates no list or training text knows); ids of other documents are ignored."""
    wanted = set(ids)
    chosen = [ev for ev in evals if ev.doc.id in wanted]
    if wanted and not chosen:
        logger.warning("none of the %d subset ids is a gold document here", len(wanted))
    return {**report_metrics(totals(chosen)), "halves": half_metrics(chosen)}


def slice_summary(t: Totals) -> dict[str, Any]:
    """The compact metrics one slice reports."""
    return {
        "documents": t.documents,
        "elements": confusion_dict(t.confusion),
        **{scheme: t.entities[scheme].score().prf() for scheme in ("strict", "overlap", "covered")},
        "leak_free_share": round(_ratio(t.leak_free, t.documents), 4),
        "leaked_spans": sum(t.leaked.values()),
        "keep_hit_share": keep_metrics(t)["hit_share"],
    }


SliceFn = Callable[[DocEval], "str | None"]


def slice_metrics(evals: Iterable[DocEval], slice_of: SliceFn) -> dict[str, dict[str, Any]]:
    """Metrics per slice name; ``slice_of`` names a document's slice, ``None`` leaves it out."""
    groups: dict[str, Totals] = defaultdict(Totals)
    for ev in evals:
        name = slice_of(ev)
        if name is not None:
            groups[name].add(ev)
    return {name: slice_summary(groups[name]) for name in sorted(groups)}


def court_slice(ev: DocEval) -> str:
    return ev.doc.court or "unknown"


def length_slice(ev: DocEval) -> str:
    """Long decisions hold more names per reference chain; errors may grow with length."""
    for bound, name in LENGTH_BUCKETS:
        if bound is None or ev.n_elements < bound:
            return name
    raise AssertionError("the last length bucket is open")


def aktenzeichen_slice(ev: DocEval) -> str:
    """ "dense" if the text cites ≥ 5 file numbers per 1000 elements: numbers that must stay
    (case references) next to numbers that must go (IDs) are a known confusion."""
    count = len(AKTENZEICHEN.findall(ev.doc.text))
    dense = ev.n_elements and count * 1000 / ev.n_elements >= DENSE_AKTENZEICHEN_PER_1000
    return "dense" if dense else "sparse"


DEFAULT_SLICES: dict[str, SliceFn] = {
    "court": court_slice,
    "length": length_slice,
    "aktenzeichen": aktenzeichen_slice,
}


def evaluate(
    gold: Iterable[Document],
    predictions: Mapping[str, Sequence[Span]],
    *,
    slices: Mapping[str, SliceFn] | None = None,
    candidates: Mapping[str, CandidateFn] | None = None,
    subsets: Mapping[str, Collection[str]] | None = None,
) -> dict[str, Any]:
    """The full evaluation report as one JSON-serializable dict.

    Args:
        gold: gold documents; a repeated id is evaluated once (first wins) and reported.
        predictions: predicted spans per document id; a missing id counts as nothing
            predicted, ids not in ``gold`` are reported and ignored.
        slices: named slice functions (default :data:`DEFAULT_SLICES`).
        candidates: optional named candidate selectors for candidate-restricted element
            metrics (the predictions must come from a run that masked those candidates).
        subsets: optional named id sets; each gets the metric sections of its documents.
    Returns:
        ``inputs, overall, per_type, leakage, keep, halves, slices, error_counts, errors``
        (+ ``candidates``, ``subsets``): ids, offsets and counts only. ``halves.dev`` and
        ``halves.sealed`` hold ``overall, per_type, leakage, keep`` of each half.
    """
    gold = list(gold)
    docs, duplicates = _unique(gold)
    evals = [
        evaluate_document(d, predictions.get(d.id, ()), predicted=d.id in predictions) for d in docs
    ]
    t = totals(evals)
    errors = [e for ev in evals for e in ev.errors]
    report: dict[str, Any] = {
        "inputs": _inputs(evals, predictions, duplicates) | {"gold_sha256": documents_sha256(gold)},
        **report_metrics(t),
        "halves": half_metrics(evals),
        "slices": {
            name: slice_metrics(evals, fn)
            for name, fn in (DEFAULT_SLICES if slices is None else slices).items()
        },
        "error_counts": {k: v for k, v in Counter(e["kind"] for e in errors).most_common()},
        "errors": errors,
    }
    if candidates:
        report["candidates"] = {
            name: confusion_dict(candidate_confusion(docs, predictions, fn))
            for name, fn in candidates.items()
        }
    if subsets:
        report["subsets"] = {name: subset_metrics(evals, ids) for name, ids in subsets.items()}
    logger.info("evaluated %d documents, %d errors", len(evals), len(errors))
    return report


def _unique(gold: Iterable[Document]) -> tuple[list[Document], list[str]]:
    seen: set[str] = set()
    docs, duplicates = [], []
    for doc in gold:
        if doc.id in seen:
            duplicates.append(doc.id)
        else:
            seen.add(doc.id)
            docs.append(doc)
    return docs, duplicates


def _inputs(
    evals: list[DocEval], predictions: Mapping[str, Sequence[Span]], duplicates: list[str]
) -> dict[str, Any]:
    """What was evaluated and what did not fit: missing/extra predictions, dropped spans."""
    ids = {ev.doc.id for ev in evals}
    missing = [ev.doc.id for ev in evals if not ev.predicted]
    extra = sorted(set(predictions) - ids)
    return {
        "documents": len(evals),
        "elements": sum(ev.n_elements for ev in evals),
        "empty_documents": sum(1 for ev in evals if ev.n_elements == 0),
        "documents_without_gold": sum(1 for ev in evals if ev.gold_spans == 0),
        "duplicate_gold_ids": duplicates,
        "missing_predictions": {"count": len(missing), "ids": missing},
        "extra_predictions": {"count": len(extra), "ids": extra},
        "dropped_pred_spans": {
            "count": sum(ev.dropped_predictions for ev in evals),
            "ids": [ev.doc.id for ev in evals if ev.dropped_predictions],
        },
    }


# --- prediction files ---------------------------------------------------------------------


@dataclass
class Predictions:
    """Predicted spans per id read from JSONL, with what could not be read."""

    spans: dict[str, list[Span]] = field(default_factory=dict)
    duplicate_ids: list[str] = field(default_factory=list)
    invalid_records: int = 0
    invalid_spans: int = 0

    def issues(self) -> dict[str, Any]:
        return {
            "duplicate_ids": self.duplicate_ids,
            "invalid_records": self.invalid_records,
            "invalid_spans": self.invalid_spans,
        }


def load_predictions(path: str | Path) -> Predictions:
    """Read ``{"id", "spans": [...]}`` lines; a repeated id's spans are merged (and reported),
    a record without id or a span without valid offsets is skipped and counted, ``text`` ignored."""
    from deid.sources.io import read_jsonl

    out = Predictions()
    for rec in read_jsonl(path):
        if not isinstance(rec, dict) or "id" not in rec:
            out.invalid_records += 1
            continue
        doc_id = str(rec["id"])
        if doc_id in out.spans:
            out.duplicate_ids.append(doc_id)
        spans = out.spans.setdefault(doc_id, [])
        for item in rec.get("spans") or []:
            try:
                spans.append(Span.from_dict(item))
            except (KeyError, TypeError, ValueError):
                out.invalid_spans += 1
    return out


# --- candidate-restricted metrics (the thesis' three evaluation methods) -----------------

CandidateFn = Callable[[Document], Sequence[int]]


def all_candidates(doc: Document) -> list[int]:
    """ "Without candidates": every element is classified (the real task)."""
    return list(range(len(text_elements(doc.text))))


def span_candidates(doc: Document, spans: Iterable[Span]) -> list[int]:
    """Indices of the elements any of ``spans`` overlaps (e.g. a NER's entities)."""
    flags = element_flags(text_elements(doc.text), spans)
    return [i for i, f in enumerate(flags) if f]


def entity_candidates(doc: Document) -> list[int]:
    """Elements inside any gold sensitive or keep entity: an oracle NER's candidates, the
    upper bound of the thesis' NER-chosen method."""
    return span_candidates(doc, [*doc.spans, *doc.keep])


def random_candidates(doc: Document, rate: float = 0.025, seed: int = 0) -> list[int]:
    """All gold-positive elements plus ``round(rate × negatives)`` random negative elements.

    Seeded per document (seed and id), so every run and every model sees the same candidates.
    """
    flags = element_flags(text_elements(doc.text), doc.spans)
    positives = [i for i, f in enumerate(flags) if f]
    negatives = [i for i, f in enumerate(flags) if not f]
    share = min(len(negatives), round(rate * len(negatives)))
    chosen = random.Random(f"{seed}:{doc.id}").sample(negatives, share)
    return sorted(positives + chosen)


def restricted_confusion(
    doc: Document, predictions: Iterable[Span], candidates: Iterable[int]
) -> Confusion:
    """Element confusion of one document counted only over the candidate elements."""
    elements = text_elements(doc.text)
    chosen = [elements[i] for i in sorted(set(candidates))]
    gold = _clean_gold(doc.spans, len(doc.text))
    pred, _ = _clean_predictions(predictions, len(doc.text))
    return element_confusion(chosen, gold, pred)[0]


def candidate_confusion(
    gold: Iterable[Document], predictions: Mapping[str, Sequence[Span]], select: CandidateFn
) -> Confusion:
    """Element confusion over the candidates ``select`` picks, summed over documents."""
    total = Confusion()
    for doc in gold:
        total = total + restricted_confusion(doc, predictions.get(doc.id, ()), select(doc))
    return total


CANDIDATE_METHODS: dict[str, CandidateFn] = {
    "random": random_candidates,
    "entity": entity_candidates,
    "all": all_candidates,
}
