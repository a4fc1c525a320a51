"""deid.ops.versioning.checkout_corpus: the version data/raw.dvc records is kept, pulled, or on a
fresh clone with an empty remote rebuilt from the bundled sources, never silently another
one; with ``rev`` an older version comes back. A temporary git + DVC repository with two
real bundled decisions and a local directory remote."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deid.ops import versioning
from tests.conftest import SOURCES

pytestmark = pytest.mark.slow  # real git and DVC repositories: seconds per test

FILES = ("decisions/bag/1-azr-62-23.txt.xz", "decisions/bag/9-azr-115-23.txt.xz")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for rel in FILES:
        (root / "sources" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(SOURCES / rel, root / "sources" / rel)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.email", "t@deid.invalid")
    _git(root, "config", "user.name", "t")
    subprocess.run([sys.executable, "-m", "dvc", "init", "-q"], cwd=root, check=True)
    versioning.configure_local_remote(tmp_path / "remote", repo=root)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "sources")
    versioning.import_sources(root / "sources", root / versioning.RAW_DIR)
    versioning.track_and_push(message="first version", repo=root)
    return root


def _forget(repo: Path, *, remote: bool = False) -> None:
    """A fresh clone: no workspace copy, no cache (and, with ``remote``, nothing pushed)."""
    shutil.rmtree(repo / versioning.RAW_DIR)
    shutil.rmtree(repo / ".dvc" / "cache", ignore_errors=True)
    if remote:
        shutil.rmtree(repo.parent / "remote" / "files", ignore_errors=True)


def test_workspace_pull_and_import(repo: Path) -> None:
    recorded = versioning.corpus_version(repo=repo)
    kept = versioning.checkout_corpus(repo=repo)
    assert (kept.how, kept.version.md5) == ("workspace", recorded.md5)
    _forget(repo)
    pulled = versioning.checkout_corpus(sources="sources", repo=repo)
    assert (pulled.how, pulled.version.md5) == ("pulled", recorded.md5)
    _forget(repo, remote=True)
    with pytest.raises(versioning.VersioningError):
        versioning.checkout_corpus(repo=repo)  # no sources given: no fallback
    imported = versioning.checkout_corpus(sources="sources", repo=repo)
    assert (imported.how, imported.version.md5) == ("imported", recorded.md5)
    assert not versioning.status([versioning.RAW_DVC], cloud=False, repo=repo).workspace


def test_sources_that_differ_from_the_recorded_version_are_refused(repo: Path) -> None:
    _forget(repo, remote=True)
    (repo / "sources" / FILES[0]).unlink()  # the bundled sources lost a decision
    with pytest.raises(versioning.VersioningError, match="does not match"):
        versioning.checkout_corpus(sources="sources", repo=repo)


def test_rev_brings_back_an_older_version(repo: Path) -> None:
    first = versioning.corpus_version(repo=repo)
    extra = repo / versioning.RAW_DIR / "decisions" / "bag" / "new-decision.txt"
    extra.write_text("Eine neue Entscheidung.\n", encoding="utf-8")
    second = versioning.track_and_push(message="second version", repo=repo).version
    assert second.md5 != first.md5
    back = versioning.checkout_corpus(rev="HEAD~1", repo=repo)
    assert (back.how, back.version.md5) == ("pulled", first.md5)
    assert not extra.exists()


def test_tracking_an_unchanged_version_again_commits_nothing(repo: Path) -> None:
    head = _git(repo, "rev-parse", "HEAD")
    result = versioning.track_and_push(message="same again", repo=repo)
    assert result.commit == head == _git(repo, "rev-parse", "HEAD")
