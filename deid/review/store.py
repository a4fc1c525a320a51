"""Where saved reviews live: one JSON line per review in ``<folder>/reviews.jsonl``.

Appending keeps every review ever saved (a reviewer who saves a document twice leaves two
records; the later one is the newer decision). Each append takes an exclusive lock on the
file and writes one whole line, so concurrent saves from several service workers never
interleave, and it is flushed to disk before the save is reported. Logs name the review id,
the text's sha256 prefix and counts, never the text.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from deid.review.record import ReviewError, check_review, decision_counts

logger = logging.getLogger(__name__)

DEFAULT_DIR = Path("data/reviews")
REVIEWS_FILE = "reviews.jsonl"


class ReviewStore:
    """Appends checked reviews to ``folder/reviews.jsonl``."""

    def __init__(self, folder: str | Path = DEFAULT_DIR) -> None:
        self.folder = Path(folder)
        self.path = self.folder / REVIEWS_FILE
        self._lock = threading.Lock()  # flock is per process; threads of one process need this too

    def save(self, record: Mapping[str, Any]) -> str:
        """Check and append one review; return its id."""
        check_review(record)
        line = json.dumps(record, ensure_ascii=False) + "\n"
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._lock, open(self.path, "a", encoding="utf-8") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)
        counts = decision_counts(record["decisions"])
        logger.info("review %s saved (text sha256 %s, %d spans, decisions %s)",
                    record["id"], record["sha256"][:12], len(record["spans"]), counts)  # fmt: skip
        return str(record["id"])


def read_reviews(folder: str | Path = DEFAULT_DIR) -> Iterator[dict[str, Any] | ReviewError]:
    """Every review in ``folder/reviews.jsonl`` in the order saved; a line that is not a
    consistent review yields a :class:`ReviewError` naming its line instead (the caller
    quarantines it and goes on)."""
    path = Path(folder) / REVIEWS_FILE
    if not path.exists():
        return
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                check_review(record)
            except json.JSONDecodeError:
                yield ReviewError(f"{path}:{lineno}: not JSON")
            except ReviewError as exc:
                yield ReviewError(f"{path}:{lineno}: {exc}")
            else:
                yield record
