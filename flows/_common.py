"""Small helpers every flow uses: paths in the project, step timing, Markdown tables, MLflow
links, stage calls, errors without text, the Prefect API a run talks to, and the command
line. Nothing here knows about documents."""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deid.sources.errors import UserError, withheld
from deid.sources.io import InputError

logger = logging.getLogger(__name__)


class StageFailed(RuntimeError):
    """A ``pipelines`` stage ended with ``SystemExit`` (its message names counts and paths)."""


class TaskFailed(RuntimeError):
    """A task over documents failed with an error whose message may quote a document; this
    one names only the error's type and where it was raised."""


# errors whose messages are written to name paths, ids, counts and settings, never text
SAFE_ERRORS: tuple[type[BaseException], ...] = (UserError, InputError, StageFailed, OSError)


def text_free_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a task that reads documents so its failure cannot carry their text: Prefect logs
    and stores an exception's ``repr``, and some quote their input (a ``UnicodeEncodeError``
    holds the whole JSON line it could not encode). Errors of :data:`SAFE_ERRORS` pass
    unchanged; any other becomes :class:`TaskFailed` naming its type and the file and line
    it came from, without the original attached (``__context__`` is dropped too)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except SAFE_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - re-raised below without its message
            failure = TaskFailed(f"{fn.__name__}: {withheld(exc)}")
        raise failure  # outside the except block: no __context__ to the original

    return wrapper


def retry_unless_user_error(task: Any, task_run: Any, state: Any) -> bool:
    """Prefect ``retry_condition_fn``: retry transient failures, but not a user error (a
    missing tracking store, a server that is down, no such model): retrying only delays the
    message by the retry delays."""
    try:
        state.result()
    except UserError:
        return False
    except Exception:  # noqa: BLE001 - any other failure may be transient
        return True
    return True


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


# --- the Prefect API a run talks to ------------------------------------------------------------

OWNER_TAG = "deid-process"  # flow run tag: deid-process:<host>:<pid>:<process start, ms>


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the parent dies, however it dies (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _owned_server() -> Any:
    """Prefect's temporary API server (the one it starts on its own when no PREFECT_API_URL
    is set), started so that it stops with this process even after ``kill -9``: Prefect's own
    outlives a killed parent and keeps its port and database."""
    from prefect.server.api import server as prefect_server

    class OwnedServer(prefect_server.SubprocessASGIServer):
        _instances: typing.ClassVar[dict[int | None, Any]] = {}  # not Prefect's own instances

        def _run_uvicorn_command(self) -> subprocess.Popen[Any]:
            popen = functools.partial(subprocess.Popen, preexec_fn=_die_with_parent)
            spawner = types.SimpleNamespace(Popen=popen)
            saved, prefect_server.subprocess = prefect_server.subprocess, spawner
            try:
                return super()._run_uvicorn_command()
            finally:
                prefect_server.subprocess = saved

    return OwnedServer()


def owner_tag(pid: int | None = None) -> str:
    """This process as a flow run tag: host, pid and the process's start time (a pid alone
    may be reused)."""
    import psutil

    process = psutil.Process(pid)
    return f"{OWNER_TAG}:{socket.gethostname()}:{process.pid}:{int(process.create_time() * 1000)}"


def _owner_alive(tags: Sequence[str]) -> bool | None:
    """Whether the process a run's owner tag names still runs; None when the run has no
    owner tag of this host (another machine's runs are not judged from here)."""
    import psutil

    for tag in tags:
        parts = tag.split(":")
        if len(parts) < 4 or parts[0] != OWNER_TAG or ":".join(parts[1:-2]) != socket.gethostname():
            continue
        pid, started = int(parts[-2]), int(parts[-1])
        try:
            return abs(psutil.Process(pid).create_time() * 1000 - started) < 1000
        except psutil.Error:
            return False
    return None


def mark_stale_runs_crashed() -> list[str]:
    """Flow runs still RUNNING or PENDING whose owning process on this host is gone (killed
    with ``kill -9``, the machine's OOM killer) become CRASHED, with their unfinished task
    runs: nobody else would ever end them. Returns their ids."""
    from prefect import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterId,
        FlowRunFilterState,
        FlowRunFilterStateType,
        TaskRunFilter,
        TaskRunFilterState,
        TaskRunFilterStateType,
    )
    from prefect.client.schemas.objects import StateType
    from prefect.states import Crashed

    live = [StateType.RUNNING, StateType.PENDING]
    crashed: list[str] = []
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(
                state=FlowRunFilterState(type=FlowRunFilterStateType(any_=live))
            )
        )
        for run in runs:
            if _owner_alive(run.tags) is not False:
                continue
            message = "its process ended without reporting (killed); marked by the next start"
            client.set_flow_run_state(run.id, Crashed(message=message), force=True)
            tasks = client.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run.id])),
                task_run_filter=TaskRunFilter(
                    state=TaskRunFilterState(type=TaskRunFilterStateType(any_=live))
                ),
            )
            for task_run in tasks:
                client.set_task_run_state(task_run.id, Crashed(message=message), force=True)
            crashed.append(str(run.id))
    if crashed:
        logger.warning("marked %d flow run(s) of dead processes CRASHED", len(crashed))
    return crashed


