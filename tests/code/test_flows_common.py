"""flows/_common: options made from a flow's signature, Markdown tables, MLflow links, stage
exits. No Prefect server: the helpers are plain functions."""

from __future__ import annotations

import argparse
import inspect
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from prefect import task
from prefect.cache_policies import NO_CACHE

from deid.ops.mlflow_registry import TrackingServerDown
from deid.sources.errors import UserError
from flows._common import (
    Durations,
    StageFailed,
    TaskFailed,
    _argument,
    markdown_table,
    mlflow_links,
    retry_unless_user_error,
    run_stage,
    run_tasks,
    text_free_errors,
    threads_per_worker,
)
from tests.conftest import ROOT, read_source

DECISION = "decisions/bag/1-azr-62-23.txt.xz"


def example(
    input: str,
    chunk_size: int = 8,
    operator: str | None = None,
    track: bool = True,
    gold_sets: dict[str, str] | None = None,
    threshold: float = 0.5,
) -> None:
    """A flow's signature, as the flows declare them."""


def parse(argv: list[str]) -> dict:
    parser = argparse.ArgumentParser()
    for param in inspect.signature(example).parameters.values():
        _argument(parser, param)
    return vars(parser.parse_args(argv))


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--input", "s3://in/x"], {"input": "s3://in/x", "chunk_size": 8, "operator": None, "track": True,
                                    "gold_sets": None, "threshold": 0.5}),
        (["--input", "d", "--chunk-size", "2", "--operator", "mask", "--no-track", "--threshold", "0.3"],
         {"input": "d", "chunk_size": 2, "operator": "mask", "track": False, "gold_sets": None, "threshold": 0.3}),
        (["--input", "d", "--gold-sets", '{"ler": "a.jsonl"}'],
         {"input": "d", "chunk_size": 8, "operator": None, "track": True, "gold_sets": {"ler": "a.jsonl"},
          "threshold": 0.5}),
    ],
)  # fmt: skip
def test_options_follow_the_signature(argv: list[str], expected: dict) -> None:
    assert parse(argv) == expected


def test_a_parameter_without_default_is_required() -> None:
    with pytest.raises(SystemExit):
        parse(["--chunk-size", "2"])


def test_markdown_table_and_durations() -> None:
    assert markdown_table(["a", "b"], [[1, "x"]]) == "| a | b |\n|---|---|\n| 1 | x |\n"
    durations = Durations({"train": 1.25, "gate": 0.5})
    assert durations.markdown().splitlines()[-1] == "| **total** | 1.8 |"


def test_links_to_a_server_and_to_a_local_store() -> None:
    server = mlflow_links("http://127.0.0.1:5000/", "1", "abc", "deid-ner", "3")
    assert server == {
        "run": "http://127.0.0.1:5000/#/experiments/1/runs/abc",
        "model_version": "http://127.0.0.1:5000/#/models/deid-ner/versions/3",
    }
    local = mlflow_links("sqlite:////p/mlflow.db", "1", "abc", "deid-ner", "3")
    assert local["start_ui"] == "mlflow ui --backend-store-uri sqlite:////p/mlflow.db"


def test_a_stage_exit_becomes_an_error_and_success_passes() -> None:
    def failing(argv):
        raise SystemExit("3 raw file(s) rejected")

    with pytest.raises(StageFailed, match="3 raw file"):
        run_stage(failing, [])
    run_stage(lambda argv: None, ["--x", 1])


# --- no text in Prefect; a killed run and its temporary server (issue 18) ------------------------


def test_an_error_that_quotes_a_document_becomes_one_that_does_not() -> None:
    """A UnicodeEncodeError's repr holds the whole string it could not encode, and Prefect
    logs exceptions by repr: the wrapped task raises a TaskFailed naming type and place."""
    text = read_source(DECISION)[:2000] + "\ud800"

    @text_free_errors
    def encode(value: str) -> bytes:
        return value.encode("utf-8")

    with pytest.raises(TaskFailed) as caught:
        encode(text)
    assert "UnicodeEncodeError at test_flows_common.py:" in str(caught.value)
    assert text[:40] not in repr(caught.value) and caught.value.__context__ is None
    assert caught.value.__cause__ is None

    @text_free_errors
    def missing(path: str) -> None:
        raise FileNotFoundError(f"no input at {path}")

    with pytest.raises(FileNotFoundError, match="no input at /x"):  # safe errors pass as they are
        missing("/x")


def test_a_user_error_is_not_retried() -> None:
    from prefect.states import Failed

    assert not retry_unless_user_error(None, None, Failed(data=TrackingServerDown("down")))
    assert retry_unless_user_error(None, None, Failed(data=ConnectionResetError("reset")))


PROBE_FLOW = textwrap.dedent(
    '''
    import time
    from pathlib import Path

    from prefect import flow, task

    from flows._common import run_cli, text_free_errors


    @task
    @text_free_errors
    def leak(path: str) -> None:
        (Path(path).read_text(encoding="utf-8") + "\\ud800").encode("utf-8")


    @task
    def wait(path: str) -> None:
        Path(path).write_text("started", encoding="utf-8")
        time.sleep(600)


    @flow(name="probe")
    def probe(mode: str, path: str) -> str:
        """A flow for tests: leak (a task fails on a document's text) or wait."""
        (leak if mode == "leak" else wait)(path)
        return mode


    if __name__ == "__main__":
        run_cli(probe)
    '''
)


def _probe(tmp_path: Path, *args: str, background: bool = False):
    """``python probe.py ARGS`` against the temporary Prefect server the flows start when
    no PREFECT_API_URL is set, its database in ``tmp_path/prefect``."""
    script = tmp_path / "probe.py"
    script.write_text(PROBE_FLOW, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    env |= {"PREFECT_HOME": str(tmp_path / "prefect"), "PYTHONPATH": str(ROOT),
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}  # fmt: skip
    argv = [sys.executable, str(script), *args]
    if background:
        return subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=False)


