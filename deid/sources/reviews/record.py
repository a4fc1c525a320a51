"""The saved review record: the reviewed text, its final (gold) spans, and what the reviewer
decided about each span the model proposed.

A record (schema version :data:`REVIEW_SCHEMA`)::

    {"schema": 2, "id", "sha256" (of the text, UTF-8), "text",
     "spans": [{"start", "end", "label"}],             # final spans a person decided, sorted, disjoint
     "open": [{"start", "end", "label"}],              # proposed spans nobody decided yet
     "decisions": [{"decision", "model", "final"}],    # one per model span, then the added ones
     "state": "open" | "in_review" | "done",           # the document's state, from the decisions
     "effort": {"seconds", "actions"} | null,          # counts only; null: not recorded
     "supersedes": id | null,                          # the review this one edits (history kept)
     "reviewer", "model": {"uri", "name", "version", "alias", "pipeline_sha256"},
     "created"}                                         # ISO 8601, UTC

Decisions are derived from the span lists (:func:`decide`), never taken from a client,
so a review always agrees with its own spans: a model span left ``open`` is one the reviewer
has not decided (it counts as neither accepted nor rejected); one whose offsets a final span
has is ``accepted`` (same coarse label) or ``relabelled``; one inside a larger final span is
``widened`` (that span's label may differ too: compare ``model.label`` and ``final.label``);
one that no final span covers is ``rejected``; a final span no model span led to is
``added``. A narrowed span is a rejection plus an addition. The state follows: ``done`` when
no span is open, ``open`` when nothing was decided, else ``in_review``.

Schema 1 records (before open spans, state, effort and history) stay readable: every span
of theirs counts as decided and their state is ``done``.

Errors name offsets, counts, field names and labels only, never text.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from deid.schema import LABELS, PROFILES, REVIEWER, SENSITIVE_LABELS, Span, coarse_label, unknown_labels
from deid.sources.errors import UserError

REVIEW_SCHEMA = 2
SCHEMAS = (1, 2)  # 1: every span decided, state done, no effort or history
ACCEPTED, REJECTED, RELABELLED, WIDENED, ADDED, OPEN = (
    "accepted", "rejected", "relabelled", "widened", "added", "open"
)  # fmt: skip
DECIDED: tuple[str, ...] = (ACCEPTED, REJECTED, RELABELLED, WIDENED)  # what a person did with a model span
DECISIONS: tuple[str, ...] = (*DECIDED, ADDED, OPEN)
STATE_OPEN, STATE_IN_REVIEW, STATE_DONE = "open", "in_review", "done"
STATES: tuple[str, ...] = (STATE_OPEN, STATE_IN_REVIEW, STATE_DONE)
EFFORT_KEYS = ("seconds", "actions")
MAX_EFFORT = 10**7  # seconds or actions: beyond any working day, a client's mistake
MODEL_KEYS = ("uri", "name", "version", "alias", "pipeline_sha256")
MAX_LABEL = 64  # a model span's label (fine recognizer labels such as IBAN are allowed)
MAX_SOURCE = 64
REVIEW_ID = re.compile(r"[0-9a-f]{20}")


class ReviewError(UserError, ValueError):
    """A review that cannot be saved or read as it is; the message holds no text."""


# --- spans -------------------------------------------------------------------------------------


def final_spans(text: str, items: Any, field: str = "spans") -> list[Span]:
    """The reviewer's final spans: inside the text, non-empty, a label of the vocabulary
    (:data:`deid.schema.SENSITIVE_LABELS`, stored as its coarse type: gold spans carry
    :data:`deid.schema.LABELS`), no two overlapping (gold spans are disjoint)."""
    spans = [s.with_label(coarse_label(s.label)) for s in known_spans(text, items, field)]
    _check_disjoint(spans, field)
    return spans


def known_spans(text: str, items: Any, field: str) -> list[Span]:
    """:func:`parse_spans`, refusing labels outside the vocabulary with a message naming them."""
    spans = parse_spans(text, items, field)
    unknown = unknown_labels(s.label for s in spans)
    if unknown:
        raise ReviewError(f"{field}: unknown label(s) {', '.join(unknown)}: use one of {', '.join(LABELS)} "
                          f"(or a recognizer's label: {', '.join(sorted(SENSITIVE_LABELS - set(LABELS)))})")
    return spans


def _check_disjoint(spans: Sequence[Span], field: str) -> None:
    for i in range(1, len(spans)):
        if spans[i - 1].end > spans[i].start:
            raise ReviewError(f"{field}: {spans[i - 1].start}..{spans[i - 1].end} overlaps {spans[i].start}..{spans[i].end}")


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


def decide(model: Sequence[Span], final: Sequence[Span], open_spans: Sequence[Span] = ()) -> list[dict[str, Any]]:
    """What the reviewer did with each model span (in offset order), then the spans they
    added; ``final`` must be sorted and disjoint (:func:`final_spans`); a model span at the
    offsets of one of ``open_spans`` is ``open``: nobody decided it."""
    exact = {(f.start, f.end): f for f in final}
    undecided = {(o.start, o.end) for o in open_spans}
    starts = [f.start for f in final]
    used: set[tuple[int, int]] = set()
    out = []
    for span in sorted(model):
        if (span.start, span.end) in undecided:
            out.append({"decision": OPEN, "model": span.to_dict(), "final": None})
            continue
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


def document_state(decisions: Sequence[Mapping[str, Any]]) -> str:
    """``done`` when no span is left open, ``open`` when nobody decided anything (every model
    span open, none added), else ``in_review``."""
    kinds = [d["decision"] for d in decisions]
    if OPEN not in kinds:
        return STATE_DONE
    return STATE_OPEN if all(k == OPEN for k in kinds) else STATE_IN_REVIEW


def undecided_spans(text: str, items: Any, proposed: Sequence[Span], gold: Sequence[Span]) -> list[Span]:
    """The spans the reviewer left open: each one the analysis proposed, unchanged (its
    offsets and coarse type), none overlapping another or a final span."""
    spans = [s.with_label(coarse_label(s.label)) for s in known_spans(text, [] if items is None else items, OPEN)]
    offered = {(p.start, p.end, coarse_label(p.label)) for p in proposed}
    for span in spans:
        if (span.start, span.end, span.label) not in offered:
            raise ReviewError(f"open: {span.start}..{span.end} is not a span the analysis proposed (an edited span is decided)")
    _check_disjoint(sorted([*spans, *gold]), "open and spans")
    return spans


def record_effort(value: Any) -> dict[str, int]:
    """``{"seconds", "actions"}``: whole non-negative counts (a missing one is 0). A review
    saved without it (through the API) stores null: not recorded, not zero."""
    if not isinstance(value, Mapping) or set(value) - set(EFFORT_KEYS):
        raise ReviewError(f"effort: an object with {' and '.join(EFFORT_KEYS)} only")
    out = {}
    for key in EFFORT_KEYS:
        number = value.get(key, 0)
        if not (_int(number) and 0 <= number <= MAX_EFFORT):
            raise ReviewError(f"effort.{key}: a whole number from 0 to {MAX_EFFORT}")
        out[key] = number
    return out


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
    open_spans: Any = None,
    effort: Any = None,
    supersedes: Any = None,
    profile: str | None = None,
) -> dict[str, Any]:
    """A checked review record for ``text``: ``model`` the spans the analysis proposed,
    ``final`` the spans the reviewer decided, ``open_spans`` those left undecided (lists of span
    objects), ``model_info`` which pipeline proposed them, ``effort`` seconds and actions,
    ``supersedes`` the id of the review this one edits, ``profile`` the anonymization profile
    the review was made under (strict | federal; deid.anonymizer.profiles)."""
    if not isinstance(text, str) or not text.strip():
        raise ReviewError("text: a review needs the reviewed text")
    if not isinstance(reviewer, str) or not REVIEWER.fullmatch(reviewer):
        raise ReviewError("reviewer: one word of letters, digits, '.', '_', '@' or '-' (at most 64 characters)")
    if supersedes is not None and not (isinstance(supersedes, str) and REVIEW_ID.fullmatch(supersedes)):
        raise ReviewError("supersedes: the id of a saved review (20 hex digits) or null")
    if profile is not None and profile not in PROFILES:
        raise ReviewError(f"profile: one of {', '.join(PROFILES)} or null")
    proposed, gold = parse_spans(text, model), final_spans(text, final)
    undecided = undecided_spans(text, open_spans, proposed, gold)
    decisions = decide(proposed, gold, undecided)
    record = {
        "schema": REVIEW_SCHEMA,
        "id": "",
        "sha256": text_sha256(text),
        "text": text,
        "spans": [_plain(s) for s in gold],
        "open": [_plain(s) for s in undecided],
        "decisions": decisions,
        "state": document_state(decisions),
        "effort": None if effort is None else record_effort(effort),
        "supersedes": supersedes,
        "profile": profile,
        "reviewer": reviewer,
        "model": {key: _str_or_none(model_info.get(key)) for key in MODEL_KEYS},
        "created": created or datetime.now(UTC).isoformat(timespec="seconds"),
    }
    record["id"] = review_id(record)
    return record


def review_state(record: Mapping[str, Any]) -> str:
    """A checked record's document state (schema 1: ``done``)."""
    return str(record.get("state", STATE_DONE))


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def review_id(record: Mapping[str, Any]) -> str:
    """A content id: the same review of the same text by the same reviewer at the same time
    gets the same id (so a retried save is recognisable), any change a new one."""
    keys = ("sha256", "spans", "decisions", "reviewer", "model", "created")
    if record.get("schema", 1) >= 2:
        keys += V2_KEYS
    payload = json.dumps({k: record[k] for k in keys}, sort_keys=True, ensure_ascii=True)
    return hashlib.blake2b(payload.encode("ascii"), digest_size=10).hexdigest()


