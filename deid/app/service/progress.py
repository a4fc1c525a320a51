"""An analysis that says how far it got and stops when the reviewer cancels it.

A request that asks for ``Accept: application/x-ndjson`` (``POST /analyze``, ``GET
/queue/{id}``) is answered with JSON lines while it works: ``{"progress": {"stage", "done",
"total", "fraction"}}`` at every checkpoint of the pipeline (each batch of the model's
windows, each step of the chain: the points where its time budget is checked anyway), then
one ``{"result": ...}`` (what the plain JSON answer holds) or ``{"error": {"status",
"detail"}}`` (the status the plain answer would have had). A client that goes away (the
page's Cancel) stops the analysis at its next checkpoint, so the document after it does not
wait behind it. Lines hold stages and counts, never text, until the result.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse

from deid.anonymizer.budget import Deadline
from deid.anonymizer.pipeline import Pipeline
from deid.app.service.errors import detail_of, status_of
from deid.sources.errors import withheld

logger = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"
Send = Callable[[dict[str, Any]], None]


class Cancelled(Exception):
    """The client went away: the analysis stops at its next checkpoint."""


class Progress(Deadline):
    """The pipeline's time budget, which also reports each checkpoint it passes and raises
    :class:`Cancelled` at the first one after the client left. ``total`` is an estimate
    (the model's batches are counted from the text's tokens), so the fraction stays below 1
    until the result is there."""

    def __init__(self, seconds: float, total: int, send: Send, cancelled: threading.Event) -> None:
        super().__init__(seconds)
        self.total, self.done = max(1, total), 0
        self.send, self.cancelled = send, cancelled

    def check(self, after: str) -> None:
        if self.cancelled.is_set():
            raise Cancelled("the analysis was cancelled")
        self.done += 1
        self.send(progress_line("analysing", self.done, max(self.total, self.done + 1)))
        super().check(after)


def progress_line(stage: str, done: int = 0, total: int = 0) -> dict[str, Any]:
    fraction = min(done / total, 0.99) if total else 0.0
    return {"progress": {"stage": stage, "done": done, "total": total, "fraction": round(fraction, 3)}}


class Reporter:
    """What a streamed piece of work gets: stages to report and the deadline to analyse with."""

    def __init__(self, send: Send, cancelled: threading.Event) -> None:
        self.send, self.cancelled = send, cancelled

    def stage(self, name: str) -> None:
        if self.cancelled.is_set():
            raise Cancelled("the analysis was cancelled")
        self.send(progress_line(name))

    def deadline(self, pipeline: Pipeline, text: str) -> Progress:
        """A deadline for analysing ``text`` with ``pipeline`` (its own time budget)."""
        return Progress(pipeline.config.max_seconds, checkpoints(pipeline, text), self.send, self.cancelled)


def checkpoints(pipeline: Pipeline, text: str) -> int:
    """How many times the pipeline will check its deadline on ``text``: its chain's steps,
    plus the model's batches of windows (from the text's tokens; 0 when it has no model or
    the estimate fails)."""
    return len(pipeline.chain.steps) + _model_batches(pipeline, text)


def _model_batches(pipeline: Pipeline, text: str) -> int:
    classifier = pipeline.classifier
    if not pipeline.config.use_model or classifier is None:
        return 0
    try:
        cfg, tokenizer = classifier.config, classifier.tokenizer
        length = min(cfg.max_length, int(getattr(tokenizer, "model_max_length", cfg.max_length) or cfg.max_length))
        stride = min(cfg.stride, max(1, (length - 2) // 2))
        tokens = len(tokenizer(text, add_special_tokens=False)["input_ids"])
        windows = 1 + math.ceil(max(0, tokens - (length - 2)) / max(1, length - 2 - stride))
        return math.ceil(windows / cfg.batch_size)
    except Exception:  # noqa: BLE001 - an estimate only: progress by the chain's steps then
        return 0


def wants_stream(request: Request) -> bool:
    return NDJSON in request.headers.get("accept", "")


def streamed(work: Callable[[Reporter], dict[str, Any]]) -> StreamingResponse:
    """Run ``work`` in a thread and answer its progress, then its result, as JSON lines."""
    return StreamingResponse(_lines(work), media_type=NDJSON, headers={"Cache-Control": "no-store"})


async def _lines(work: Callable[[Reporter], dict[str, Any]]) -> AsyncIterator[bytes]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    cancelled = threading.Event()

    def send(line: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, line)

    task = asyncio.ensure_future(asyncio.to_thread(work, Reporter(send, cancelled)))
    task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: never logged by asyncio
    try:
        yield _encode(progress_line("starting"))
        while True:
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
            if getter.done():
                yield _encode(getter.result())
                continue
            getter.cancel()
            break
        while not queue.empty():
            yield _encode(queue.get_nowait())
        yield _encode({"result": task.result()})
    except Exception as exc:  # noqa: BLE001 - the response has begun: the error is a line of it
        yield _encode({"error": _error(exc)})
    finally:
        cancelled.set()  # the client left, or the work is over: either way no more checkpoints


def _error(exc: Exception) -> dict[str, Any]:
    status = status_of(exc)
    if status is None:
        reason = withheld(exc)
        logger.error("streamed analysis failed: %s", reason)
        return {"status": 500, "detail": f"internal error: {reason}"}
    return {"status": status, "detail": detail_of(exc)}


def _encode(line: dict[str, Any]) -> bytes:
    return (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
