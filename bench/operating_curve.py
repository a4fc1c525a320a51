"""The model's operating curve on the gold sets' dev halves: recall and precision of the whole
pipeline when the model's spans are kept only above a score. It answers whether a threshold
(a rule) could reach the precision target without giving up recall, or whether the model
itself has to get better.

    python -m bench.operating_curve --model models/small --output reports/operating_curve.json

The model runs once per gold set at the pipeline's own threshold; each row then drops the
model spans under its score and runs the rule chain on the rest (an approximation of a higher
threshold: spans are not re-decoded, so boundaries stay those of the lower one). Only dev
halves are reported: these figures may steer choices, the sealed halves may not.

Only counts and metrics are written: no document text, no entity string.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import Any

from deid.anonymizer.pipeline import Pipeline, build_pipeline
from deid.evaluation.metrics import evaluate
from deid.schema import Span
from deid.sources.io import read_documents

logger = logging.getLogger(__name__)

GOLD_SETS = {
    "ler": "data/gold/ler_rewritten.jsonl",
    "ler_novel": "data/gold/ler_rewritten_novel.jsonl",
    "bavaria": "data/gold/bavaria/rewritten.jsonl",
}
SCORES = (0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95)
BATCH = 8


def _dev_row(report: dict[str, Any]) -> dict[str, float]:
    dev = report["halves"]["dev"]
    e = dev["overall"]["elements"]
    return {
        "recall": e["recall"],
        "precision": e["precision"],
        "f2": e["f2"],
        "leak_free_share": dev["leakage"]["leak_free_share"],
    }


def curve(pipeline: Pipeline, path: str, scores: tuple[float, ...]) -> dict[str, Any]:
    """Dev-half metrics per minimum model score on the gold set at ``path``."""
    docs = list(read_documents(path))
    texts = [d.text for d in docs]
    model: list[list[Span]] = []
    for i in range(0, len(texts), BATCH):
        model.extend(pipeline.model_spans(texts[i : i + BATCH]))
    rows = {}
    for score in scores:
        preds = {
            d.id: pipeline.finish(d.text, [s for s in spans if (s.score or 0.0) >= score])
            for d, spans in zip(docs, model)
        }
        rows[f"{score:g}"] = _dev_row(evaluate(docs, preds))
    return {"documents": len(docs), "min_model_score": rows}


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
        "half": "dev",
        "sets": {name: curve(pipeline, path, SCORES) for name, path in GOLD_SETS.items()},
    }
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for name, data in report["sets"].items():
        for score, m in data["min_model_score"].items():
            logger.info("%s score>=%s R %.3f P %.3f", name, score, m["recall"], m["precision"])


if __name__ == "__main__":
    main()
