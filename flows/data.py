"""Data tasks shared by the ``validate`` and ``retrain`` flows: pin the corpus version (DVC),
build the corpus, rebuild the word lists and detect placeholders (the DVC stages' own code),
run the Great Expectations suites and publish what they found.

Paths follow ``dvc.yaml`` (``data/corpus``, ``deid/resources``, ``data/work/placeholders.jsonl``,
``reports/``) inside ``project_dir``, so a flow run and ``dvc repro`` leave the same files behind
(the word lists of a project that is not this code's checkout: :func:`rebuild_word_lists`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

from prefect import get_run_logger, task
from prefect.artifacts import create_link_artifact, create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows._common import in_project, read_json, run_stage

CORPUS_DIR = "data/corpus"
PLACEHOLDERS = "data/work/placeholders.jsonl"
WRITTEN_OUT = "data/work/written"
RESOURCES = "deid/resources"
WORD_LISTS = "data/work/word_lists"  # the lists of a project that is not this code's checkout
SOURCES = "data/sources"
GX_DIR = "gx"
VALIDATION_KEY = "data-validation"


class DataValidationFailed(RuntimeError):
    """A Great Expectations suite failed; the message names suites, checks and the report."""


@task(name="pin-corpus-version", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=[5, 20])
def pin_corpus(
    project_dir: str, rev: str | None = None, sources: str | None = SOURCES
) -> dict[str, Any]:
    """Check out the corpus version ``data/raw.dvc`` records (at ``rev``): pulled from the DVC
    remote, or rebuilt from the bundled sources on a fresh clone whose remote is empty."""
    from deid.ops.versioning import checkout_corpus

    result = checkout_corpus(rev or None, sources=sources, repo=project_dir)
    get_run_logger().info(
        "corpus %s (%s files) %s", result.version.md5, result.version.nfiles, result.how
    )
    return result.to_dict()


@task(name="build-corpus", cache_policy=NO_CACHE)
def build_corpus(project_dir: str, params_path: str) -> dict[str, Any]:
    """The ``ingest`` stage: data/raw → document-level train/validation/test split."""
    from pipelines import ingest

    metrics = in_project(project_dir, "reports/corpus.json")
    run_stage(ingest.main, [
        "--raw", in_project(project_dir, "data/raw"), "--params", in_project(project_dir, params_path),
        "--output", in_project(project_dir, CORPUS_DIR), "--metrics", metrics, "--max-rejected", "0",
    ])  # fmt: skip
    return read_json(metrics)


@task(name="rebuild-word-lists", cache_policy=NO_CACHE)
def rebuild_word_lists(project_dir: str) -> dict[str, Any]:
    """The ``words`` stage: the word lists rebuilt from this corpus version's training split,
    before the placeholders and the training read them (the order of ``dvc repro``). When
    the project is the checkout this code runs from (a deployed worker, ``make main``), its
    ``deid/resources`` are rewritten in place and this process reads them anew: if they
    changed, the placeholders and the model of this run use the new lists; that is intended,
    the lists follow the corpus as every stage's outs do. A project elsewhere gets them in
    ``data/work/word_lists`` and the package's lists stay as they are: a data run does not
    rewrite the code it runs on (nor a test the working tree), and a ``deid/`` folder without
    the package would shadow it for Python started there; this run then reads the package's.
    Returns each list's size and sha256, which lists differ from those this code read
    before, and ``in_place``: whether it reads the new ones now."""
    from deid.training.word_lists import list_paths
    from pipelines import words

    own = list_paths(in_project(project_dir, RESOURCES))
    in_place = {p.resolve() for p in own.values()} == {p.resolve() for p in list_paths().values()}
    before = words.list_metrics()
    metrics = in_project(project_dir, "reports/words.json")
    elsewhere = [] if in_place else ["--resources", in_project(project_dir, WORD_LISTS)]
    run_stage(words.main, [
        "--train", in_project(project_dir, f"{CORPUS_DIR}/train.jsonl"), "--metrics", metrics, *elsewhere,
    ])  # fmt: skip
    after = read_json(metrics)
    return {
        "lists": after,
        "changed": sorted(n for n, m in after.items() if before.get(n, {}).get("sha256") != m["sha256"]),
        "in_place": in_place,
        "before": {n: m["words"] for n, m in before.items()},
    }


@task(name="detect-placeholders", cache_policy=NO_CACHE)
def detect_placeholders(project_dir: str) -> dict[str, Any]:
    """The ``placeholders`` stage: the courts' placeholders in every corpus document."""
    from pipelines import placeholders

    output = in_project(project_dir, PLACEHOLDERS)
    metrics = in_project(project_dir, "reports/placeholders.json")
    run_stage(placeholders.main, [
        "--corpus", in_project(project_dir, CORPUS_DIR), "--output", output,
        "--quarantine", output.with_name("placeholders.quarantine.jsonl"),
        "--metrics", metrics, "--max-failed", "0",
    ])  # fmt: skip
    return read_json(metrics)