V1_KEYS = ("schema", "id", "sha256", "text", "spans", "decisions", "reviewer", "model", "created")
V2_KEYS = ("open", "state", "effort", "supersedes")


def check_review(record: Any) -> None:
    """Raise :class:`ReviewError` unless ``record`` is a consistent review: its schema, the
    text's hash, the final and open spans, decisions and state that follow from them."""
    if not isinstance(record, Mapping):
        raise ReviewError("a review is a JSON object")
    if record.get("schema") not in SCHEMAS:
        raise ReviewError(f"review schema {record.get('schema')!r} is not one of {', '.join(map(str, SCHEMAS))}")
    missing = [k for k in (V1_KEYS if record["schema"] == 1 else V1_KEYS + V2_KEYS) if k not in record]
    if missing:
        raise ReviewError(f"review lacks {', '.join(missing)}")
    text = record["text"]
    if not isinstance(text, str) or text_sha256(text) != record["sha256"]:
        raise ReviewError(f"review {record['id']}: sha256 does not match its text")
    gold = final_spans(text, record["spans"])
    if not isinstance(record["decisions"], list):
        raise ReviewError(f"review {record['id']}: decisions must be a list")
    proposed = [d.get("model") for d in record["decisions"] if isinstance(d, Mapping) and d.get("model")]
    parsed = parse_spans(text, proposed)
    undecided = undecided_spans(text, record.get("open"), parsed, gold)
    decisions = decide(parsed, gold, undecided)
    if decisions != record["decisions"]:
        raise ReviewError(f"review {record['id']}: decisions do not follow from its spans")
    if record["schema"] >= 2:
        if record["state"] != document_state(decisions):
            raise ReviewError(f"review {record['id']}: state {record['state']!r} does not follow from its decisions")
        if record["effort"] is not None:
            record_effort(record["effort"])
        if record["supersedes"] is not None and not (isinstance(record["supersedes"], str)
                                                     and REVIEW_ID.fullmatch(record["supersedes"])):  # fmt: skip
            raise ReviewError(f"review {record['id']}: supersedes must be a review id or null")
    if review_id(record) != record["id"]:
        raise ReviewError(f"review {record['id']}: id does not match its content")
