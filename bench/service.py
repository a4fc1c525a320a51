"""Load test of ``deid serve``: requests/s and P50/P95 latency of ``POST /analyze`` for one
decision at 1, 4 and 16 concurrent clients (threads, one httpx client each) against a real
uvicorn process on a free loopback port.

    python -m bench.service [--model PATH_OR_URI | --rules-only] [--requests 160] [--clients 1,4,16]

The decision is the bundled one closest to the median length. Every level first sends one
warm-up request per client, then ``--requests`` requests in all, split over its clients.
The service analyses one text at a time (deid.app.service.served), so more clients raise
latency, not throughput: the table shows how long a reviewer waits when others are busy.
Writes ``reports/bench_service.json``; no document text is printed or logged.
"""

from __future__ import annotations

import argparse
import json
import lzma
import platform
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from infra.workbench import start_service

DECISIONS = Path("data/sources/decisions")
REPORT = Path("reports/bench_service.json")


def bundled_decisions() -> dict[str, str]:
    """File name → text of every bundled decision."""
    texts = {}
    for path in sorted(DECISIONS.glob("*/*.txt.xz")):
        with lzma.open(path, "rt", encoding="utf-8") as fh:
            texts[path.name] = fh.read()
    return texts


def median_decision() -> tuple[str, str]:
    """(name, text) of the bundled decision closest to the median length."""
    texts = bundled_decisions()
    middle = statistics.median(len(t) for t in texts.values())
    name = min(texts, key=lambda n: (abs(len(texts[n]) - middle), n))
    return name, texts[name]


def run_level(url: str, text: str, clients: int, requests: int, timeout: float) -> dict[str, Any]:
    """``requests`` analyses of ``text`` from ``clients`` threads at once."""
    latencies: list[float] = []
    failures: list[int] = []
    lock = threading.Lock()
    share = [requests // clients + (i < requests % clients) for i in range(clients)]
    start = threading.Barrier(clients + 1)

    def client(count: int) -> None:
        with httpx.Client(base_url=url, timeout=timeout) as http:
            http.post("/analyze", json={"text": text})  # warm-up: connection and caches
            start.wait()
            for _ in range(count):
                t0 = time.perf_counter()
                status = http.post("/analyze", json={"text": text}).status_code
                elapsed = time.perf_counter() - t0
                with lock:
                    (latencies if status == 200 else failures).append(elapsed if status == 200 else status)

    threads = [threading.Thread(target=client, args=(n,)) for n in share]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    ordered = sorted(latencies)
    return {
        "clients": clients, "requests": len(latencies), "failed": len(failures), "seconds": round(wall, 2),
        "requests_per_second": round(len(latencies) / wall, 2),
        "p50_ms": round(1000 * _quantile(ordered, 0.50), 1), "p95_ms": round(1000 * _quantile(ordered, 0.95), 1),
    }  # fmt: skip


def _quantile(ordered: list[float], q: float) -> float:
    """Nearest-rank quantile (no interpolation between two requests' latencies)."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="Pipeline directory or MLflow URI (default: rules only).")
    parser.add_argument("--requests", type=int, default=160, help="Requests per concurrency level.")
    parser.add_argument("--clients", default="1,4,16", help="Concurrency levels.")
    parser.add_argument("--timeout", type=float, default=600.0, help="Client and service time limit per request.")
    parser.add_argument("--report", type=Path, default=REPORT)
    args = parser.parse_args(argv)
    name, text = median_decision()
    serve_args = (["--model", args.model] if args.model else ["--rules-only"]) + ["--timeout", str(args.timeout)]
    with tempfile.TemporaryDirectory() as work:
        service = start_service([*serve_args, "--reviews", str(Path(work) / "reviews")], log=Path(work) / "serve.log",
                                cwd=Path.cwd())  # fmt: skip
        try:
            levels = [run_level(service.url, text, int(c), args.requests, args.timeout) for c in args.clients.split(",")]
            model = httpx.get(f"{service.url}/health").json()["model"]
        finally:
            service.stop()
    report = {
        "endpoint": "POST /analyze (JSON)", "decision": name, "characters": len(text),
        "model": {k: model.get(k) for k in ("uri", "version", "alias", "rules_only")}, "levels": levels,
        "machine": {"cpus": _cpus(), "python": platform.python_version(), "platform": platform.platform()},
        "note": "one analysis at a time per service process; client threads on the same machine",
    }  # fmt: skip
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for level in levels:
        print(json.dumps(level))
    return report


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0))


if __name__ == "__main__":
    main()
