"""The three expectation suites, built from the ``validate:`` thresholds.

The suites are generated here and stored as JSON under ``gx/expectations/`` on every run, so
a change of params.yaml shows up as a diff of the stored suite. ``meta.check`` is the short
name a failure report uses; ``notes`` say why the expectation exists (Data Docs show them).
"""

from __future__ import annotations

from typing import Any

import great_expectations.expectations as gxe
from great_expectations.expectations.row_conditions import Column

from deid.ops.checks.config import (
    CORPUS_INTEGRITY,
    PLACEHOLDER_QUALITY,
    REVIEWS,
    TRAINING_SET,
    CheckParams,
)
from deid.ops.checks.tables import TRAINING_SPLITS, label_column
from deid.sources.corpus import SPLITS

# gold sets the placeholder_quality table must hold (the holdout row is optional)
REQUIRED_GOLD_SETS: tuple[str, ...] = ("ler_adjudicated", "bavaria")

# GX condition objects (string row conditions are deprecated since GX 1.9)
_RESERVED_ROWS: dict[str, Any] = {"row_condition": Column("reserved") == True}
_NOT_LER_ROWS: dict[str, Any] = {"row_condition": Column("corpus") != "ler"}


def _e(cls: type[gxe.Expectation], check: str, notes: str, **kwargs: Any) -> gxe.Expectation:
    return cls(meta={"check": check}, notes=notes, **kwargs)


def corpus_integrity(p: CheckParams) -> list[gxe.Expectation]:
    """Per-document corpus table (``tables.corpus_table``)."""
    return [
        _e(gxe.ExpectTableRowCountToBeBetween, "corpus_not_empty",
           "No rows: the corpus was not built.", min_value=1),
        _e(gxe.ExpectColumnValuesToNotBeNull, "ids_present", "Every document needs an id.",
           column="id"),
        _e(gxe.ExpectColumnValuesToBeUnique, "ids_unique",
           "A duplicate id may sit in two splits: a train/test leak.", column="id"),
        _e(gxe.ExpectColumnValuesToBeInSet, "splits_known",
           "Only the document-level splits of deid.sources.corpus.", column="split",
           value_set=list(SPLITS)),
        _e(gxe.ExpectColumnValuesToNotBeNull, "corpus_recorded",
           "Without meta.corpus a reserved document is not recognized.", column="corpus"),
        _e(gxe.ExpectColumnValuesToBeInSet, "corpus_known",
           "Every document comes from LER or the raw decisions.", column="corpus",
           value_set=["ler", "decisions"]),
        _e(gxe.ExpectColumnValuesToBeInSet, "text_non_empty",
           "A document without text is a broken export.", column="non_empty", value_set=[True]),
        _e(gxe.ExpectColumnValuesToNotBeNull, "encoding_recorded",
           "The source encoding must be known.", column="encoding"),
        _e(gxe.ExpectColumnValuesToBeInSet, "encoding_known",
           "deid.sources.io reads UTF-8 (a BOM: utf-8-sig), UTF-16 with a BOM and Windows-1252 only.",
           column="encoding",
           value_set=list(p.encodings)),
        _e(gxe.ExpectColumnValuesToBeBetween, "length_max",
           "Longer texts are concatenated or binary exports.", column="n_chars",
           min_value=0, max_value=p.max_chars),
        _e(gxe.ExpectColumnSumToBeBetween, "short_documents",
           f"Documents under min_chars={p.min_chars} characters (LER header fragments) are "
           "allowed, but only this many.", column="short",
           min_value=0, max_value=p.max_short_documents),
        _e(gxe.ExpectColumnValuesToBeBetween, "placeholder_density",
           "Placeholder elements per element of one document.", column="placeholder_density",
           min_value=0.0, max_value=p.placeholder_density_max),
        _e(gxe.ExpectColumnValuesToBeInSet, "reserved_only_in_test",
           "LER bgh/bverwg and decisions/bavaria are evaluation data.", column="split",
           value_set=["test"], **_RESERVED_ROWS),
    ]  # fmt: skip


def placeholder_quality(p: CheckParams) -> list[gxe.Expectation]:
    """One row per gold set (``tables.quality_table``)."""
    return [
        _e(gxe.ExpectColumnDistinctValuesToContainSet, "gold_sets_present",
           "Both gold sets are scored, never silently one.", column="gold_set",
           value_set=list(REQUIRED_GOLD_SETS)),
        _e(gxe.ExpectColumnValuesToBeBetween, "gold_set_size",
           "A tiny gold set gives meaningless precision and recall.", column="gold_elements",
           min_value=p.min_gold_elements),
        _e(gxe.ExpectColumnValuesToBeBetween, "min_precision",
           "Element-level precision of placeholder detection.", column="precision",
           min_value=p.min_precision, max_value=1.0),
        _e(gxe.ExpectColumnValuesToBeBetween, "min_recall",
           "Element-level recall: a missed placeholder is a missed training label.",
           column="recall", min_value=p.min_recall, max_value=1.0),
    ]  # fmt: skip