# How long the temporary server may take to answer. Prefect's default (20 s) is too short on a
# busy machine: `make main` on 2 cores beside a test run failed with "Timed out while
# attempting to connect to ephemeral Prefect API server". A larger
# PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS wins.
SERVER_START_SECONDS = 180


@contextmanager
def prefect_session() -> Iterator[None]:
    """Where this process's flow runs go, and who owns them: ``PREFECT_API_URL`` when set,
    else a temporary local server on Prefect's database that stops with this process (see
    :func:`_owned_server`). Runs that a dead process left RUNNING are marked CRASHED first;
    the runs started inside carry this process's :func:`owner_tag`."""
    from prefect import tags
    from prefect.settings import (
        PREFECT_API_URL,
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
        temporary_settings,
    )

    server = None
    if not PREFECT_API_URL.value():
        server = _owned_server()
        limit = PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS.value()
        server.start(timeout=max(SERVER_START_SECONDS, limit))
    try:
        with temporary_settings({PREFECT_API_URL: server.api_url} if server else {}):
            try:
                mark_stale_runs_crashed()
            except Exception as exc:  # noqa: BLE001 - housekeeping must not stop a run
                logger.warning("could not check for runs of dead processes: %s", type(exc).__name__)
            with tags(owner_tag()):
                yield
    finally:
        if server is not None:
            _drain_to_api()
            server.stop()


def _drain_to_api() -> None:
    """Send the logs and events still queued before the temporary server stops (Prefect's own
    server stops at exit, after its workers drained)."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    for worker in (APILogWorker, EventsWorker):
        worker.drain_all(timeout=5)


# --- tasks fanned out over Dask -------------------------------------------------------------

# what the numeric libraries (torch, and ONNX Runtime through torch's count) read at start
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def threads_per_worker(workers: int, cores: int | None = None) -> int:
    """CPU threads each of ``workers`` local worker processes gets: the cores shared out, at
    least one, so N workers of torch and ONNX Runtime do not oversubscribe C cores."""
    cores = cores or len(os.sched_getaffinity(0))
    return max(1, cores // max(1, workers))


def check_workers(workers: int) -> None:
    """A flow checks its worker count before it reads any input."""
    if workers < 1:
        raise UserError(f"workers must be at least 1, not {workers}")


def dask_runner(workers: int, address: str | None) -> Any:
    """A ``DaskTaskRunner``: on the scheduler at ``address`` (its workers bring their own
    settings; run them with ``--nthreads 1``), else on a new local cluster of ``workers``
    processes on loopback, one task at a time each, without a dashboard (its HTTP routes
    listen on 127.0.0.1 too)."""
    from prefect_dask import DaskTaskRunner

    if address:
        return DaskTaskRunner(address=address)
    # no memory limit: each document has its own size budget (deid.anonymizer.budget), and a limit of
    # RAM / workers would restart a worker that holds a model in the middle of a chunk
    cluster = {"n_workers": workers, "threads_per_worker": 1, "processes": True,
               "host": "127.0.0.1", "dashboard_address": None, "memory_limit": 0}  # fmt: skip
    return DaskTaskRunner(cluster_kwargs=cluster)


def _drain_on_close() -> Any:
    """A Dask worker plugin: a closing worker sends its queued Prefect logs and events before
    the nanny stops its process (Prefect drains them only at a normal interpreter exit)."""
    from distributed import WorkerPlugin

    class DrainOnClose(WorkerPlugin):
        async def teardown(self, worker: Any) -> None:
            import asyncio

            await asyncio.to_thread(_drain_to_api)  # outside the worker's event loop

    return DrainOnClose()


def run_tasks(
    task: Any,
    calls: Sequence[dict[str, Any]],
    *,
    workers: int = 1,
    address: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[Any]:
    """``task`` once per parameter set in ``calls``, the results in the order of ``calls``
    whatever order they finish in (outputs never depend on scheduling); ``on_done(n)`` after
    the n-th finished. One worker and no ``address``: one after another in this process.
    Otherwise on Dask (:func:`dask_runner`): a local cluster's processes start with their
    share of the cores (:func:`threads_per_worker`) in the thread variables, before torch
    reads them. Every call finishes before the first failure is raised, so a re-run redoes
    only what failed."""
    check_workers(workers)
    notify = on_done or (lambda n: None)
    if not calls:
        return []
    if workers == 1 and not address:
        results = []
        for params in calls:
            results.append(task(**params))
            notify(len(results))
        return results
    import dask
    from prefect.futures import as_completed

    runner = dask_runner(workers, address)  # imports distributed, which sets its log level
    logging.getLogger("distributed").setLevel(logging.WARNING)  # not a line per worker event
    threads = str(threads_per_worker(workers))
    environ = {f"distributed.nanny.pre-spawn-environ.{v}": threads for v in THREAD_VARIABLES}
    environ["distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED"] = "warning"
    with dask.config.set(environ if not address else {}), runner:
        if not address:  # its workers stop with it: they send what they logged first
            runner.client.register_plugin(_drain_on_close(), name="deid-drain-logs")
        futures = [runner.submit(task, dict(params)) for params in calls]
        for n, _ in enumerate(as_completed(futures), 1):
            notify(n)
        return [future.result() for future in futures]


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
    args = vars(parser.parse_args(argv))
    with prefect_session():
        state = flow(**args, return_state=True)
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
