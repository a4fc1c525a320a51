"""A trained pipeline on a rewritten test set: the full report plus the thesis' three
evaluation methods (Schamberger 2019, §5.5.3).

* ``all`` (without candidates): every element classified, nothing masked — the real task.
* ``random``: all gold-positive elements plus 2.5 % random others are masked with
  ``[MASK]`` and only those candidates are scored.
* ``entity``: candidates are the elements of every gold entity, sensitive or kept (an oracle
  NER; the upper bound of the thesis' NER-chosen candidates), masked and scored.

Masking replaces a whole element by the single element ``[MASK]``, so element indices stay
aligned between the masked and the original text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deid.anonymizer.pipeline import Pipeline
from deid.evaluation.metrics import entity_candidates, evaluate, random_candidates
from deid.evaluation.profiles import set_aside, under_profile
from deid.schema import PROFILES, Document, Span
from deid.sources.elements import Confusion, element_flags, text_elements
from deid.sources.io import documents_sha256
from deid.sources.textedit import apply_replacements

logger = logging.getLogger(__name__)

MASK = "[MASK]"
CandidateFn = Callable[[Document], list[int]]
METHODS: dict[str, CandidateFn | None] = {
    "all": None,
    "random": lambda d: random_candidates(d, rate=0.025, seed=0),
    "entity": entity_candidates,
}


SLICE_DOCUMENTS = 16  # documents predicted together (one task each in the retrain flow)


def slices(count: int, size: int = SLICE_DOCUMENTS) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges over ``count`` documents, the units an evaluation predicts in.
    Their size is fixed, so the model batches the same windows together however many workers
    share the slices, and the figures never depend on the worker count."""
    return [(start, min(count, start + size)) for start in range(0, count, size)]


@dataclass(frozen=True)
class Predictions:
    """Spans per document id: the full pipeline's (model + recognizers + policy +
    consistency) under its own profile, under each anonymization profile (empty for a
    pipeline saved before profiles) and the model's alone (None for a pipeline without a
    model)."""

    pipeline: dict[str, list[Span]]
    model: dict[str, list[Span]] | None
    profiles: dict[str, dict[str, list[Span]]] = field(default_factory=dict)

    @classmethod
    def combine(cls, parts: Sequence[Predictions]) -> Predictions:
        """The predictions of consecutive slices as one."""
        pipeline = {k: v for p in parts for k, v in p.pipeline.items()}
        names = set.intersection(*(set(p.profiles) for p in parts)) if parts else set()
        profiles = {n: {k: v for p in parts for k, v in p.profiles[n].items()} for n in sorted(names)}
        if any(p.model is None for p in parts):
            return cls(pipeline, None, profiles)
        return cls(pipeline, {k: v for p in parts for k, v in (p.model or {}).items()}, profiles)

    def under(self, profile: str | None) -> dict[str, list[Span]]:
        """The full pipeline's spans under ``profile`` (its own profile's when the pipeline
        has none: saved before profiles)."""
        return self.profiles.get(profile or "", self.pipeline)


def predict_slice(pipeline: Pipeline, docs: Sequence[Document]) -> Predictions:
    """All predictions of ``docs`` from one model run: the rule layers finish the model's
    spans under each profile instead of running the model again."""
    texts = [d.text for d in docs]
    has_model = pipeline.config.use_model and pipeline.classifier is not None
    own = pipeline.config.profile
    names = [own] if own is None else [own, *(n for n in PROFILES if n != own)]
    under = pipeline.model_spans_under(texts, names)  # one model run, each profile at its threshold
    ids = [d.id for d in docs]
    full = dict(zip(ids, pipeline.analyze_many(texts, under[own])))
    profiles = {}
    if own is not None:
        for name in PROFILES:
            variant = pipeline if name == own else pipeline.with_overrides(profile=name)
            profiles[name] = full if variant is pipeline else dict(zip(ids, variant.analyze_many(texts, under[name])))
    return Predictions(full, dict(zip(ids, under[own])) if has_model else None, profiles)


def predict_documents(pipeline: Pipeline, docs: Sequence[Document]) -> Predictions:
    """Both predictions of every document, slice by slice (:func:`slices`)."""
    return Predictions.combine([predict_slice(pipeline, docs[a:b]) for a, b in slices(len(docs))])


