"""Tasks that bring saved reviews into a retrain: version the review store with DVC, turn it
into training documents and the gate's ``reviews`` set (the ``reviews`` stage's own code),
and publish the model's agreement with its reviewers and the reviewers' effort (metrics on
the MLflow run, Prefect artifact ``review-agreement``, a line of the retrain summary: counts
only).

The store is ``reviews.folder`` of the params file (default ``data/reviews``) inside the
project; a fresh clone has none, and the retrain goes on without reviews.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from prefect import get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows._common import in_project, markdown_table, read_json, run_stage, text_free_errors
from flows.data import CORPUS_DIR

REVIEWS_OUT = "data/work/reviews"
REVIEWS_REPORT = "reports/reviews.json"
AGREEMENT_KEY = "review-agreement"


def project_review_settings(project_dir: str, params_path: str) -> Any:
    """``reviews:`` of the params file with its paths inside the project."""
    from deid.sources.reviews.dataset import load_review_settings

    settings = load_review_settings(in_project(project_dir, params_path))
    return replace(
        settings,
        folder=str(in_project(project_dir, settings.folder)),
        reserved_gold=tuple(str(in_project(project_dir, g)) for g in settings.reserved_gold),
    )


@task(name="pin-reviews-version", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=[5, 20])
def pin_reviews(project_dir: str, params_path: str) -> dict[str, Any]:
    """Version the review store (``dvc add`` + push of its folder; ``<folder>.dvc`` staged in
    git) while saves are held back, so the version is exactly the bytes this retrain reads
    (``bytes``). No reviews: nothing to version."""
    from deid.ops.versioning import track_and_push
    from deid.sources.reviews import frozen

    folder = Path(project_review_settings(project_dir, params_path).folder)
    folder.mkdir(parents=True, exist_ok=True)  # the DVC stage's dependency, also when empty
    with frozen(folder) as size:
        if not size:
            get_run_logger().info("no saved reviews: the retrain goes on without")
            return {"bytes": 0, "version": None}
        result = track_and_push(folder, repo=project_dir)
    get_run_logger().info("reviews version %s (%d bytes) pushed", result.version.md5, size)
    return {"bytes": size, "version": result.version.md5}


@task(name="prepare-reviews", cache_policy=NO_CACHE)
@text_free_errors
def prepare_reviews(project_dir: str, params_path: str, pinned: dict[str, Any]) -> dict[str, Any]:
    """The ``reviews`` stage on the pinned bytes: training documents and the ``reviews``
    evaluation set in ``data/work/reviews``, counts and agreement in ``reports/reviews.json``.
    Returns those numbers, the training file and the gold set for the evaluation (when it
    has documents)."""
    from deid.sources.reviews.dataset import EVALUATION_FILE, SET_NAME, TRAIN_FILE
    from pipelines import reviews

    settings = project_review_settings(project_dir, params_path)
    out, metrics = in_project(project_dir, REVIEWS_OUT), in_project(project_dir, REVIEWS_REPORT)
    argv = ["--reviews", settings.folder, "--corpus", in_project(project_dir, CORPUS_DIR),
            "--params", in_project(project_dir, params_path), "--output", out,
            "--metrics", metrics, "--limit", str(pinned["bytes"])]  # fmt: skip
    argv += [a for gold in settings.reserved_gold for a in ("--gold", gold)]
    run_stage(reviews.main, [str(a) for a in argv])
    report = read_json(metrics)
    counts = report["counts"]
    get_run_logger().info("reviews: %s", counts)
    evaluation = counts["evaluation"]
    return {
        "version": pinned["version"],
        "counts": counts,
        "agreement": report["agreement"],
        "effort": report.get("effort") or {},
        "train": str(out / TRAIN_FILE),
        "gold_sets": {SET_NAME: str(out / EVALUATION_FILE)} if evaluation else {},
    }


def agreement_markdown(reviews: dict[str, Any]) -> str:
    """The artifact: what became of the saved reviews, and per type what reviewers did with
    the model's spans (counts and shares; never text)."""
    counts = reviews["counts"]
    uses = [[use, counts.get(use, 0)] for use in ("train", "evaluation", "unfinished", "reserved", "superseded", "invalid")]
    rows = []
    for label, row in reviews["agreement"].items():
        share = f"{row['accepted'] / row['proposed']:.3f}" if row["proposed"] else "—"
        missed = f"{row['added'] / row['gold']:.3f}" if row["gold"] else "—"
        rows.append([label, row["proposed"], row["accepted"], row["relabelled"], row["widened"],
                     row["rejected"], row["added"], row["gold"], share, missed])  # fmt: skip
    head = ["type", "proposed", "accepted", "relabelled", "widened", "rejected", "added", "gold",
            "accepted share", "added share"]  # fmt: skip
    version = reviews["version"] or "none (no saved reviews)"
    return (
        f"## Agreement with reviewers\n\n{counts['records']} saved reviews, DVC version "
        f"`{version}`; the latest review of each document counts.\n\n"
        + markdown_table(["reviews", "count"], uses)
        + "\n"
        + markdown_table(head, rows)
        + "\n*accepted share*: of the spans the model proposed that a reviewer decided (spans "
        "left open count in no share); *added share*: of the gold spans, those the model had "
        f"not proposed at all.\n\nReviewer effort: {effort_line(reviews)}.\n"
    )


def effort_line(reviews: dict[str, Any]) -> str:
    """One line for the artifacts: agreement and effort of the reviews (counts only)."""
    effort, agreement = reviews.get("effort") or {}, reviews["agreement"].get("all") or {}
    share = f"{agreement['accepted'] / agreement['proposed']:.2f}" if agreement.get("proposed") else "—"
    if not effort.get("documents"):
        return f"accepted share {share}; no review recorded its effort"
    return (f"accepted share {share}; {effort['seconds_per_document']:g} s per document and "
            f"{effort['actions_per_span']:g} actions per span over {effort['documents']} documents")


@task(name="publish-review-agreement", cache_policy=NO_CACHE)
def publish_agreement(reviews: dict[str, Any], run_id: str, tracking_uri: str) -> dict[str, float]:
    """Agreement, review counts and effort as metrics of the retrain's MLflow run
    (``reviews.agreement.<TYPE>.accepted_share`` …, ``reviews.documents.<use>``,
    ``reviews.effort.seconds_per_document``, ``reviews.effort.actions_per_span`` …), the
    reviews' DVC version as its tag ``data.reviews_version``, and the markdown artifact."""
    from mlflow.entities import Metric, RunTag

    from deid.ops import mlflow_registry as registry
    from deid.sources.reviews.dataset import agreement_metrics

    metrics = agreement_metrics(reviews["agreement"])
    metrics |= {f"reviews.documents.{k}": float(v) for k, v in reviews["counts"].items()}
    metrics |= {f"reviews.effort.{k}": float(v) for k, v in (reviews.get("effort") or {}).items()}
    now = int(time.time() * 1000)
    client = registry.get_client(tracking_uri)
    client.log_batch(
        run_id,
        metrics=[Metric(k, v, now, 0) for k, v in sorted(metrics.items())],
        tags=[RunTag("data.reviews_version", reviews["version"] or "none")],
    )
    create_markdown_artifact(
        agreement_markdown(reviews), key=AGREEMENT_KEY,
        description="the model's agreement with its reviewers (counts)",
    )  # fmt: skip
    return metrics
