"""The gold sets written from scratch (deid.rewrite.gold.markup): their markup is the one source
of truth, each committed JSONL is exactly its parse, and both are scored under ``strict``."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest

from deid.evaluation.profiles import profile_of_file
from deid.rewrite.gold.markup import MarkupError, parse_decision, parse_file
from deid.schema import Document

ROOT = Path(__file__).resolve().parents[2]
# the sealed set (scored, never tuned on) and its dev set (written later, for choosing rules)
SETS = [("bavaria_scratch", 8), ("bavaria_scratch_dev", 476)]


def test_a_decision_in_markup_becomes_text_with_spans_and_keep_spans() -> None:
    doc = parse_decision(
        "d", "Die Klägerin, vertreten durch Rechtsanwalt [[Florian Hemmersbach|P]], klagt vor dem "
        "{{Verwaltungsgericht München|G}} gegen das Landratsamt [[Mühldorf a. Inn|L]].\n", "bavaria_scratch",
    )  # fmt: skip
    assert "[[" not in doc.text and doc.text.endswith("Inn.")
    assert [(doc.text[s.start : s.end], s.label) for s in doc.spans] == [
        ("Florian Hemmersbach", "PERSON"), ("Mühldorf a. Inn", "LOCATION")]  # fmt: skip
    assert [(doc.text[s.start : s.end], s.label) for s in doc.keep] == [("Verwaltungsgericht München", "COURT")]


@pytest.mark.parametrize(("marked", "message"), [
    ("der Zeuge [[Tobias Reichenwallner|Q]]", "unknown type letter 'Q'"),
    ("der Zeuge [[Tobias Reichenwallner]] sagte aus", "not closed or has no type"),
])  # fmt: skip
def test_markup_it_cannot_read_is_a_clear_error(marked: str, message: str) -> None:
    with pytest.raises(MarkupError, match=message):
        parse_decision("d", marked, "bavaria_scratch")


@pytest.mark.parametrize(("name", "count"), SETS)
def test_the_committed_set_is_the_parse_of_its_markup_and_scored_under_strict(name: str, count: int) -> None:
    jsonl = ROOT / f"data/gold/{name}/rewritten.jsonl"
    parsed = parse_file(ROOT / f"data/gold/{name}/decisions.txt", name)
    committed = [Document.from_dict(json.loads(line)) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert [d.to_dict() for d in committed] == [d.to_dict() for d in parsed]
    assert len(parsed) == count and len({d.id for d in parsed}) == count
    for doc in parsed:  # every mark stands on words, no two overlap
        marks = sorted([*doc.spans, *doc.keep])
        assert all(a.end <= b.start for a, b in pairwise(marks))
        assert all(doc.text[s.start : s.end] == doc.text[s.start : s.end].strip() for s in marks)
    assert profile_of_file(jsonl) == "strict"
