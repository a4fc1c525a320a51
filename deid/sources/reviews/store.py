"""Where saved reviews live: one JSON line per review in ``<folder>/reviews.jsonl``.

Appending keeps every review ever saved (a reviewer who saves a document twice leaves two
records; the later one is the newer decision). Each append takes an exclusive lock on the
file and writes one whole line, so concurrent saves from several service workers never
interleave, and it is flushed to disk before the save is reported; a retried save (same
content id) is not written twice. :func:`frozen` holds saves back while a retrain versions
the file, so what DVC records is exactly what training reads (the first ``size`` bytes).
Nothing is ever rewritten: a review reopened and edited is saved as a new record that names
the one it ``supersedes``, so a document's history is every record of its text, in order.
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

from deid.sources.reviews.record import ReviewError, check_review, decision_counts, review_state

logger = logging.getLogger(__name__)

DEFAULT_DIR = Path("data/reviews")
REVIEWS_FILE = "reviews.jsonl"


class ReviewStore:
    """Appends checked reviews to ``folder/reviews.jsonl`` and reads them back (the valid
    ones, in the order saved; a line that fails its checks is skipped and counted)."""

    def __init__(self, folder: str | Path = DEFAULT_DIR) -> None:
        self.folder = Path(folder)
        self.path = self.folder / REVIEWS_FILE
        self._lock = threading.Lock()  # flock is per process; threads of one process need this too
        self._read: list[dict[str, Any]] = []  # the valid records of the first _offset bytes
        self._offset = 0
        self._skipped = 0

    def records(self) -> list[dict[str, Any]]:
        """Every valid review in the order saved. The file only grows, so only the lines
        appended since the last call are read (a file that shrank is read anew)."""
        with self._lock:
            size = self.path.stat().st_size if self.path.exists() else 0
            if size < self._offset:
                self._read, self._offset, self._skipped = [], 0, 0
            if size > self._offset:
                with open(self.path, "rb") as fh:
                    fh.seek(self._offset)
                    for raw in fh:
                        if not raw.endswith(b"\n"):
                            break  # a line still being written: read it next time
                        self._offset += len(raw)
                        self._add(raw)
                if self._skipped:
                    logger.warning("review store: %d lines are not valid reviews", self._skipped)
            return list(self._read)

    def _add(self, raw: bytes) -> None:
        if not raw.strip():
            return
        try:
            record = json.loads(raw.decode("utf-8"))
            check_review(record)
        except (UnicodeDecodeError, json.JSONDecodeError, ReviewError, TypeError, KeyError, AttributeError):
            self._skipped += 1
            return
        self._read.append(record)

    def get(self, review_id: str) -> dict[str, Any] | None:
        return next((r for r in self.records() if r["id"] == review_id), None)

    def history(self, sha256: str) -> list[dict[str, Any]]:
        """Summaries of every review of the text with this sha256, oldest first."""
        return [summary(r) for r in self.records() if r["sha256"] == sha256]

    def latest(self) -> dict[str, dict[str, Any]]:
        """The summary of the latest review of each text, by the text's sha256."""
        return {r["sha256"]: summary(r) for r in self.records()}

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


def summary(record: Mapping[str, Any]) -> dict[str, Any]:
    """What a list of reviews shows of one (no text): ids, the document's state, counts."""
    effort = record.get("effort") or {}
    return {
        "id": record["id"], "schema": record["schema"], "sha256": record["sha256"],
        "characters": len(record["text"]), "state": review_state(record), "reviewer": record["reviewer"],
        "created": record["created"], "supersedes": record.get("supersedes"), "spans": len(record["spans"]),
        "open": len(record.get("open") or []), "decisions": decision_counts(record["decisions"]),
        "effort": {"seconds": effort.get("seconds"), "actions": effort.get("actions")} if effort else None,
        "model_version": (record.get("model") or {}).get("version"),
    }  # fmt: skip


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
