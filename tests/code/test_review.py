"""Saved reviews (deid.sources.reviews): decisions derived from the model's and the reviewer's spans,
the record's checks, and the JSONL store under concurrent saves; on a real decision."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from deid.schema import Span
from deid.sources.reviews import (
    REVIEWS_FILE,
    ReviewError,
    ReviewStore,
    check_review,
    decide,
    new_review,
    read_reviews,
)
from deid.sources.reviews.record import final_spans, parse_spans
from tests.conftest import read_source

DECISION = "decisions/bag/9-azr-115-23.txt.xz"
MODEL_INFO = {"uri": "models:/deid-ner@champion", "name": "deid-ner", "version": "3", "alias": "champion",
              "pipeline_sha256": "ab" * 32}  # fmt: skip


@pytest.fixture(scope="module")
def text() -> str:
    return read_source(DECISION)


def _d(start: int, end: int, label: str, **extra) -> dict:
    return {"start": start, "end": end, "label": label, **extra}


# model span, final spans -> decision (and the final span it led to)
CASES = [
    ("same offsets and label", Span(10, 15, "PERSON"), [Span(10, 15, "PERSON")], "accepted", (10, 15)),
    ("fine label, same coarse type", Span(30, 35, "IBAN"), [Span(30, 35, "ID")], "accepted", (30, 35)),
    ("other label", Span(20, 25, "LOCATION"), [Span(20, 25, "ORGANIZATION")], "relabelled", (20, 25)),
    ("inside a larger span", Span(40, 45, "PERSON"), [Span(38, 47, "PERSON")], "widened", (38, 47)),
    ("widened to the right only", Span(40, 45, "PERSON"), [Span(40, 47, "PERSON")], "widened", (40, 47)),
    ("no final span", Span(50, 55, "PERSON"), [], "rejected", None),
    # must NOT count as accepted or widened
    ("narrowed", Span(40, 45, "PERSON"), [Span(41, 45, "PERSON")], "rejected", None),
    ("overlapping only in part", Span(40, 45, "PERSON"), [Span(43, 50, "PERSON")], "rejected", None),
    ("a span right before it", Span(40, 45, "PERSON"), [Span(30, 40, "PERSON")], "rejected", None),
]


@pytest.mark.parametrize(("name", "model", "final", "kind", "target"), CASES, ids=[c[0] for c in CASES])
def test_decision_of_one_model_span(name, model, final, kind, target) -> None:
    decisions = decide([model], final)
    assert decisions[0]["decision"] == kind
    assert (decisions[0]["final"] and (decisions[0]["final"]["start"], decisions[0]["final"]["end"])) == target
    # every final span no model span led to is an addition
    added = [d["final"] for d in decisions if d["decision"] == "added"]
    assert len(added) == len(final) - (target is not None)


def test_a_review_of_a_real_decision_round_trips_through_the_store(text: str, tmp_path: Path) -> None:
    model = [_d(10, 15, "PERSON", score=0.91, source="model"), _d(20, 25, "LOCATION", score=0.5, source="model"),
             _d(40, 45, "PERSON", score=0.7, source="model"), _d(50, 55, "IBAN", score=1.0, source="deid.iban")]
    final = [_d(10, 15, "PERSON"), _d(20, 25, "ORGANIZATION"), _d(38, 47, "PERSON"), _d(60, 66, "STREET")]
    record = new_review(text, model, final, reviewer="a.richter", model_info=MODEL_INFO, created="2026-01-02T03:04:05+00:00")
    assert [d["decision"] for d in record["decisions"]] == ["accepted", "relabelled", "widened", "rejected", "added"]
    assert record["spans"] == sorted(final, key=lambda s: s["start"]) and record["model"] == MODEL_INFO
    store = ReviewStore(tmp_path / "reviews")
    assert store.save(record) == record["id"]
    (saved,) = list(read_reviews(tmp_path / "reviews"))
    assert saved == record and saved["text"] == text
    # the same review again has the same id; a different one another
    again = new_review(text, model, final, reviewer="a.richter", model_info=MODEL_INFO, created=record["created"])
    other = new_review(text, model, final[:-1], reviewer="a.richter", model_info=MODEL_INFO, created=record["created"])
    assert again["id"] == record["id"] != other["id"]


@pytest.mark.parametrize(
    ("final", "reviewer", "message"),
    [
        ([_d(10, 20, "PERSON"), _d(15, 25, "PERSON")], "x", "overlaps"),
        ([_d(10, 10, "PERSON")], "x", "offsets"),
        ([_d(0, 10**7, "PERSON")], "x", "offsets"),
        ([_d(10, 20, "FOO")], "x", "unknown label.*FOO"),  # the vocabulary: deid.schema.SENSITIVE_LABELS
        ([_d("10", 20, "PERSON")], "x", "offsets"),
        ([_d(10, 20, "PERSON")], "Anna Richter", "reviewer"),
        ([_d(10, 20, "PERSON")], None, "reviewer"),
    ],
)
def test_bad_reviews_are_refused_without_text(text: str, final, reviewer, message: str) -> None:
    with pytest.raises(ReviewError, match=message) as info:
        new_review(text, [], final, reviewer=reviewer, model_info=MODEL_INFO)
    assert text[10:20] not in str(info.value)


def test_a_tampered_record_fails_its_check(text: str) -> None:
    record = new_review(text, [_d(10, 15, "PERSON")], [_d(10, 15, "PERSON")], reviewer="x", model_info=MODEL_INFO)
    check_review(record)
    for change in ({"text": text + " "}, {"decisions": [{**record["decisions"][0], "decision": "rejected"}]},
                   {"spans": []}, {"reviewer": "y"}, {"schema": 3}, {"schema": 1}, {"state": "open"},
                   {"effort": {"seconds": -1, "actions": 0}}, {"open": [_d(10, 15, "PERSON")]}):  # fmt: skip
        with pytest.raises(ReviewError):
            check_review(record | change)


def test_concurrent_saves_give_whole_lines_and_bad_lines_are_reported(text: str, tmp_path: Path) -> None:
    store = ReviewStore(tmp_path)
    records = [new_review(text, [], [_d(i, i + 5, "PERSON")], reviewer=f"r{i}", model_info=MODEL_INFO)
               for i in range(0, 400, 10)]  # fmt: skip
    threads = [threading.Thread(target=store.save, args=(r,)) for r in records]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(tmp_path / REVIEWS_FILE, "a", encoding="utf-8") as fh:
        fh.write("{not json\n" + json.dumps(records[0] | {"sha256": "0" * 64}) + "\n")
    read = list(read_reviews(tmp_path))
    assert sorted(r["id"] for r in read if isinstance(r, dict)) == sorted(r["id"] for r in records)
    errors = [str(r) for r in read if isinstance(r, ReviewError)]
    assert len(errors) == 2 and ":41: not JSON" in errors[0] and ":42:" in errors[1] and "sha256" in errors[1]
    assert text[:40] not in "".join(errors)


def test_spans_from_a_client_are_checked(text: str) -> None:
    assert parse_spans(text, [_d(5, 9, "IBAN", score=1, source="deid.iban")])[0] == Span(5, 9, "IBAN")
    with pytest.raises(ReviewError, match="list"):
        parse_spans(text, {"start": 1})
    with pytest.raises(ReviewError, match="score"):
        parse_spans(text, [_d(5, 9, "ID", score="high")])
    assert final_spans(text, []) == []


def test_a_retried_save_is_stored_once(text: str, tmp_path: Path) -> None:
    """The same review again (same content id, e.g. a save the network retried) is not
    appended a second time, so the store's ids stay unique; another review is."""
    store = ReviewStore(tmp_path)
    record = new_review(text, [], [_d(10, 15, "PERSON")], reviewer="x", model_info=MODEL_INFO)
    other = new_review(text, [], [_d(10, 16, "PERSON")], reviewer="x", model_info=MODEL_INFO,
                       created=record["created"])  # fmt: skip
    assert store.save(record) == store.save(record) == record["id"]
    store.save(other)
    assert [r["id"] for r in read_reviews(tmp_path)] == [record["id"], other["id"]]


