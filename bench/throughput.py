"""Anonymization throughput on the bundled decisions, per inference engine, in one run.

    python -m bench.throughput --model models/small [--cores 1 2] [--repeat 1] [--device cuda]

Each engine (the chain model step's ``engine`` / ``precision`` / ``quantize`` / ``batch_size``)
runs in a process of its own, pinned to ``--cores`` CPU cores (``sched_setaffinity``, and as
many torch and ONNX Runtime threads), so its peak RSS is its own and no engine warms another's
caches. Per engine: the model alone and the whole pipeline (model + rule chain) over the 111
bundled decisions (characters/s, tokens/s, decisions/min), its peak RSS, and how far its spans
agree with torch fp32's on the gold sets (exact spans, and gold spans with the same outcome:
found with the same labels, or missed by both): an engine is eligible as the default when it
keeps at least 99 % of fp32's gold-span outcomes. ONNX Runtime bf16 is tried on a one-product
graph: the CPU execution provider has no bf16 kernels here, which the report says. With
``--device cuda`` the model runs on the GPU (fp32, bf16 under autocast) and the rules on the
pinned cores; the reference is the GPU's fp32.

Writes ``reports/bench_throughput_cpu.json`` (or ``_cuda``); prints a markdown table. No
document text is printed.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

DECISIONS = Path("data/sources/decisions")
GOLD = ("data/gold/ler_rewritten.jsonl", "data/gold/bavaria/rewritten.jsonl")
# engines measured on a CPU: name → the model step's settings (the reference first)
CPU_ENGINES = {
    "torch fp32": {"engine": "torch", "precision": "fp32"},
    "torch bf16": {"engine": "torch", "precision": "bf16", "bf16_weights": True},
    "torch bf16 (autocast)": {"engine": "torch", "precision": "bf16", "bf16_weights": False},
    "torch bf16, batch 8": {"engine": "torch", "precision": "bf16", "bf16_weights": True, "batch_size": 8},
    "torch bf16, batch 32": {"engine": "torch", "precision": "bf16", "bf16_weights": True, "batch_size": 32},
    "onnx fp32": {"engine": "onnx", "quantize": "none"},
    "onnx int8 (dynamic)": {"engine": "onnx", "quantize": "int8"},
}
# engines measured on a GPU (``--device cuda``): the model on the GPU, the rules on the pinned cores
GPU_ENGINES = {
    "cuda fp32": {"engine": "torch", "precision": "fp32"},
    "cuda bf16": {"engine": "torch", "precision": "bf16"},
    "cuda bf16, batch 64": {"engine": "torch", "precision": "bf16", "batch_size": 64},
}
ENGINES = {"cpu": CPU_ENGINES, "cuda": GPU_ENGINES}
REFERENCES = {"cpu": "torch fp32", "cuda": "cuda fp32"}
MIN_AGREEMENT = 0.99


def load_texts() -> list[str]:
    """The bundled decisions (the reserved Bavarian ones too: throughput only, no tuning)."""
    texts = []
    for path in sorted(DECISIONS.glob("*/*.txt.xz")):
        with lzma.open(path, "rt", encoding="utf-8") as fh:
            texts.append(fh.read())
    return texts


def pin(cores: int) -> None:
    """This process on ``cores`` CPU cores, with as many threads."""
    available = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, set(available[:cores]))
    torch.set_num_threads(cores)


def measure(model: str, settings: dict, cores: int, repeat: int, spans_out: Path | None, device: str = "cpu") -> dict:
    """One engine in this process: model and rule-chain seconds over the bundled decisions
    (best of ``repeat``), peak RSS, and (``spans_out``) its model spans on the gold sets."""
    from deid.anonymizer.pipeline import build_pipeline
    from deid.sources.io import read_documents

    pin(cores)
    texts = load_texts()
    pipe = build_pipeline(model, device=device, overrides=settings)
    pipe.analyze_many(texts[:2])  # warm-up: the ONNX export, oneDNN's kernels
    best_model = best_rules = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        spans = pipe.model_spans(texts)
        middle = time.perf_counter()
        for text, found in zip(texts, spans):
            pipe.finish(text, found)
        best_model = min(best_model, middle - start)
        best_rules = min(best_rules, time.perf_counter() - middle)
    if spans_out is not None:
        docs = [d for path in GOLD for d in read_documents(path)]
        predicted = pipe.classifier.predict([d.text for d in docs])
        spans_out.write_text(json.dumps([[[s.start, s.end, s.label] for s in p] for p in predicted]))
    return {
        "model_seconds": round(best_model, 2),
        "rules_seconds": round(best_rules, 2),
        "runtime": pipe.runtime(),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def agreement(reference: list, other: list) -> dict:
    """Spans of two engines on the gold sets: exact spans in common, gold-span outcomes alike."""
    from deid.sources.io import read_documents

    docs = [d for path in GOLD for d in read_documents(path)]
    sa = {(i, *s) for i, spans in enumerate(reference) for s in map(tuple, spans)}
    sb = {(i, *s) for i, spans in enumerate(other) for s in map(tuple, spans)}

    def outcomes(preds: list) -> list[frozenset[str]]:
        return [frozenset(label for start, end, label in ps if start < g.end and g.start < end)
                for d, ps in zip(docs, preds) for g in d.spans]  # fmt: skip

    oa, ob = outcomes(reference), outcomes(other)
    return {
        "identical_spans": round(len(sa & sb) / max(len(sa | sb), 1), 4),
        "gold_spans": len(oa),
        "identical_gold_outcomes": round(sum(x == y for x, y in zip(oa, ob)) / max(len(oa), 1), 4),
    }


def onnx_bf16() -> str:
    """Whether ONNX Runtime's CPU execution provider runs a bf16 matrix product at all."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    a = helper.make_tensor_value_info("a", TensorProto.BFLOAT16, [2, 2])
    b = helper.make_tensor_value_info("b", TensorProto.BFLOAT16, [2, 2])
    c = helper.make_tensor_value_info("c", TensorProto.BFLOAT16, [2, 2])
    graph = helper.make_graph([helper.make_node("MatMul", ["a", "b"], ["c"])], "bf16", [a, b], [c])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    try:
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        x = np.ones((2, 2), dtype=np.float32)
        session.run(None, {"a": x, "b": x})
    except Exception as exc:  # noqa: BLE001 - the report says why it cannot run
        return f"not available: {type(exc).__name__}: {str(exc).splitlines()[0][:160]} (onnxruntime {ort.__version__}, onnx {onnx.__version__})"
    return "runs"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True, help="pipeline directory")
    ap.add_argument("--cores", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--device", choices=sorted(ENGINES), default="cpu", help="where the model runs")
    ap.add_argument("--engines", nargs="+", help="names of CPU_ENGINES (GPU_ENGINES with --device cuda); default all")
    ap.add_argument("--measure", help=argparse.SUPPRESS)  # internal: one engine, in a child process
    ap.add_argument("--spans-out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    engines, reference = ENGINES[args.device], REFERENCES[args.device]
    if args.measure:
        print(json.dumps(measure(args.model, engines[args.measure], args.cores[0], args.repeat, args.spans_out, args.device)))
        return
    args.engines = args.engines or list(engines)

    from transformers import AutoTokenizer

    texts = load_texts()
    tokenizer = AutoTokenizer.from_pretrained(str(Path(args.model) / "model"))
    n_tokens = sum(len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"])
    n_chars = sum(len(t) for t in texts)
    rows, spans = [], {}
    with tempfile.TemporaryDirectory(prefix="deid-bench-") as tmp:
        for cores in args.cores:
            for name in args.engines:
                out = Path(tmp) / f"{cores}-{len(rows)}.json" if cores == args.cores[0] else None
                cmd = [sys.executable, "-m", "bench.throughput", "--model", args.model, "--measure", name,
                       "--cores", str(cores), "--repeat", str(args.repeat), "--device", args.device] + (["--spans-out", str(out)] if out else [])
                done = subprocess.run(cmd, capture_output=True, text=True, check=True)  # fmt: skip
                result = json.loads(done.stdout.strip().splitlines()[-1])
                total = result["model_seconds"] + result["rules_seconds"]
                row = {
                    "engine": name, "cores": cores, **result,
                    "pipeline_characters_per_s": round(n_chars / total),
                    "pipeline_tokens_per_s": round(n_tokens / total),
                    "pipeline_decisions_per_min": round(len(texts) / total * 60, 1),
                    "model_tokens_per_s": round(n_tokens / result["model_seconds"]),
                }  # fmt: skip
                if out is not None:
                    spans[name] = json.loads(out.read_text())
                rows.append(row)
                print(json.dumps(row), flush=True)
    for row in rows:
        if row["engine"] in spans and reference in spans:
            row["agreement_with_fp32"] = agreement(spans[reference], spans[row["engine"]])
    eligible = [r for r in rows if r["cores"] == args.cores[0]
                and r.get("agreement_with_fp32", {}).get("identical_gold_outcomes", 0) >= MIN_AGREEMENT]  # fmt: skip
    fastest = max(eligible, key=lambda r: r["pipeline_characters_per_s"])["engine"] if eligible else None
    report = {
        "command": "python -m bench.throughput --model " + args.model + " --cores " + " ".join(map(str, args.cores))
        + f" --repeat {args.repeat}"
        + ("" if args.device == "cpu" else f" --device {args.device}")
        + ("" if args.engines == list(engines) else " --engines " + " ".join(f"'{e}'" for e in args.engines)),
        "machine": platform.machine(),
        "gpu": torch.cuda.get_device_name(0) if args.device == "cuda" else None,
        "processor": platform.processor() or None,
        "documents": len(texts),
        "tokens": n_tokens,
        "characters": n_chars,
        "onnx_bf16": onnx_bf16() if args.device == "cpu" else None,
        "min_agreement": MIN_AGREEMENT,
        "fastest_eligible": fastest,
        "rows": rows,
    }
    out = Path("reports") / f"bench_throughput_{args.device}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print("| engine | cores | pipeline characters/s | decisions/min | model tokens/s | gold outcomes = fp32 | peak RSS MB |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        agree = r.get("agreement_with_fp32", {}).get("identical_gold_outcomes")
        print(f"| {r['engine']} | {r['cores']} | {r['pipeline_characters_per_s']:,} | {r['pipeline_decisions_per_min']} "
              f"| {r['model_tokens_per_s']:,} | {'' if agree is None else f'{agree:.4f}'} | {r['peak_rss_mb']:,.0f} |")  # fmt: skip
    print(f"\nONNX Runtime bf16: {report['onnx_bf16']}\nfastest engine keeping >= {MIN_AGREEMENT:.0%} of fp32's gold-span outcomes: {fastest}")


if __name__ == "__main__":
    main()
