"""Stage ``placeholders``: detect the courts' placeholders in every corpus document.

Writes ``{"id", "placeholders": [spans]}`` per document (all splits, one file), the
documents that failed to a quarantine file, and placeholder counts per split and type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pipelines import fail_above, logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "corpus", "output", "quarantine", "metrics")
    p.add_argument("--max-failed", type=int, default=0)
    args = p.parse_args(argv)
    setup_logging()
    from deid.ops.batch import run_batch
    from deid.rewrite.placeholders import detect_placeholders
    from deid.schema import spans_to_dicts
    from deid.sources.corpus import SPLITS
    from deid.sources.io import read_documents

    split_of: dict[str, str] = {}
    labels: dict[str, Counter] = {split: Counter() for split in SPLITS}

    def documents():
        for split in SPLITS:
            for doc in read_documents(args.corpus / f"{split}.jsonl"):
                split_of[doc.id] = split
                yield doc

    def process(doc) -> dict[str, Any]:
        spans = detect_placeholders(doc.text)
        labels[split_of[doc.id]].update(s.label for s in spans)
        return {"id": doc.id, "placeholders": spans_to_dicts(spans)}

    args.quarantine.unlink(missing_ok=True)
    summary = run_batch(
        documents(),
        args.output,
        process,
        quarantine=args.quarantine,
        resume=False,
        description="placeholders",
        show_progress=False,
    )
    args.quarantine.touch()  # declared as an out: present even when nothing failed
    per_split = Counter(split_of.values())
    metrics: dict[str, Any] = {
        split: {
            "documents": per_split[split],
            "placeholders": sum(labels[split].values()),
            "per_type": dict(sorted(labels[split].items())),
        }
        for split in SPLITS
    }
    metrics["failed"] = summary.failed + summary.quarantined
    write_json(args.metrics, metrics)
    logger.info("placeholders: %s", {s: metrics[s]["placeholders"] for s in SPLITS})
    fail_above("document(s) failed (see the quarantine file)", metrics["failed"], args.max_failed)


if __name__ == "__main__":
    main()
