"""The anonymize flow on Dask (issue 18) against the real Prefect server on loopback: a batch
of real decisions with bad inputs, anonymized by one process and by a local two-process
Dask cluster (processes, 127.0.0.1), gives byte-identical results, span report, quarantine
and summary; each worker process loads the model once for all its chunks; a re-run resumes
(after a lost chunk result and after ``kill -9`` of the flow in the middle, which takes its
worker processes with it); the workers' logs in Prefect name documents by hash only.

The model is an untrained tiny one (seeded) saved as a pipeline directory: what matters here
is that the same model gives the same spans wherever it runs, not their quality."""

from __future__ import annotations

import json
import lzma
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from deid.ops.chunks import QUARANTINE, RESULT_DIR, RESULTS, SPANS, SUMMARY
from tests.integration.conftest import FlowRun, Stack
from tests.integration.project import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.timeout(1500)]

DECISIONS = (
    "bverwg/100424B1WVR20.23.0", "bverwg/210224B9PKH3.23.0", "bverwg/290224B2B42.23.0",
    "bavaria/Y-300-Z-BECKRS-B-2023-N-35568", "bavaria/Y-300-Z-BECKRS-B-2024-N-5368",
    "bverwg/260324B4B1.24.0",
)  # fmt: skip
LARGE = "bavaria/Y-300-Z-BECKRS-B-2023-N-6061"  # 100,158 characters: over the model's budget
PARTY = "Wagenknecht gegen Freistaat Bayern"  # a file named after its parties: its id a name
MAX_CHARACTERS = 60_000
OUTPUTS = (RESULTS, SPANS, QUARANTINE, SUMMARY)


def _text(name: str) -> str:
    path = ROOT / "data/sources/decisions" / f"{name}.txt.xz"
    with lzma.open(path, "rt", encoding="utf-8") as fh:
        return fh.read()


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained two-layer model with word features (seeded), saved as production saves
    a pipeline, with a per-document budget the large decision exceeds."""
    import torch

    from deid.anonymizer.ner import TokenClassifier
    from deid.anonymizer.pipeline import Pipeline, PipelineConfig
    from deid.training.models import ModelSpec, build_model
    from deid.training.tokenizer import train_tokenizer

    torch.manual_seed(0)
    tokenizer = train_tokenizer([_text(n) for n in DECISIONS], vocab_size=800, model_max_length=128)
    spec = ModelSpec(hidden_size=32, num_layers=2, num_heads=2, intermediate_size=64, max_length=128)
    classifier = TokenClassifier(build_model(spec, tokenizer), tokenizer, device="cpu")
    config = PipelineConfig().override(max_length=128, stride=32, threshold=0.5, max_characters=MAX_CHARACTERS)
    target = tmp_path_factory.mktemp("model") / "tiny"
    Pipeline(classifier, config).save(target)
    return target


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Seven real decisions (one named after its parties, one over the budget), an empty and
    a binary file."""
    folder = tmp_path_factory.mktemp("inbox")
    texts = {Path(n).name: _text(n) for n in DECISIONS[1:]} | {PARTY: _text(DECISIONS[0])}
    texts[Path(LARGE).name] = _text(LARGE)
    assert len(texts[Path(LARGE).name]) > MAX_CHARACTERS > max(len(_text(n)) for n in DECISIONS)
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "scan.txt").write_bytes(bytes(range(256)) * 8)
    return {"folder": folder, "texts": texts}


def _args(project: Path, batch: dict[str, Any], model: Path, out: Path, *extra: str) -> list[str]:
    return ["--input", str(batch["folder"]), "--output", str(out), "--model-uri", str(model),
            "--project-dir", str(project), "--no-track", "--chunk-size", "1", "--operator", "label",
            *extra]  # fmt: skip


def _outputs(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in OUTPUTS}


