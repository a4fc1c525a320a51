"""Resumable, fault-isolating batch processing of documents.

One bad input (empty, binary, undecodable, oversized, or one that makes processing raise)
is quarantined with a reason and the batch goes on. Results are appended to
``<output>.partial`` as they are produced, so an interrupted run resumes where it stopped;
the finished file is moved into place atomically.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from deid.io import DEFAULT_MAX_BYTES, Rejected, iter_input, read_jsonl, text_hash
from deid.schema import Document

logger = logging.getLogger(__name__)


@dataclass
class BatchSummary:
    """Counts an operator can read at a glance; no document content."""

    processed: int = 0
    skipped_done: int = 0
    quarantined: int = 0
    failed: int = 0
    characters: int = 0
    seconds: float = 0.0
    reasons: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "processed": self.processed,
            "skipped_done": self.skipped_done,
            "quarantined": self.quarantined,
            "failed": self.failed,
            "characters": self.characters,
            "seconds": round(self.seconds, 3),
            "reasons": dict(sorted(self.reasons.items())),
        }


def _done_ids(partial: Path) -> set[str]:
    if not partial.exists():
        return set()
    done: set[str] = set()
    with open(partial, encoding="utf-8") as fh:
        for line in fh:
            try:
                done.add(str(json.loads(line)["id"]))
            except (json.JSONDecodeError, KeyError):
                break  # a torn last line from a crash: everything after it is redone
    return done


def completed_ids(path: str | Path) -> set[str]:
    """Ids already written to a result file (finished or ``.partial``); a torn last line
    from a crash and everything after it count as not done."""
    return _done_ids(Path(path))


def _truncate_torn_tail(partial: Path) -> None:
    """Drop a half-written last line left by a crash so appends start on a clean line."""
    if not partial.exists():
        return
    data = partial.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with open(partial, "wb") as fh:
            fh.write(data[:cut])


def run_batch(
    source: str | Path | Iterable[Document],
    output: str | Path,
    process: Callable[[Document], dict[str, Any]],
    *,
    quarantine: str | Path | None = None,
    resume: bool = True,
    max_bytes: int = DEFAULT_MAX_BYTES,
    description: str = "documents",
    show_progress: bool = True,
) -> BatchSummary:
    """Apply ``process`` to every document of ``source`` and write one JSON line each.

    ``process`` returns the output record (it must contain ``"id"``). Documents whose id is
    already in the partial output are skipped when ``resume`` is on.
    """
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(output.name + ".partial")
    quarantine_path = Path(quarantine) if quarantine else output.with_name(output.stem + ".quarantine.jsonl")
    if not resume:
        partial.unlink(missing_ok=True)
    elif output.exists() and not partial.exists():
        os.replace(output, partial)  # a finished earlier run: its records count as done
    _truncate_torn_tail(partial)
    done = _done_ids(partial)
    summary = BatchSummary()
    started = time.perf_counter()
    items: Iterator[Document | Rejected]
    if isinstance(source, (str, Path)):
        items = iter_input(source, max_bytes=max_bytes)
    else:
        items = iter(source)
    rejected: list[dict[str, Any]] = []
    progress = Progress(
        TextColumn(f"[bold]{description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=not show_progress,
        transient=True,
    )
    with progress, open(partial, "a", encoding="utf-8") as out:
        task = progress.add_task(description, total=None)
        for item in items:
            progress.advance(task)
            if isinstance(item, Rejected):
                summary.quarantined += 1
                summary.reasons[item.reason] = summary.reasons.get(item.reason, 0) + 1
                rejected.append(item.to_dict())
                logger.warning("quarantined %s (%s)", item.path, item.reason)
                continue
            if item.id in done:
                summary.skipped_done += 1
                continue
            try:
                record = process(item)
            except Exception as exc:  # one document must never stop the batch
                summary.failed += 1
                reason = f"processing failed: {type(exc).__name__}"
                summary.reasons[reason] = summary.reasons.get(reason, 0) + 1
                rejected.append(
                    {"id": item.id, "path": item.source, "reason": reason, "sha256": text_hash(item.text)}
                )
                logger.error("document %s failed: %s", item.id, type(exc).__name__)
                continue
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            summary.processed += 1
            summary.characters += len(item.text)
    if rejected:
        with open(quarantine_path, "a", encoding="utf-8") as fh:
            fh.writelines(json.dumps(rec, ensure_ascii=False) + "\n" for rec in rejected)
    os.replace(partial, output)
    summary.seconds = time.perf_counter() - started
    logger.info("batch done: %s", json.dumps(summary.to_dict()))
    return summary


def output_ids(path: str | Path) -> set[str]:
    return {str(r["id"]) for r in read_jsonl(path)}
