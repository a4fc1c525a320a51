"""What keeps ``deid serve``'s memory bounded: how many documents it works on at once, how
many wait, how large one may be, what is given back after each, and JSON bodies parsed
with bounded nesting.

A document request (``/analyze``, ``/anonymize``) holds its upload, the extracted text and
the model's per-token tables until it answers: about a gigabyte for a 300 KB Word file
(890,000 characters, 220,000 tokens). So:

* :class:`DocumentSlots` lets ``concurrency`` such requests run (default one: the analysis
  is serialized anyway, deid.app.service.served) and ``queue`` more wait *before their body
  is read*; any further one is answered 503 at once, with ``Retry-After``. Memory is bounded
  by one document at work plus the bodies of none that wait.
* After each document request, with no other at work, the memory it freed is given back
  to the system (``gc.collect`` and glibc's ``malloc_trim``): without it the process kept
  its peak for good, and two uploads in turn climbed to the sum of both.
* :data:`SERVICE_MAX_TOKENS` caps one document's tokens in the service (the batch's budget
  allows a million): a larger one is refused with 413 and the reason (anonymize it with the
  batch command).
* :func:`parse_json` parses a body with pydantic-core's parser, whose recursion limit turns
  deeply nested JSON into a 400 (Python's json module raised RecursionError: a 500).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import json
import logging
from collections.abc import Iterable
from typing import Any

from fastapi import HTTPException
from pydantic_core import from_json

logger = logging.getLogger(__name__)

SERVICE_MAX_TOKENS = 250_000  # ~1 GB of model tables at work; a 300 KB Word file has 220,000
DOCUMENT_PATHS = ("/analyze", "/anonymize")
RETRY_AFTER = "5"


def parse_json(data: bytes | str) -> Any:
    """A request body as JSON, or :class:`fastapi.HTTPException` 400 saying why (never
    quoting it): not JSON, ``NaN``/``Infinity``, a number out of range, nesting too deep."""
    try:
        return from_json(data, allow_inf_nan=False)
    except ValueError as exc:
        why = str(exc).splitlines()[0].removeprefix("Invalid JSON: ")[:120]
        raise HTTPException(400, f"the body is not JSON ({why}): send application/json or multipart/form-data") from None


def service_overrides(pipeline_config: Any) -> dict[str, int]:
    """The pipeline settings that cap one document's memory in the service."""
    limit = pipeline_config.max_tokens
    return {"max_tokens": SERVICE_MAX_TOKENS} if not limit or limit > SERVICE_MAX_TOKENS else {}


class DocumentSlots:
    """ASGI middleware: at most ``concurrency`` document requests at work, ``queue`` more
    waiting (their bodies unread), 503 beyond; the memory of each is given back after it."""

    def __init__(self, app: Any, concurrency: int = 1, queue: int = 8, paths: Iterable[str] = DOCUMENT_PATHS) -> None:
        self.app, self.queue, self.paths = app, queue, tuple(paths)
        self._slots = asyncio.Semaphore(concurrency)
        self._waiting = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") not in self.paths:
            return await self.app(scope, receive, send)
        if self._waiting >= self.queue and self._slots.locked():
            return await _busy(send, self._waiting)
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            await self.app(scope, receive, send)
        finally:
            await asyncio.to_thread(release_memory)
            self._slots.release()


async def _busy(send: Any, waiting: int) -> None:
    body = json.dumps({"detail": f"busy: {waiting} documents are waiting; try again shortly"}).encode()
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"retry-after", RETRY_AFTER.encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


def release_memory() -> None:
    """Free what the last request left (cycles) and hand freed heap pages back to the
    system (glibc ``malloc_trim``; elsewhere only the collection)."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


_TRIM: list[Any] = []


def _malloc_trim() -> Any:
    if not _TRIM:
        name = ctypes.util.find_library("c")
        libc = ctypes.CDLL(name) if name else None
        _TRIM.append(getattr(libc, "malloc_trim", None))
    return _TRIM[0]
