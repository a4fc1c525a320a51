"""Stage ``paragraphs``: paragraph extraction of every corpus document.

Writes ``<output>/<split>.jsonl`` with ``{"id", "paragraphs": [{"text", "kind", "runs"}]}``
(``runs`` map paragraph offsets back to the original text, see ``deid.sources.paragraphs``) and
paragraph counts per split as metrics. A document that fails, or yields no paragraph at all,
fails the stage beyond ``--max-failed`` / ``--max-empty``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pipelines import fail_above, logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "corpus", "output", "metrics")
    p.add_argument("--max-failed", type=int, default=0)
    p.add_argument("--max-empty", type=int, default=0, help="Documents without a paragraph.")
    args = p.parse_args(argv)
    setup_logging()
    from deid.ops.batch import run_batch
    from deid.sources.corpus import SPLITS
    from deid.sources.io import read_documents
    from deid.sources.paragraphs import extract_paragraphs

    metrics: dict[str, Any] = {}
    failed = 0
    for split in SPLITS:
        counts = {"documents": 0, "paragraphs": 0, "headings": 0, "characters": 0, "empty": 0}

        def process(doc, counts=counts) -> dict[str, Any]:
            paragraphs = extract_paragraphs(doc.text)
            counts["documents"] += 1
            counts["paragraphs"] += len(paragraphs)
            counts["headings"] += sum(par.kind == "heading" for par in paragraphs)
            counts["characters"] += sum(len(par.text) for par in paragraphs)
            counts["empty"] += not paragraphs
            return {
                "id": doc.id,
                "paragraphs": [
                    {"text": par.text, "kind": par.kind, "runs": [list(r) for r in par.runs]}
                    for par in paragraphs
                ],
            }

        summary = run_batch(
            read_documents(args.corpus / f"{split}.jsonl"),
            args.output / f"{split}.jsonl",
            process,
            resume=False,
            description=f"paragraphs {split}",
            show_progress=False,
        )
        failed += summary.failed + summary.quarantined
        metrics[split] = counts
        logger.info(
            "paragraphs %s: %d documents, %d paragraphs",
            split,
            counts["documents"],
            counts["paragraphs"],
        )
    metrics["failed"] = failed
    write_json(args.metrics, metrics)
    fail_above("document(s) failed", failed, args.max_failed)
    empty = sum(metrics[split]["empty"] for split in SPLITS)
    fail_above("document(s) without a paragraph", empty, args.max_empty)


if __name__ == "__main__":
    main()
