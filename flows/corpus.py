"""Flow ``publish-corpus``: a new corpus version (``dvc add`` + ``dvc push`` of data/raw, the
.dvc file committed) and the event ``deid.corpus.pushed`` that the ``retrain`` deployment's
trigger listens for (prefect.yaml)."""

from __future__ import annotations

from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.events import emit_event

from flows._common import in_project, run_cli

EVENT = "deid.corpus.pushed"


def emit_corpus_pushed(version: dict[str, Any], commit: str | None, project_dir: str) -> None:
    """Tell Prefect a corpus version reached the remote: md5, counts and the git revision
    whose .dvc file records it (``rev`` for the retrain flow)."""
    emit_event(
        EVENT,
        resource={"prefect.resource.id": f"deid.corpus.{version['md5']}", "prefect.resource.name": version["path"]},
        payload={"md5": version["md5"], "nfiles": version["nfiles"], "size": version["size"],
                 "rev": commit or "", "project_dir": str(in_project(project_dir, "."))},
    )  # fmt: skip


@task(name="import-sources", cache_policy=NO_CACHE)
def import_sources(project_dir: str, sources: str) -> dict[str, Any]:
    """Bring new bundled decisions into data/raw (files already there are left alone)."""
    from deid.ops.versioning import import_sources as run_import

    return run_import(
        in_project(project_dir, sources), in_project(project_dir, "data/raw")
    ).to_dict()


@task(name="track-and-push-corpus", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=[5, 20])
def track_and_push(project_dir: str, message: str | None, remote: str | None) -> dict[str, Any]:
    from deid.ops.versioning import track_and_push as push

    return push(
        "data/raw", message, commit=message is not None, remote=remote, repo=project_dir
    ).to_dict()


@flow(name="publish-corpus")
def publish_corpus(
    project_dir: str = ".",
    sources: str | None = None,
    message: str | None = "data: corpus version",
    remote: str | None = None,
) -> dict[str, Any]:
    """Version data/raw (after importing ``sources``, if given), push it, commit the .dvc
    file with ``message`` (empty or none: only staged) and emit ``deid.corpus.pushed``."""
    imported = import_sources(project_dir, sources) if sources else None
    tracked = track_and_push(project_dir, message or None, remote)
    emit_corpus_pushed(tracked["version"], tracked["commit"], project_dir)
    get_run_logger().info(
        "corpus version %s pushed (commit %s)", tracked["version"]["md5"], tracked["commit"]
    )
    return {"imported": imported, **tracked}


if __name__ == "__main__":
    run_cli(publish_corpus)