@pytest.mark.slow
def test_frozen_holds_saves_back_and_a_limited_read_ends_at_the_snapshot(text: str, tmp_path: Path) -> None:
    """While a retrain versions the store, saves wait; reading the snapshot's size later gives
    exactly the reviews that were versioned, not one saved afterwards."""
    from deid.sources.reviews import frozen, read_records

    store = ReviewStore(tmp_path)
    first = new_review(text, [], [_d(10, 15, "PERSON")], reviewer="x", model_info=MODEL_INFO)
    later = new_review(text, [], [_d(20, 25, "PERSON")], reviewer="x", model_info=MODEL_INFO)
    store.save(first)
    saving = threading.Thread(target=store.save, args=(later,))
    with frozen(tmp_path) as size:
        saving.start()
        saving.join(timeout=1.0)
        assert saving.is_alive(), "a save must wait while the store is frozen"
        assert (tmp_path / REVIEWS_FILE).stat().st_size == size
    saving.join(timeout=30)
    assert not saving.is_alive()
    assert [r["id"] for _, r in read_records(tmp_path, limit=size)] == [first["id"]]
    assert [r["id"] for _, r in read_records(tmp_path)] == [first["id"], later["id"]]
    with frozen(tmp_path / "none") as empty:
        assert empty == 0


