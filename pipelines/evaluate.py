"""Stage ``evaluate``: the trained pipeline on the rewritten test sets.

Per test set (``--gold NAME=PATH``): the full report of ``deid.evaluation.gold_sets.evaluate_pipeline``
and its error list (ids and offsets) under ``--reports``, headline numbers in one metrics
file, and per-type element recall as a plot table (``--plot NAME=PATH``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipelines import logger, parser, setup_logging, write_json


def _named(values: list[str]) -> dict[str, Path]:
    pairs = [v.split("=", 1) for v in values]
    if any(len(p) != 2 for p in pairs):
        raise SystemExit("expected NAME=PATH")
    return {name: Path(path) for name, path in pairs}


def headline(report: dict[str, Any]) -> dict[str, Any]:
    """The numbers worth comparing between runs (``dvc metrics diff``)."""
    out: dict[str, Any] = {
        "documents": report["overall"]["documents"],
        "elements": report["overall"]["elements"],
        "leak_free_share": report["leakage"]["leak_free_share"],
        "keep_hit_share": report["keep"]["hit_share"],
        "recall_per_type": {
            label: row["element_recall"]
            for label, row in report["per_type"].items()
            if row["gold_elements"]
        },
    }
    if "thesis_methods" in report:
        out["model_only"] = report["model_only"]["overall"]["elements"]
        out["thesis_methods"] = report["thesis_methods"]
    if "halves" in report:  # dev (error analysis allowed) and sealed (report only)
        out["halves"] = {half: headline(part) for half, part in report["halves"].items()}
    return out


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "model", "reports", "metrics")
    p.add_argument("--gold", action="append", required=True, help="NAME=PATH of a test set.")
    p.add_argument("--plot", action="append", required=True, help="NAME=PATH of its recall plot.")
    p.add_argument("--methods", default="all", help="Thesis methods: all,random,entity.")
    args = p.parse_args(argv)
    setup_logging()
    gold, plots = _named(args.gold), _named(args.plot)
    if set(gold) != set(plots):
        raise SystemExit("every --gold needs a --plot of the same name")
    from deid.anonymizer.pipeline import build_pipeline
    from deid.evaluation.gold_sets import evaluate_pipeline
    from deid.evaluation.profiles import gold_profile
    from deid.sources.io import read_documents, write_jsonl

    pipeline = build_pipeline(args.model)
    methods = [m for m in args.methods.split(",") if m]
    metrics: dict[str, Any] = {}
    for name, path in gold.items():
        # each set under the profile its courts follow (LER federal, Bavaria strict), every
        # profile's headline beside it (deid.evaluation.profiles)
        report = evaluate_pipeline(pipeline, read_documents(path), methods, profile=gold_profile(name))
        write_jsonl(args.reports / f"{name}.errors.jsonl", report.pop("errors", []))
        write_json(args.reports / f"{name}.json", report)
        metrics[name] = headline(report)
        write_json(
            plots[name],
            [
                {
                    "type": label,
                    "recall": row["element_recall"],
                    "gold_elements": row["gold_elements"],
                }
                for label, row in report["per_type"].items()
                if row["gold_elements"]
            ],
        )
        logger.info(
            "evaluated %s: %d documents, element recall %s",
            name,
            metrics[name]["documents"],
            metrics[name]["elements"]["recall"],
        )
    write_json(args.metrics, metrics)


if __name__ == "__main__":
    main()
