"""Stage ``validate``: the Great Expectations data checks (``deid.ops.checks``) as the gate.

Runs the three suites with the thresholds of the params file (section ``validate``):
``corpus_integrity`` and ``training_set`` on the corpus with the ``placeholders`` stage's
spans, ``placeholder_quality`` on the gold sets (reviewed LER courts, hand-decided Bavarian
set and its holdout part) scoring those same spans. The gold files come from argv (they
override ``validate.ler_adjudication`` …). Writes every suite's numbers as metrics and the
readable summaries, and exits 1 when a suite fails, so the pipeline stops before ``dataset``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pipelines import logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(
        __doc__, "corpus", "placeholders", "adjudication", "decisions", "holdout", "params",
        "gx", "metrics", "summary",
    )  # fmt: skip
    args = p.parse_args(argv)
    setup_logging()
    logging.getLogger("great_expectations").setLevel(logging.WARNING)
    from deid.ops.checks import load_check_params, run_suites
    from deid.sources.io import write_text_atomic

    params = replace(
        load_check_params(args.params),
        ler_adjudication=str(args.adjudication),
        bavaria_decisions=str(args.decisions),
        bavaria_holdout=str(args.holdout),
    )
    results = run_suites(args.corpus, params, args.placeholders, project_dir=args.gx)
    metrics: dict[str, Any] = {
        r.suite: {"success": r.success, "failed": len(r.failed), **r.statistics} for r in results
    }
    metrics["passed"] = all(r.success for r in results)
    write_json(args.metrics, metrics)
    write_text_atomic(args.summary, "\n\n".join(r.summary for r in results) + "\n")
    failed = [f"{r.suite}: {', '.join(r.failed_checks)}" for r in results if not r.success]
    logger.info("validate: %s", "; ".join(failed) or "all suites passed")
    if failed:
        raise SystemExit(f"validation failed ({'; '.join(failed)}), see {args.summary}")


if __name__ == "__main__":
    main()
