"""Load test of ``deid serve``'s memory and errors: 50 mixed requests on loopback, and one
300 KB Word file alone.

    python -m bench.service_load [--model PATH_OR_URI | --rules-only] [--requests 50] [--clients 4]

A real uvicorn process (``infra.workbench.start_service``) gets ``--requests`` requests from
``--clients`` threads at once, in a fixed mix: plain text (JSON), a Word decision, a PDF
decision, the 300 KB Word file (890,000 characters of bundled decisions), and broken ones: a
truncated DOCX, bytes that are no PDF, an empty file, a file of an unknown type, a body that
is not JSON, JSON nested 100,000 deep, spans with ``Infinity``. Reported per kind: status
codes; in all: the share of 5xx answers (must be 0), of 503 (busy: the queue was full), peak
RSS of the service (``VmHWM``) and its RSS after the last answer. Then a fresh service gets
the 300 KB Word file alone, twice in turn: peak RSS and RSS after each (the memory is given
back, deid.app.service.limits). Writes ``reports/bench_service_load.json``; no text printed.
"""

from __future__ import annotations

import argparse
import io
import json
import lzma
import platform
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from infra.workbench import start_service

DECISIONS = Path("data/sources/decisions")
REPORT = Path("reports/bench_service_load.json")
BIG_DOCX_BYTES = 300_000
INFINITY = b'{"text": "Der Kl\xc3\xa4ger.", "spans": [{"start": 0, "end": Infinity, "label": "PERSON"}]}'


def _paragraphs() -> list[str]:
    lines = []
    for path in sorted(DECISIONS.glob("*/*.txt.xz")):
        if path.parent.name != "bavaria":  # reserved for evaluation
            with lzma.open(path, "rt", encoding="utf-8") as fh:
                lines += [line for line in fh.read().split("\n") if line.strip()]
    return lines


def docx_of(size: int) -> bytes:
    """A Word file of bundled decisions' paragraphs, at least ``size`` bytes."""
    import docx

    lines, document, i = _paragraphs(), docx.Document(), 0
    while True:
        for _ in range(200):
            document.add_paragraph(lines[i % len(lines)])
            i += 1
        buffer = io.BytesIO()
        document.save(buffer)
        if len(buffer.getvalue()) >= size:
            return buffer.getvalue()


def requests_mix() -> list[tuple[str, dict[str, Any]]]:
    """(kind, httpx.post keyword arguments) of every kind in the mix."""
    from tests.code.test_formats_pdf import build_pdf

    text = "\n".join(_paragraphs()[:60])
    small_docx = docx_of(1)
    nested = b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    return [
        ("text", {"json": {"text": text}}),
        ("docx", {"files": {"file": ("urteil.docx", small_docx)}}),
        ("pdf", {"files": {"file": ("urteil.pdf", build_pdf())}}),
        ("docx_300kb", {"files": {"file": ("gross.docx", docx_of(BIG_DOCX_BYTES))}}),
        ("broken_docx", {"files": {"file": ("kaputt.docx", small_docx[: len(small_docx) // 2])}}),
        ("not_a_pdf", {"files": {"file": ("scan.pdf", bytes(range(256)) * 64)}}),
        ("empty_file", {"files": {"file": ("leer.txt", b"")}}),
        ("unknown_type", {"files": {"file": ("urteil.odt", b"PK\x03\x04")}}),
        ("not_json", {"content": b'{"text": "Der Kl', "headers": {"content-type": "application/json"}}),
        ("nested_json", {"content": nested, "headers": {"content-type": "application/json"}}),
        ("infinity_spans", {"content": INFINITY, "headers": {"content-type": "application/json"}}),
    ]


class Memory:
    """The service process's resident memory: now, and its high-water mark."""

    def __init__(self, pid: int) -> None:
        self.status = Path(f"/proc/{pid}/status")

    def _field(self, name: str) -> float:
        for line in self.status.read_text().splitlines():
            if line.startswith(name + ":"):
                return round(int(line.split()[1]) / 1024, 1)
        return float("nan")

    def rss(self) -> float:
        return self._field("VmRSS")

    def peak(self) -> float:
        return self._field("VmHWM")


def serve(args: argparse.Namespace, work: Path, name: str) -> Any:
    model = ["--rules-only"] if args.rules_only else ["--model", args.model]
    return start_service([*model, "--reviews", str(work / "reviews"), "--timeout", str(args.timeout)],
                         log=work / f"{name}.log", cwd=work)  # fmt: skip


def mixed_load(url: str, mix: list[tuple[str, dict[str, Any]]], requests: int, clients: int, timeout: float) -> dict:
    """``requests`` requests of the mix in turn, from ``clients`` threads at once."""
    order = [mix[i % len(mix)] for i in range(requests)]
    statuses: dict[str, Counter[int]] = {kind: Counter() for kind, _ in mix}
    lock, position = threading.Lock(), iter(range(requests))

    def client() -> None:
        with httpx.Client(base_url=url, timeout=timeout) as http:
            while True:
                with lock:
                    i = next(position, None)
                if i is None:
                    return
                kind, kwargs = order[i]
                status = http.post("/analyze", **kwargs).status_code
                with lock:
                    statuses[kind][status] += 1

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = Counter[int]()
    for counts in statuses.values():
        every.update(counts)
    return {"requests": requests, "clients": clients, "seconds": round(time.perf_counter() - start, 1),
            "statuses": {kind: dict(sorted(c.items())) for kind, c in statuses.items()},
            "share_5xx": round(sum(n for s, n in every.items() if s >= 500 and s != 503) / requests, 3),
            "share_503_busy": round(every[503] / requests, 3)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    model = ap.add_mutually_exclusive_group(required=True)
    model.add_argument("--model", help="pipeline directory or MLflow model URI")
    model.add_argument("--rules-only", action="store_true")
    ap.add_argument("--requests", type=int, default=50)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=900.0)
    args = ap.parse_args()
    mix = requests_mix()
    big = dict(mix)["docx_300kb"]
    report: dict[str, Any] = {"model": args.model or "rules only", "machine": platform.machine(),
                              "python": platform.python_version()}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="deid-bench-") as tmp:
        svc = serve(args, Path(tmp), "mixed")
        try:
            memory = Memory(svc.process.pid)
            loaded = memory.rss()
            load = mixed_load(svc.url, mix, args.requests, args.clients, args.timeout)
            report["mixed"] = load | {"rss_loaded_mb": loaded, "peak_rss_mb": memory.peak(), "rss_after_mb": memory.rss()}
        finally:
            svc.stop()
        print(json.dumps(report["mixed"]), flush=True)
        svc = serve(args, Path(tmp), "docx")
        try:
            memory = Memory(svc.process.pid)
            rows = [{"rss_loaded_mb": memory.rss()}]
            with httpx.Client(base_url=svc.url, timeout=args.timeout) as http:
                for _ in range(2):
                    status = http.post("/analyze", **big).status_code
                    rows.append({"status": status, "peak_rss_mb": memory.peak(), "rss_after_mb": memory.rss()})
            report["docx_300kb_alone"] = rows
        finally:
            svc.stop()
        print(json.dumps(report["docx_300kb_alone"]), flush=True)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
