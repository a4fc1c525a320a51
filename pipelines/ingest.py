"""Stage ``ingest``: the raw corpus (data/raw) → the document-level split (data/corpus).

Reserved evaluation parts go to ``test`` only (``deid.sources.corpus``). Unreadable raw files are
listed in the manifest; more than ``--max-rejected`` of them fail the stage.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipelines import logger, parser, read_params, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "raw", "params", "output", "metrics")
    p.add_argument("--max-rejected", type=int, default=0)
    args = p.parse_args(argv)
    setup_logging()
    from deid.sources.corpus import SPLITS, build_corpus

    params = read_params(args.params, "corpus", ("validation_share", "salt"))
    manifest = build_corpus(
        args.raw, args.output, float(params["validation_share"]), str(params["salt"])
    )
    splits = manifest["splits"]
    metrics = {
        name: {k: splits[name][k] for k in ("documents", "characters", "entities")}
        for name in SPLITS
    }
    metrics["rejected"] = len(manifest["rejected"])
    write_json(args.metrics, metrics)
    logger.info("corpus: %s", {name: splits[name]["documents"] for name in SPLITS})
    if metrics["rejected"] > args.max_rejected:
        raise SystemExit(
            f"{metrics['rejected']} raw file(s) rejected (see {args.output}/manifest.json), "
            f"more than the allowed {args.max_rejected}"
        )


if __name__ == "__main__":
    main()