def training_set(p: CheckParams) -> list[gxe.Expectation]:
    """Per-document training table (``tables.training_table``)."""
    out = [
        _e(gxe.ExpectTableRowCountToBeBetween, "training_not_empty",
           "No documents, no training.", min_value=1),
        _e(gxe.ExpectColumnValuesToBeUnique, "ids_unique",
           "A document in train and validation inflates validation scores.", column="id"),
        _e(gxe.ExpectColumnValuesToBeInSet, "training_splits",
           "Training reads train and validation only.", column="split",
           value_set=list(TRAINING_SPLITS)),
        _e(gxe.ExpectColumnValuesToBeInSet, "no_reserved_documents",
           "Reserved evaluation documents must never be trained on.", column="reserved",
           value_set=[False]),
        _e(gxe.ExpectColumnValuesToBeInSet, "text_present", "Every training document has text.",
           column="has_text", value_set=[True]),
        _e(gxe.ExpectColumnSumToBeBetween, "labels_known",
           "Placeholder labels outside deid.schema.LABELS have no model class.",
           column="unknown_label_spans", min_value=0, max_value=0),
        _e(gxe.ExpectColumnSumToBeBetween, "keep_labels_known",
           "Keep labels outside deid.schema.KEEP_LABELS and ROLE_LABELS have no model class.",
           column="unknown_keep_spans", min_value=0, max_value=0),
        _e(gxe.ExpectColumnSumToBeBetween, "placeholder_share",
           "Column sum = placeholder elements / all training elements.",
           column="placeholder_element_share",
           min_value=p.placeholder_share_min, max_value=p.placeholder_share_max),
        _e(gxe.ExpectColumnValuesToBeBetween, "keep_only_ler",
           "Only LER says which entities stay in clear text.", column="keep_spans",
           min_value=0, max_value=0, **_NOT_LER_ROWS),
        _e(gxe.ExpectColumnValuesToBeInSet, "keep_known_only_ler",
           "Elsewhere an unmarked entity is not known to be insensitive.", column="keep_known",
           value_set=[False], **_NOT_LER_ROWS),
    ]  # fmt: skip
    out += [
        _e(gxe.ExpectColumnSumToBeBetween, f"label_{label}",
           f"{label} placeholders must be present in the training set.",
           column=label_column(label), min_value=p.min_label_spans)
        for label in p.required_labels
    ]  # fmt: skip
    return out


def reviews(p: CheckParams) -> list[gxe.Expectation]:
    """One row per line of the review store (``tables.reviews_table``); an empty store (no
    reviews yet) passes. ``p`` has no review thresholds: the rules hold for every record."""
    from deid.sources.reviews.dataset import EVALUATION, TRAIN, USES

    used: dict[str, Any] = {"row_condition": Column("use").is_in([TRAIN, EVALUATION])}
    return [
        _e(gxe.ExpectColumnValuesToBeInSet, "records_parsed",
           "Every line is a JSON object (not a half-written or hand-edited line).",
           column="parsed", value_set=[True]),
        _e(gxe.ExpectColumnValuesToBeInSet, "sha256_matches",
           "The text is the one the reviewer saw: its sha256 matches.", column="sha256_ok",
           value_set=[True]),
        _e(gxe.ExpectColumnValuesToBeInSet, "offsets_valid",
           "Final spans lie inside the text, non-empty, sorted and disjoint.",
           column="offsets_ok", value_set=[True]),
        _e(gxe.ExpectColumnValuesToBeInSet, "labels_known",
           "Final spans carry a label of deid.schema.LABELS (a model class).",
           column="labels_known", value_set=[True]),
        _e(gxe.ExpectColumnValuesToBeInSet, "reviewer_present",
           "Every review names its reviewer.", column="reviewer_present", value_set=[True]),
        _e(gxe.ExpectColumnValuesToBeInSet, "records_consistent",
           "Decisions follow from the spans and the id from the content (check_review).",
           column="consistent", value_set=[True]),
        _e(gxe.ExpectColumnValuesToBeUnique, "ids_unique",
           "A review is saved once (a retried save is not appended again).", column="id"),
        _e(gxe.ExpectColumnValuesToBeInSet, "uses_known",
           "Every line is used for training or evaluation, unfinished, superseded, refused or invalid.",
           column="use", value_set=list(USES)),
        _e(gxe.ExpectColumnValuesToBeUnique, "one_side_per_document",
           "A document is used once: never in training and in the evaluation set.",
           column="document", **used),
        _e(gxe.ExpectColumnValuesToBeInSet, "no_reserved_documents",
           "Reviews of reserved evaluation documents are never trained or evaluated on.",
           column="reserved", value_set=[False], **used),
    ]  # fmt: skip


BUILDERS = {
    CORPUS_INTEGRITY: corpus_integrity,
    PLACEHOLDER_QUALITY: placeholder_quality,
    TRAINING_SET: training_set,
    REVIEWS: reviews,
}


def expectations_for(suite: str, p: CheckParams) -> list[gxe.Expectation]:
    """Fresh expectation objects of ``suite`` for thresholds ``p``."""
    return BUILDERS[suite](p)
