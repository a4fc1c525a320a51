"""The model's operating curve on the gold sets' dev documents: recall and precision of the
whole pipeline when the model's spans are kept only above a score. It answers whether a
threshold (a rule) could reach the precision target without giving up recall, or whether the
model itself has to get better.

    python -m bench.operating_curve --model models/small --output reports/operating_curve.json

Each set is scored as the gate scores it: under its own profile (LER ``federal``, the
Bavarian sets ``strict``; deid.evaluation.profiles), the courts' disagreements with it set
aside. The model runs once per set at the pipeline's threshold (below a profile's own one,
``model@4``: the rows show what another threshold for that profile would do), on the dev documents
only (the dev half; all of the from-scratch dev set, which is a dev set as a whole): the
sealed halves are never read, as these figures may steer choices. Each row then drops the
model spans under its score and runs the rule chain on the rest (an approximation of a higher
threshold: spans are not re-decoded, so boundaries stay those of the lower one).

Only counts and metrics are written: no document text, no entity string.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import Any

from deid.anonymizer.pipeline import Pipeline, build_pipeline
from deid.evaluation.metrics import document_half, evaluate
from deid.evaluation.profiles import GOLD_FILES, gold_profile, set_aside, under_profile
from deid.schema import Span
from deid.sources.io import read_documents

logger = logging.getLogger(__name__)

# the sets whose dev documents may steer a choice; the from-scratch dev set is dev as a whole
DEV_SETS = ("ler", "ler_novel", "bavaria", "bavaria_scratch_dev")
WHOLLY_DEV = frozenset({"bavaria_scratch_dev"})
SCORES = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
BATCH = 8


def _row(report: dict[str, Any]) -> dict[str, float]:
    e = report["overall"]["elements"]
    return {
        "recall": e["recall"],
        "precision": e["precision"],
        "f2": e["f2"],
        "leak_free_share": report["leakage"]["leak_free_share"],
    }


def curve(pipeline: Pipeline, name: str, scores: tuple[float, ...]) -> dict[str, Any]:
    """Metrics of the dev documents of the gold set ``name`` per minimum model score, under
    the set's own profile."""
    profile = gold_profile(name)
    docs = [
        d
        for d in read_documents(GOLD_FILES[name])
        if name in WHOLLY_DEV or document_half(d) == "dev"
    ]
    pipeline = pipeline.with_overrides(profile=profile)
    assert pipeline.classifier is not None, "the operating curve is the model's"
    model: list[list[Span]] = []
    for i in range(0, len(docs), BATCH):  # at the pipeline's threshold, not a profile's own (model@4)
        model.extend(pipeline.classifier.predict([d.text for d in docs[i : i + BATCH]]))
    scored = under_profile(docs, profile, profile)
    rows = {}
    for score in scores:
        preds = {
            d.id: pipeline.finish(d.text, [s for s in spans if (s.score or 0.0) >= score])
            for d, spans in zip(docs, model)
        }
        rows[f"{score:g}"] = _row(evaluate(scored.docs, set_aside(preds, scored)))
    return {"documents": len(docs), "profile": profile, "min_model_score": rows}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="models/small", help="saved pipeline directory")
    ap.add_argument("--output", default="reports/operating_curve.json")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    pipeline = build_pipeline(args.model)
    report = {
        "model": args.model,
        "pipeline_threshold": pipeline.config.model.threshold,
        "documents": "dev",
        "sets": {name: curve(pipeline, name, SCORES) for name in DEV_SETS},
    }
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for name, data in report["sets"].items():
        for score, m in data["min_model_score"].items():
            logger.info("%s score>=%s R %.3f P %.3f", name, score, m["recall"], m["precision"])


if __name__ == "__main__":
    main()
