"""Validation of placeholder detection against gold sets (Schamberger 2019, §5.3.2.1).

Element-level precision, recall, F1 and accuracy as in the thesis, per court and overall,
plus an error list of ids and offsets (no text) for analysis.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Callable, Iterable

from deid.rewrite.placeholders.gold import (
    LER_PLACEHOLDER_TYPES,
    ler_gold_placeholders,
    ler_unjudged,
)
from deid.schema import Document, Span
from deid.sources.elements import (
    Confusion,
    element_confusion,
    element_flags,
    element_labels,
    first_overlapping,
    text_elements,
)

Detector = Callable[[str], list[Span]]
COVERED_LABELS = frozenset(LER_PLACEHOLDER_TYPES.values())


@dataclass
class DetectionReport:
    """Metrics overall and per group (court), the error list and type agreement."""

    name: str
    overall: Confusion = field(default_factory=Confusion)
    groups: dict[str, Confusion] = field(default_factory=dict)
    errors: list[dict] = field(default_factory=list)
    type_agreement: Counter = field(default_factory=Counter)
    documents: int = 0
    unjudged_elements: int = 0

    def to_dict(self) -> dict:
        agree = self.type_agreement
        total = sum(agree.values())
        return {
            "name": self.name,
            "documents": self.documents,
            "unjudged_elements": self.unjudged_elements,
            "overall": self.overall.as_dict(),
            "groups": {k: v.as_dict() for k, v in sorted(self.groups.items())},
            "type_accuracy": round(agree["same"] / total, 4) if total else None,
            "errors_by_rule": dict(Counter(e["rule"] for e in self.errors).most_common()),
            "errors": self.errors,
        }


def evaluate_detection(
    name: str,
    docs: Iterable[Document],
    gold_of: Callable[[Document], list[Span]],
    detect: Detector,
    *,
    group_of: Callable[[Document], str] = lambda d: d.court or "all",
    scored: Callable[[Document, list[Span], list[Span]], list[Span]] | None = None,
    unjudged: Callable[[Document], list[Span]] | None = None,
    adjudication: dict[str, list[tuple[int, int, bool]]] | None = None,
) -> DetectionReport:
    """Score ``detect`` against ``gold_of`` on every document.

    ``scored`` may drop predictions the gold set cannot judge (e.g. LER does not annotate
    dates or amounts); it receives (doc, gold, predictions) and returns the predictions kept.
    """
    report = DetectionReport(name)
    for doc in docs:
        gold = gold_of(doc)
        pred = detect(doc.text)
        if scored is not None:
            pred = scored(doc, gold, pred)
        elements = text_elements(doc.text)
        if unjudged is not None:
            skip = unjudged(doc)
            if skip:
                flags = element_flags(elements, skip)
                report.unjudged_elements += sum(flags)
                elements = [el for el, f in zip(elements, flags) if not f]
        overrides = (adjudication or {}).get(doc.id, [])
        if overrides:
            gold = _adjudicate(elements, gold, overrides)
        conf, fps, fns = element_confusion(elements, gold, pred)
        report.documents += 1
        report.overall = report.overall + conf
        group = group_of(doc)
        report.groups[group] = report.groups.get(group, Confusion()) + conf
        gold_labels = element_labels(elements, gold)
        pred_labels = element_labels(elements, pred)
        for gl, pl in zip(gold_labels, pred_labels):
            if gl and pl:
                report.type_agreement["same" if gl == pl else f"{gl}->{pl}"] += 1
        pred_rule = _rules_by_element(elements, pred)
        for i in fps:
            report.errors.append(_error(doc, elements[i], "FP", pl=pred_labels[i], rule=pred_rule[i]))
        for i in fns:
            report.errors.append(_error(doc, elements[i], "FN", gl=gold_labels[i], rule="missed"))
    return report


def _adjudicate(elements, gold: list[Span], overrides: list[tuple[int, int, bool]]) -> list[Span]:
    """Gold after a reviewed verdict: an element judged a placeholder becomes a gold span,
    gold spans over an element judged not a placeholder are cut out of it."""
    out = list(gold)
    for start, end, is_placeholder in overrides:
        for el in elements:
            if el.start < end and start < el.end:
                if is_placeholder:
                    out.append(Span(el.start, el.end, "OTHER", source="adjudicated"))
                else:
                    cut: list[Span] = []
                    for g in out:
                        if g.start < el.end and el.start < g.end:
                            if g.start < el.start:
                                cut.append(Span(g.start, el.start, g.label, source=g.source))
                            if el.end < g.end:
                                cut.append(Span(el.end, g.end, g.label, source=g.source))
                        else:
                            cut.append(g)
                    out = cut
    return sorted(out)


def load_adjudication(path) -> dict[str, list[tuple[int, int, bool]]]:
    """Reviewed disagreements between a gold set and the detector (ids and offsets only)."""
    from deid.sources.io import read_jsonl

    out: dict[str, list[tuple[int, int, bool]]] = defaultdict(list)
    for rec in read_jsonl(path):
        out[str(rec["doc_id"])].append((int(rec["start"]), int(rec["end"]), rec["verdict"] == "placeholder"))
    return dict(out)


def _rules_by_element(elements, pred: list[Span]) -> list[str]:
    """The rule (span source without ``placeholder:``) of the first prediction on each element."""
    return [(s.source or "").removeprefix("placeholder:") if s is not None else ""
            for s in first_overlapping(elements, sorted(pred))]  # fmt: skip


def _error(doc: Document, el, kind: str, *, pl=None, gl=None, rule: str = "") -> dict:
    return {
        "id": doc.id,
        "court": doc.court,
        "start": el.start,
        "end": el.end,
        "error": kind,
        "pred_label": pl,
        "gold_label": gl,
        "rule": rule,
    }


def ler_scored_predictions(doc: Document, gold: list[Span], pred: list[Span]) -> list[Span]:
    """Keep predictions LER can judge: person/place/company types, or any type overlapping a
    gold placeholder. Dates, amounts and ids outside LER entities are not annotated by LER."""
    return [p for p in pred if p.label in COVERED_LABELS or any(p.overlaps(g) for g in gold)]


def evaluate_on_ler(
    docs: Iterable[Document], detect: Detector, name: str = "ler", adjudication=None
) -> DetectionReport:
    """Score against the LER-derived gold; with ``adjudication`` (a reviewed list of
    disagreements, see data/gold/ler_adjudication.jsonl) against the corrected gold."""
    return evaluate_detection(
        name,
        docs,
        ler_gold_placeholders,
        detect,
        scored=ler_scored_predictions,
        unjudged=ler_unjudged,
        adjudication=load_adjudication(adjudication) if adjudication else None,
    )


def group_errors(errors: list[dict]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for e in errors:
        out[f"{e['error']}:{e['rule']}"] += 1
    return dict(out)


def decisions_gold(decisions_path) -> dict[str, list[Span]]:
    """Gold placeholder spans per document from a placeholder-decisions file (the manual
    rewrite): every span a person marked as a placeholder, in original-text offsets."""
    from deid.sources.io import read_jsonl

    gold: dict[str, list[Span]] = defaultdict(list)
    for rec in read_jsonl(decisions_path):
        if rec.get("record", "decision") == "decision" and rec.get("decision") == "placeholder":
            gold[str(rec["doc_id"])].append(
                Span(int(rec["start"]), int(rec["end"]), str(rec.get("label") or "OTHER"), source="manual-gold")
            )
    return dict(gold)


def evaluate_on_decisions(docs: Iterable[Document], decisions_path, detect: Detector, name: str = "manual") -> DetectionReport:
    """Score detection on the documents a person decided (only those present in the file)."""
    gold = decisions_gold(decisions_path)
    decided = _decided_docs(decisions_path)
    chosen = [d for d in docs if d.id in decided]
    return evaluate_detection(name, chosen, lambda d: gold.get(d.id, []), detect)


def _decided_docs(decisions_path) -> set[str]:
    """Documents a person finished (status done); open ones are not scored."""
    from deid.sources.io import read_jsonl

    return {
        str(r["doc_id"])
        for r in read_jsonl(decisions_path)
        if r.get("record") == "document" and r.get("status") == "done"
    }
