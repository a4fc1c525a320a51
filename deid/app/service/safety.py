"""What keeps the service within bounds and its logs free of text: ASGI middleware for the
body size limit, the time limit and unexpected errors, and logging filters for uvicorn.

Uvicorn logs the request line (``GET /path?query``) and, for an exception that reaches it,
the message and a traceback; either may carry a document. :class:`ErrorShield` answers such
an error itself (500, logged by type and place), so none reaches uvicorn, and the filters cut
query strings from the access log and withhold the message of any exception still logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from deid.sources.errors import withheld

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyTooLarge(Exception):
    pass


async def _json_response(send: Send, status: int, detail: str, headers: list | None = None) -> None:
    body = json.dumps({"detail": detail}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


class _Tracked:
    """Wraps ``send`` to know whether a response has started."""

    def __init__(self, send: Send) -> None:
        self.send, self.started = send, False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        await self.send(message)


class BodyLimit:
    """413 for a body over ``max_bytes``: at once by its Content-Length, else while it
    streams in (chunked uploads are counted, never buffered beyond the limit)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            return await self._refuse(send)
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                raise BodyTooLarge
            return message

        tracked = _Tracked(send)
        try:
            await self.app(scope, limited, tracked)
        except BodyTooLarge:
            if not tracked.started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        await _json_response(send, 413, f"request body over the limit of {self.max_bytes} bytes")


class TimeLimit:
    """504 when a request (reading its body, waiting for the model, analysing) takes longer
    than ``seconds``; the analysis itself stops at the pipeline's own time budget."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app, self.seconds = app, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.seconds:
            return await self.app(scope, receive, send)
        tracked = _Tracked(send)
        try:
            async with asyncio.timeout(self.seconds):
                await self.app(scope, receive, tracked)
        except TimeoutError:
            logger.warning("%s %s stopped after the time limit of %s s", scope["method"], scope["path"], self.seconds)
            if not tracked.started:
                await _json_response(send, 504, f"request took longer than the limit of {self.seconds:g} s")


class ErrorShield:
    """The outermost guard: an unexpected error becomes a 500 whose body and log line name
    its type and place only; nothing is re-raised to the server, which would log its text."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        tracked = _Tracked(send)
        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:  # noqa: BLE001 - answered here, logged without its message
            reason = withheld(exc)
            logger.error("%s %s failed: %s", scope["method"], scope["path"], reason)
            if not tracked.started:
                await _json_response(send, 500, f"internal error: {reason}")


# --- logging ---------------------------------------------------------------------------------------


class PathOnlyAccessLog(logging.Filter):
    """Uvicorn's access line without the query string: a client may put anything there."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], args[2].split("?", 1)[0], args[3], args[4])
        return True


class WithheldExceptions(logging.Filter):
    """A log record with an exception attached keeps its message, and the exception is
    reduced to its type and place (no message, no traceback lines with values)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            record.msg = f"{record.getMessage()} [{withheld(record.exc_info[1])}]"
            record.args, record.exc_info, record.exc_text = None, None, None
        return True


LOGGERS_WITH_EXCEPTIONS = ("uvicorn.error", "uvicorn.asgi", "uvicorn", "fastapi", "starlette", "deid")


def install_log_filters() -> None:
    """Put the filters on uvicorn's and the app's loggers and on the root logger's handlers
    (a logger's filter sees only its own records, a handler's every record it writes);
    idempotent."""
    _add(logging.getLogger("uvicorn.access"), PathOnlyAccessLog)
    for name in LOGGERS_WITH_EXCEPTIONS:
        _add(logging.getLogger(name), WithheldExceptions)
    for handler in logging.getLogger().handlers:
        _add(handler, PathOnlyAccessLog)
        _add(handler, WithheldExceptions)


def _add(target: logging.Filterer, kind: type[logging.Filter]) -> None:
    if not any(isinstance(f, kind) for f in target.filters):
        target.addFilter(kind())
