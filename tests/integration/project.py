"""A throw-away deid project for flow runs: a git + DVC repository holding copies of what the
flows read (params, gold sets, GX project, bundled sources, data/raw.dvc), so tests never
touch the working tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from deid.ops import versioning

ROOT = Path(__file__).resolve().parents[2]
COPIED = (
    "params.yaml",
    "data/raw.dvc",
    "data/gold",
    "data/sources",
    "data/written",
    "gx/great_expectations.yml",
    "gx/.gitignore",
    "gx/expectations",
    "gx/checkpoints",
    "gx/validation_definitions",
    "gx/plugins",
)


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def make_project(target: Path) -> Path:
    """Copy the needed parts, ``git init`` + ``dvc init`` and commit them."""
    target.mkdir(parents=True, exist_ok=True)
    for rel in COPIED:
        src, dst = ROOT / rel, target / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("uncommitted"))
        else:
            shutil.copy2(src, dst)
    (target / ".gitignore").write_text("/data/raw\n/data/corpus\n/data/work\n/models\n/reports\n")
    git(target, "init", "-q", "-b", "main")
    git(target, "config", "user.email", "tests@deid.invalid")
    git(target, "config", "user.name", "deid tests")
    subprocess.run([sys.executable, "-m", "dvc", "init", "-q"], cwd=target, check=True)
    subprocess.run(
        [sys.executable, "-m", "dvc", "config", "core.analytics", "false"], cwd=target, check=True
    )
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "project copy")
    return target


def publish_corpus(project: Path) -> versioning.TrackResult:
    """Rebuild data/raw from the bundled sources, push it to the default remote and commit
    the .dvc file; then drop the workspace copy and the cache so a flow has to pull."""
    versioning.import_sources(project / "data/sources", project / "data/raw")
    result = versioning.track_and_push("data/raw", "corpus for tests", repo=project)
    shutil.rmtree(project / "data/raw")
    shutil.rmtree(project / ".dvc" / "cache", ignore_errors=True)
    return result
