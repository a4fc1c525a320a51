"""Resumable, fault-isolating batch processing of documents.

One bad input (empty, binary, undecodable, oversized, or one that makes processing raise)
is quarantined with a reason and the batch goes on. Results are appended to
``<output>.partial`` as they are produced, so an interrupted run resumes where it stopped;
the finished file is moved into place atomically. The quarantine list is rewritten by every
run (a re-run lists each bad input once), and the settings a run was made with (operator,
model …) are recorded beside its output, so a re-run with other settings is refused instead
of silently keeping results made another way.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from deid.anonymizer.budget import OverBudget
from deid.schema import Document
from deid.sources.inputs import iter_input
from deid.sources.io import (
    DEFAULT_MAX_BYTES,
    Rejected,
    log_ref,
    read_jsonl,
    text_hash,
    tree_sha256,
    write_jsonl,
    write_text_atomic,
)

logger = logging.getLogger(__name__)

DUPLICATE_ID = "duplicate id (an earlier record has the same id)"


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
        """The counts, seconds rounded to milliseconds, reasons in name order."""
        return asdict(self) | {"seconds": round(self.seconds, 3), "reasons": dict(sorted(self.reasons.items()))}


class SettingsChanged(ValueError):
    """Earlier results at an output were made with other settings; the message names the
    output and the settings that differ (names only)."""


def settings_path(output: str | Path) -> Path:
    """Where the settings of the run that wrote ``output`` are recorded."""
    output = Path(output)
    return output.with_name(output.name + ".settings.json")


def run_settings(
    operator: str | None, model_dir: str | Path | None, threshold: float | None = None, profile: str | None = None
) -> dict[str, Any]:
    """What decides an anonymization's output, for ``run_batch(settings=...)``: the operator
    (None: the pipeline's), the model by its content (a path or an alias may move; None:
    rules only), a threshold override and an anonymization profile override (recorded only
    when given, so the results of a run before profiles resume as they were)."""
    model = f"sha256:{tree_sha256(model_dir)}" if model_dir else "rules-only"
    settings = {"operator": operator, "model": model, "threshold": threshold}
    return settings | ({"profile": profile} if profile is not None else {})


def _check_settings(output: Path, partial: Path, settings: dict[str, Any], resume: bool) -> None:
    """Refuse to resume results made with other settings; then record this run's."""
    record = settings_path(output)
    settings = json.loads(json.dumps(settings, sort_keys=True))  # as it reads back
    conflict = settings_conflict(record, settings)
    if resume and conflict and (output.exists() or partial.exists()):
        raise SettingsChanged(
            f"{output} holds results made with {conflict}: redo them without resuming "
            "(--no-resume) or write to another output"
        )
    write_text_atomic(record, json.dumps(settings, indent=2) + "\n")


def settings_conflict(record: Path, settings: dict[str, Any]) -> str | None:
    """What differs between ``settings`` and the recorded ones; None when nothing does."""
    try:
        old = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "no record of their settings"
    changed = sorted(k for k in settings.keys() | old.keys() if old.get(k) != settings.get(k))
    return "other " + ", ".join(changed) if changed else None


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
    settings: dict[str, Any] | None = None,
) -> BatchSummary:
    """Apply ``process`` to every document of ``source`` and write one JSON line each.

    ``process`` returns the output record (it must contain ``"id"``). Documents whose id is
    already in the partial output are skipped when ``resume`` is on. ``settings`` (JSON
    values that decide the output, e.g. operator and model) are recorded beside the output;
    resuming results recorded with other settings raises :class:`SettingsChanged` before any
    input is read.
    """
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(output.name + ".partial")
    quarantine_path = Path(quarantine) if quarantine else output.with_name(output.stem + ".quarantine.jsonl")
    if settings is not None:
        _check_settings(output, partial, settings, resume)
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
    seen: set[str] = set()
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
                logger.warning("quarantined input %s (%s)", log_ref(item.path), item.reason)
                continue
            if item.id in seen:  # 'a.txt' and 'a.pdf' both give 'a': the first one wins
                summary.quarantined += 1
                _refuse(item, DUPLICATE_ID, summary, rejected)
                continue
            seen.add(item.id)
            if item.id in done:
                summary.skipped_done += 1
                continue
            try:
                record = process(item)
            except Exception as exc:  # one document must never stop the batch
                summary.failed += 1
                reason = (  # a budget's message is safe (counts, limits) and says what to do
                    str(exc) if isinstance(exc, OverBudget) else f"processing failed: {type(exc).__name__}"
                )
                _refuse(item, reason, summary, rejected)
                logger.error("document %s failed: %s", log_ref(item.id), type(exc).__name__)
                continue
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            summary.processed += 1
            summary.characters += len(item.text)
    if rejected or quarantine_path.exists():  # every run meets every bad input again
        write_jsonl(quarantine_path, rejected)
    os.replace(partial, output)
    summary.seconds = time.perf_counter() - started
    logger.info("batch done: %s", json.dumps(summary.to_dict()))
    return summary


def _refuse(item: Document, reason: str, summary: BatchSummary, rejected: list[dict[str, Any]]) -> None:
    """A readable document that is not in the output: its quarantine row (no text)."""
    summary.reasons[reason] = summary.reasons.get(reason, 0) + 1
    rejected.append({"id": item.id, "path": item.source, "reason": reason, "sha256": text_hash(item.text)})


def output_ids(path: str | Path) -> set[str]:
    return {str(r["id"]) for r in read_jsonl(path)}
