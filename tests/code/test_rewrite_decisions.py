"""deid.rewrite.gold.decisions and .store: the decisions file and the pure rewrite from it."""

from __future__ import annotations

import json

import pytest

from deid.rewrite.gold.decisions import (
    DONE,
    NOT_PLACEHOLDER,
    PLACEHOLDER,
    Correction,
    Decision,
    DecisionBook,
    DocDecisions,
    DocumentRecord,
    apply_decisions,
    gold_placeholders,
    manual_id,
)
from deid.rewrite.gold.store import ConflictError, DecisionStore
from deid.schema import Document, Span
from deid.sources.inputs import iter_input
from deid.sources.io import InputError, read_jsonl, text_hash
from deid.sources.textedit import OverlapError
from tests.conftest import SOURCES

DOC_FILE = SOURCES / "decisions" / "bavaria" / "Y-300-Z-BECKRS-B-2023-N-47357.txt.xz"


@pytest.fixture(scope="module")
def doc() -> Document:
    return next(iter(iter_input(DOC_FILE)))


def _at(doc: Document, needle: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = doc.text.index(needle, start + 1)
    return start, start + len(needle)


@pytest.fixture
def decided(doc) -> DocDecisions:
    """A lawyer's placeholder, a place, a rejected element and a spacing correction."""
    lawyer = _at(doc, "…", 0)
    airport = _at(doc, "Flughafen M.")
    airport = (airport[1] - 2, airport[1])
    register = _at(doc, "V ZB 69/18")
    fix = _at(doc, "Verfahrenskostenhilfe bewilligt")
    fix = (fix[0], fix[0] + len("Verfahrenskostenhilfe"))
    value = DocDecisions(doc.id, DocumentRecord(text_hash(doc.text), DONE, 13, "eval"))
    value = value.with_decision(Decision(*lawyer, PLACEHOLDER, "PERSON", "Dr. Kunibert Lanz", True))
    value = value.with_decision(Decision(*airport, PLACEHOLDER, "LOCATION", "Memmingen", True))
    value = value.with_decision(Decision(register[0], register[0] + 1, NOT_PLACEHOLDER))
    return value.with_correction(Correction(fix[0], fix[1], "Verfahrens-Kostenhilfe"))


def test_apply_replaces_placeholders_and_applies_corrections(doc, decided):
    out = apply_decisions(doc, decided)
    assert out.id == manual_id(doc.id) == f"{doc.id}.manual"
    assert [out.text[s.start : s.end] for s in out.spans] == ["Dr. Kunibert Lanz", "Memmingen"]
    assert [s.label for s in out.spans] == ["PERSON", "LOCATION"]
    assert "Rechtsanwalt Dr. Kunibert Lanz wird" in out.text
    assert "über den Flughafen Memmingen nach Rumänien" in out.text
    assert "Verfahrens-Kostenhilfe bewilligt" in out.text
    assert out.meta == {
        "rewrite": "manual",
        "source_id": doc.id,
        "source_hash": text_hash(doc.text),
        "status": DONE,
        "seed": 13,
        "surrogate_pool": "eval",
        "placeholders": 2,
        "corrections": 1,
    }


def test_apply_is_pure(doc, decided):
    assert apply_decisions(doc, decided).to_dict() == apply_decisions(doc, decided).to_dict()


def test_apply_refuses_another_text(doc, decided):
    changed = Document(id=doc.id, text=doc.text + " ", court=doc.court)
    with pytest.raises(ValueError, match="different text"):
        apply_decisions(changed, decided)


def test_apply_refuses_a_correction_inside_a_placeholder(doc, decided):
    lawyer = decided.placeholders[0]
    broken = DocDecisions(
        doc.id, decided.document, decided.decisions, (Correction(lawyer.start, lawyer.end, "x"),)
    )
    with pytest.raises(OverlapError):
        apply_decisions(doc, broken)


def test_keep_spans_of_the_source_are_shifted(doc, decided):
    start, end = _at(doc, "Bundespolizeidirektion")
    source = Document(id=doc.id, text=doc.text, keep=[Span(start, end, "PUBLIC_ENTITY")])
    out = apply_decisions(source, decided)
    assert [out.text[k.start : k.end] for k in out.keep] == ["Bundespolizeidirektion"]


def test_records_round_trip(decided):
    book = DecisionBook({decided.doc_id: decided})
    records = list(book.records())
    assert [r["record"] for r in records] == [
        "document",
        "decision",
        "decision",
        "decision",
        "correction",
    ]
    assert DecisionBook.from_records(json.loads(json.dumps(records))).docs == book.docs
    placeholder = records[1]
    assert set(placeholder) == {
        "record",
        "doc_id",
        "start",
        "end",
        "decision",
        "label",
        "surrogate",
        "suggested",
    }


def test_gold_placeholders_are_in_original_offsets(doc, decided):
    gold = gold_placeholders(decided)
    assert [doc.text[s.start : s.end] for s in gold] == ["…", "M."]


def test_a_new_decision_replaces_what_it_overlaps(doc, decided):
    lawyer = decided.placeholders[0]
    merged = decided.with_decision(
        Decision(lawyer.start - 13, lawyer.end, PLACEHOLDER, "PERSON", "Anwalt Lanz")
    )
    assert len(merged.placeholders) == 2
    assert merged.placeholders[0].start == lawyer.start - 13


@pytest.mark.parametrize(
    "record",
    [
        {"record": "decision", "doc_id": "d", "start": 1, "end": 2, "decision": "maybe"},
        {
            "record": "decision",
            "doc_id": "d",
            "start": 1,
            "end": 2,
            "decision": "placeholder",
            "label": "PERSON",
        },
        {
            "record": "decision",
            "doc_id": "d",
            "start": 1,
            "end": 2,
            "decision": "placeholder",
            "label": "NAME",
            "surrogate": "x",
        },
        {"record": "decision", "doc_id": "d", "start": 3, "end": 2, "decision": "not_placeholder"},
        {"record": "document", "doc_id": "d", "text_hash": "h", "status": "half"},
        {"record": "comment", "doc_id": "d"},
        {"record": "decision", "start": 1, "end": 2, "decision": "not_placeholder"},
    ],
)
def test_bad_records_are_refused_without_content(record):
    with pytest.raises(InputError, match="decisions record 1"):
        DecisionBook.from_records([record])


def test_overlapping_records_are_refused():
    rec = {"record": "decision", "doc_id": "d", "start": 1, "end": 4, "decision": "not_placeholder"}
    with pytest.raises(InputError, match="record 2"):
        DecisionBook.from_records([rec, dict(rec, start=2)])


def test_store_saves_atomically_and_sorted(tmp_path, decided):
    store = DecisionStore(tmp_path / "gold" / "decisions.jsonl")
    assert store.load().docs == {}
    other = DocDecisions("A-first", DocumentRecord("h"))
    store.save(DecisionBook({decided.doc_id: decided, "A-first": other}))
    rows = list(read_jsonl(store.path))
    assert rows[0]["doc_id"] == "A-first" and len(rows) == 6
    assert not [p for p in store.path.parent.iterdir() if p.name.endswith(".tmp")]
    assert DecisionStore(store.path).load().docs[decided.doc_id] == decided


def test_store_never_overwrites_someone_elses_changes(tmp_path, decided):
    path = tmp_path / "decisions.jsonl"
    mine, theirs = DecisionStore(path), DecisionStore(path)
    mine.load()
    theirs.load()
    theirs.save(DecisionBook({decided.doc_id: decided}))
    before = path.read_bytes()
    with pytest.raises(ConflictError, match="conflict"):
        mine.save(DecisionBook())
    assert path.read_bytes() == before
    assert list(tmp_path.glob("decisions.jsonl.conflict-*"))
