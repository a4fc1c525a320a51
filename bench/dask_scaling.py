"""The anonymize flow on 1 and N Dask workers: documents per minute and what Prefect and Dask
cost on top of the library.

    python -m bench.dask_scaling [--model DIR] [--documents 2000] [--workers 1,2] [--chunk-size 8]

The batch is the bundled decisions repeated with distinct ids (one JSONL file). Each worker
count runs the flow the way an operator does (``python -m flows.anonymize``, its temporary
Prefect server, ``--no-track``), from nothing, into the same output folder, and the outputs
of every run are compared byte for byte with the first one's. One worker is the flow's own
path for it: the chunks run one after another in the flow's process, as Prefect tasks but
without Dask (its overhead is Prefect's alone); more workers are a local Dask cluster of that
many processes, each with its share of the cores (``flows._common.run_tasks``). Without
``--model`` the rules-only pipeline runs.

Figures per run: the whole command's wall time; the ``anonymize`` step's (planning, staging
and the merge are outside it); library seconds, the sum of the chunks' own time inside
``deid.ops.batch.run_batch`` (reading the chunk, every document through the pipeline, writing
results); documents/min on the anonymize step; and the overhead share,
``(anonymize step × workers − library seconds) / library seconds``: worker time not spent in
the library (task runs and their API calls, the cluster's start and stop, imports and model
loading in the workers, idle workers at the end), as a share of library time. Writes
``reports/bench_dask.json``; no document text is printed.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DECISIONS = ROOT / "data/sources/decisions"
OUTPUTS = ("anonymized.jsonl", "spans.jsonl", "quarantine.jsonl", "summary.json")


def write_batch(path: Path, documents: int) -> int:
    """``documents`` records ``{"id", "text"}``: the bundled decisions over and over, each
    copy with its own id. Returns the characters written."""
    texts = []
    for source in sorted(DECISIONS.glob("*/*.txt.xz")):
        with lzma.open(source, "rt", encoding="utf-8") as fh:
            texts.append((source.name.removesuffix(".txt.xz"), fh.read()))
    characters = 0
    with open(path, "w", encoding="utf-8") as out:
        for i in range(documents):
            name, text = texts[i % len(texts)]
            out.write(
                json.dumps({"id": f"{i:05d}-{name}", "text": text}, ensure_ascii=False) + "\n"
            )
            characters += len(text)
    return characters


def rules_only(folder: Path) -> Path:
    """A pipeline directory without a model: recognizers, policy and consistency."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pipeline.json").write_text(json.dumps({"use_model": False}), encoding="utf-8")
    return folder


def run_flow(batch: Path, model: Path, work: Path, workers: int, chunk_size: int) -> dict[str, Any]:
    """One flow run from nothing (no output, no work dir) in its own process."""
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(work / "data", ignore_errors=True)
    argv = [sys.executable, "-m", "flows.anonymize", "--input", str(batch), "--output", str(out),
            "--model-uri", str(model), "--project-dir", str(work), "--no-track",
            "--chunk-size", str(chunk_size), "--workers", str(workers)]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    env |= {"PREFECT_HOME": str(work / "prefect"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PYTHONPATH": str(ROOT)}  # fmt: skip
    # Prefect waits 20 s for its temporary server: too short on busy cores
    env.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:  # the flow's log lines name documents by hash only
        sys.stderr.write("\n".join(done.stderr.splitlines()[-20:]) + "\n")
        raise SystemExit(f"flow with {workers} worker(s) exited {done.returncode}")
    result = json.loads(done.stdout.strip().splitlines()[-1])["result"]
    step, library = result["seconds"]["anonymize"], result["chunk_seconds"]
    return {
        "workers": workers, "runner": "in the flow's process" if workers == 1 else "local Dask cluster",
        "documents": result["documents"], "processed": result["processed"],
        "quarantined": result["quarantined"], "wall_seconds": round(wall, 1),
        "anonymize_seconds": step, "library_seconds": library,
        "documents_per_min": round(60 * result["processed"] / step, 1),
        "documents_per_min_whole_run": round(60 * result["processed"] / wall, 1),
        "overhead_share": round((step * workers - library) / library, 3),
        "steps": result["seconds"], "outputs": {n: (out / n).read_bytes() for n in OUTPUTS},
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", help="pipeline directory (default: rules only)")
    ap.add_argument("--documents", type=int, default=2000)
    ap.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    ap.add_argument("--chunk-size", type=int, default=8)
    ap.add_argument("--report", default="reports/bench_dask.json")
    ap.add_argument("--label", help="the row's name in the report (default: rules | the model)")
    ap.add_argument("--note", help="what else ran on the machine, for the report")
    args = ap.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    load = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="deid-bench-dask-") as tmp:
        work = Path(tmp)
        batch = work / "batch.jsonl"
        characters = write_batch(batch, args.documents)
        model = Path(args.model).resolve() if args.model else rules_only(work / "rules")
        rows = []
        for workers in counts:
            row = run_flow(batch, model, work, workers, args.chunk_size)
            rows.append(row)
            print(json.dumps({k: v for k, v in row.items() if k != "outputs"}), flush=True)
    first = rows[0]["outputs"]
    for row in rows:
        row["identical_outputs"] = row.pop("outputs") == first
        row["speedup"] = round(rows[0]["anonymize_seconds"] / row["anonymize_seconds"], 2)
    entry = {
        "pipeline": args.model or "rules-only", "documents": args.documents,
        "characters": characters, "chunk_size": args.chunk_size, "cores": len(os.sched_getaffinity(0)),
        "cpu": platform.processor() or platform.machine(), "python": platform.python_version(),
        "started": started, "load_average_before": load, "note": args.note, "rows": rows,
    }  # fmt: skip
    report = Path(args.report)
    existing = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    existing[args.label or ("rules" if not args.model else Path(args.model).name)] = entry
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(json.dumps(existing, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in entry.items() if k != "rows"}))


if __name__ == "__main__":
    main()
