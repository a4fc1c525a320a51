"""Training throughput: the product's training loop (``deid.training.loop.train``) on the same
windows of the real training split, fp32 against bf16, 6 and 12 encoder layers, in one run;
and a profile of where a training step's time goes.

    python -m bench.training_step [--encoder models/encoder] [--windows 480] [--threads 0]

Needs the imported encoder (``deid model import-encoder`` / the DVC stage ``encoder``) and the
corpus with its placeholders (``data/dataset``, ``data/work/placeholders.jsonl``). Each row
trains a fresh model for one epoch over the same ``--windows`` windows (batch 16, the small
profile's settings), so the rows differ only in depth and precision. The profile runs
``torch.profiler`` over a few steps of the small profile in each precision and sums the
operators' own time into groups. Writes ``reports/bench_training_step.json``; prints markdown.
No document text is printed.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import torch

from deid.anonymizer.checkpoint import load_tokenizer, uses_features
from deid.anonymizer.precision import cpu_matrix_units
from deid.sources.io import read_documents
from deid.training.data import EpochData
from deid.training.documents import load_placeholders, source_documents
from deid.training.loop import TrainConfig, set_seed, train
from deid.training.models import build_model, label_maps
from deid.training.settings import load_settings

# operator name fragments → group, first match wins (the profile's table)
GROUPS = (
    ("matrix products", ("addmm", "aten::mm", "bmm", "matmul", "linear", "mkldnn", "onednn")),
    ("attention (fused)", ("scaled_dot_product", "flash_attention")),
    ("dropout masks", ("bernoulli", "dropout", "native_dropout")),
    ("dtype casts", ("copy_", "to_copy", "_to_copy")),
    ("optimizer", ("adam", "foreach", "lerp", "addcdiv", "sqrt")),
    ("softmax, GELU, LayerNorm", ("softmax", "gelu", "layer_norm")),
    ("loss", ("log_softmax", "logsumexp", "gather", "nll")),
    ("embedding", ("embedding",)),
)


def group_of(name: str) -> str:
    low = name.lower()
    return next((group for group, keys in GROUPS if any(k in low for k in keys)), "other element-wise and glue")


def epoch_windows(settings, tokenizer, model) -> tuple[list, float]:
    """The first epoch's windows of the training split, and the seconds they took to make."""
    placeholders = load_placeholders("data/work/placeholders.jsonl")
    docs = source_documents(read_documents("data/dataset/train.jsonl"), placeholders)
    _, label2id = label_maps()
    data = EpochData(docs, tokenizer, label2id, settings.data, features=uses_features(model))
    start = time.perf_counter()
    windows = data.windows(0)
    return windows, time.perf_counter() - start


def fresh_model(settings, tokenizer, layers: int):
    set_seed(settings.train.seed)
    return build_model(replace(settings.spec, base_layers=layers), tokenizer, settings.base)


def one_epoch(model, tokenizer, windows: list, cfg: TrainConfig) -> float:
    """Tokens per second of one epoch of the product's loop over ``windows`` (no validation)."""
    result = train(model, tokenizer, lambda epoch: windows, [], cfg)
    return result.history[0].tokens_per_second


def profile(model, tokenizer, windows: list, cfg: TrainConfig) -> dict[str, float]:
    """Self CPU seconds per operator group over one epoch of ``windows``."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    with torch_profile(activities=[ProfilerActivity.CPU]) as prof:
        train(model, tokenizer, lambda epoch: windows, [], cfg)
    groups: dict[str, float] = defaultdict(float)
    for event in prof.key_averages():
        groups[group_of(event.key)] += event.self_cpu_time_total / 1e6
    total = sum(groups.values())
    return {g: round(s / total, 3) for g, s in sorted(groups.items(), key=lambda kv: -kv[1])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--encoder", default="models/encoder")
    ap.add_argument("--windows", type=int, default=480, help="windows per row (30 batches of 16)")
    ap.add_argument("--profile-windows", type=int, default=160)
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--layers", type=int, nargs="+", default=[6, 12])
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    settings = load_settings(profile="small")
    settings = replace(settings, base=args.encoder, spec=replace(settings.spec, base=args.encoder))
    tokenizer = load_tokenizer(args.encoder)
    tokenizer.model_max_length = settings.spec.max_length
    windows, data_seconds = epoch_windows(settings, tokenizer, fresh_model(settings, tokenizer, 1))
    rows = windows[: args.windows]
    tokens = sum(len(w) for w in rows)
    base_cfg = replace(settings.train, epochs=1, windows_per_epoch=0, progress=False, calibrate_threshold=False)

    results = []
    for layers in args.layers:
        for precision in ("fp32", "bf16"):
            cfg = replace(base_cfg, precision=precision)
            rate = one_epoch(fresh_model(settings, tokenizer, layers), tokenizer, rows, cfg)
            results.append({"layers": layers, "precision": precision, "tokens_per_s": round(rate)})
            print(json.dumps(results[-1]), flush=True)
    profiles = {
        precision: profile(fresh_model(settings, tokenizer, settings.spec.base_layers), tokenizer,
                           windows[: args.profile_windows], replace(base_cfg, precision=precision))
        for precision in ("fp32", "bf16")
    }  # fmt: skip
    report = {
        "command": "python -m bench.training_step " + " ".join(
            f"--{k.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in vars(args).items()
        ),
        "cpu_threads": torch.get_num_threads(),
        "cpu_matrix_units": cpu_matrix_units(),
        "machine": platform.machine(),
        "windows_per_row": len(rows),
        "tokens_per_row": tokens,
        "batch_size": settings.train.batch_size,
        "max_length": settings.spec.max_length,
        "epoch_windows": {"windows": len(windows), "seconds_to_make": round(data_seconds, 1)},
        "rows": results,
        "profile_share_of_self_cpu_time": profiles,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    out = Path("reports/bench_training_step.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print("| layers | fp32 tokens/s | bf16 tokens/s | bf16 / fp32 |\n|---|---|---|---|")
    for layers in args.layers:
        fp32, bf16 = (next(r["tokens_per_s"] for r in results if r["layers"] == layers and r["precision"] == p)
                      for p in ("fp32", "bf16"))  # fmt: skip
        print(f"| {layers} | {fp32:,} | {bf16:,} | {bf16 / fp32:.2f} |")
    print("\n| share of the step's CPU time | fp32 | bf16 |\n|---|---|---|")
    for group in profiles["fp32"]:
        print(f"| {group} | {profiles['fp32'][group]:.1%} | {profiles['bf16'].get(group, 0):.1%} |")


if __name__ == "__main__":
    main()
