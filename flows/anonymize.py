"""Flow ``anonymize``: decisions from a folder, file, JSONL or ``s3://bucket/prefix`` →
anonymized results, span report, quarantine list and summary at a folder or S3 prefix,
versioned with DVC.

One task per chunk of documents (``deid.ops.chunks``) with retries; inside a chunk every document
is handled on its own (``deid.ops.batch.run_batch``): a bad one is quarantined, the rest go on. A
re-run with the same output resumes: documents already done are skipped. With ``workers`` > 1
the chunk tasks run on a local Dask cluster of that many processes (or on the scheduler at
``dask_address``), each process loading the model once; the outputs are the same as one
process's. Artifacts: a progress bar while chunks finish and a summary (counts, labels,
quarantine reasons, where the outputs are, the DVC version, durations); never document text.
The run's copies of the inputs (a staged S3 prefix, the chunk files) are sealed with a key
that lives in the run's memory only (``deid.ops.sealed``) and removed when the run ends,
completed, failed, crashed or cancelled; ``kill -9`` leaves them sealed, unreadable.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import (
    create_markdown_artifact,
    create_progress_artifact,
    update_progress_artifact,
)
from prefect.cache_policies import NO_CACHE

from flows._common import (
    Durations,
    check_workers,
    in_project,
    markdown_table,
    retry_unless_user_error,
    run_cli,
    run_tasks,
    text_free_errors,
)
from flows.retrain import tracking_uri_for

DEFAULT_MODEL = "models:/deid-ner@champion"
SECRET_ENV = "DEID_SECRET"


def work_dir_for(project_dir: str, output: str) -> Path:
    """The run's scratch folder (staged input, chunks, chunk results), one per output
    location, so a re-run to the same output finds what an earlier run finished."""
    digest = hashlib.sha256(output.rstrip("/").encode()).hexdigest()[:12]
    return in_project(project_dir, f"data/work/anonymize/{digest}")


@task(name="stage-input", cache_policy=NO_CACHE, retries=3, retry_delay_seconds=[2, 10, 30],
      retry_condition_fn=retry_unless_user_error)  # fmt: skip
@text_free_errors
def stage_input(input: str, work_dir: str, seal_key: str) -> str:
    """A local path to read: the input itself, or an S3 prefix downloaded below the work dir,
    sealed with the run's key (deid.ops.sealed: never in clear on disk)."""
    from deid.ops import s3
    from deid.ops.chunks import stage
    from deid.ops.sealed import Seal

    if not s3.is_s3(input):
        if not Path(input).exists():
            raise FileNotFoundError(f"no input at {input}")
        return input
    target = stage(input, work_dir, Seal(seal_key))
    get_run_logger().info("staged %d objects from %s (sealed)", sum(1 for p in target.rglob("*") if p.is_file()), input)
    return str(target)


@task(name="resolve-model", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=[5, 20],
      retry_condition_fn=retry_unless_user_error)  # fmt: skip
def resolve_model(model_uri: str, tracking_uri: str, profile: str | None = None) -> dict[str, Any]:
    """The pipeline directory of ``model_uri`` (an alias is resolved to its version first,
    and that version downloaded) and the run's lineage (``deid.ops.lineage``), which every
    output record carries. A model whose chain this worker's code cannot run (a component
    or version it does not have: evaluated on other rule code) fails the flow here, before
    any document, with the commit it was registered from (no retry: a user error); so does
    a ``profile`` the pipeline cannot take (saved before profiles); so does a champion whose
    vetting does not verify (deid.ops.vetting.NotVetted: neither the gate nor a recorded
    override signed it, or its files changed since)."""
    from deid.anonymizer.chain import ChainMismatch
    from deid.anonymizer.pipeline import saved_config
    from deid.ops import mlflow_registry as registry
    from deid.ops.lineage import run_lineage
    from deid.ops.model_store import resolve_source

    with registry.active_tracking(tracking_uri):
        source = resolve_source(model_uri)
        try:
            config = saved_config(source.dir)
        except ChainMismatch as exc:
            commit = registry.version_tag(source.name, source.version, "git.commit", tracking_uri)
            raise ChainMismatch(
                f"{model_uri} (version {source.version or 'n/a'}, registered from commit "
                f"{commit}) cannot run on this worker: {exc}"
            ) from None
    overrides = {"profile": profile} if profile is not None else {}
    config.override(**overrides)  # a pipeline saved before profiles cannot take one: a user error
    get_run_logger().info("model %s (version %s), profile %s", model_uri, source.version or "n/a",
                          profile or config.profile)  # fmt: skip
    return {"dir": str(source.dir), "uri": model_uri, "version": source.version,
            "profile": profile or config.profile, "lineage": run_lineage(source, overrides=overrides).to_dict()}  # fmt: skip


