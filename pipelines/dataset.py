"""Stage ``dataset``: training documents and the two rewritten test sets.

* ``<output>/{train,validation}.jsonl``: corpus documents with their detected placeholders
  as ``spans`` and, for LER documents, the entities that stay in clear text as ``keep``
  (``deid.training.documents.source_documents``, which refuses reserved documents);
* the automatically rewritten reserved LER courts (``deid.rewrite.gold.build.rewrite_auto``,
  the library side of ``deid rewrite auto``, seeded), and with
  ``--ler-rewritten-novel`` the same documents with novel surrogates (made-up names that no
  list, lexicon or the corpus's training and validation text knows);
* the hand-rewritten Bavarian set rebuilt from its committed decisions file
  (``deid.rewrite.gold.build.rewrite_apply``, as ``deid rewrite apply``);
* label distributions of all four as metrics.

Runs only on a corpus the ``validate`` stage passed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipelines import label_counts, logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(
        __doc__,
        "corpus",
        "placeholders",
        "validation-report",
        "decisions",
        "output",
        "ler-rewritten",
        "bavaria-rewritten",
        "metrics",
    )
    p.add_argument("--ler-courts", required=True, help="Comma-separated reserved LER courts.")
    p.add_argument("--seed", required=True, type=int, help="Surrogate seed of the LER rewrite.")
    p.add_argument("--ler-rewritten-novel", type=Path, help="LER rewrite with novel surrogates.")
    args = p.parse_args(argv)
    setup_logging()
    if not json.loads(args.validation_report.read_text(encoding="utf-8")).get("passed"):
        raise SystemExit(f"{args.validation_report}: the corpus did not pass validation")
    from deid.rewrite.gold.build import rewrite_apply, rewrite_auto
    from deid.rewrite.surrogates.novel import DEFAULT_SOURCES as SOURCES
    from deid.schema import Document
    from deid.sources.io import read_documents, write_documents
    from deid.training.documents import load_placeholders, source_documents

    placeholders = load_placeholders(args.placeholders)
    metrics: dict[str, Any] = {}
    for split in ("train", "validation"):
        docs = read_documents(args.corpus / f"{split}.jsonl")
        sources = source_documents(docs, placeholders)
        write_documents(
            args.output / f"{split}.jsonl",
            (
                Document(
                    id=doc.id,
                    text=doc.text,
                    court=doc.court,
                    source=doc.source,
                    meta=doc.meta | {"keep_known": src.keep_known},
                    entities=doc.entities,
                    spans=list(src.placeholders),
                    keep=list(src.keep),
                )
                for doc, src in zip(docs, sources)
            ),
        )
        metrics[split] = {
            "documents": len(sources),
            "keep_known_documents": sum(s.keep_known for s in sources),
            "placeholders": label_counts(s.label for d in sources for s in d.placeholders),
            "keep": label_counts(s.label for d in sources for s in d.keep),
        }

    test = args.corpus / "test.jsonl"
    rewrite = {"courts": args.ler_courts, "seed": args.seed, "sources": SOURCES}
    rewrite_auto(test, args.ler_rewritten, surrogates="eval", train=[], **rewrite)
    gold = {"ler_rewritten": args.ler_rewritten}
    if args.ler_rewritten_novel:  # the same documents, names that nothing training saw knows
        seen = [args.corpus / f"{split}.jsonl" for split in ("train", "validation")]
        rewrite_auto(test, args.ler_rewritten_novel, surrogates="novel", train=seen, **rewrite)
        gold["ler_rewritten_novel"] = args.ler_rewritten_novel
    rewrite_apply(test, args.decisions, args.bavaria_rewritten, include_open=False)
    gold["bavaria_rewritten"] = args.bavaria_rewritten
    for name, path in gold.items():
        docs = read_documents(path)
        metrics[name] = {
            "documents": len(docs),
            "spans": label_counts(s.label for d in docs for s in d.spans),
            "keep": label_counts(s.label for d in docs for s in d.keep),
        }
    write_json(args.metrics, metrics)
    logger.info("dataset: %s", {k: v["documents"] for k, v in metrics.items()})


if __name__ == "__main__":
    main()
