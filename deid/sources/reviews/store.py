"""Where saved reviews live: one JSON line per review in ``<folder>/reviews.jsonl``.

Appending keeps every review ever saved (a reviewer who saves a document twice leaves two
records; the later one is the newer decision). Each append takes an exclusive lock on the
file and writes one whole line, so concurrent saves from several service workers never
interleave, and it is flushed to disk before the save is reported; a retried save (same
content id) is not written twice. :func:`frozen` holds saves back while a retrain versions
the file, so what DVC records is exactly what training reads (the first ``size`` bytes).
Logs name the review id, the text's sha256 prefix and counts, never the text.
"""

from __future__ import annotations

import fcntl
import json
import logging
import mmap
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from deid.sources.reviews.record import ReviewError, check_review, decision_counts

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
                if _stored(self.path, str(record["id"])):
                    logger.info("review %s already saved", record["id"])
                    return str(record["id"])
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)
        counts = decision_counts(record["decisions"])
        logger.info("review %s saved (text sha256 %s, %d spans, decisions %s)",
                    record["id"], record["sha256"][:12], len(record["spans"]), counts)  # fmt: skip
        return str(record["id"])


def _stored(path: Path, review_id: str) -> bool:
    """Whether a record with this id is in the file: its ``"id"`` key, which JSON text never
    holds unescaped (a quote inside a string value is written ``\\"``)."""
    if path.stat().st_size == 0:
        return False
    key = json.dumps({"id": review_id})[1:-1].encode("ascii")
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return data.find(key) >= 0


@contextmanager
def frozen(folder: str | Path = DEFAULT_DIR) -> Iterator[int]:
    """Hold saves back (a shared lock on the file; every save takes an exclusive one) and give
    the file's size: what is versioned inside this block are the first ``size`` bytes, and
    :func:`read_records` with ``limit=size`` reads exactly them later."""
    path = Path(folder) / REVIEWS_FILE
    if not path.exists():
        yield 0
        return
    with open(path, "rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
        try:
            yield os.fstat(fh.fileno()).st_size
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def read_records(folder: str | Path = DEFAULT_DIR, limit: int | None = None) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON or None)`` for every non-blank line within the first
    ``limit`` bytes of ``folder/reviews.jsonl`` (all of it by default), unchecked: the data
    checks look at each property on its own. A line that is not UTF-8 JSON gives ``None``."""
    path = Path(folder) / REVIEWS_FILE
    if not path.exists():
        return
    with open(path, "rb") as fh:
        read = 0
        for lineno, raw in enumerate(fh, 1):
            read += len(raw)
            if limit is not None and read > limit:
                return  # saved after the snapshot
            if not raw.strip():
                continue
            try:
                yield lineno, json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                yield lineno, None


def read_reviews(
    folder: str | Path = DEFAULT_DIR, limit: int | None = None
) -> Iterator[dict[str, Any] | ReviewError]:
    """Every review in ``folder/reviews.jsonl`` in the order saved (within the first ``limit``
    bytes); a line that is not a consistent review yields a :class:`ReviewError` naming its
    line instead (the caller quarantines it and goes on)."""
    path = Path(folder) / REVIEWS_FILE
    for lineno, record in read_records(folder, limit):
        if record is None:
            yield ReviewError(f"{path}:{lineno}: not JSON")
            continue
        try:
            check_review(record)
        except ReviewError as exc:
            yield ReviewError(f"{path}:{lineno}: {exc}")
        else:
            yield record
