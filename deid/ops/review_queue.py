"""A queue of decisions to review: a folder, an S3 prefix, or the documents of one batch of
the ``anonymize`` flow.

* **A folder** (or ``s3://bucket/prefix``, copied once below the service's work folder): every
  file the format registry reads (``deid.sources.formats``: text, DOCX, PDF, HTML, court XML),
  in path order. JSONL files hold many documents and are left out, as are hidden files and
  links that lead outside the folder.
* **A batch**: the same folder or prefix (the flow's input) with the flow's output folder or
  prefix (``batch``; ``deid anonymize --output DIR`` writes the same file): the documents its
  ``spans.jsonl`` lists (quarantined ones are not), with
  the spans the night's run found, so opening one needs no analysis and the queue can be
  ordered by certainty at once. A text that no longer has the sha256 the batch recorded is
  analysed anew.

An item is named on the page by its document id (the relative path without its format's
suffix, as the flow names it) and everywhere else (URLs, logs) by a hash of that id: a file
name often holds a party's name. Which items are done is the review store's business
(:meth:`deid.sources.reviews.ReviewStore.latest`, by the text's sha256), not the queue's.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deid.ops import s3
from deid.ops.chunks import SPANS as BATCH_SPANS  # the flow's span report
from deid.sources import formats
from deid.sources.errors import UserError
from deid.sources.inputs import doc_id_for
from deid.sources.io import DEFAULT_MAX_BYTES, JSONL_SUFFIXES
from deid.sources.reviews.record import text_sha256

# A span whose score is below this is marked on the review page and counts towards a
# document's uncertainty (the model's threshold is 0.5; a rule sure of its find scores 0.8+).
LOW_CONFIDENCE = 0.6
ORDERS = ("path", "uncertain")


class QueueError(UserError):
    """A queue that cannot be opened (no such folder, no spans.jsonl in the batch)."""


@dataclass(frozen=True)
class QueueItem:
    """One document of the queue; ``spans`` and ``sha256`` are the batch's (None: analyse)."""

    id: str
    name: str
    path: Path
    spans: tuple[dict[str, Any], ...] | None = None
    sha256: str | None = None

    @property
    def file_name(self) -> str:
        """The file's name as the format registry reads it (``.xz`` unpacked)."""
        name = self.path.name
        return name[: -len(formats.COMPRESSED)] if name.lower().endswith(formats.COMPRESSED) else name


def item_id(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def uncertainty(spans: Iterable[Mapping[str, Any]], low: float = LOW_CONFIDENCE) -> dict[str, Any]:
    """How unsure the analysis was of a document: its spans, how many score below ``low``,
    the lowest score (spans without one, a reviewer's, count as sure)."""
    spans = list(spans)
    scores = [float(s["score"]) for s in spans if s.get("score") is not None]
    return {"spans": len(spans), "low": sum(1 for s in scores if s < low),
            "min_score": round(min(scores), 4) if scores else None}  # fmt: skip


def least_certain_first(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    """The sort key of ``order=uncertain``: most spans below :data:`LOW_CONFIDENCE` first,
    then the lowest score; documents not analysed yet last, in path order."""
    u = entry.get("uncertainty")
    if u is None:
        return (1, 0, 1.0, entry["name"])
    return (0, -u["low"], 1.0 if u["min_score"] is None else u["min_score"], entry["name"])


class ReviewQueue:
    """The items of a queue and their texts' sha256 (read once per file version)."""

    def __init__(self, items: Sequence[QueueItem], kind: str, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.items = list(items)
        self.kind = kind
        self.max_bytes = max_bytes
        self._by_id = {item.id: item for item in self.items}
        self._hashes: dict[str, tuple[tuple[int, int], str]] = {}
        self._lock = threading.Lock()

    @classmethod
    def open(
        cls, source: str | Path, *, batch: str | Path | None = None, work_dir: Path, max_bytes: int = DEFAULT_MAX_BYTES
    ) -> ReviewQueue:  # fmt: skip
        """The queue of ``source`` (a folder or ``s3://`` prefix), limited to a flow batch's
        documents when ``batch`` (its output folder or prefix) is given."""
        kind = "s3" if s3.is_s3(source) else "folder"
        folder = _local(str(source), work_dir / "queue-source")
        files = _files(folder)
        if batch is None:
            items = [QueueItem(item_id(name), name, path) for name, path in files.items()]
            return cls(items, kind, max_bytes)
        rows = _batch_rows(_local(str(batch), work_dir / "queue-batch", only=BATCH_SPANS) / BATCH_SPANS)
        items = [QueueItem(item_id(row["id"]), row["id"], files[row["id"]], tuple(row.get("spans") or ()),
                           _input_sha256(row)) for row in rows if row.get("id") in files]  # fmt: skip
        return cls(items, "batch", max_bytes)

    def item(self, item_id: str) -> QueueItem | None:
        return self._by_id.get(item_id)

    def load(self, item: QueueItem) -> bytes:
        """The file's bytes (``.xz`` unpacked), refused over the size limit."""
        return formats.load(item.path, max_bytes=self.max_bytes)

    def sha256(self, item: QueueItem) -> str | None:
        """The sha256 of the item's text as the service reads it (cached per file version);
        None when the file cannot be read."""
        stat = item.path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            known = self._hashes.get(item.id)
        if known and known[0] == version:
            return known[1]
        try:
            text = formats.read(self.load(item), name=item.file_name, max_bytes=self.max_bytes).text
        except (UserError, OSError, ValueError):
            return None
        digest = text_sha256(text)
        with self._lock:
            self._hashes[item.id] = (version, digest)
        return digest

    def remember(self, item: QueueItem, sha256: str) -> None:
        """The sha256 of a text just read for the item (so listing it reads no file)."""
        stat = item.path.stat()
        with self._lock:
            self._hashes[item.id] = ((stat.st_mtime_ns, stat.st_size), sha256)


def _local(location: str, target: Path, only: str | None = None) -> Path:
    """A folder here: ``location`` itself, or an S3 prefix copied to ``target`` (one object,
    ``only``, when given)."""
    if not s3.is_s3(location):
        folder = Path(location)
        if not folder.is_dir():
            raise QueueError(f"queue: {location} is not a folder")
        return folder
    if only is not None:
        if s3.download_object(f"{location.rstrip('/')}/{only}", target / only) is None:
            raise QueueError(f"queue: {location} holds no {only}")
        return target
    s3.download_prefix(location, target)
    return target


def _files(folder: Path) -> dict[str, Path]:
    """Document id → file, for every file below ``folder`` the format registry reads."""
    root = folder.resolve()
    out: dict[str, Path] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        if not path.resolve().is_relative_to(root) or path.name.endswith(JSONL_SUFFIXES):
            continue
        if formats.by_suffix(path.name) is None:
            continue
        out.setdefault(doc_id_for(path, folder), path)
    return out


def _input_sha256(row: Mapping[str, Any]) -> str | None:
    """The analysed text's sha256 (or the prefix of it the flow's span report keeps;
    ``deid anonymize``'s records have it whole in their lineage)."""
    return row.get("sha256") or (row.get("lineage") or {}).get("input_sha256")


def _batch_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise QueueError(f"queue: the batch has no {BATCH_SPANS} (the anonymize flow's output folder)")
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                if isinstance(row, dict) and isinstance(row.get("id"), str):
                    rows.append(row)
    return rows
