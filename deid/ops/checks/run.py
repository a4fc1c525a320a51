"""Entry points of the data checks, for the CLI, the DVC stage and Prefect flows.

Each builds its table (ids, numbers, labels), validates it with its GX checkpoint and returns
a :class:`CheckResult`; nothing is printed. Thresholds come from params.yaml (``validate:``).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from deid.ops.checks import tables
from deid.ops.checks.config import (
    CORPUS_INTEGRITY,
    PLACEHOLDER_QUALITY,
    REVIEWS,
    TRAINING_SET,
    CheckParams,
    check_params,
    load_check_params,
)
from deid.ops.checks.result import CheckResult, markdown_summary
from deid.ops.checks.tables import Detector, PlaceholderSource
from deid.schema import LABELS, Span
from deid.sources.corpus import RESERVED_LER

if TYPE_CHECKING:
    from deid.sources.reviews.dataset import PreparedReviews, ReservedIndex, ReviewSettings

logger = logging.getLogger(__name__)

ParamsSource = str | Path | dict | CheckParams
DEFAULT_CORPUS = Path("data/corpus")
DEFAULT_PARAMS = Path("params.yaml")


def resolve_params(params: ParamsSource) -> CheckParams:
    """Thresholds from a params.yaml path, a loaded params dict or ready ``CheckParams``."""
    if isinstance(params, CheckParams):
        return params
    if isinstance(params, dict):
        return check_params(params)
    return load_check_params(params)


def _finish(
    suite: str,
    table: pd.DataFrame,
    p: CheckParams,
    project_dir: str | Path | None,
    data_statistics: dict[str, Any],
) -> CheckResult:
    from deid.ops.checks.gxproject import DEFAULT_PROJECT_DIR, validate_table, write_summary
    from deid.ops.checks.suites import expectations_for

    project_dir = project_dir or DEFAULT_PROJECT_DIR
    result = validate_table(suite, table, expectations_for(suite, p), project_dir)
    result.statistics.update(data_statistics)
    result.summary = markdown_summary(result)
    result.summary_path = write_summary(result, project_dir)
    verdict = "passed" if result.success else "FAILED"
    logger.info("data check %s: %s (%d failed)", suite, verdict, len(result.failed))
    return result


def run_corpus_integrity(
    corpus_dir: str | Path = DEFAULT_CORPUS,
    params: ParamsSource = DEFAULT_PARAMS,
    *,
    placeholders: PlaceholderSource = None,
    detect: Detector | None = None,
    project_dir: str | Path | None = None,
) -> CheckResult:
    """Suite ``corpus_integrity`` on every split of the corpus."""
    p = resolve_params(params)
    splits = tables.load_splits(corpus_dir)
    known = tables.resolve_placeholders(placeholders)
    table = tables.corpus_table(splits, min_chars=p.min_chars, placeholders=known, detect=detect)
    stats: dict[str, Any] = {"documents": len(table)}
    stats.update({f"documents_{k}": int(v) for k, v in table["split"].value_counts().items()})
    if len(table):
        stats.update(
            short_documents=int(table["short"].sum()),
            max_placeholder_density=round(float(table["placeholder_density"].max()), 6),
            reserved_outside_test=int((table["reserved"] & (table["split"] != "test")).sum()),
        )
    return _finish(CORPUS_INTEGRITY, table, p, project_dir, stats)


def run_training_set(
    corpus_dir: str | Path = DEFAULT_CORPUS,
    params: ParamsSource = DEFAULT_PARAMS,
    *,
    placeholders: PlaceholderSource = None,
    detect: Detector | None = None,
    project_dir: str | Path | None = None,
) -> CheckResult:
    """Suite ``training_set`` on train + validation as training prepares them
    (``deid.training.documents.source_documents``)."""
    p = resolve_params(params)
    splits = tables.load_splits(corpus_dir, tables.TRAINING_SPLITS)
    table = tables.training_table(
        splits, placeholders=tables.resolve_placeholders(placeholders), detect=detect
    )
    stats: dict[str, Any] = {"documents": len(table)}
    if len(table):
        stats.update(
            placeholder_spans=int(table["placeholder_spans"].sum()),
            placeholder_share=round(float(table["placeholder_element_share"].sum()), 6),
            keep_spans=int(table["keep_spans"].sum()),
            unknown_label_spans=int(table["unknown_label_spans"].sum()),
        )
        stats.update({f"spans_{lab}": int(table[tables.label_column(lab)].sum()) for lab in LABELS})
    return _finish(TRAINING_SET, table, p, project_dir, stats)


def _memoized(detect: Detector) -> Detector:
    """The holdout set is part of the Bavarian set: detect each text once."""
    cache: dict[str, list[Span]] = {}

    def run(text: str) -> list[Span]:
        if text not in cache:
            cache[text] = detect(text)
        return cache[text]

    return run


def gold_reports(
    corpus_dir: str | Path, p: CheckParams, detect: Detector
) -> dict[str, dict[str, Any]]:
    """``DetectionReport.to_dict()`` per gold set: the reserved LER courts against the
    reviewed adjudication, the hand-decided Bavarian set and, if listed, its holdout part
    (decided after the detector was frozen)."""
    from deid.evaluation.placeholders import evaluate_on_decisions, evaluate_on_ler

    for path in (p.ler_adjudication, p.bavaria_decisions):
        if not Path(path).exists():
            raise FileNotFoundError(f"missing gold file {path}")
    test = tables.load_splits(corpus_dir, ["test"])["test"]
    ler = [d for d in test if d.meta.get("corpus") == "ler" and d.court in RESERVED_LER]
    detect = _memoized(detect)
    reports = {
        "ler_adjudicated": evaluate_on_ler(ler, detect, "ler_adjudicated", p.ler_adjudication),
        "bavaria": evaluate_on_decisions(test, p.bavaria_decisions, detect, "bavaria"),
    }
    if p.bavaria_holdout and Path(p.bavaria_holdout).exists():
        holdout = set(json.loads(Path(p.bavaria_holdout).read_text(encoding="utf-8")))
        docs = [d for d in test if d.id in holdout]
        reports["bavaria_holdout"] = evaluate_on_decisions(
            docs, p.bavaria_decisions, detect, "bavaria_holdout"
        )
    return {name: report.to_dict() for name, report in reports.items()}


def run_placeholder_quality(
    corpus_dir: str | Path = DEFAULT_CORPUS,
    params: ParamsSource = DEFAULT_PARAMS,
    *,
    detect: Detector | None = None,
    project_dir: str | Path | None = None,
) -> CheckResult:
    """Suite ``placeholder_quality``: element-level precision/recall per gold set
    (``deid.evaluation.placeholders``), one table row per set."""
    if detect is None:
        from deid.rewrite.placeholders import detect_placeholders as detect
    p = resolve_params(params)
    table = tables.quality_table(gold_reports(corpus_dir, p, detect))
    stats: dict[str, Any] = {}
    for row in table.to_dict("records"):
        for key in ("documents", "gold_elements", "precision", "recall"):
            value = row[key]
            stats[f"{row['gold_set']}.{key}"] = (
                round(float(value), 4) if key in ("precision", "recall") else int(value)
            )
    return _finish(PLACEHOLDER_QUALITY, table, p, project_dir, stats)


def review_settings(params: ParamsSource) -> ReviewSettings:
    """``reviews:`` of a params file or loaded params (defaults for ready ``CheckParams``)."""
    from deid.sources.reviews.dataset import ReviewSettings, load_review_settings

    if isinstance(params, CheckParams):
        return ReviewSettings()
    return ReviewSettings.from_params(params) if isinstance(params, dict) else load_review_settings(params)


def run_reviews(
    corpus_dir: str | Path = DEFAULT_CORPUS,
    params: ParamsSource = DEFAULT_PARAMS,
    *,
    reviews: str | Path | None = None,
    settings: ReviewSettings | None = None,
    limit: int | None = None,
    project_dir: str | Path | None = None,
) -> CheckResult:
    """Suite ``reviews`` on the review store ``reviews`` (default: ``reviews.folder``; its
    first ``limit`` bytes): every record valid, each document used once, no reserved
    document (the corpus's test split and ``reviews.reserved_gold``) trained or evaluated on."""
    from deid.sources.reviews.dataset import prepare_store

    settings = settings or review_settings(params)
    records, reserved, prepared = prepare_store(reviews or settings.folder, corpus_dir, settings, limit)
    return check_prepared_reviews(records, prepared, reserved, settings, project_dir=project_dir)


def check_prepared_reviews(
    records: list[tuple[int, Any]],
    prepared: PreparedReviews,
    reserved: ReservedIndex,
    settings: ReviewSettings,
    *,
    project_dir: str | Path | None = None,
) -> CheckResult:
    """Suite ``reviews`` on store lines already read and prepared (the ``reviews`` stage
    checks what it is about to write)."""
    table = tables.reviews_table(records, prepared, reserved, settings.reserved_overlap)
    stats: dict[str, Any] = {f"reviews_{k}": v for k, v in prepared.counts().items()}
    stats["reserved_documents_indexed"] = reserved.documents
    invalid = prepared.report()["invalid_lines"]
    if invalid:
        stats["invalid_lines"] = invalid[:20]
    return _finish(REVIEWS, table, CheckParams(), project_dir, stats)


def run_suites(
    corpus_dir: str | Path,
    params: ParamsSource,
    placeholders: PlaceholderSource,
    *,
    project_dir: str | Path | None = None,
    reviews: str | Path | None = None,
    review_settings: ReviewSettings | None = None,
    reviews_limit: int | None = None,
) -> list[CheckResult]:
    """The suites on one corpus, scoring one set of detected placeholders, and with
    ``reviews`` (a review store folder) the ``reviews`` suite.

    ``placeholder_quality`` scores the same spans the other suites count (looked up by the
    test documents' text) instead of detecting anew, so the gate judges exactly what training
    will read. The DVC ``validate`` stage and the Prefect flows both call this."""
    p = resolve_params(params)
    found = tables.resolve_placeholders(placeholders)
    by_text = {d.text: found[d.id] for d in tables.load_splits(corpus_dir, ["test"])["test"]}
    results = [
        run_corpus_integrity(corpus_dir, p, placeholders=found, project_dir=project_dir),
        run_placeholder_quality(corpus_dir, p, detect=by_text.__getitem__, project_dir=project_dir),
        run_training_set(corpus_dir, p, placeholders=found, project_dir=project_dir),
    ]
    if reviews is not None:
        results.append(run_reviews(corpus_dir, params, reviews=reviews, settings=review_settings,
                                   limit=reviews_limit, project_dir=project_dir))  # fmt: skip
    return results


CHECKS = {
    "corpus": run_corpus_integrity,
    "placeholders": run_placeholder_quality,
    "dataset": run_training_set,
    "reviews": run_reviews,
}
