"""deid.chunks: planning skips done documents and quarantines unreadable inputs, chunk
results merge into results + span report + quarantine, a re-run resumes, and the span report
carries no text. Documents are real bundled decisions; processing is a stand-in that marks
one fixed span, so the test is about bookkeeping, not models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deid import chunks
from deid.batch import run_batch
from deid.io import read_jsonl
from deid.schema import Document
from tests.conftest import read_source

DECISIONS = ("decisions/bag/1-azr-62-23.txt.xz", "decisions/bag/1-azr-74-23.txt.xz",
             "decisions/bag/9-azr-115-23.txt.xz")  # fmt: skip


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    for rel in DECISIONS:
        (folder / Path(rel).name.removesuffix(".xz")).write_text(read_source(rel), encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "scan.txt").write_bytes(bytes(range(256)) * 4)
    return folder


def process(doc: Document) -> dict:
    if doc.id == "1-azr-74-23" and process.fail:
        raise RuntimeError("model crashed")
    record = {
        "id": doc.id,
        "text": "[PERSON]" + doc.text[10:],
        "spans": [{"start": 0, "end": 10, "label": "PERSON"}],
    }
    return chunks.output_record(doc, record)


process.fail = False


def run_all(inbox: Path, work: Path, out: Path) -> tuple[chunks.Plan, chunks.RunOutputs]:
    plan = chunks.plan_chunks(inbox, work, 2, location="s3://in/box")
    for chunk in plan.chunks:
        results, quarantine = chunks.chunk_paths(chunk, work)
        run_batch(chunk, results, process, quarantine=quarantine, show_progress=False)
    return plan, chunks.write_outputs(work, out, plan.rejected)


def test_plan_quarantines_unreadable_inputs_with_their_location(
    inbox: Path, tmp_path: Path
) -> None:
    plan = chunks.plan_chunks(inbox, tmp_path / "work", 2, location="s3://in/box")
    assert (plan.documents, plan.already_done, len(plan.chunks)) == (3, 0, 2)
    assert {r["input"]: r["reason"] for r in plan.rejected} == {
        "s3://in/box/empty.txt": "empty file",
        "s3://in/box/scan.txt": "binary content (NUL bytes)",
    }


def test_outputs_and_span_report_without_text(inbox: Path, tmp_path: Path) -> None:
    _, outputs = run_all(inbox, tmp_path / "work", tmp_path / "out")
    assert (outputs.documents, outputs.quarantined, outputs.spans) == (3, 2, 3)
    assert outputs.labels == {"PERSON": 3}
    spans = list(read_jsonl(tmp_path / "out" / chunks.SPANS))
    assert [set(r) for r in spans] == [{"id", "sha256", "characters", "spans", "counts"}] * 3
    texts = {Path(r).name.removesuffix(".txt.xz"): read_source(r) for r in DECISIONS}
    assert {r["id"]: r["characters"] for r in spans} == {k: len(v) for k, v in texts.items()}
    assert all(
        r["text"].startswith("[PERSON]") for r in read_jsonl(tmp_path / "out" / chunks.RESULTS)
    )
    summary = json.loads((tmp_path / "out" / chunks.SUMMARY).read_text())
    assert summary["reasons"] == {"binary content (NUL bytes)": 1, "empty file": 1}


def test_failed_document_is_quarantined_then_redone_on_the_next_run(
    inbox: Path, tmp_path: Path
) -> None:
    work, out = tmp_path / "work", tmp_path / "out"
    process.fail = True
    try:
        _, outputs = run_all(inbox, work, out)
    finally:
        process.fail = False
    assert (outputs.documents, outputs.quarantined) == (2, 3)
    assert "processing failed: RuntimeError" in outputs.reasons
    plan, outputs = run_all(inbox, work, out)  # resume: only the failed document is planned
    assert (plan.documents, plan.already_done, len(plan.chunks)) == (3, 2, 1)
    assert (outputs.documents, outputs.quarantined) == (3, 2)


def test_nothing_left_to_do_plans_no_chunk(inbox: Path, tmp_path: Path) -> None:
    run_all(inbox, tmp_path / "work", tmp_path / "out")
    plan = chunks.plan_chunks(inbox, tmp_path / "work", 2)
    assert (plan.chunks, plan.already_done) == ([], 3)


def test_chunk_size_must_be_positive(inbox: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        chunks.plan_chunks(inbox, tmp_path, 0)
