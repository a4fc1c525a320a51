"""deid.ops.versioning against a throw-away git + DVC project with a local directory remote:
track and push a corpus, a clean status, a second version with a new md5, pulling an older
version back, remote configuration, and errors that say what went wrong."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from deid.ops import versioning as v

pytestmark = pytest.mark.slow  # real git and DVC repositories: seconds per test


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repo with DVC, a local remote under .dvc-storage and one committed corpus version."""
    repo = tmp_path_factory.mktemp("project")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "test@example.invalid")
    _git(repo, "config", "user.name", "test")
    subprocess.run(
        [sys.executable, "-m", "dvc", "init", "-q"],
        cwd=repo,
        check=True,
        env={"DVC_NO_ANALYTICS": "1", "PATH": "/usr/bin:/bin"},
    )
    remote = v.configure_local_remote(repo=repo)
    assert (remote.name, remote.default) == ("local", True)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "init")
    raw = repo / "data" / "raw" / "decisions" / "bag"
    raw.mkdir(parents=True)
    (raw / "1-azr-1-23.txt").write_text("Urteil vom 1. Januar 2023", encoding="utf-8")
    return repo


@pytest.fixture(scope="module")
def first(project: Path) -> v.TrackResult:
    return v.track_and_push("data/raw", "data: first corpus version", repo=project)


def test_track_pushes_stages_and_commits_only_when_asked(
    project: Path, first: v.TrackResult
) -> None:
    assert first.pushed and first.commit == _git(project, "rev-parse", "HEAD").strip()
    assert first.version.md5.endswith(".dir") and first.version.nfiles == 1
    assert first.staged == ["data/raw.dvc", "data/.gitignore"]
    assert _git(project, "status", "--porcelain") == ""
    assert any((project / ".dvc-storage").rglob("*")), "the remote holds the data"
    assert v.remotes(project) == {"local": str(project / ".dvc-storage")}


def test_status_is_clean_after_push(project: Path, first: v.TrackResult) -> None:
    result = v.status(["data/raw.dvc"], repo=project)
    assert result.clean and result.to_dict() == {"clean": True, "workspace": {}, "cloud": {}}


def test_a_new_decision_is_a_new_version(project: Path, first: v.TrackResult) -> None:
    new = project / "data/raw/decisions/bag/2-azr-2-24.txt"
    new.write_text("Beschluss vom 2. Februar 2024", encoding="utf-8")
    assert not v.status(["data/raw.dvc"], cloud=False, repo=project).clean
    second = v.track_and_push("data/raw", repo=project)
    assert second.commit is None  # staged, not committed
    assert "A  data/raw.dvc" in _git(project, "status", "--porcelain") or "M  data/raw.dvc" in _git(
        project, "status", "--porcelain"
    )
    assert second.version.md5 != first.version.md5 and second.version.nfiles == 2
    assert v.corpus_version(repo=project) == second.version
    assert v.corpus_version(repo=project, rev="HEAD").md5 == first.version.md5
    assert v.status(["data/raw.dvc"], repo=project).clean
    _git(project, "commit", "-q", "-m", "data: second version", "--", "data/raw.dvc")

    # back to the first version: .dvc file from that commit, data from the remote
    v.run_dvc(["gc", "-w", "-f"], project)  # drop the first version from the local cache
    pulled = v.pull(first.commit, repo=project)
    assert pulled.versions[0].md5 == first.version.md5
    assert not new.exists()
    pulled = v.pull("HEAD", repo=project)
    assert pulled.versions[0].md5 == second.version.md5 and new.exists()


def test_s3_remote_goes_to_the_local_config_without_credentials(project: Path) -> None:
    config = v.configure_s3_remote("s3://deid-data/dvc", "http://127.0.0.1:8333", repo=project)
    assert config.scope == "local" and config.endpointurl == "http://127.0.0.1:8333"
    text = (project / ".dvc" / "config.local").read_text(encoding="utf-8")
    assert "s3://deid-data/dvc" in text and "endpointurl = http://127.0.0.1:8333" in text
    assert "secret" not in text and "key" not in text
    assert v.default_remote(project) == "storage"
    assert "s3://" not in (project / ".dvc" / "config").read_text(encoding="utf-8")
    (project / ".dvc" / "config.local").unlink()
    assert v.default_remote(project) == "local"
    with pytest.raises(ValueError, match="s3://"):
        v.configure_s3_remote("https://example.invalid/bucket", repo=project)


def test_errors_name_the_problem(project: Path, tmp_path: Path) -> None:
    with pytest.raises(v.VersioningError, match="nothing to track"):
        v.track_and_push("data/missing", repo=project)
    with pytest.raises(v.VersioningError, match="does not exist"):
        v.corpus_version("data/other.dvc", repo=project)
    with pytest.raises(v.VersioningError, match="no DVC project"):
        v.status(repo=tmp_path)
    with pytest.raises(v.VersioningError, match="exit code") as info:
        v.run_dvc(["remote", "modify", "nope", "url", "x"], project)
    assert info.value.returncode != 0 and info.value.command[-5:] == [
        "remote",
        "modify",
        "nope",
        "url",
        "x",
    ]