def _fresh(project: Path, out: Path) -> None:
    """No output and no work dir: the next run starts from nothing."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(project / "data" / "work", ignore_errors=True)


def _logs(stack: Stack, run: FlowRun) -> list[str]:
    rows = stack.prefect_all("/logs/filter", {"logs": {"flow_run_id": {"any_": [run.id]}}})
    return [row["message"] for row in rows]


@pytest.fixture(scope="module")
def runs(
    stack_env: Stack, model: Path, batch: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """One process, then two Dask workers, each from nothing into the same output folder."""
    project = tmp_path_factory.mktemp("project")
    out = project / "out"
    single = stack_env.run_flow("anonymize", *_args(project, batch, model, out), cwd=project)
    expected = _outputs(out)
    _fresh(project, out)
    dask = stack_env.run_flow("anonymize", *_args(project, batch, model, out, "--workers", "2"),
                              cwd=project)  # fmt: skip
    return {"project": project, "out": out, "single": single, "dask": dask, "expected": expected}


def test_two_dask_workers_give_the_outputs_of_one_process(runs: dict[str, Any]) -> None:
    single, dask = runs["single"].result, runs["dask"].result
    assert (single["documents"], single["processed"], single["quarantined"]) == (6, 6, 3)
    assert (dask["documents"], dask["processed"], dask["quarantined"]) == (6, 6, 3)
    assert _outputs(runs["out"]) == runs["expected"]
    rows = [json.loads(line) for line in runs["expected"][QUARANTINE].decode().splitlines()]
    reasons = [r["reason"] for r in rows]
    assert len(reasons) == 3 and all(reasons)
    assert any("too large" in r for r in reasons), "quarantined by a chunk on a worker"
    spans = [json.loads(line) for line in runs["expected"][SPANS].decode().splitlines()]
    assert sum(len(r["spans"]) for r in spans) > 0, "the model marked something"


def test_each_worker_process_loads_the_model_once(stack_env: Stack, runs: dict[str, Any]) -> None:
    """Seven chunks (six decisions and the one over the budget): one load in the single
    process, at most one per worker process on Dask."""
    single, dask = _logs(stack_env, runs["single"]), _logs(stack_env, runs["dask"])
    loads = [m for m in dask if m.startswith("model loaded in process")]
    assert len([m for m in single if m.startswith("model loaded in process")]) == 1
    assert 1 <= len(loads) <= 2 and len(set(loads)) == len(loads)
    assert len([m for m in dask if m.startswith("chunk chunk-")]) == 7, "every chunk's line came"


def test_worker_logs_name_documents_by_hash_only(
    stack_env: Stack, runs: dict[str, Any], batch: dict[str, Any]
) -> None:
    from deid.sources.io import log_ref

    run = runs["dask"]
    haystack = "\n".join([*_logs(stack_env, run), run.stdout, run.stderr])
    assert f"document {log_ref(Path(LARGE).name)} failed" in haystack, "deid's line from a worker"
    lines = {line.strip() for text in batch["texts"].values() for line in text.splitlines()}
    needles = {PARTY} | {line for line in lines if len(line) >= 40}
    assert not [n for n in needles if n in haystack]


def test_a_rerun_on_dask_redoes_only_a_lost_chunk(
    stack_env: Stack, runs: dict[str, Any], batch: dict[str, Any], model: Path
) -> None:
    project, out = runs["project"], runs["out"]
    done = _finished_chunks(project)
    assert len(done) == 6
    done[0].unlink()
    args = _args(project, batch, model, out, "--workers", "2")
    again = stack_env.run_flow("anonymize", *args, cwd=project)
    assert (again.result["processed"], again.result["already_done"]) == (1, 5)
    assert _outputs(out) == runs["expected"]
    nothing = stack_env.run_flow("anonymize", *args, cwd=project)
    assert (nothing.result["processed"], nothing.result["already_done"]) == (0, 6)
    assert _outputs(out) == runs["expected"]


def test_kill_9_in_the_middle_then_a_rerun_gives_the_same_outputs(
    stack_env: Stack, runs: dict[str, Any], batch: dict[str, Any], model: Path
) -> None:
    """The flow's process is killed as soon as a worker finished a chunk: its worker
    processes exit with it, and the next run resumes to the same outputs."""
    project, out = runs["project"], runs["out"]
    _fresh(project, out)
    args = _args(project, batch, model, out, "--workers", "2")
    argv = [sys.executable, "-m", "flows.anonymize", *args]
    flow = subprocess.Popen(argv, cwd=project, env=stack_env.env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _wait_for(lambda: bool(_finished_chunks(project)), "a chunk finished on a worker", 600)
        children = psutil.Process(flow.pid).children(recursive=True)
    finally:
        flow.kill()
        flow.wait()
    assert len(children) >= 2, "the worker processes are the flow's children"
    _wait_for(lambda: not any(_alive(p) for p in children), "the workers to exit with the flow", 120)
    again = stack_env.run_flow("anonymize", *args, cwd=project)
    result = again.result
    assert result["already_done"] >= 1 and result["processed"] >= 1
    assert result["already_done"] + result["processed"] == 6
    assert _outputs(out) == runs["expected"]


def _finished_chunks(project: Path) -> list[Path]:
    """Chunk results holding a document (the chunk of the large decision finishes empty)."""
    work = project / "data" / "work" / "anonymize"
    found = work.glob(f"*/{RESULT_DIR}/chunk-*.jsonl")
    return sorted(p for p in found if ".quarantine." not in p.name and p.stat().st_size)


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_for(condition: Any, what: str, limit: float) -> None:
    """Poll until ``condition()``; the limit only turns a hang into a failure."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.2)
