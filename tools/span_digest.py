"""A digest of the spans a saved pipeline finds on the gold sets, to show that a refactoring
changed nothing: run it before and after, compare the printed sha256 per set.

    python tools/span_digest.py --model models/small --output /tmp/spans-before
    python tools/span_digest.py --model models/small --output /tmp/spans-after \\
        --reuse /tmp/spans-before        # rule chain only, on the stored model spans (seconds)

Each set's JSON holds, per document id, the model's spans and the final spans (offsets,
labels, scores: no text). ``all`` hashes both, ``final`` the final spans alone. With
``--reuse`` the model's spans come from an earlier output (scores rounded to 4 decimals there),
so compare a reuse run only with another reuse run on the same stored spans.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from deid.anonymizer.pipeline import build_pipeline
from deid.schema import spans_from_dicts, spans_to_dicts
from deid.sources.io import read_documents

GOLD_SETS = {
    "ler": "data/gold/ler_rewritten.jsonl",
    "novel": "data/gold/ler_rewritten_novel.jsonl",
    "bavaria": "data/gold/bavaria/rewritten.jsonl",
}
BATCH = 8


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="saved pipeline directory")
    ap.add_argument("--output", type=Path, required=True, help="folder for one JSON per gold set")
    ap.add_argument("--reuse", type=Path, help="take the model's spans from this earlier output")
    args = ap.parse_args(argv)
    pipeline = build_pipeline(args.model)
    args.output.mkdir(parents=True, exist_ok=True)
    for name, path in GOLD_SETS.items():
        docs = read_documents(path)
        if args.reuse:
            stored = json.loads((args.reuse / f"{name}.json").read_text(encoding="utf-8"))
            model = [spans_from_dicts(stored[d.id]["model"]) for d in docs]
        else:
            model = []
            for i in range(0, len(docs), BATCH):
                model.extend(pipeline.model_spans([d.text for d in docs[i : i + BATCH]]))
        record = {
            d.id: {"model": spans_to_dicts(m), "final": spans_to_dicts(pipeline.finish(d.text, m))}
            for d, m in zip(docs, model)
        }
        (args.output / f"{name}.json").write_text(json.dumps(record, sort_keys=True, ensure_ascii=False), encoding="utf-8")
        final = {k: v["final"] for k, v in record.items()}
        print(name, len(docs), "all", _digest(record), "final", _digest(final), flush=True)


if __name__ == "__main__":
    main()
