"""Saved reviews, read back: ``GET /reviews`` lists them (no text: ids, state, counts, effort),
``GET /reviews/{id}`` gives one whole, with the history of its text (every review of it, in
the order saved), so the page can reopen it and save an edit that ``supersedes`` it."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Query

from deid.sources.reviews import STATES, ReviewStore, summary
from deid.sources.reviews.record import REVIEW_ID


def review_routes(store: ReviewStore, authorized: Any) -> APIRouter:
    router = APIRouter(tags=["reviews"], dependencies=[authorized])

    @router.get("/reviews")
    async def list_reviews(
        state: str | None = Query(None, description=f"Only reviews in this state: {', '.join(STATES)}."),
        latest: bool = Query(False, description="Only the latest review of each text."),
        limit: int = Query(200, ge=1, le=10_000),
    ) -> dict[str, Any]:
        """Saved reviews, newest first: id, the text's sha256 and length, the document's state,
        reviewer, time, the review it supersedes, span and decision counts, effort."""
        if state is not None and state not in STATES:
            raise HTTPException(422, f"state {state!r} is not one of {', '.join(STATES)}")
        records = await asyncio.to_thread(store.records)
        if latest:
            records = list({r["sha256"]: r for r in records}.values())
        rows = [summary(r) for r in reversed(records)]
        rows = [r for r in rows if state is None or r["state"] == state]
        return {"count": len(rows), "reviews": rows[:limit]}

    @router.get("/reviews/{review_id}")
    async def get_review(review_id: str) -> dict[str, Any]:
        """One saved review (with its text) and the history of its text: every review of it,
        oldest first, as in the list."""
        if not REVIEW_ID.fullmatch(review_id):
            raise HTTPException(404, "no such review")
        record = await asyncio.to_thread(store.get, review_id)
        if record is None:
            raise HTTPException(404, "no such review")
        return record | {"history": await asyncio.to_thread(store.history, record["sha256"])}

    return router