@task(name="plan-chunks", cache_policy=NO_CACHE)
@text_free_errors
def plan_chunks(
    source: str, work_dir: str, chunk_size: int, location: str, settings: dict[str, Any], seal_key: str,
    staged: bool,
) -> dict[str, Any]:  # fmt: skip
    """Chunk files of the documents still to do, sealed with the run's key; unreadable
    inputs and bad records (a duplicate id among them) are quarantined here. Earlier
    results made with other ``settings`` (operator, model) are redone, not kept."""
    from deid.ops.chunks import forget_other_results
    from deid.ops.chunks import plan_chunks as plan
    from deid.ops.sealed import Seal

    if changed := forget_other_results(work_dir, settings):
        get_run_logger().warning("results at this output were made with %s: redoing them", changed)
    result = plan(source, work_dir, chunk_size, location=location, seal=Seal(seal_key), staged=staged)
    get_run_logger().info(
        "%d documents (%d already done), %d chunks, %d inputs rejected",
        result.documents, result.already_done, len(result.chunks), len(result.rejected),
    )  # fmt: skip
    return result.to_dict()


@task(name="anonymize-chunk", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=[5, 30])
@text_free_errors
def anonymize_chunk(
    chunk: str, work_dir: str, model_dir: str, operator: str | None, lineage: dict[str, Any], seal_key: str,
    profile: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Anonymize one chunk, document by document; resumes a partial result on retry. Runs in
    the flow's process or on a Dask worker: it gets paths, and the worker's process loads the
    model once for all its chunks (``profile``: the anonymization profile, default the
    pipeline's)."""
    from deid.anonymizer.pipeline import cached_pipeline
    from deid.ops.chunks import anonymize_chunk as anonymize
    from deid.ops.sealed import Seal

    pipeline, loaded = cached_pipeline(model_dir, {"profile": profile} if profile else None)
    if loaded:
        get_run_logger().info("model loaded in process %d", os.getpid())
    secret = os.environ.get(SECRET_ENV)
    key = secret.encode("utf-8") if secret else None
    summary = anonymize(chunk, work_dir, pipeline, operator, seal=Seal(seal_key), secret=key, lineage=lineage)
    get_run_logger().info("chunk %s: %s", Path(chunk).name, summary.to_dict())
    return summary.to_dict()


@task(name="write-outputs", cache_policy=NO_CACHE)
@text_free_errors
def write_outputs(work_dir: str, out_dir: str, rejected: list[dict[str, Any]]) -> dict[str, Any]:
    """Merge the chunk results into results, span report, quarantine list and summary."""
    from deid.ops.chunks import write_outputs as write

    return write(work_dir, out_dir, rejected).to_dict()


@task(name="discard-input-copies", cache_policy=NO_CACHE)
def discard_inputs(work_dir: str) -> list[str]:
    """The run succeeded: remove the (sealed) copies of the inputs from the work dir (chunk
    files, staged S3 input); the anonymized chunk results stay for a resuming re-run."""
    from deid.ops.chunks import discard_inputs as discard

    removed = discard(work_dir)
    get_run_logger().info("removed the input copies of the work dir: %s", removed or "none")
    return removed


def discard_after_failure(flow: Any, flow_run: Any, state: Any) -> None:
    """Flow hook on failure, crash and cancellation: the copies of the inputs go at once
    (sealed with a key the run took with it, they could not be read anyway); the
    anonymized chunk results stay, so a re-run resumes."""
    from deid.ops.chunks import discard_inputs as discard

    params = flow_run.parameters or {}
    work = work_dir_for(params.get("project_dir", "."), params["output"])
    removed = discard(work)
    logging.getLogger(__name__).warning("run %s ended %s: removed the input copies %s", flow_run.id,
                                        state.type.value, removed or "(none)")  # fmt: skip


@task(name="upload-outputs", cache_policy=NO_CACHE, retries=3, retry_delay_seconds=[2, 10, 30])
def upload_outputs(out_dir: str, files: list[str], output: str) -> list[str]:
    """Copy the output files to the S3 prefix."""
    from deid.ops import s3

    return s3.upload_files([Path(out_dir) / f for f in files], out_dir, output)


@task(name="track-output-version", cache_policy=NO_CACHE, retries=1, retry_delay_seconds=10)
def track_output(
    project_dir: str, out_dir: str, remote: str | None, commit: bool
) -> dict[str, Any]:
    """``dvc add`` + ``dvc push`` of the output folder to the default (or named) remote."""
    from deid.ops.versioning import track_and_push

    result = track_and_push(out_dir, commit=commit, remote=remote, repo=project_dir)
    get_run_logger().info("output version %s pushed=%s", result.version.md5, result.pushed)
    return result.to_dict()


def vetting_line(vetting: dict[str, Any] | None) -> str:
    """Who vouched for the model (deid.ops.vetting): the gate, or a reviewer's override."""
    if not vetting:
        return "— (not the champion: run as asked)"
    if vetting["kind"] == "override":
        return f"**override** by {vetting.get('by')} at {vetting.get('at')} (the gate did not pass it)"
    return f"the gate, at {vetting.get('at')}"


def summary_markdown(
    input: str, output: str, model: dict[str, Any], plan: dict[str, Any], chunks: list[dict[str, Any]],
    outputs: dict[str, Any], tracked: dict[str, Any] | None, durations: Durations,
) -> str:  # fmt: skip
    """The operator's page of one anonymize run (counts only)."""
    processed = sum(c["processed"] for c in chunks)
    failed = sum(c["failed"] for c in chunks)
    counts = [
        ["input", f"`{input}`"], ["output", f"`{output}`"],
        ["model", f"`{model['uri']}` (version {model['version'] or 'n/a'})"],
        ["anonymization profile", model.get("profile") or "none (saved before profiles)"],
        ["vetted by", vetting_line(model["lineage"]["model"].get("vetting"))],
        ["documents seen", plan["documents"] + len(plan["rejected"])],
        ["processed now / already done", f"{processed} / {plan['already_done']}"],
        ["in the output", outputs["documents"]],
        ["quarantined (unreadable input / failed document)", f"{len(plan['rejected'])} / {failed}"],
        ["spans found", outputs["spans"]],
        ["seconds inside the chunks (all workers)", f"{sum(c['seconds'] for c in chunks):.1f}"],
        ["DVC version of the output", f"`{tracked['version']['md5']}` pushed={tracked['pushed']}" if tracked else "not tracked"],
    ]  # fmt: skip
    parts = [
        f"## Anonymize: {outputs['documents']} documents\n\n",
        markdown_table(["what", "value"], counts),
    ]
    if outputs["labels"]:
        parts += [
            "\n### Spans per label\n\n",
            markdown_table(["label", "spans"], list(outputs["labels"].items())),
        ]
    if outputs["reasons"]:
        parts += [
            "\n### Quarantine reasons\n\n",
            markdown_table(["reason", "count"], list(outputs["reasons"].items())),
        ]
    parts += ["\n### Durations\n\n", durations.markdown()]
    return "".join(parts)


@flow(name="anonymize", on_failure=[discard_after_failure], on_crashed=[discard_after_failure],
      on_cancellation=[discard_after_failure])  # fmt: skip
def anonymize(
    input: str,
    output: str,
    model_uri: str = DEFAULT_MODEL,
    operator: str | None = None,
    profile: str | None = None,
    project_dir: str = ".",
    tracking_uri: str | None = None,
    chunk_size: int = 8,
    track: bool = True,
    dvc_path: str = "data/anonymized",
    dvc_remote: str | None = None,
    commit: bool = False,
    workers: int = 1,
    dask_address: str | None = None,
) -> dict[str, Any]:
    """Anonymize ``input`` into ``output`` (folder or ``s3://`` prefix) with ``model_uri``;
    ``operator`` remove | label | pseudonymize (key from $DEID_SECRET) | mask, default the
    pipeline's; ``profile`` strict | federal, default the pipeline's (docs/anonymization-policy.md).
    The local copy of the outputs (``output`` itself, or ``dvc_path`` in the
    project for an S3 output) is DVC-tracked and pushed unless ``track`` is off. ``workers``
    > 1: chunks on a local Dask cluster of that many processes; ``dask_address``: on that
    Dask scheduler (its workers must see the project's work dir and the model at the same
    paths)."""
    from deid.anonymizer.operators import check_operator
    from deid.anonymizer.profiles import check_profile
    from deid.ops import mlflow_registry as registry
    from deid.ops import s3
    from deid.ops.batch import run_settings
    from deid.ops.model_store import is_model_uri
    from deid.ops.sealed import Seal

    check_operator(operator)  # an unknown one fails here, before any input is read
    if profile is not None:
        check_profile(profile)  # so does an unknown profile
    check_workers(workers)
    if operator == "pseudonymize" and not os.environ.get(SECRET_ENV):
        raise ValueError(f"pseudonymize needs a secret key in ${SECRET_ENV}")
    uri = tracking_uri_for(project_dir, tracking_uri)
    if is_model_uri(model_uri):
        registry.check_tracking_uri(uri)  # a missing store or a server that is down: fail now
    durations = Durations()
    work = work_dir_for(project_dir, output)
    seal = Seal()  # the run's key for its copies of the inputs: in memory only (deid.ops.sealed)
    out_dir = in_project(project_dir, dvc_path) if s3.is_s3(output) else Path(output).resolve()
    with durations.step("resolve model"):  # first: a model this worker cannot run stops the
        model = resolve_model(model_uri, uri, profile)  # flow before any input is copied
    with durations.step("stage input"):
        source = stage_input(input, str(work), seal.key)
    with durations.step("plan chunks"):
        settings = run_settings(operator, model["dir"], profile=profile)
        plan = plan_chunks(source, str(work), chunk_size, input, settings, seal.key, s3.is_s3(input))
    progress = create_progress_artifact(
        0.0, key="anonymize-progress", description="chunks finished"
    )
    calls = [{"chunk": chunk, "work_dir": str(work), "model_dir": model["dir"],
              "operator": operator, "lineage": model["lineage"], "seal_key": seal.key, "profile": profile}
             for chunk in plan["chunks"]]  # fmt: skip
    with durations.step("anonymize"):
        chunks = run_tasks(
            anonymize_chunk, calls, workers=workers, address=dask_address,
            on_done=lambda n: update_progress_artifact(progress, 100.0 * n / len(calls)),
        )  # fmt: skip
    update_progress_artifact(progress, 100.0)
    with durations.step("write outputs"):
        outputs = write_outputs(str(work), str(out_dir), plan["rejected"])
    uploaded: list[str] = []
    if s3.is_s3(output):
        with durations.step("upload outputs"):
            uploaded = upload_outputs(str(out_dir), outputs["files"], output)
    tracked = None
    if track and out_dir.is_relative_to(Path(project_dir).resolve()):
        with durations.step("track output (DVC)"):
            tracked = track_output(project_dir, str(out_dir), dvc_remote, commit)
    elif track:
        get_run_logger().warning("output %s is outside the DVC project: not tracked", out_dir)
    discard_inputs(str(work))
    create_markdown_artifact(
        summary_markdown(input, output, model, plan, chunks, outputs, tracked, durations),
        key="anonymize-summary", description="counts, labels, quarantine, output version",
    )  # fmt: skip
    return {
        "input": input, "output": output, "local_output": str(out_dir), "model": model["uri"],
        "profile": model.get("profile"),
        "model_version": model["version"], "documents": outputs["documents"],
        "processed": sum(c["processed"] for c in chunks), "already_done": plan["already_done"],
        "chunk_seconds": round(sum(c["seconds"] for c in chunks), 1),
        "quarantined": outputs["quarantined"], "spans": outputs["spans"], "labels": outputs["labels"],
        "uploaded": uploaded, "dvc": tracked, "seconds": durations.steps,
    }  # fmt: skip


if __name__ == "__main__":
    run_cli(anonymize)
