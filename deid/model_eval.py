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
from typing import Any

from deid.anonymize import Pipeline
from deid.elements import Confusion, element_flags, text_elements
from deid.evaluation import entity_candidates, evaluate, random_candidates
from deid.schema import Document, Span
from deid.textedit import apply_replacements

logger = logging.getLogger(__name__)

MASK = "[MASK]"
CandidateFn = Callable[[Document], list[int]]
METHODS: dict[str, CandidateFn | None] = {
    "all": None,
    "random": lambda d: random_candidates(d, rate=0.025, seed=0),
    "entity": entity_candidates,
}


def predict_documents(pipeline: Pipeline, docs: Sequence[Document], *, rules: bool = True) -> dict[str, list[Span]]:
    """Predicted spans per document id (model + recognizers + policy + consistency)."""
    if rules:
        return {d.id: spans for d, spans in zip(docs, pipeline.analyze_many([d.text for d in docs]))}
    assert pipeline.classifier is not None
    return {d.id: spans for d, spans in zip(docs, pipeline.classifier.predict([d.text for d in docs]))}


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


def evaluate_pipeline(
    pipeline: Pipeline,
    gold: Sequence[Document],
    methods: Sequence[str] = ("all",),
    subsets: Mapping[str, Collection[str]] | None = None,
) -> dict:
    """The evaluation report of the full pipeline (with its dev and sealed halves and any
    named id ``subsets``), a model-only report and the thesis' candidate methods."""
    report = evaluate(gold, predict_documents(pipeline, gold), subsets=subsets)
    if pipeline.classifier is not None:
        model_only = evaluate(gold, predict_documents(pipeline, gold, rules=False))
        report["model_only"] = _overall_and_types(model_only)
        report["model_only"]["halves"] = {
            half: _overall_and_types(part) for half, part in model_only["halves"].items()
        }
        methods_out = {}
        for name in methods:
            if name == "all":
                methods_out[name] = model_only["overall"]["elements"]
                continue
            conf = masked_confusion(pipeline, gold, METHODS[name])  # type: ignore[arg-type]
            methods_out[name] = conf.as_dict()
        report["thesis_methods"] = methods_out
    return report


def _overall_and_types(report: Mapping[str, Any]) -> dict[str, Any]:
    return {"overall": report["overall"], "per_type": report["per_type"]}