def test_open_spans_are_undecided_and_the_state_follows(text: str, tmp_path: Path) -> None:
    """A reviewer who saves with spans still open: they are neither accepted nor rejected,
    the document is in review; an edited span cannot pass as open; a fine label is stored as
    its coarse type; effort and the review it supersedes are kept, as counts and an id."""
    model = [_d(10, 15, "PERSON", score=0.9), _d(20, 25, "IBAN", score=0.4), _d(40, 45, "PERSON", score=0.3)]
    record = new_review(text, model, [_d(10, 15, "PERSON")], reviewer="x", model_info=MODEL_INFO,
                        open_spans=[_d(20, 25, "ID"), _d(40, 45, "PERSON")], effort={"seconds": 42, "actions": 3})
    assert [d["decision"] for d in record["decisions"]] == ["accepted", "open", "open"]
    assert record["state"] == "in_review" and record["open"] == [_d(20, 25, "ID"), _d(40, 45, "PERSON")]
    assert record["effort"] == {"seconds": 42, "actions": 3} and record["supersedes"] is None
    check_review(record)
    untouched = new_review(text, model, [], reviewer="x", model_info=MODEL_INFO, open_spans=model)
    assert untouched["state"] == "open" and untouched["effort"] is None  # not recorded: not zero
    done = new_review(text, model, [_d(10, 15, "PERSON"), _d(20, 25, "IBAN")], reviewer="x", model_info=MODEL_INFO,
                      supersedes=record["id"])  # fmt: skip
    assert done["state"] == "done" and done["spans"][1]["label"] == "ID" and done["supersedes"] == record["id"]
    assert [d["decision"] for d in done["decisions"]] == ["accepted", "accepted", "rejected"]
    with pytest.raises(ReviewError, match="not a span the analysis proposed"):
        new_review(text, model, [], reviewer="x", model_info=MODEL_INFO, open_spans=[_d(10, 16, "PERSON")])
    with pytest.raises(ReviewError, match="overlaps"):
        new_review(text, model, [_d(8, 15, "PERSON")], reviewer="x", model_info=MODEL_INFO, open_spans=[model[0]])
    with pytest.raises(ReviewError, match="effort"):
        new_review(text, model, [], reviewer="x", model_info=MODEL_INFO, effort={"seconds": 1.5})
    with pytest.raises(ReviewError, match="supersedes"):
        new_review(text, model, [], reviewer="x", model_info=MODEL_INFO, supersedes="../etc")
    store = ReviewStore(tmp_path)
    for r in (record, done):
        store.save(r)
    assert [h["id"] for h in store.history(record["sha256"])] == [record["id"], done["id"]]
    assert store.latest()[record["sha256"]]["state"] == "done" and store.get(record["id"]) == record
    assert text[10:15] not in json.dumps(store.history(record["sha256"]))  # summaries hold no text


def test_a_schema_1_record_stays_readable(text: str, tmp_path: Path) -> None:
    """Reviews saved before open spans existed: every span decided, the document done."""
    import hashlib

    v1 = {"schema": 1, "id": "", "sha256": hashlib.sha256(text.encode()).hexdigest(), "text": text,
          "spans": [_d(10, 15, "PERSON")],
          "decisions": [{"decision": "accepted", "model": _d(10, 15, "PERSON", score=0.9), "final": _d(10, 15, "PERSON")},
                        {"decision": "rejected", "model": _d(20, 25, "ID"), "final": None}],
          "reviewer": "x", "model": {k: None for k in ("uri", "name", "version", "alias", "pipeline_sha256")},
          "created": "2025-01-02T03:04:05+00:00"}  # fmt: skip
    from deid.sources.reviews.record import review_id

    v1["id"] = review_id(v1)
    check_review(v1)
    (tmp_path / REVIEWS_FILE).write_text(json.dumps(v1) + "\n", encoding="utf-8")
    store = ReviewStore(tmp_path)
    assert store.records() == [v1] and store.latest()[v1["sha256"]]["state"] == "done"
