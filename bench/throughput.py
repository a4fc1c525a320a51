"""Anonymization throughput on the bundled decisions: model and rules measured separately.

    python -m bench.throughput --model models/small [--device cpu|cuda] [--repeat 2]

Reports tokens/s and decisions/min for (a) the rule layer alone (recognizers + policy +
consistency), (b) the model alone, (c) the whole pipeline, plus peak memory (RSS, and CUDA
when a GPU is used). Writes ``reports/bench_throughput_<device>.json``. No document text is
printed.
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

from deid.anonymize import PipelineConfig, build_pipeline

DECISIONS = Path("data/sources/decisions")


def load_texts(include_reserved: bool) -> list[str]:
    texts = []
    for path in sorted(DECISIONS.glob("*/*.txt.xz")):
        if not include_reserved and path.parent.name == "bavaria":
            continue
        texts.append(lzma.open(path, "rt", encoding="utf-8").read())
    return texts


def timed(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


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
    full = build_pipeline(args.model, device=args.device)
    rules = build_pipeline(config=PipelineConfig(use_model=False))
    tokenizer = full.classifier.tokenizer
    n_tokens = sum(len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"])
    n_docs = len(texts)
    full.analyze_many(texts[:2])  # warm-up
    t_rules = timed(lambda: [rules.analyze(t) for t in texts], args.repeat)
    t_model = timed(lambda: full.classifier.predict(texts), args.repeat)
    t_full = timed(lambda: full.analyze_many(texts), args.repeat)
    device = str(full.classifier.device)
    report = {
        "device": device,
        "gpu": torch.cuda.get_device_name(0) if device.startswith("cuda") else None,
        "cpu_threads": torch.get_num_threads(),
        "machine": platform.machine(),
        "documents": n_docs,
        "tokens": n_tokens,
        "characters": sum(len(t) for t in texts),
        "rules": {"seconds": round(t_rules, 2), "tokens_per_s": round(n_tokens / t_rules), "decisions_per_min": round(n_docs / t_rules * 60, 1)},
        "model": {"seconds": round(t_model, 2), "tokens_per_s": round(n_tokens / t_model), "decisions_per_min": round(n_docs / t_model * 60, 1)},
        "pipeline": {"seconds": round(t_full, 2), "tokens_per_s": round(n_tokens / t_full), "decisions_per_min": round(n_docs / t_full * 60, 1)},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "peak_cuda_mb": round(torch.cuda.max_memory_allocated() / 2**20, 1) if device.startswith("cuda") else None,
    }
    out = Path("reports") / f"bench_throughput_{device.split(':')[0]}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
