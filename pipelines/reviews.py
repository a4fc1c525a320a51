"""Stage ``reviews``: saved reviews → training documents and the gate's ``reviews`` set.

Reads the review store (``--reviews``, the folder ``deid serve`` saves into; an empty or
missing one gives empty sets) and ``deid.sources.reviews.dataset.prepare_reviews`` decides each
line: the latest review of each document is used, reviews of reserved evaluation documents
(the corpus's test split, ``--gold`` sets) are refused and counted, the rest split by a
salted hash of the document into ``<output>/train.jsonl`` and ``<output>/evaluation.jsonl``
(documents with gold ``spans``). Metrics: counts per use, the ids on each side, the refused
lines and the model's agreement with its reviewers per type (no text).

With ``--gx`` the Great Expectations suite ``reviews`` checks the store and what became of
each line first; a failed suite ends the stage before anything is written (the Prefect
flows run the same suite in their validate step).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from pipelines import logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "reviews", "corpus", "params", "output", "metrics")
    p.add_argument("--gx", type=Path, help="Great Expectations project: run the reviews suite.")
    p.add_argument("--gold", action="append", type=Path,
                   help="A reserved gold set (default: params reviews.reserved_gold).")  # fmt: skip
    p.add_argument("--limit", type=int, help="Read only the first LIMIT bytes of the store.")
    args = p.parse_args(argv)
    setup_logging()
    from deid.sources.reviews.dataset import load_review_settings, prepare_store, write_prepared

    settings = load_review_settings(args.params)
    if args.gold:
        settings = replace(settings, reserved_gold=tuple(map(str, args.gold)))
    records, reserved, prepared = prepare_store(args.reviews, args.corpus, settings, args.limit)
    if args.gx:
        logging.getLogger("great_expectations").setLevel(logging.WARNING)
        from deid.ops.checks.run import check_prepared_reviews

        result = check_prepared_reviews(records, prepared, reserved, settings, project_dir=args.gx)
        if not result.success:
            raise SystemExit(f"reviews suite failed ({', '.join(result.failed_checks)}): "
                             f"{result.summary_path}")  # fmt: skip
    write_prepared(prepared, args.output)
    report = prepared.report() | {"reserved_documents_indexed": reserved.documents}
    write_json(args.metrics, report)
    logger.info("reviews: %s", prepared.counts())


if __name__ == "__main__":
    main()
