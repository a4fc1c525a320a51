"""Session fixtures: the real local stack (SeaweedFS S3, MLflow server on sqlite with S3
artifacts, Prefect server) on free loopback ports, started once and torn down at the end,
and a helper that runs a flow the way a worker does (a subprocess against that stack)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from infra.stack import StackConfig, client_env, start, stop
from tests.integration.project import ROOT

FLOW_TIMEOUT = 600


@dataclass
class FlowRun:
    """One flow run as a worker would see it: the final JSON line, stdout and stderr."""

    name: str
    returncode: int
    stdout: str
    stderr: str

    @property
    def report(self) -> dict[str, Any]:
        return json.loads(self.stdout.strip().splitlines()[-1])

    @property
    def id(self) -> str:
        return self.report["flow_run_id"]

    @property
    def result(self) -> dict[str, Any]:
        return self.report["result"]


class Stack:
    """The running stack: its config, the client environment and small API helpers."""

    def __init__(self, cfg: StackConfig, home: Path) -> None:
        self.cfg = cfg
        self.env = (
            os.environ | client_env(cfg) | {"PREFECT_HOME": str(home), "PYTHONPATH": str(ROOT)}
        )
        self.env.pop("MLFLOW_REGISTRY_URI", None)
        self.runs: list[FlowRun] = []

    def run_flow(self, module: str, *args: str, cwd: Path, expect_ok: bool = True) -> FlowRun:
        """``python -m flows.<module> ARGS`` in ``cwd`` (a temporary project, never the
        checkout) against the stack; every run is kept for the privacy check."""
        argv = [sys.executable, "-m", f"flows.{module}", *args]
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=FLOW_TIMEOUT,
            check=False,
        )
        run = FlowRun(module, done.returncode, done.stdout, done.stderr)
        self.runs.append(run)
        if expect_ok and done.returncode != 0:
            raise AssertionError(f"flow {module} exited {done.returncode}:\n{done.stderr[-4000:]}")
        return run

    def prefect(self, path: str, body: dict[str, Any]) -> Any:
        response = httpx.post(f"{self.cfg.prefect_api}{path}", json=body, timeout=30)
        response.raise_for_status()
        return response.json()

    def prefect_all(self, path: str, body: dict[str, Any], page: int = 200) -> list[Any]:
        """Every row of a ``/filter`` endpoint (they page with limit/offset)."""
        rows: list[Any] = []
        while True:
            chunk = self.prefect(path, body | {"limit": page, "offset": len(rows)})
            rows += chunk
            if len(chunk) < page:
                return rows

    def s3(self) -> Any:
        from deid.ops import s3

        return s3.client(self.cfg.s3_url)


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    cfg = StackConfig.with_free_ports(tmp_path_factory.mktemp("stack"))
    try:
        start(cfg)
        yield Stack(cfg, tmp_path_factory.mktemp("prefect-client"))
    finally:
        stop(cfg)


@pytest.fixture(scope="session")
def stack_env(stack: Stack) -> Iterator[Stack]:
    """The stack's client environment in this process too (boto3, DVC, MLflow clients)."""
    saved = dict(os.environ)
    os.environ.update({k: v for k, v in stack.env.items() if k != "PYTHONPATH"})
    try:
        yield stack
    finally:
        os.environ.clear()
        os.environ.update(saved)
