"""The raw corpus as versioned data: DVC helpers the flows and ``deid data`` call.

``data/raw`` holds what production grows: plain-text decisions per court collection and the
LER files. New decisions are new files there; ``dvc add`` + ``dvc push`` make them a new
corpus version, whose identity is the md5 in ``data/raw.dvc`` (committed to git). A fresh
machine without a reachable remote rebuilds the bundled part with :func:`import_sources`,
byte for byte, so its md5 matches the committed one.

Everything runs ``dvc``/``git`` as subprocesses with ``cwd=`` the project and never changes
the process' working directory (DVC's Python API needs that, and it is process-wide).
Results are small dataclasses; failures raise :class:`VersioningError` with the command and
the tail of its error output (paths and hashes, never document text).
"""

from __future__ import annotations

import json
import lzma
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from deid.sources.io import write_bytes_atomic

RAW_DIR = "data/raw"
RAW_DVC = "data/raw.dvc"
LOCAL_REMOTE = "local"
Scope = Literal["project", "local"]


class VersioningError(RuntimeError):
    """A dvc/git command failed or the project is not in the expected state."""

    def __init__(self, message: str, *, command: Sequence[str] = (), returncode: int | None = None):
        super().__init__(message)
        self.command = list(command)
        self.returncode = returncode


# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusVersion:
    """What ``data/raw.dvc`` says: the directory md5 (``….dir``), bytes and file count."""

    dvc_file: str
    path: str
    md5: str
    size: int | None
    nfiles: int | None
    rev: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ImportResult:
    """Files written, already identical, and differing ones left alone (relative paths)."""

    added: list[str] = field(default_factory=list)
    unchanged: int = 0
    conflicts: list[str] = field(default_factory=list)
    overwritten: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": len(self.added),
            "unchanged": self.unchanged,
            "overwritten": len(self.overwritten),
            "conflicts": self.conflicts,
        }


@dataclass(frozen=True)
class TrackResult:
    version: CorpusVersion
    pushed: bool
    staged: list[str]
    commit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PullResult:
    targets: list[str]
    rev: str | None
    versions: list[CorpusVersion]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RepoStatus:
    """``dvc status`` of the workspace and, with ``cloud``, against the remote; empty = clean."""

    workspace: dict[str, Any]
    cloud: dict[str, Any] | None = None

    @property
    def clean(self) -> bool:
        return not self.workspace and not self.cloud

    def to_dict(self) -> dict[str, Any]:
        return {"clean": self.clean, "workspace": self.workspace, "cloud": self.cloud}


@dataclass(frozen=True)
class RemoteConfig:
    name: str
    url: str
    scope: Scope
    default: bool
    endpointurl: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --- running commands ---------------------------------------------------------------------


def find_root(start: str | Path | None = None) -> Path:
    """The DVC project containing ``start`` (default: the current directory)."""
    here = Path(start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".dvc").is_dir():
            return candidate
    raise VersioningError(f"no DVC project (.dvc/) at or above {here}")


