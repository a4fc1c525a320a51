"""Anonymization throughput on the bundled decisions: model and rules measured separately.

    python -m bench.throughput --model models/small [--device cpu|cuda] [--repeat 2]

Reports tokens/s and decisions/min for (a) the rule layer alone (recognizers + policy +
consistency), (b) the model alone, (c) the whole pipeline; on a CPU each model row for torch
fp32, ONNX Runtime fp32 and ONNX Runtime int8 (the chain model step's ``engine`` / ``quantize``),
plus how far their spans agree on the gold sets, and peak memory (RSS, and CUDA when a GPU is
used).
Writes ``reports/bench_throughput_<device>.json``. No document text is printed.
"""

from __future__ import annotations

import argparse
import json
import lzma
import platform
import resource
import time
from pathlib import Path

import torch

from deid.anonymizer.pipeline import PipelineConfig, build_pipeline

DECISIONS = Path("data/sources/decisions")
GOLD = ("data/gold/ler_rewritten.jsonl", "data/gold/bavaria/rewritten.jsonl")


def load_texts(include_reserved: bool) -> list[str]:
    texts = []
    for path in sorted(DECISIONS.glob("*/*.txt.xz")):
        if not include_reserved and path.parent.name == "bavaria":
            continue
        with lzma.open(path, "rt", encoding="utf-8") as fh:
            texts.append(fh.read())
    return texts


def timed(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


# what the model rows run on a CPU: (row suffix, engine, quantization)
CPU_MODES = (("_torch", "torch", "none"), ("", "onnx", "none"), ("_int8", "onnx", "int8"))


def agreement(model: str, a_mode: dict, b_mode: dict) -> dict:
    """Model spans of two modes on both gold sets: exact predicted spans in common, and gold
    spans with the same outcome (found with the same labels, or missed by both)."""
    from deid.sources.io import read_documents

    docs = [d for path in GOLD for d in read_documents(path)]
    texts = [d.text for d in docs]
    a = build_pipeline(model, device="cpu", overrides=a_mode).classifier.predict(texts)
    b = build_pipeline(model, device="cpu", overrides=b_mode).classifier.predict(texts)
    key = lambda s: (s.start, s.end, s.label)
    sa = {(i, *key(s)) for i, spans in enumerate(a) for s in spans}
    sb = {(i, *key(s)) for i, spans in enumerate(b) for s in spans}

    def outcomes(preds) -> list[frozenset[str]]:
        return [frozenset(p.label for p in ps if p.start < g.end and g.start < p.end)
                for d, ps in zip(docs, preds) for g in d.spans]  # fmt: skip

    oa, ob = outcomes(a), outcomes(b)
    return {
        "documents": len(docs),
        "spans_a": len(sa), "spans_b": len(sb),
        "identical_spans": round(len(sa & sb) / max(len(sa | sb), 1), 4),
        "gold_spans": len(oa),
        "identical_gold_outcomes": round(sum(x == y for x, y in zip(oa, ob)) / max(len(oa), 1), 4),
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, help="pipeline directory")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0 = default)")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    texts = load_texts(include_reserved=True)  # throughput only: no training, no tuning
    full = build_pipeline(args.model, device=args.device, overrides={"engine": "onnx", "quantize": "none"})
    rules = build_pipeline(config=PipelineConfig.rules_only())
    tokenizer = full.classifier.tokenizer
    n_tokens = sum(len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"])
    n_docs = len(texts)
    device = str(full.classifier.device)

    def rate(seconds: float) -> dict:
        return {"seconds": round(seconds, 2), "tokens_per_s": round(n_tokens / seconds),
                "decisions_per_min": round(n_docs / seconds * 60, 1)}  # fmt: skip

    t_rules = timed(lambda: [rules.analyze(t) for t in texts], args.repeat)
    rows: dict[str, dict] = {"rules": rate(t_rules)}
    modes = CPU_MODES if device == "cpu" else (("", "torch", "none"),)
    for suffix, engine, quantize in modes:
        pipe = build_pipeline(args.model, device=args.device, overrides={"engine": engine, "quantize": quantize})
        pipe.analyze_many(texts[:2])  # warm-up (and the ONNX export)
        rows["model" + suffix] = rate(timed(lambda: pipe.classifier.predict(texts), args.repeat))  # noqa: B023
        rows["pipeline" + suffix] = rate(timed(lambda: pipe.analyze_many(texts), args.repeat))  # noqa: B023
    agreements = None
    if device == "cpu":
        fp32 = {"engine": "onnx", "quantize": "none"}
        agreements = {
            "onnx_vs_torch": agreement(args.model, {"engine": "torch", "quantize": "none"}, fp32),
            "int8_vs_fp32": agreement(args.model, fp32, {"engine": "onnx", "quantize": "int8"}),
        }
    report = {
        "device": device,
        "gpu": torch.cuda.get_device_name(0) if device.startswith("cuda") else None,
        "cpu_threads": torch.get_num_threads(),
        "machine": platform.machine(),
        "documents": n_docs,
        "tokens": n_tokens,
        "characters": sum(len(t) for t in texts),
        **rows,
        "agreement": agreements,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "peak_cuda_mb": round(torch.cuda.max_memory_allocated() / 2**20, 1) if device.startswith("cuda") else None,
    }
    out = Path("reports") / f"bench_throughput_{device.split(':')[0]}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
