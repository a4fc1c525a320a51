"""The saved review record: the reviewed text, its final (gold) spans, and what the reviewer
decided about each span the model proposed.

A record (schema version :data:`REVIEW_SCHEMA`)::

    {"schema": 1, "id", "sha256" (of the text, UTF-8), "text",
     "spans": [{"start", "end", "label"}],             # final gold spans, sorted, disjoint
     "decisions": [{"decision", "model", "final"}],    # one per model span, then the added ones
     "reviewer", "model": {"uri", "name", "version", "alias", "pipeline_sha256"},
     "created"}                                         # ISO 8601, UTC

Decisions are derived from the two span lists (:func:`decide`), never taken from a client,
so a review always agrees with its own spans: a model span whose offsets a final span has
is ``accepted`` (same coarse label) or ``relabelled``; one inside a larger final span is
``widened`` (that span's label may differ too: compare ``model.label`` and ``final.label``);
one that no final span covers is ``rejected``; a final span no model span led to is
``added``. A narrowed span is a rejection plus an addition.

Errors name offsets, counts and field names only, never text.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from deid.schema import LABELS, REVIEWER, Span, coarse_label
from deid.sources.errors import UserError

REVIEW_SCHEMA = 1
ACCEPTED, REJECTED, RELABELLED, WIDENED, ADDED = (
    "accepted", "rejected", "relabelled", "widened", "added"
)  # fmt: skip
DECISIONS: tuple[str, ...] = (ACCEPTED, REJECTED, RELABELLED, WIDENED, ADDED)
MODEL_KEYS = ("uri", "name", "version", "alias", "pipeline_sha256")
MAX_LABEL = 64  # a model span's label (fine recognizer labels such as IBAN are allowed)
MAX_SOURCE = 64


class ReviewError(UserError, ValueError):
    """A review that cannot be saved or read as it is; the message holds no text."""


# --- spans -------------------------------------------------------------------------------------


def final_spans(text: str, items: Any, field: str = "spans") -> list[Span]:
    """The reviewer's final spans: inside the text, non-empty, a coarse label of
    :data:`deid.schema.LABELS`, no two overlapping (gold spans are disjoint)."""
    spans = parse_spans(text, items, field)
    for i, span in enumerate(spans):
        if span.label not in LABELS:
            raise ReviewError(f"{field}: label at {span.start}..{span.end} is not one of {', '.join(LABELS)}")
        if i and spans[i - 1].end > span.start:
            raise ReviewError(f"{field}: {spans[i - 1].start}..{spans[i - 1].end} overlaps {span.start}..{span.end}")
    return spans


def parse_spans(text: str, items: Any, field: str = "model_spans") -> list[Span]:
    """Spans as a client sent them (the analysis' proposals, or spans to anonymize), checked
    against ``text``: integer offsets inside it, a label, an optional score and source."""
    if not isinstance(items, list):
        raise ReviewError(f"{field}: must be a list of spans")
    return sorted(_span(text, item, i, field) for i, item in enumerate(items))


def _span(text: str, item: Mapping[str, Any], index: int, field: str) -> Span:
    where = f"{field}[{index}]"
    if not isinstance(item, Mapping):
        raise ReviewError(f"{where}: not an object")
    start, end, label = item.get("start"), item.get("end"), item.get("label")
    if not (_int(start) and _int(end) and 0 <= start < end <= len(text)):
        raise ReviewError(f"{where}: offsets must be integers with 0 <= start < end <= {len(text)}")
    if not isinstance(label, str) or not 0 < len(label) <= MAX_LABEL:
        raise ReviewError(f"{where}: label must be a non-empty string")
    score, source = item.get("score"), item.get("source")
    if score is not None and not (isinstance(score, (int, float)) and math.isfinite(score)):
        raise ReviewError(f"{where}: score must be a number")
    if source is not None and not (isinstance(source, str) and len(source) <= MAX_SOURCE):
        raise ReviewError(f"{where}: source must be a short string")
    return Span(start, end, label, None if score is None else float(score), source)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(span: Span) -> dict[str, Any]:
    return {"start": span.start, "end": span.end, "label": span.label}


# --- decisions ---------------------------------------------------------------------------------


def decide(model: Sequence[Span], final: Sequence[Span]) -> list[dict[str, Any]]:
    """What the reviewer did with each model span (in offset order), then the spans they
    added; ``final`` must be sorted and disjoint (:func:`final_spans`)."""
    exact = {(f.start, f.end): f for f in final}
    starts = [f.start for f in final]
    used: set[tuple[int, int]] = set()
    out = []
    for span in sorted(model):
        target = exact.get((span.start, span.end))
        if target is not None:
            kind = ACCEPTED if target.label == coarse_label(span.label) else RELABELLED
        else:
            target = _container(final, starts, span)
            kind = WIDENED if target is not None else REJECTED
        if target is not None:
            used.add((target.start, target.end))
        out.append({"decision": kind, "model": span.to_dict(), "final": target and _plain(target)})
    out += [{"decision": ADDED, "model": None, "final": _plain(f)} for f in final if (f.start, f.end) not in used]
    return out


def _container(final: Sequence[Span], starts: list[int], span: Span) -> Span | None:
    """The final span that strictly contains ``span``, if any (final spans are disjoint, so
    only the last one starting at or before it can)."""
    i = bisect.bisect_right(starts, span.start) - 1
    if i >= 0 and final[i].end >= span.end:
        return final[i]
    return None


def decision_counts(decisions: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(DECISIONS, 0)
    for item in decisions:
        counts[item["decision"]] += 1
    return counts


# --- the record --------------------------------------------------------------------------------


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def new_review(
    text: str,
    model: Any,
    final: Any,
    *,
    reviewer: str,
    model_info: Mapping[str, Any],
    created: str | None = None,
) -> dict[str, Any]:
    """A checked review record for ``text``: ``model`` the spans the analysis proposed,
    ``final`` the reviewer's spans (lists of span objects), ``model_info`` which pipeline
    proposed them."""
    if not isinstance(text, str) or not text.strip():
        raise ReviewError("text: a review needs the reviewed text")
    if not isinstance(reviewer, str) or not REVIEWER.fullmatch(reviewer):
        raise ReviewError("reviewer: one word of letters, digits, '.', '_', '@' or '-' (at most 64 characters)")
    proposed, gold = parse_spans(text, model), final_spans(text, final)
    record = {
        "schema": REVIEW_SCHEMA,
        "id": "",
        "sha256": text_sha256(text),
        "text": text,
        "spans": [_plain(s) for s in gold],
        "decisions": decide(proposed, gold),
        "reviewer": reviewer,
        "model": {key: _str_or_none(model_info.get(key)) for key in MODEL_KEYS},
        "created": created or datetime.now(UTC).isoformat(timespec="seconds"),
    }
    record["id"] = review_id(record)
    return record


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def review_id(record: Mapping[str, Any]) -> str:
    """A content id: the same review of the same text by the same reviewer at the same time
    gets the same id (so a retried save is recognisable), any change a new one."""
    keys = ("sha256", "spans", "decisions", "reviewer", "model", "created")
    payload = json.dumps({k: record[k] for k in keys}, sort_keys=True, ensure_ascii=True)
    return hashlib.blake2b(payload.encode("ascii"), digest_size=10).hexdigest()


def check_review(record: Any) -> None:
    """Raise :class:`ReviewError` unless ``record`` is a consistent review: its schema, the
    text's hash, the final spans, and decisions that follow from them."""
    if not isinstance(record, Mapping):
        raise ReviewError("a review is a JSON object")
    missing = [k for k in ("schema", "id", "sha256", "text", "spans", "decisions", "reviewer", "model", "created")
               if k not in record]  # fmt: skip
    if missing:
        raise ReviewError(f"review lacks {', '.join(missing)}")
    if record["schema"] != REVIEW_SCHEMA:
        raise ReviewError(f"review schema {record['schema']!r} is not {REVIEW_SCHEMA}")
    text = record["text"]
    if not isinstance(text, str) or text_sha256(text) != record["sha256"]:
        raise ReviewError(f"review {record['id']}: sha256 does not match its text")
    gold = final_spans(text, record["spans"])
    if not isinstance(record["decisions"], list):
        raise ReviewError(f"review {record['id']}: decisions must be a list")
    proposed = [d.get("model") for d in record["decisions"] if isinstance(d, Mapping) and d.get("model")]
    if decide(parse_spans(text, proposed), gold) != record["decisions"]:
        raise ReviewError(f"review {record['id']}: decisions do not follow from its spans")
    if review_id(record) != record["id"]:
        raise ReviewError(f"review {record['id']}: id does not match its content")