def _env(python_first: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DVC_NO_ANALYTICS", "1")
    if python_first:
        # stage commands call `python`: the interpreter running deid must come first on PATH
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _run(
    command: Sequence[str], repo: Path, *, capture: bool = True, python_first: bool = False
) -> subprocess.CompletedProcess[str]:
    env = _env(python_first)
    if capture:  # DVC wraps its tables at the terminal width (80 without one): never split a URL
        env["COLUMNS"] = "100000"
    proc = subprocess.run(
        list(command),
        cwd=repo,
        env=env,
        capture_output=capture,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-5:] if capture else []
        raise VersioningError(
            f"{' '.join(command[:4])} … failed with exit code {proc.returncode}"
            + (": " + " | ".join(tail) if tail else ""),
            command=command,
            returncode=proc.returncode,
        )
    return proc


def run_dvc(
    args: Sequence[str], repo: str | Path | None = None, *, capture: bool = True
) -> subprocess.CompletedProcess[str]:
    """``dvc ARGS`` of this interpreter's DVC, in ``repo`` (default: the enclosing project)."""
    root = find_root(repo)
    return _run([sys.executable, "-m", "dvc", *args], root, capture=capture)


def run_git(
    args: Sequence[str], repo: str | Path, *, attempts: int = 20
) -> subprocess.CompletedProcess[str]:
    """``git ARGS``; waits while another process holds ``.git/index.lock`` (shared trees)."""
    for attempt in range(attempts):
        try:
            return _run(["git", *args], Path(repo))
        except VersioningError as exc:
            if "index.lock" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


# --- the raw corpus -----------------------------------------------------------------------


def _raw_target(rel: Path) -> Path | None:
    """Where a bundled source file goes in the raw corpus (``None``: not a corpus file)."""
    name = rel.name
    if rel.parts[0] == "decisions" and len(rel.parts) == 3:
        if name.endswith(".txt.xz"):
            return rel.with_name(name[: -len(".xz")])
        if name.endswith(".txt"):
            return rel
    if rel.parts[0] == "ler" and len(rel.parts) == 2 and name.endswith((".conll.xz", ".conll")):
        return rel
    return None


def _raw_bytes(source: Path, rel: Path) -> bytes:
    data = source.read_bytes()
    return lzma.decompress(data) if rel.parts[0] == "decisions" and source.suffix == ".xz" else data


def import_sources(
    sources: str | Path, raw: str | Path, *, overwrite: bool = False
) -> ImportResult:
    """Copy the bundled sources into the raw corpus layout, idempotently.

    ``decisions/<collection>/<name>.txt.xz`` becomes plain ``decisions/<collection>/<name>.txt``;
    ``ler/<court>.conll.xz`` is copied as it is (the LER loader reads that name). Files that
    already hold the same bytes are left alone; a raw file with other bytes (changed in
    production) is reported as a conflict and kept unless ``overwrite``. Files in ``raw``
    that the sources do not have (new decisions) are never touched.
    """
    sources, raw = Path(sources), Path(raw)
    if not sources.is_dir():
        raise VersioningError(f"no sources folder at {sources}")
    added: list[str] = []
    conflicts: list[str] = []
    overwritten: list[str] = []
    unchanged = 0
    for source in sorted(p for p in sources.rglob("*") if p.is_file()):
        rel = source.relative_to(sources)
        target_rel = _raw_target(rel)
        if target_rel is None:
            continue
        target = raw / target_rel
        data = _raw_bytes(source, rel)
        if target.exists():
            if target.read_bytes() == data:
                unchanged += 1
                continue
            if not overwrite:
                conflicts.append(str(target_rel))
                continue
            overwritten.append(str(target_rel))
        else:
            added.append(str(target_rel))
        write_bytes_atomic(target, data)
    return ImportResult(added, unchanged, conflicts, overwritten)


def corpus_version(
    dvc_file: str | Path = RAW_DVC, *, repo: str | Path | None = None, rev: str | None = None
) -> CorpusVersion:
    """The version recorded in ``dvc_file`` (in the workspace, or at git revision ``rev``)."""
    root = find_root(repo)
    rel = Path(dvc_file)
    if rev is None:
        path = root / rel
        if not path.exists():
            raise VersioningError(f"{rel} does not exist: track the corpus first (deid data track)")
        content = path.read_text(encoding="utf-8")
    else:
        content = run_git(["show", f"{rev}:{rel.as_posix()}"], root).stdout
    outs = (yaml.safe_load(content) or {}).get("outs") or []
    if len(outs) != 1 or "md5" not in outs[0]:
        raise VersioningError(f"{rel} does not describe exactly one tracked output")
    out = outs[0]
    return CorpusVersion(
        dvc_file=rel.as_posix(),
        path=(rel.parent / out["path"]).as_posix(),
        md5=str(out["md5"]),
        size=out.get("size"),
        nfiles=out.get("nfiles"),
        rev=rev,
    )


# --- remotes ------------------------------------------------------------------------------


def _remote_args(scope: Scope) -> list[str]:
    return ["--local"] if scope == "local" else []


def configure_local_remote(
    path: str | Path = ".dvc-storage",
    *,
    name: str = LOCAL_REMOTE,
    default: bool = True,
    scope: Scope = "project",
    repo: str | Path | None = None,
) -> RemoteConfig:
    """A directory remote (default ``.dvc-storage/`` in the project, git-ignored).

    A relative ``path`` is stored relative to ``.dvc/`` as DVC resolves it, so every clone
    gets its own storage next to its checkout.
    """
    root = find_root(repo)
    # DVC takes a relative path from the cwd (the project) and stores it relative to .dvc/
    url = str(path)
    run_dvc(
        ["remote", "add", *_remote_args(scope), "--force", *(["-d"] if default else []), name, url],
        root,
    )
    _make_storage(root / path)
    return RemoteConfig(name, url, scope, default)


def _make_storage(path: Path) -> None:
    """Create a directory remote; one inside a work tree ignores itself for git."""
    path.mkdir(parents=True, exist_ok=True)
    marker = path / ".gitignore"
    if not marker.exists():
        marker.write_text("*\n", encoding="utf-8")


def configure_s3_remote(
    url: str,
    endpointurl: str | None = None,
    *,
    name: str = "storage",
    default: bool = True,
    scope: Scope = "local",
    repo: str | Path | None = None,
) -> RemoteConfig:
    """An S3 remote (``s3://bucket/prefix``), optionally on an S3-compatible endpoint.

    ``scope="local"`` writes ``.dvc/config.local`` (git-ignored): the production machine
    points at S3 while the committed config keeps the local directory remote for everyone
    else. Credentials are never written here; DVC reads ``AWS_ACCESS_KEY_ID`` /
    ``AWS_SECRET_ACCESS_KEY`` (or a profile) from the environment.
    """
    if not url.startswith("s3://"):
        raise ValueError(f"an S3 remote URL starts with s3://, got {url!r}")
    root = find_root(repo)
    flags = _remote_args(scope)
    run_dvc(["remote", "add", *flags, "--force", *(["-d"] if default else []), name, url], root)
    if endpointurl:
        run_dvc(["remote", "modify", *flags, name, "endpointurl", endpointurl], root)
    return RemoteConfig(name, url, scope, default, endpointurl)


_DEFAULT_MARK = "(default)"


def _remote_list(repo: str | Path | None) -> list[tuple[str, str]]:
    out = run_dvc(["remote", "list"], repo).stdout
    pairs = (line.split(None, 1) for line in out.splitlines() if line.strip())
    return [(name, url) for name, url in pairs]


def remotes(repo: str | Path | None = None) -> dict[str, str]:
    """Configured remotes (all config levels merged): name → url (local paths absolute)."""
    return {name: url.removesuffix(_DEFAULT_MARK).strip() for name, url in _remote_list(repo)}


def default_remote(repo: str | Path | None = None) -> str | None:
    """The default remote's name (``dvc remote list`` marks it)."""
    return next((name for name, url in _remote_list(repo) if url.endswith(_DEFAULT_MARK)), None)


def ensure_remote_storage(remote: str | None = None, repo: str | Path | None = None) -> str:
    """The remote to use (``remote`` or the default); a local directory remote is created."""
    listed = _remote_list(repo)
    urls = {name: url.removesuffix(_DEFAULT_MARK).strip() for name, url in listed}
    name = remote or next((n for n, url in listed if url.endswith(_DEFAULT_MARK)), None)
    if not name:
        raise VersioningError(
            "no DVC remote configured: see configure_local_remote / configure_s3_remote"
        )
    if name not in urls:
        raise VersioningError(f"no DVC remote named {name!r}")
    if "://" not in urls[name]:  # DVC lists a local remote resolved; relative means to the project
        _make_storage(find_root(repo) / urls[name])
    return name


# --- tracking, pushing, pulling -------------------------------------------------------------


def _staged_changes(root: Path, paths: Sequence[str]) -> bool:
    """Whether ``paths`` differ between the index and HEAD (``git diff --cached --quiet``)."""
    done = subprocess.run(
        ["git", "diff", "--cached", "--quiet", "--", *paths],
        cwd=root,
        capture_output=True,
        check=False,
    )
    return done.returncode != 0


def track_and_push(
    path: str | Path = RAW_DIR,
    message: str | None = None,
    *,
    push: bool = True,
    commit: bool | None = None,
    remote: str | None = None,
    repo: str | Path | None = None,
) -> TrackResult:
    """``dvc add`` + ``dvc push`` of ``path`` and ``git add`` of its ``.dvc`` file.

    No git commit unless asked: ``commit=True``, or a ``message`` (which then is the commit
    message). The commit holds only the files staged here.
    """
    root = find_root(repo)
    rel = (
        Path(os.path.relpath(Path(path).resolve(), root))
        if Path(path).is_absolute()
        else Path(path)
    )
    if not (root / rel).exists():
        raise VersioningError(f"nothing to track at {rel}")
    run_dvc(["add", rel.as_posix()], root)
    dvc_file = rel.with_name(rel.name + ".dvc")
    staged = [dvc_file.as_posix()]
    gitignore = rel.parent / ".gitignore"
    if (root / gitignore).exists():
        staged.append(gitignore.as_posix())
    run_git(["add", "--", *staged], root)
    pushed = False
    if push:
        name = ensure_remote_storage(remote, root)
        run_dvc(["push", "-r", name, dvc_file.as_posix()], root)
        pushed = True
    version = corpus_version(dvc_file, repo=root)
    sha = None
    if commit or (commit is None and message is not None):
        if _staged_changes(root, staged):  # an unchanged version is already committed
            text = message or f"data: {rel.as_posix()} version {version.md5[:12]}"
            run_git(["commit", "-q", "-m", text, "--", *staged], root)
        sha = run_git(["rev-parse", "HEAD"], root).stdout.strip()
    return TrackResult(version, pushed, staged, sha)


def pull(
    rev: str | None = None,
    targets: Sequence[str] = (RAW_DVC,),
    *,
    remote: str | None = None,
    repo: str | Path | None = None,
) -> PullResult:
    """Bring the data of ``targets`` into the workspace from the remote.

    With ``rev`` the ``.dvc`` files are first checked out from that git revision (DVC's way of
    switching data versions): the workspace then holds, and records, that version.
    """
    root = find_root(repo)
    if rev is not None:
        run_git(["checkout", rev, "--", *targets], root)
    name = ensure_remote_storage(remote, root)
    run_dvc(["pull", "-r", name, *targets], root)
    versions = [corpus_version(t, repo=root) for t in targets if t.endswith(".dvc")]
    return PullResult(list(targets), rev, versions)


@dataclass(frozen=True)
class CheckoutResult:
    """The corpus version now in the workspace and how it got there: ``workspace`` (it was
    already), ``pulled`` (from the remote) or ``imported`` (rebuilt from the bundled sources)."""

    version: CorpusVersion
    how: str

    def to_dict(self) -> dict[str, Any]:
        return {"how": self.how, **self.version.to_dict()}


def checkout_corpus(
    rev: str | None = None,
    *,
    sources: str | Path | None = None,
    remote: str | None = None,
    repo: str | Path | None = None,
) -> CheckoutResult:
    """Make ``data/raw`` hold exactly the version ``data/raw.dvc`` records (at ``rev``).

    With ``rev`` the version is always pulled. Otherwise a workspace that already matches is
    kept; a missing or different one is pulled, and where the remote cannot serve it (a fresh
    clone whose remote is empty) and ``sources`` is given, rebuilt from the bundled sources,
    which must then match the recorded md5 (never silently another version)."""
    root = find_root(repo)
    if rev is not None:
        return CheckoutResult(pull(rev, remote=remote, repo=root).versions[0], "pulled")
    if (root / RAW_DIR).is_dir() and not _status_json([RAW_DVC], root):
        return CheckoutResult(corpus_version(RAW_DVC, repo=root), "workspace")
    try:
        return CheckoutResult(pull(remote=remote, repo=root).versions[0], "pulled")
    except VersioningError:
        if sources is None:
            raise
    recorded = (root / RAW_DVC).read_text(encoding="utf-8")
    expected = corpus_version(RAW_DVC, repo=root).md5
    result = import_sources(root / Path(sources), root / RAW_DIR)
    # with an empty cache DVC cannot compare and says "not in cache": commit the rebuilt
    # files (this rehashes them), then insist on the recorded md5
    run_dvc(["commit", "--force", RAW_DVC], root)
    rebuilt = corpus_version(RAW_DVC, repo=root).md5
    if rebuilt != expected or _status_json([RAW_DVC], root):
        (root / RAW_DVC).write_text(recorded, encoding="utf-8")  # the record stays as it was
        raise VersioningError(
            f"data/raw rebuilt from {sources} ({len(result.added)} files added) does not match "
            f"{RAW_DVC}: md5 {rebuilt} instead of {expected}"
        )
    return CheckoutResult(corpus_version(RAW_DVC, repo=root), "imported")


def _status_json(args: list[str], root: Path) -> dict[str, Any]:
    out = run_dvc(["status", "--json", *args], root).stdout.strip()
    return json.loads(out) if out else {}


def status(
    targets: Sequence[str] = (),
    *,
    cloud: bool = True,
    remote: str | None = None,
    repo: str | Path | None = None,
) -> RepoStatus:
    """``dvc status`` of ``targets`` (default: everything) and, with ``cloud``, whether the
    remote holds what the workspace records."""
    root = find_root(repo)
    workspace = _status_json(list(targets), root)
    cloud_status = None
    if cloud:
        name = ensure_remote_storage(remote, root)
        cloud_status = _status_json(["--cloud", "-r", name, *targets], root)
    return RepoStatus(workspace, cloud_status)


def repro(
    targets: Sequence[str] = (), *, force: bool = False, repo: str | Path | None = None
) -> None:
    """``dvc repro`` with this interpreter's folder first on PATH, so the stages' ``python``
    is the one deid is installed in; output streams to the terminal. A fresh clone has no
    review store (it holds decision text, never in git): an empty one is made, which DVC
    hashes like any folder, so the ``reviews`` stage runs and yields empty sets."""
    from deid.sources.reviews.store import DEFAULT_DIR

    root = find_root(repo)
    (root / DEFAULT_DIR).mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "dvc", "repro", *(["--force"] if force else []), *targets]
    _run(command, root, capture=False, python_first=True)