def masked_confusion(pipeline: Pipeline, docs: Sequence[Document], select: CandidateFn) -> Confusion:
    """Element confusion over candidates, the candidates masked in the model input (model only,
    as in the thesis: no recognizers, no consistency)."""
    assert pipeline.classifier is not None, "the candidate methods need a model"
    total = Confusion()
    for doc in docs:
        elements = text_elements(doc.text)
        chosen = sorted(set(select(doc)))
        replacements = [(Span(elements[i].start, elements[i].end, "O"), MASK) for i in chosen]
        masked, _, _ = apply_replacements(doc.text, replacements)
        masked_elements = text_elements(masked)
        pred = pipeline.classifier.predict([masked])[0]
        pred_flags = element_flags(masked_elements, pred)
        gold_flags = element_flags(elements, doc.spans)
        tp = fp = fn = tn = 0
        for i in chosen:
            g, p = gold_flags[i], pred_flags[i]
            tp += g and p
            fp += p and not g
            fn += g and not p
            tn += not g and not p
        total = total + Confusion(tp, fp, fn, tn)
    return total


def evaluate_predictions(
    gold: Sequence[Document],
    predictions: Predictions,
    subsets: Mapping[str, Collection[str]] | None = None,
    profile: str | None = None,
) -> dict:
    """The evaluation report of the full pipeline's spans (with its dev and sealed halves and
    any named id ``subsets``) on ``gold``, a set whose courts follow ``profile`` (None: no
    profile, the set as it is), and, given the model's own, a model-only report (its
    elements are the thesis method ``all``). With a profile the set is scored under it
    (deid.evaluation.profiles), and ``by_profile`` gives the headline figures under every
    profile, both halves."""
    if profile is None:
        report = evaluate(gold, predictions.pipeline, subsets=subsets)
    else:
        report = {}
        for name in (profile, *(p for p in PROFILES if p != profile)):
            scored = under_profile(gold, name, profile)
            part = evaluate(scored.docs, set_aside(predictions.under(name), scored), subsets=subsets)
            part["disagreements"] = scored.summary()
            if name == profile:
                report = part
                report["profile"] = profile
                report["by_profile"] = {}
            report["by_profile"][name] = {"overall": part["overall"], "leakage": part.get("leakage"),
                                          "disagreements": part["disagreements"],
                                          "halves": {h: {"overall": v["overall"]} for h, v in part["halves"].items()}}  # fmt: skip
        # the gate checks which documents were scored: the set as committed, not the
        # profile's view of it (its disagreements set aside)
        report["inputs"]["gold_sha256"] = documents_sha256(gold)
    if predictions.model is not None:
        model_gold = gold if profile is None else under_profile(gold, profile, profile)
        model_only = (evaluate(gold, predictions.model) if profile is None
                      else evaluate(model_gold.docs, set_aside(predictions.model, model_gold)))  # fmt: skip
        report["model_only"] = _overall_and_types(model_only)
        report["model_only"]["halves"] = {
            half: _overall_and_types(part) for half, part in model_only["halves"].items()
        }
        report["thesis_methods"] = {"all": model_only["overall"]["elements"]}
    return report


def evaluate_pipeline(
    pipeline: Pipeline,
    gold: Sequence[Document],
    methods: Sequence[str] = ("all",),
    subsets: Mapping[str, Collection[str]] | None = None,
    profile: str | None = None,
) -> dict:
    """The evaluation report of the full pipeline (:func:`evaluate_predictions`, the set's
    courts following ``profile``) and the thesis' candidate methods."""
    report = evaluate_predictions(gold, predict_documents(pipeline, gold), subsets, profile)
    if "thesis_methods" in report:
        found = report["thesis_methods"]["all"]
        report["thesis_methods"] = {
            name: found if name == "all" else _masked(pipeline, gold, name) for name in methods
        }
    return report


def _masked(pipeline: Pipeline, gold: Sequence[Document], method: str) -> dict[str, Any]:
    return masked_confusion(pipeline, gold, METHODS[method]).as_dict()  # type: ignore[arg-type]


def _overall_and_types(report: Mapping[str, Any]) -> dict[str, Any]:
    return {"overall": report["overall"], "per_type": report["per_type"]}
