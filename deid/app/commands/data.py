"""``deid data``: the raw corpus under DVC (import, track + push, pull, status, remotes, repro)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from deid.app.commands import SourcesOption

console = Console(stderr=True)
data_app = typer.Typer(
    help="Versioned raw corpus (data/raw) and the DVC pipeline.", no_args_is_help=True
)
RemoteOption = Annotated[str | None, typer.Option(help="Remote name.")]


def _emit(result: Any) -> None:
    print(json.dumps(result.to_dict() if hasattr(result, "to_dict") else result, indent=2))


def _call(fn, *args, **kwargs):
    """Run a versioning helper; its errors end the command with exit code 1, no traceback."""
    from deid.ops.versioning import VersioningError

    try:
        return fn(*args, **kwargs)
    except (VersioningError, ValueError) as exc:
        console.print(f"[red]{exc}")
        raise typer.Exit(1) from None


@data_app.command("import")
def import_cmd(
    sources: SourcesOption = Path("data/sources"),
    raw: Annotated[Path, typer.Option(help="The raw corpus folder (DVC-tracked).")] = Path(
        "data/raw"
    ),
    overwrite: Annotated[bool, typer.Option(help="Replace raw files whose bytes differ.")] = False,
) -> None:
    """Create or complete data/raw from the bundled sources; a no-op when it is complete."""
    from deid.ops.versioning import import_sources

    result = _call(import_sources, sources, raw, overwrite=overwrite)
    _emit(result)
    if result.conflicts:
        console.print(f"[yellow]{len(result.conflicts)} raw file(s) differ from the sources (kept)")
        raise typer.Exit(1)


@data_app.command("track")
def track_cmd(
    path: Annotated[Path, typer.Argument(help="Folder or file to version.")] = Path("data/raw"),
    push: Annotated[bool, typer.Option(help="Push the new version to the remote.")] = True,
    message: Annotated[
        str | None, typer.Option("--message", "-m", help="Also git-commit the .dvc file.")
    ] = None,
    remote: Annotated[
        str | None, typer.Option(help="Remote name (default: the configured default).")
    ] = None,
) -> None:
    """dvc add + dvc push a new version; git add of the .dvc file (commit only with -m)."""
    from deid.ops.versioning import track_and_push

    _emit(_call(track_and_push, path, message, push=push, remote=remote))


@data_app.command("pull")
def pull_cmd(
    targets: Annotated[
        list[str] | None, typer.Argument(help=".dvc files (default: data/raw.dvc).")
    ] = None,
    rev: Annotated[
        str | None, typer.Option(help="Git revision whose data version to check out.")
    ] = None,
    remote: RemoteOption = None,
) -> None:
    """Fetch and check out the data recorded in the .dvc files (at --rev)."""
    from deid.ops.versioning import RAW_DVC, pull

    _emit(_call(pull, rev, targets or [RAW_DVC], remote=remote))


@data_app.command("status")
def status_cmd(
    targets: Annotated[
        list[str] | None, typer.Argument(help="Stages or .dvc files (default: all).")
    ] = None,
    cloud: Annotated[bool, typer.Option(help="Also compare with the remote.")] = True,
    remote: RemoteOption = None,
) -> None:
    """Workspace and remote status as JSON; exit code 1 when not clean."""
    from deid.ops.versioning import status

    result = _call(status, targets or [], cloud=cloud, remote=remote)
    _emit(result)
    if not result.clean:
        raise typer.Exit(1)


@data_app.command("version")
def version_cmd(
    dvc_file: Annotated[Path, typer.Option(help="The .dvc file of the corpus.")] = Path(
        "data/raw.dvc"
    ),
    rev: Annotated[str | None, typer.Option(help="Git revision (default: the workspace).")] = None,
) -> None:
    """The corpus version: md5, size and file count recorded in data/raw.dvc."""
    from deid.ops.versioning import corpus_version

    _emit(_call(corpus_version, dvc_file, rev=rev))


@data_app.command("remote-s3")
def remote_s3_cmd(
    url: Annotated[str, typer.Argument(help="s3://bucket/prefix")],
    endpointurl: Annotated[
        str | None, typer.Option(help="S3-compatible endpoint (SeaweedFS, MinIO …).")
    ] = None,
    name: Annotated[str, typer.Option(help="Remote name.")] = "storage",
    project: Annotated[
        bool, typer.Option(help="Write .dvc/config (committed) instead of config.local.")
    ] = False,
) -> None:
    """Make an S3 remote the default; credentials come from the AWS environment variables."""
    from deid.ops.versioning import configure_s3_remote

    scope = "project" if project else "local"
    _emit(_call(configure_s3_remote, url, endpointurl, name=name, scope=scope))


@data_app.command("repro")
def repro_cmd(
    targets: Annotated[
        list[str] | None, typer.Argument(help="Stages (default: the whole pipeline).")
    ] = None,
    force: Annotated[bool, typer.Option(help="Run stages even when nothing changed.")] = False,
) -> None:
    """dvc repro with this environment's python first on PATH (stage commands call python)."""
    from deid.ops.versioning import repro

    _call(repro, targets or [], force=force)


def register(app: typer.Typer) -> None:
    """Attach ``deid data …``."""
    app.add_typer(data_app, name="data")
