"""The schema of a document record (a line of an input JSONL file), checked before anything
uses it (pydantic): a bad record is one reason, never an exception that stops a batch.

Parsed by pydantic's own JSON parser, which bounds what a hostile line can do: nesting
deeper than its recursion limit (about 200), a number out of range (a 5,000-digit integer)
and ``Infinity``/``NaN`` are refused as "not valid JSON"; sizes are bounded here (ids,
labels, sources, span counts, the ``meta`` mapping); offsets are integers (``3.0`` is not
one) with ``0 <= start <= end <= len(text)``; a score is a finite number in [0, 1].

The reason names the field and the rule, never the value: pydantic's messages hold no input,
and its errors are read without their ``input``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)
from pydantic_core import from_json

from deid.sources.io import DEFAULT_MAX_BYTES

MAX_ID = 1024  # characters of a document id (it names a file)
MAX_LABEL = 64
MAX_NAME = 4096  # a court, a source path
MAX_SPANS = 1_000_000  # spans of one kind in one record
MAX_META_ITEMS = 1000  # keys and values in ``meta``, all levels together
MAX_META_DEPTH = 8
MAX_META_STRING = 65_536

Offset = Annotated[StrictInt, Field(ge=0, le=DEFAULT_MAX_BYTES)]


class SpanRecord(BaseModel):
    """A span as a record gives it: integer offsets, a label, optionally score and source."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, frozen=True)

    start: Offset
    end: Offset
    label: Annotated[StrictStr, Field(min_length=1, max_length=MAX_LABEL)]
    score: Annotated[float, Field(ge=0.0, le=1.0)] | None = None
    source: Annotated[StrictStr, Field(max_length=MAX_NAME)] | None = None


Spans = Annotated[list[SpanRecord], Field(max_length=MAX_SPANS)] | None


class DocumentRecord(BaseModel):
    """One input record (docs/data-contract.md)."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    id: Annotated[StrictStr, Field(min_length=1, max_length=MAX_ID)] | Annotated[StrictInt, Field(ge=-(2**63), lt=2**63)]
    text: Annotated[StrictStr, Field(max_length=DEFAULT_MAX_BYTES)]
    court: Annotated[StrictStr, Field(max_length=MAX_NAME)] | None = None
    source: Annotated[StrictStr, Field(max_length=MAX_NAME)] | None = None
    meta: dict[str, Any] | None = None
    entities: Spans = None
    spans: Spans = None
    keep: Spans = None

    @model_validator(mode="after")
    def _inside(self) -> DocumentRecord:
        for name in ("entities", "spans", "keep"):
            for span in getattr(self, name) or ():
                if span.start > span.end:
                    raise ValueError(f"bad '{name}': a span starts after its end")
                if span.end > len(self.text):
                    raise ValueError(f"bad '{name}': a span ends beyond the end of the text")
        _check_meta(self.meta or {})
        return self


def _check_meta(meta: dict[str, Any]) -> None:
    """``meta`` is free-form JSON, bounded: depth, number of items, length of each string."""
    items, stack = 0, [(meta, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_META_DEPTH:
            raise ValueError(f"bad 'meta': nested deeper than {MAX_META_DEPTH} levels")
        children = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        for key, child in children:
            items += 1
            if items > MAX_META_ITEMS:
                raise ValueError(f"bad 'meta': more than {MAX_META_ITEMS} items")
            if any(isinstance(s, str) and len(s) > MAX_META_STRING for s in (key, child)):
                raise ValueError(f"bad 'meta': a string longer than {MAX_META_STRING} characters")
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))


def parse_record(line: bytes | str) -> tuple[dict[str, Any] | None, str | None]:
    """A JSONL line as a valid record (a dict for ``Document.from_dict``), or None and the
    reason; never raises for any input."""
    try:
        record = DocumentRecord.model_validate_json(line)
    except ValidationError as exc:
        return None, _reason(exc)
    out = record.model_dump(exclude_none=True)
    out["id"] = str(out["id"])
    return out, None


def record_id(line: bytes | str) -> Any:
    """The ``id`` of a line that failed :func:`parse_record`, if it is JSON with one, for the
    quarantine row; else None. The bounded parser first; Python's (which takes a lone
    surrogate) only for what that refused, its recursion and number limits caught."""
    try:
        value = from_json(line, allow_inf_nan=True)
    except ValueError:
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            return None
    return value.get("id") if isinstance(value, dict) else None


def _reason(exc: ValidationError) -> str:
    """The first error as an operator reads it: where and which rule, no value."""
    errors = exc.errors(include_input=False, include_url=False, include_context=False)
    first = errors[0]
    loc, kind, msg = first.get("loc") or (), first.get("type", ""), str(first.get("msg", ""))
    if kind == "json_invalid":
        return f"not valid JSON ({msg.removeprefix('Invalid JSON: ')[:200]})"
    if not loc and kind == "model_type":
        return "not a JSON object"
    if kind == "missing" and loc and loc[0] in ("id", "text"):
        return "a document needs 'id' and 'text'"
    if kind == "value_error":
        return msg.removeprefix("Value error, ")[:200]
    where = ".".join(str(part) for part in loc if not str(part).startswith(("constrained-", "function-")))
    return f"bad '{where}': {msg[:200]}"
