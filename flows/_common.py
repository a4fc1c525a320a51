"""Small helpers every flow uses: paths in the project, step timing, Markdown tables, MLflow
links, stage calls and the command line. Nothing here knows about documents."""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import sys
import time
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class StageFailed(RuntimeError):
    """A ``pipelines`` stage ended with ``SystemExit`` (its message names counts and paths)."""


def in_project(project_dir: str | Path, path: str | Path) -> Path:
    """``path`` resolved against the project checkout (absolute paths stay as they are)."""
    path = Path(path)
    return path if path.is_absolute() else Path(project_dir).resolve() / path


def run_stage(main: Callable[[Sequence[str]], None], argv: Sequence[str]) -> None:
    """Call a DVC stage's ``main(argv)`` in-process; its ``SystemExit`` becomes an error a
    Prefect task reports as a failure instead of ending the worker process."""
    try:
        main([str(a) for a in argv])
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise StageFailed(str(exc.code)) from None


def read_json(path: str | Path) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


@dataclass
class Durations:
    """Wall-clock seconds per flow step, in order, for the summary artifact."""

    steps: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.steps[name] = round(time.perf_counter() - started, 1)

    def markdown(self) -> str:
        rows = [[name, f"{s:.1f}"] for name, s in self.steps.items()]
        rows.append(["**total**", f"{sum(self.steps.values()):.1f}"])
        return markdown_table(["step", "seconds"], rows)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def mlflow_links(
    tracking_uri: str, experiment_id: str, run_id: str, model: str, version: str
) -> dict[str, str]:
    """Browser links to a run and a model version. A server URI links directly; a local
    store (sqlite) links to ``mlflow ui`` on its default port, started as the text says."""
    base = tracking_uri.rstrip("/") if tracking_uri.startswith(("http://", "https://")) else None
    ui = base or "http://127.0.0.1:5000"
    links = {
        "run": f"{ui}/#/experiments/{experiment_id}/runs/{run_id}",
        "model_version": f"{ui}/#/models/{model}/versions/{version}",
    }
    if base is None:
        links["start_ui"] = f"mlflow ui --backend-store-uri {tracking_uri}"
    return links


# --- the command line ----------------------------------------------------------------------


def console_logging() -> None:
    """Prefect prints (and ships to its API) the flow and task logs and, with
    ``PREFECT_LOGGING_EXTRA_LOGGERS=deid``, deid's own INFO lines. A root NullHandler keeps the
    stages' ``logging.basicConfig`` from printing everything a second time; httpx's line per
    API request is dropped."""
    logging.getLogger().addHandler(logging.NullHandler())
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("deid").setLevel(logging.INFO)


def _base_type(annotation: Any) -> Any:
    """``str | None`` → ``str``; string annotations (``from __future__``) are resolved."""
    if isinstance(annotation, str):
        annotation = eval(annotation, vars(typing), {"Path": Path})
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return args[0]
    return annotation


def _argument(parser: argparse.ArgumentParser, param: inspect.Parameter) -> None:
    flag = "--" + param.name.replace("_", "-")
    kind = _base_type(param.annotation)
    required = param.default is inspect.Parameter.empty
    default = None if required else param.default
    if kind is bool:
        parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default)
    elif typing.get_origin(kind) in (dict, list) or kind in (dict, list):
        parser.add_argument(flag, type=json.loads, default=default, required=required, help="JSON")
    else:
        convert = kind if kind in (int, float) else str
        parser.add_argument(flag, type=convert, default=default, required=required)


def run_cli(flow: Any, argv: Sequence[str] | None = None) -> None:
    """Run ``flow`` with options made from its signature (``--profile tiny``,
    ``--gold-sets '{"ler": "…"}'``). The last line printed is JSON: the flow run's id, its
    final state and the result (or the state's message); the exit status is 1 unless the
    run completed."""
    console_logging()
    parser = argparse.ArgumentParser(
        prog=f"python -m flows.{flow.fn.__module__.split('.')[-1]}",
        description=(flow.description or "").strip().splitlines()[0],
    )
    for param in inspect.signature(flow.fn).parameters.values():
        _argument(parser, param)
    state = flow(**vars(parser.parse_args(argv)), return_state=True)
    out: dict[str, Any] = {
        "flow_run_id": str(state.state_details.flow_run_id),
        "state": state.type.value,
    }
    if state.is_completed():
        out["result"] = state.result()
    else:
        out["message"] = state.message
    sys.stdout.write(json.dumps(out, default=str) + "\n")
    sys.exit(0 if state.is_completed() else 1)
