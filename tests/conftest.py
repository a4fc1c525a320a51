"""Shared fixtures: paths into the project's own bundled data (never ../shared)."""

from __future__ import annotations

import lzma
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "data" / "sources"


def read_source(relpath: str) -> str:
    """A bundled source file as text (xz-compressed files are decompressed)."""
    path = SOURCES / relpath
    if path.suffix == ".xz":
        return lzma.open(path, "rt", encoding="utf-8").read()
    return path.read_text(encoding="utf-8")


def commit_project(path: Path, params: dict, files: dict[str, bytes] | None = None, message: str = "project") -> str:
    """A git checkout at ``path`` whose HEAD holds ``params`` as params.yaml and ``files``
    (what the gate's committed settings are read from, deid.ops.gate.committed_gate);
    commits again when called on an existing one. Returns the commit."""
    import subprocess

    import yaml

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True, check=True).stdout

    path.mkdir(parents=True, exist_ok=True)
    if not (path / ".git").exists():
        git("init", "-q", "-b", "main")
        git("config", "user.email", "tests@deid.invalid")
        git("config", "user.name", "deid tests")
    (path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    for name, data in (files or {}).items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)
    git("add", "-A")
    git("commit", "-q", "--allow-empty", "-m", message)
    return git("rev-parse", "HEAD").strip()


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def sources() -> Path:
    return SOURCES


@pytest.fixture(scope="session", autouse=True)
def gate_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The tests' own gate key (deid.ops.vetting): never the user's ~/.config/deid/gate.key.
    Set in the environment, so flows, services and CLI runs started from tests use it."""
    import os

    from deid.ops.vetting import KEY_FILE_ENV

    path = tmp_path_factory.mktemp("gate-key") / "gate.key"
    saved = os.environ.get(KEY_FILE_ENV)
    os.environ[KEY_FILE_ENV] = str(path)
    yield path
    if saved is None:
        os.environ.pop(KEY_FILE_ENV, None)
    else:
        os.environ[KEY_FILE_ENV] = saved
