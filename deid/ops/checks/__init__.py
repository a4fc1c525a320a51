"""Data checks with Great Expectations: corpus integrity, placeholder quality, training set,
saved reviews.

``run_corpus_integrity``, ``run_placeholder_quality``, ``run_training_set`` and
``run_reviews`` return a :class:`CheckResult` (success, numbers, failed expectations, Data
Docs path). GX itself is imported only when a check runs, so importing this package stays
cheap.
"""

from deid.ops.checks.config import SUITE_NAMES, CheckParams, load_check_params
from deid.ops.checks.result import CheckResult
from deid.ops.checks.run import (
    CHECKS,
    run_corpus_integrity,
    run_placeholder_quality,
    run_reviews,
    run_suites,
    run_training_set,
)

__all__ = [
    "CHECKS",
    "SUITE_NAMES",
    "CheckParams",
    "CheckResult",
    "load_check_params",
    "run_corpus_integrity",
    "run_placeholder_quality",
    "run_reviews",
    "run_suites",
    "run_training_set",
]
