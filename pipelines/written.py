"""Stage ``written``: decisions written from scratch in the Bavarian manner → training documents.

Reads the markup files of params ``written.files`` (``deid.training.written``), refuses any
decision too close to a reserved evaluation document (the corpus's test split and params
``reviews.reserved_gold``, by ``reviews.reserved_overlap``) and writes the rest as documents with
gold ``spans`` and ``keep`` spans to ``<output>/train.jsonl``. Metrics: documents, spans and keep
spans per type, the highest overlap (no text).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipelines import logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "corpus", "params", "output", "metrics")
    p.add_argument(
        "--file", action="append", type=Path, help="A markup file (default: params written.files)."
    )
    p.add_argument("--gold", action="append", type=Path,
                   help="A reserved gold set (default: params reviews.reserved_gold).")  # fmt: skip
    args = p.parse_args(argv)
    setup_logging()
    from deid.sources.io import write_documents
    from deid.sources.params import load_params
    from deid.sources.reviews.dataset import ReservedIndex, ReviewSettings, reserved_texts
    from deid.training.written import TRAIN_FILE, WrittenSettings, read_written

    params = load_params(args.params)
    settings, reviews = WrittenSettings.from_params(params), ReviewSettings.from_params(params)
    files = args.file or settings.files
    reserved = ReservedIndex.build(reserved_texts(args.corpus, args.gold or reviews.reserved_gold))
    corpus = read_written(files, reserved, reviews.reserved_overlap)
    args.output.mkdir(parents=True, exist_ok=True)
    write_documents(args.output / TRAIN_FILE, corpus.documents)
    report = corpus.report() | {"reserved_documents_indexed": reserved.documents}
    write_json(args.metrics, report)
    logger.info(
        "written decisions: %d (highest reserved overlap %.3f)",
        report["documents"],
        report["max_overlap"],
    )


if __name__ == "__main__":
    main()