@task(name="prepare-written-decisions", cache_policy=NO_CACHE)
def prepare_written(project_dir: str, params_path: str) -> dict[str, Any]:
    """The ``written`` stage: the decisions written from scratch (params ``written.files``) as
    training documents in ``data/work/written``, each checked against the reserved documents.
    Returns its counts and the training file."""
    from deid.sources.params import load_params
    from deid.sources.reviews.dataset import ReviewSettings
    from deid.training.written import TRAIN_FILE, WrittenSettings
    from pipelines import written

    params = load_params(in_project(project_dir, params_path))
    files, gold = WrittenSettings.from_params(params).files, ReviewSettings.from_params(params).reserved_gold
    output, metrics = in_project(project_dir, WRITTEN_OUT), in_project(project_dir, "reports/written.json")
    argv = ["--corpus", in_project(project_dir, CORPUS_DIR), "--params", in_project(project_dir, params_path),
            "--output", output, "--metrics", metrics]  # fmt: skip
    argv += [a for f in files for a in ("--file", in_project(project_dir, f))]
    argv += [a for g in gold for a in ("--gold", in_project(project_dir, g))]
    run_stage(written.main, [str(a) for a in argv])
    report = read_json(metrics)
    get_run_logger().info("written decisions: %d", report["documents"])
    return report | {"train": str(output / TRAIN_FILE)}


def validation_markdown(results: list[Any]) -> str:
    """One report of all suites: verdict table, then each suite's own summary (numbers and
    failed expectations only) with its Data Docs page."""
    from flows._common import markdown_table

    rows = [
        [r.suite, "passed" if r.success else "**FAILED**", len(r.failed),
         ", ".join(r.failed_checks) or "—"]
        for r in results
    ]  # fmt: skip
    head = "## Data validation (Great Expectations)\n\n"
    table = markdown_table(["suite", "verdict", "failed", "failed checks"], rows)
    docs = next((r.docs_path for r in results if r.docs_path), None)
    where = f"\nData Docs: `{docs}`\n\n" if docs else "\n"
    return head + table + where + "\n".join(r.summary for r in results)


@task(name="validate-data", cache_policy=NO_CACHE)
def validate_data(
    project_dir: str, params_path: str, reviews_limit: int | None = None
) -> dict[str, Any]:
    """The GX suites on the corpus and its detected placeholders, and ``reviews`` on the
    review store (its first ``reviews_limit`` bytes: the version a retrain pinned). Publishes
    the report (and a link to the Data Docs) before failing, so a failed run shows why."""
    from deid.ops.checks import load_check_params, run_suites
    from flows.reviews import project_review_settings

    logging.getLogger("great_expectations").setLevel(logging.WARNING)
    p = load_check_params(in_project(project_dir, params_path))
    p = replace(
        p,
        ler_adjudication=str(in_project(project_dir, p.ler_adjudication)),
        bavaria_decisions=str(in_project(project_dir, p.bavaria_decisions)),
        bavaria_holdout=str(in_project(project_dir, p.bavaria_holdout))
        if p.bavaria_holdout
        else None,
    )
    reviews = project_review_settings(project_dir, params_path)
    results = run_suites(
        in_project(project_dir, CORPUS_DIR), p, in_project(project_dir, PLACEHOLDERS),
        project_dir=in_project(project_dir, GX_DIR), reviews=reviews.folder,
        review_settings=reviews, reviews_limit=reviews_limit,
    )  # fmt: skip
    report = validation_markdown(results)
    create_markdown_artifact(
        report, key=VALIDATION_KEY, description="GX suites: verdicts and numbers"
    )
    docs = next((r.docs_path for r in results if r.docs_path), None)
    if docs:
        create_link_artifact(Path(docs).resolve().as_uri(), link_text="Data Docs (local file)",
                             key="data-docs", description="Great Expectations Data Docs of this run")  # fmt: skip
    failed = [f"{r.suite} ({', '.join(r.failed_checks)})" for r in results if not r.success]
    if failed:
        raise DataValidationFailed(
            f"data checks failed: {'; '.join(failed)}; report: artifact '{VALIDATION_KEY}', "
            f"Data Docs: {docs}"
        )
    get_run_logger().info("data checks passed: %s", ", ".join(r.suite for r in results))
    return {
        "passed": True,
        "suites": {r.suite: {"success": r.success, **r.statistics} for r in results},
        "data_docs": str(docs) if docs else None,
    }