def _rows(tmp_path: Path, query: str) -> list[tuple]:
    with sqlite3.connect(tmp_path / "prefect" / "prefect.db") as db:
        return db.execute(query).fetchall()


def _wait_for(condition, what: str, limit: float = 120.0) -> None:
    """Poll until ``condition()``; the limit only turns a hang into a failure."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.2)


@pytest.mark.slow
def test_a_failing_task_puts_no_document_text_into_prefect(tmp_path: Path) -> None:
    text = read_source(DECISION)[:3000]
    (tmp_path / "doc.txt").write_text(text, encoding="utf-8")
    run = _probe(tmp_path, "--mode", "leak", "--path", str(tmp_path / "doc.txt"))
    assert run.returncode == 1 and '"state": "FAILED"' in run.stdout
    assert "UnicodeEncodeError" in run.stdout and "message withheld" in run.stdout
    logs = _rows(tmp_path, "select message from log")
    states = _rows(tmp_path, "select coalesce(message, '') from flow_run_state union all "
                             "select coalesce(message, '') from task_run_state")  # fmt: skip
    assert logs and any("UnicodeEncodeError" in m for (m,) in states)
    haystack = "\n".join([run.stdout, run.stderr, *(m for (m,) in logs + states)])
    probes = [line for line in text.splitlines() if len(line) >= 40]
    assert probes and not [p for p in probes if p in haystack]


@pytest.mark.slow
def test_a_killed_flow_is_marked_crashed_and_its_temporary_server_stops(tmp_path: Path) -> None:
    """``kill -9`` used to leave the run RUNNING forever and Prefect's temporary server
    running on its port; now the server stops with its parent and the next start marks the
    dead process's runs (and their task runs) CRASHED."""
    import psutil

    marker = tmp_path / "started"
    flow = _probe(tmp_path, "--mode", "wait", "--path", str(marker), background=True)
    try:
        _wait_for(marker.exists, "the task to start")
        servers = psutil.Process(flow.pid).children(recursive=True)
        assert servers, "the temporary Prefect server is a child of the flow's process"
        assert _rows(tmp_path, "select state_type from flow_run") == [("RUNNING",)]
    finally:
        flow.kill()
        flow.wait()
    _wait_for(lambda: not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in servers),
              "the temporary server to stop with its parent")  # fmt: skip
    (tmp_path / "doc.txt").write_text("kurz", encoding="utf-8")
    _probe(tmp_path, "--mode", "leak", "--path", str(tmp_path / "doc.txt"))  # the next start
    assert sorted(_rows(tmp_path, "select state_type from flow_run")) == [("CRASHED",), ("FAILED",)]
    assert ("CRASHED",) in _rows(tmp_path, "select state_type from task_run")


# --- tasks fanned out over Dask (issue 18) ---------------------------------------------------


@pytest.mark.parametrize(
    ("workers", "cores", "threads"), [(1, 2, 2), (2, 2, 1), (3, 2, 1), (2, 16, 8), (4, 16, 4)]
)
def test_each_local_worker_gets_its_share_of_the_cores(workers: int, cores: int, threads: int) -> None:
    assert threads_per_worker(workers, cores) == threads


@task(cache_policy=NO_CACHE)
def _probe_task(folder: str, name: str, after: str = "", fail: bool = False) -> dict:
    """Waits until the file ``after`` exists (another call writes it), then writes its own
    ``name``; reports the process and the thread settings it ran with."""
    import torch

    if after:
        _wait_for((Path(folder) / after).exists, f"{after} from another worker", limit=300)
    if fail:
        raise ValueError("this call fails")
    (Path(folder) / name).write_text("done", encoding="utf-8")
    return {"name": name, "pid": os.getpid(), "omp": os.environ.get("OMP_NUM_THREADS"),
            "torch_threads": torch.get_num_threads()}  # fmt: skip


@pytest.fixture(scope="module")
def prefect_api():
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.mark.slow
def test_results_come_in_call_order_whatever_order_the_workers_finish(prefect_api, tmp_path: Path) -> None:
    """The first call waits for a file the second writes, so the second finishes first on a
    real two-process LocalCluster; each worker process got its share of the cores."""
    calls = [{"folder": str(tmp_path), "name": "first", "after": "second"},
             {"folder": str(tmp_path), "name": "second"}]  # fmt: skip
    finished: list[int] = []
    results = run_tasks(_probe_task, calls, workers=2, on_done=finished.append)
    assert [r["name"] for r in results] == ["first", "second"] and finished == [1, 2]
    assert len({r["pid"] for r in results} | {os.getpid()}) == 3, "two worker processes"
    share = threads_per_worker(2)
    assert {(r["omp"], r["torch_threads"]) for r in results} == {(str(share), share)}
    alone = run_tasks(_probe_task, [{"folder": str(tmp_path), "name": "alone"}])
    assert alone[0]["pid"] == os.getpid(), "one worker: in this process, as before"


@pytest.mark.slow
def test_a_failed_call_is_raised_after_the_others_finished(prefect_api, tmp_path: Path) -> None:
    calls = [{"folder": str(tmp_path), "name": "bad", "fail": True},
             {"folder": str(tmp_path), "name": "good", "after": "go"}]  # fmt: skip
    (tmp_path / "go").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="this call fails"):
        run_tasks(_probe_task, calls, workers=2)
    assert (tmp_path / "good").exists(), "the other call still finished"
    with pytest.raises(UserError, match="at least 1"):
        run_tasks(_probe_task, calls, workers=0)
