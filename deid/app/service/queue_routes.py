"""The review queue over HTTP (``deid serve --queue``; :mod:`deid.ops.review_queue`):

* ``GET /queue`` lists the documents with their state (``open`` until a review of the text is
  saved, then the latest review's: ``in_review`` or ``done``) and how unsure the analysis was;
  ``order=uncertain`` puts the least certain first (a folder's documents are analysed for it
  once; a batch has its spans already);
* ``GET /queue/{id}`` reads one and answers like ``POST /analyze`` (streamed with progress on
  ``Accept: application/x-ndjson``), plus the item and the latest review of its text, which
  the page reopens instead of the raw analysis;
* ``GET /queue/{id}/file`` gives the file itself, so the page can download it anonymized in its
  own format as it does an upload.

Items are addressed by a hash of their document id; names appear in answers, never in logs.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response

from deid.app.service.analysis import analysis
from deid.app.service.documents import read_upload
from deid.app.service.progress import Reporter, streamed, wants_stream
from deid.app.service.served import ServedModel
from deid.app.service.settings import ServiceSettings
from deid.ops.review_queue import ORDERS, QueueItem, ReviewQueue, least_certain_first, uncertainty
from deid.schema import Span
from deid.sources import formats
from deid.sources.reviews import STATES, ReviewStore
from deid.sources.reviews.record import STATE_OPEN, text_sha256


class QueueState:
    """The queue and what the service learnt about its items: the spans it found (by the
    text's sha256, so a changed file is analysed anew)."""

    def __init__(self, queue: ReviewQueue, store: ReviewStore, served: ServedModel, settings: ServiceSettings) -> None:
        self.queue, self.store, self.served, self.settings = queue, store, served, settings
        self._found: dict[str, tuple[str, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()

    def spans_of(self, item: QueueItem, sha256: str | None) -> list[dict[str, Any]] | None:
        """The item's spans when known for this text: found here, else the batch's."""
        with self._lock:
            found = self._found.get(item.id)
        if found and found[0] == sha256:
            return found[1]
        if item.spans is not None and from_batch(item, sha256):
            return list(item.spans)
        return None

    def entry(self, item: QueueItem, latest: dict[str, dict[str, Any]]) -> dict[str, Any]:
        sha256 = self.queue.sha256(item)
        review = latest.get(sha256) if sha256 else None
        spans = self.spans_of(item, sha256)
        fmt = formats.by_suffix(item.file_name)
        return {"id": item.id, "name": item.name, "format": fmt.name if fmt else None,
                "state": review["state"] if review else STATE_OPEN, "review_id": review["id"] if review else None,
                "uncertainty": uncertainty(spans) if spans is not None else None}  # fmt: skip

    def listing(self, order: str) -> dict[str, Any]:
        latest = self.store.latest()
        if order == "uncertain":  # a folder's documents are analysed once for it
            for item in self.queue.items:
                if self.spans_of(item, self.queue.sha256(item)) is None:
                    self.open_item(item, None)
        items = [self.entry(item, latest) for item in self.queue.items]
        if order == "uncertain":
            items.sort(key=least_certain_first)
        counts = {state: sum(1 for i in items if i["state"] == state) for state in STATES}
        return {"source": self.queue.kind, "order": order, "counts": counts, "items": items}

    def open_item(self, item: QueueItem, reporter: Reporter | None) -> dict[str, Any]:
        """The item read and analysed (the batch's or an earlier analysis' spans when its text
        is unchanged), with its entry and the latest review of its text."""
        if reporter is not None:
            reporter.stage("reading")
        upload = read_upload(item.file_name, self.queue.load(item), max_bytes=self.settings.max_bytes)
        text = upload.doc.text
        sha256 = text_sha256(text)
        self.queue.remember(item, sha256)
        known = self.spans_of(item, sha256)
        spans = None if known is None else [Span.from_dict(s) for s in known]
        deadline = reporter.deadline(self.served.pipeline, text) if reporter is not None and spans is None else None
        out = analysis(self.served, text, upload, deadline, spans)
        if known is None:
            with self._lock:
                self._found[item.id] = (sha256, out["spans"])
        latest = self.store.latest()
        return out | {"item": self.entry(item, latest), "review": latest.get(sha256),
                      "from_batch": known is not None and from_batch(item, sha256)}  # fmt: skip


def from_batch(item: QueueItem, sha256: str | None) -> bool:
    """Whether the batch's spans are for this text: its sha256 is the one the batch recorded
    (the flow's span report keeps a prefix of it)."""
    return bool(item.sha256 and sha256 and sha256.startswith(item.sha256))


def queue_routes(state: QueueState | None, authorized: Any) -> APIRouter:
    router = APIRouter(tags=["queue"], dependencies=[authorized])

    def item_or_404(item_id: str) -> QueueItem:
        item = state.queue.item(item_id) if state is not None else None
        if item is None:
            raise HTTPException(404, "no such queue item" if state is not None else "the service has no queue: "
                                "start it with --queue FOLDER_OR_S3_PREFIX")  # fmt: skip
        return item

    @router.get("/queue")
    async def list_queue(order: str = Query("path", description=f"One of {', '.join(ORDERS)}.")) -> dict[str, Any]:
        """The queue's documents with their state and the analysis' certainty; counts per state."""
        if order not in ORDERS:
            raise HTTPException(422, f"order {order!r} is not one of {', '.join(ORDERS)}")
        if state is None:
            return {"source": None, "order": order, "counts": dict.fromkeys(STATES, 0), "items": []}
        return await asyncio.to_thread(state.listing, order)

    @router.get("/queue/{item_id}")
    async def open_queue_item(item_id: str, request: Request) -> Any:
        """One document of the queue, analysed (or with its batch's spans), as ``POST /analyze``
        answers a file, with its queue entry and the latest review of its text."""
        item = item_or_404(item_id)
        assert state is not None
        if wants_stream(request):
            return streamed(lambda reporter: state.open_item(item, reporter))
        return await asyncio.to_thread(state.open_item, item, None)

    @router.get("/queue/{item_id}/file")
    async def queue_file(item_id: str) -> Response:
        """The document's file as it is (``.xz`` unpacked)."""
        item = item_or_404(item_id)
        assert state is not None
        data = await asyncio.to_thread(state.queue.load, item)
        fmt = formats.by_suffix(item.file_name)
        return Response(data, media_type=fmt.media_type if fmt else "application/octet-stream",
                        headers={"X-Deid-File-Name": _header_name(item.file_name)})  # fmt: skip

    return router


def _header_name(name: str) -> str:
    """A file name for a header (latin-1 only): others percent-encoded."""
    from urllib.parse import quote

    return quote(name, safe=" ._-()")
