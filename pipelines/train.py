"""Stage ``train``: one training run (``deid.training.job.run_training``) on the dataset.

The profile (tiny | small | base) and every setting come from the params file
(``model.profile`` …); ``--reviews`` adds the reviewed decisions and ``--written`` the decisions
written from scratch (all of them, whatever ``max_documents`` keeps of the corpus). Writes the pipeline directory, the run's headline numbers as metrics
and the per-epoch loss and validation precision/recall/F1/F2 as a plot table.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipelines import logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "dataset", "placeholders", "params", "output", "metrics", "plots")
    p.add_argument("--reviews", type=Path, help="Reviewed decisions (the reviews stage's train.jsonl).")
    p.add_argument("--written", type=Path, help="Written decisions (the written stage's train.jsonl).")
    args = p.parse_args(argv)
    setup_logging()
    from deid.training.job import run_training
    from deid.training.settings import load_settings

    settings = load_settings(args.params)
    out = run_training(
        args.dataset, args.output, settings, placeholders_path=args.placeholders,
        reviews_path=args.reviews, written_path=args.written,
    )  # fmt: skip
    report, result = out.report, out.report["result"]
    write_json(
        args.plots,
        [
            {
                "epoch": h["epoch"],
                "train_loss": h["train_loss"],
                **{f"val_{k}": v for k, v in h["val"].items()},
            }
            for h in result["history"]
        ],
    )
    write_json(
        args.metrics,
        {
            "profile": report["profile"],
            "documents": report["documents"],
            "parameters": report["parameters"],
            "epochs": len(result["history"]),
            "best_epoch": result["best_epoch"],
            "best_val": result["best_val"],
            "stopped_early": result["stopped_early"],
            "seconds": report["seconds"],
        },
    )
    logger.info(
        "trained %s: best epoch %s of %d",
        report["profile"],
        result["best_epoch"],
        len(result["history"]),
    )


if __name__ == "__main__":
    main()
