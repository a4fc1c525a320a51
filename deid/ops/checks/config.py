"""The ``validate:`` section of params.yaml as typed thresholds for the data checks.

Defaults live here; params.yaml only overrides them, so `dvc params diff` shows every change
of a gate. Unknown keys are logged (a typo would otherwise silently fall back to a default).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deid.schema import LOCATION, ORGANIZATION, PERSON
from deid.sources.params import check_keys, field_names, load_params, section

logger = logging.getLogger(__name__)

SECTION = "validate"
CORPUS_INTEGRITY = "corpus_integrity"
PLACEHOLDER_QUALITY = "placeholder_quality"
TRAINING_SET = "training_set"
REVIEWS = "reviews"
SUITE_NAMES: tuple[str, ...] = (CORPUS_INTEGRITY, PLACEHOLDER_QUALITY, TRAINING_SET, REVIEWS)


@dataclass(frozen=True)
class CheckParams:
    """Thresholds of the three suites (see params.yaml, section ``validate``)."""

    # placeholder_quality
    min_precision: float = 0.97
    min_recall: float = 0.97
    min_gold_elements: int = 100  # a smaller gold set says too little to gate on
    ler_adjudication: str = "data/gold/ler_adjudication.jsonl"
    bavaria_decisions: str = "data/gold/bavaria/decisions.jsonl"
    bavaria_holdout: str | None = "data/gold/bavaria/holdout_ids.json"
    # corpus_integrity
    min_chars: int = 200
    max_chars: int = 2_000_000
    max_short_documents: int = 7
    placeholder_density_max: float = 0.2
    encodings: tuple[str, ...] = ("utf-8", "utf-8-sig", "utf-16", "cp1252")  # deid.sources.io.decode_text
    # training_set
    required_labels: tuple[str, ...] = (PERSON, ORGANIZATION, LOCATION)
    min_label_spans: int = 100
    placeholder_share_min: float = 0.001
    placeholder_share_max: float = 0.02


def check_params(params: dict[str, Any] | None) -> CheckParams:
    """``CheckParams`` from a loaded params.yaml (the whole file, not only the section)."""
    values = section((params or {}).get(SECTION), SECTION)
    check_keys(SECTION, values, field_names(CheckParams))
    for key in ("encodings", "required_labels"):
        if key in values:
            values[key] = tuple(values[key])
    return CheckParams(**values)


def load_check_params(path: str | Path = "params.yaml") -> CheckParams:
    """Thresholds from a params file (read with PyYAML only: no model imports)."""
    return check_params(load_params(path))
