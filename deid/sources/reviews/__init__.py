"""Reviewed decisions: what a person decided about the spans a model proposed.

A saved review is a reviewed decision: its final spans are gold for its text. One JSON line
per review in ``<folder>/reviews.jsonl`` (default ``data/reviews/``), written by
:class:`ReviewStore`; the record (:func:`new_review`) holds the text, because it is the gold
document, but nothing here ever logs it: logs get the review id, the text's sha256 and counts.
"""

from deid.sources.reviews.record import (
    DECISIONS,
    REVIEW_SCHEMA,
    STATES,
    ReviewError,
    check_review,
    decide,
    decision_counts,
    final_spans,
    new_review,
    parse_spans,
    review_state,
)
from deid.sources.reviews.store import (
    DEFAULT_DIR,
    REVIEWS_FILE,
    ReviewStore,
    frozen,
    read_records,
    read_reviews,
    summary,
)

__all__ = [
    "DECISIONS",
    "DEFAULT_DIR",
    "REVIEWS_FILE",
    "REVIEW_SCHEMA",
    "STATES",
    "ReviewError",
    "ReviewStore",
    "check_review",
    "decide",
    "decision_counts",
    "final_spans",
    "frozen",
    "new_review",
    "parse_spans",
    "read_records",
    "read_reviews",
    "review_state",
    "summary",
]
