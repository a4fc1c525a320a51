"""The thesis' masking experiment at small scale, next to surrogate training.

    python -m bench.masking_experiment [--profile small] [--epochs 3] [--windows-per-epoch 3000]

Trains one model per setting on the training split — per-epoch surrogates (this product),
and the thesis' masking schemes M3 (random tokens) and M7 ([MASK]) with and without
candidate vectors — then evaluates each on the automatically rewritten reserved LER courts
with the thesis' three methods (random candidates, NER-chosen candidates as an oracle NER,
without candidates). Writes ``reports/masking_experiment.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from deid.anonymizer.pipeline import build_pipeline
from deid.evaluation.gold_sets import evaluate_pipeline
from deid.sources.io import read_documents
from deid.training.job import run_training
from deid.training.settings import load_settings

SETTINGS = [
    ("surrogates (per epoch)", {"mode": "surrogate"}),
    ("M3, candidates", {"mode": "masking", "scheme": "M3", "candidates": True}),
    ("M3, no candidates", {"mode": "masking", "scheme": "M3", "candidates": False}),
    ("M7, candidates", {"mode": "masking", "scheme": "M7", "candidates": True}),
    ("M7, no candidates", {"mode": "masking", "scheme": "M7", "candidates": False}),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", default="small")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--windows-per-epoch", type=int, default=3000)
    ap.add_argument("--gold", default="data/gold/ler_rewritten.jsonl")
    ap.add_argument("--out", default="models/experiments")
    ap.add_argument("--limit", type=int, default=0, help="Evaluate on N gold documents spread over the file (0 = all).")
    args = ap.parse_args()
    base = load_settings("params.yaml", args.profile)
    gold = list(read_documents(args.gold))
    if args.limit:
        gold = gold[:: max(1, len(gold) // args.limit)][: args.limit]  # spread over both courts
    rows = []
    for name, data_overrides in SETTINGS:
        settings = replace(
            base,
            data=replace(base.data, **data_overrides),
            train=replace(base.train, epochs=args.epochs, windows_per_epoch=args.windows_per_epoch, progress=False),
        )
        target = Path(args.out) / name.split(",")[0].split(" ")[0].lower().replace("(", "") / (
            "cand" if data_overrides.get("candidates") else "nocand"
        )
        run_training("data/corpus", target, settings)
        pipeline = build_pipeline(target)
        report = evaluate_pipeline(pipeline, gold, ["all", "random", "entity"])
        rows.append({"setting": name, "methods": report["thesis_methods"], "pipeline": report["overall"]["elements"]})
        print(json.dumps(rows[-1]))
    out = Path("reports")
    out.mkdir(exist_ok=True)
    (out / "masking_experiment.json").write_text(json.dumps(rows, indent=2))
    lines = [
        "| training | random cand. R / P | oracle-NER cand. R / P | without cand. (model) R / P | full pipeline R / P |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        m = r["methods"]
        cell = lambda d: f"{d['recall']:.3f} / {d['precision']:.3f}"  # noqa: E731
        lines.append(f"| {r['setting']} | {cell(m['random'])} | {cell(m['entity'])} | {cell(m['all'])} | {cell(r['pipeline'])} |")
    note = (
        f"\n{len(gold)} documents of {args.gold}; profile {args.profile}, at most {args.epochs} epochs"
        f" / {args.windows_per_epoch} windows per epoch per setting.\n"
    )
    (out / "masking_experiment.md").write_text("\n".join(lines) + "\n" + note)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
