"""One analysis as the service answers it: the spans with their coarse type, the text's
sha256 and lineage, and for an uploaded file its extracted text and what it was.

``POST /analyze`` and ``GET /queue/{id}`` answer with it, as one JSON object or as the last
line of a streamed answer (:mod:`deid.app.service.progress`)."""

from __future__ import annotations

import logging
from typing import Any

from deid.anonymizer.budget import Deadline
from deid.app.service.documents import Upload, describe
from deid.app.service.served import ServedModel
from deid.schema import Span, coarse_label
from deid.sources.reviews.record import text_sha256

logger = logging.getLogger(__name__)


def span_out(span: Span) -> dict[str, Any]:
    return span.to_dict() | {"type": coarse_label(span.label)}


def analysis(
    served: ServedModel, text: str, upload: Upload | None, deadline: Deadline | None = None,
    spans: list[Span] | None = None, profile: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The answer for ``text`` (from ``upload`` when a file was sent): ``spans`` when they
    are known already (a batch's), else the served pipeline's (with ``deadline``, under the
    anonymization ``profile``, default the pipeline's)."""
    found = served.analyze(text, deadline, profile) if spans is None else spans
    out = {"sha256": text_sha256(text), "characters": len(text), "spans": [span_out(s) for s in found],
           "profile": profile or served.profile, "lineage": served.lineage_for(text, profile)}  # fmt: skip
    if upload is not None:
        out |= {"document": describe(upload), "text": text}
    logger.info("analyze %s: %d characters, %d spans", out["sha256"][:12], len(text), len(found))
    return out
