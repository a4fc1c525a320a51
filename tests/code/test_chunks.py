"""deid.ops.chunks: planning skips done documents and quarantines unreadable inputs, chunk
results merge into results + span report + quarantine, a re-run resumes, and the span report
carries no text. Documents are real bundled decisions; processing is a stand-in that marks
one fixed span, so the test is about bookkeeping, not models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deid.ops import chunks
from deid.ops.batch import run_batch
from deid.ops.sealed import Seal
from deid.schema import Document
from deid.sources.io import read_jsonl
from tests.conftest import read_source

SEAL = Seal()  # the run's key of the chunk files (deid.ops.sealed)

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
    plan = chunks.plan_chunks(inbox, work, 2, location="s3://in/box", seal=SEAL)
    for chunk in plan.chunks:
        results, quarantine = chunks.chunk_paths(chunk, work)
        run_batch(chunks.read_chunk(chunk, SEAL)[0], results, process, quarantine=quarantine, show_progress=False)
    return plan, chunks.write_outputs(work, out, plan.rejected)


def test_plan_quarantines_unreadable_inputs_with_their_location(
    inbox: Path, tmp_path: Path
) -> None:
    plan = chunks.plan_chunks(inbox, tmp_path / "work", 2, location="s3://in/box", seal=SEAL)
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
    plan = chunks.plan_chunks(inbox, tmp_path / "work", 2, seal=SEAL)
    assert (plan.chunks, plan.already_done) == ([], 3)


def test_chunk_size_must_be_positive(inbox: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        chunks.plan_chunks(inbox, tmp_path, 0, seal=SEAL)


# --- issue 18: records that cannot be planned, duplicates, clear copies, lineage ----------------


def test_a_record_that_cannot_be_written_is_quarantined_and_the_rest_goes_on(tmp_path: Path) -> None:
    """A lone surrogate (``\\ud800``) is valid JSON but not UTF-8: writing its chunk failed the
    whole plan with a UnicodeEncodeError whose repr (in Prefect's log) held the whole line.
    Now that record is quarantined (by hash, never text) and the others are planned."""
    texts = [read_source(rel) for rel in DECISIONS]
    broken = texts[1][:300] + "\ud800" + texts[1][300:2000]
    lines = [{"id": "a", "text": texts[0]}, {"id": "b", "text": broken}, {"id": "c", "text": texts[2]}]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    plan = chunks.plan_chunks(source, tmp_path / "work", 8, seal=SEAL)
    assert plan.documents == 2 and len(plan.chunks) == 1
    assert [d.id for d in chunks.read_chunk(plan.chunks[0], SEAL)[0]] == ["a", "c"]
    (row,) = plan.rejected
    assert row.get("id") == "b" and row["reason"]
    assert texts[1][:60] not in json.dumps(plan.rejected, ensure_ascii=False)


def test_a_duplicate_id_is_quarantined_with_a_reason_not_merged(tmp_path: Path) -> None:
    """Two records with one id used to be merged silently (the second never anonymized)."""
    texts = [read_source(rel) for rel in DECISIONS]
    lines = [{"id": "a", "text": texts[0]}, {"id": "b", "text": texts[1]}, {"id": "a", "text": texts[2]}]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    work, out = tmp_path / "work", tmp_path / "out"
    plan = chunks.plan_chunks(source, work, 8, location="s3://in/docs.jsonl", seal=SEAL)
    assert plan.documents == 2
    assert [(r["input"], r["id"], r["reason"]) for r in plan.rejected] == [
        ("s3://in/docs.jsonl", "a", chunks.DUPLICATE_ID)
    ]
    for chunk in plan.chunks:
        results, quarantine = chunks.chunk_paths(chunk, work)
        run_batch(chunks.read_chunk(chunk, SEAL)[0], results, process, quarantine=quarantine, show_progress=False)
    outputs = chunks.write_outputs(work, out, plan.rejected)
    assert (outputs.documents, outputs.quarantined) == (2, 1)
    again = chunks.plan_chunks(source, work, 8, seal=SEAL)  # a re-run: the first 'a' is done, the second
    assert (again.already_done, again.chunks, len(again.rejected)) == (2, [], 1)  # still refused


def test_a_finished_run_keeps_no_clear_copy_of_its_inputs(inbox: Path, tmp_path: Path) -> None:
    """The chunk files are the decisions in clear text: gone once the outputs are written;
    the (anonymized) chunk results stay, so a re-run still resumes."""
    work = tmp_path / "work"
    (work / chunks.INPUT_DIR).mkdir(parents=True)  # a staged S3 input
    (work / chunks.INPUT_DIR / "x.txt").write_text(read_source(DECISIONS[0]), encoding="utf-8")
    run_all(inbox, work, tmp_path / "out")
    assert list((work / chunks.CHUNK_DIR).glob("*.jsonl"))
    assert chunks.discard_inputs(work) == [chunks.CHUNK_DIR, chunks.INPUT_DIR]
    left = [p for p in work.rglob("*") if p.is_file()]
    assert left and all(p.parent.name == chunks.RESULT_DIR for p in left)
    texts = [read_source(rel) for rel in DECISIONS]
    assert not any(t in p.read_text(encoding="utf-8") for p in left for t in texts)
    plan, outputs = run_all(inbox, work, tmp_path / "out")
    assert (plan.already_done, plan.chunks, outputs.documents) == (3, [], 3)


def test_results_carry_the_lineage_of_each_record(inbox: Path, tmp_path: Path) -> None:
    import hashlib

    lineage = {"model": {"uri": "models:/deid-ner@champion", "name": "deid-ner", "version": "7",
                         "alias": "champion"}, "pipeline_sha256": "ab" * 32,
               "components": {"deid": "0.1.0"}, "git_commit": "c" * 40}  # fmt: skip
    work, out = tmp_path / "work", tmp_path / "out"
    plan = chunks.plan_chunks(inbox, work, 2, seal=SEAL)
    for chunk in plan.chunks:
        results, quarantine = chunks.chunk_paths(chunk, work)

        def with_lineage(doc: Document) -> dict:
            return chunks.output_record(doc, {"id": doc.id, "text": "x", "spans": []}, lineage)

        run_batch(chunks.read_chunk(chunk, SEAL)[0], results, with_lineage, quarantine=quarantine, show_progress=False)
    chunks.write_outputs(work, out, plan.rejected)
    texts = {Path(r).name.removesuffix(".txt.xz"): read_source(r) for r in DECISIONS}
    rows = list(read_jsonl(out / chunks.RESULTS))
    assert [set(r) for r in rows] == [{"id", "text", "lineage"}] * 3
    for row in rows:
        digest = hashlib.sha256(texts[row["id"]].encode("utf-8")).hexdigest()
        assert row["lineage"] == lineage | {"input_sha256": digest}


def test_a_docx_comes_back_as_docx_from_the_bytes_it_was_planned_with(tmp_path: Path) -> None:
    """A real rules-only pipeline over a DOCX decision and two plain-text ones: the DOCX is
    written back in its format among the outputs (the account number gone from its XML, its
    text the results file's), plain text only in the results file. The sealed chunk carries
    the file's bytes as planned: a DOCX changed on disk after planning still comes back as
    the document that was analyzed (it used to be quarantined: the chunk read it again)."""
    import io
    import zipfile

    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
    from deid.sources import formats
    from tests.code.formats_data import IBAN
    from tests.code.test_formats_docx import build_docx

    inbox, work, out = tmp_path / "inbox", tmp_path / "work", tmp_path / "out"
    (inbox / "sub").mkdir(parents=True)
    data = build_docx()
    (inbox / "sub" / "urteil.docx").write_bytes(data)
    (inbox / "changed.docx").write_bytes(data)
    for rel in DECISIONS[:2]:
        (inbox / Path(rel).name.removesuffix(".xz")).write_text(read_source(rel), encoding="utf-8")
    pipeline = build_pipeline(config=PipelineConfig.rules_only())
    plan = chunks.plan_chunks(inbox, work, 2, seal=SEAL)
    (inbox / "changed.docx").write_bytes(_edited(data))
    for chunk in plan.chunks:
        chunks.anonymize_chunk(chunk, work, pipeline, "label", seal=SEAL)
    summary = chunks.write_outputs(work, out, plan.rejected)

    assert (summary.documents, summary.quarantined) == (4, 0)
    assert summary.files[4:] == ["documents/changed.docx", "documents/sub/urteil.docx"]
    written = (out / "documents/sub/urteil.docx").read_bytes()
    with zipfile.ZipFile(io.BytesIO(written)) as archive:
        xml = b"".join(archive.read(n) for n in archive.namelist())
    assert IBAN.encode() not in xml and b"[ID]" in xml
    results = {r["id"]: r for r in read_jsonl(out / chunks.RESULTS)}
    assert formats.read(written, name="urteil.docx").text == results["sub/urteil"]["text"]
    assert (out / "documents/changed.docx").read_bytes() == written  # the planned bytes, not the edit
    assert sorted(p.name for p in (out / "documents").rglob("*") if p.is_file()) == ["changed.docx", "urteil.docx"]


def _edited(data: bytes) -> bytes:
    """The DOCX with one word of its first paragraph changed, as an editor would save it."""
    import io

    import docx

    document = docx.Document(io.BytesIO(data))
    run = document.paragraphs[0].runs[0]
    run.text = run.text + " (geändert)"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


# --- issue 27: the run's copies of its inputs are sealed, and go when it fails ---------------------


def test_chunk_files_are_sealed_with_the_run_key_only(inbox: Path, tmp_path: Path) -> None:
    """What a run writes of its inputs holds no text in clear; another run's key (a re-run
    after kill -9) cannot open it, and the next plan replaces it."""
    from deid.sources.io import InputError

    work = tmp_path / "work"
    plan = chunks.plan_chunks(inbox, work, 2, seal=SEAL)
    texts = [read_source(rel) for rel in DECISIONS]
    raw = b"".join(Path(c).read_bytes() for c in plan.chunks)
    assert not any(t[:40].encode() in raw or t[-40:].encode() in raw for t in texts)
    with pytest.raises(InputError, match="not sealed by this run"):
        chunks.read_chunk(plan.chunks[0], Seal())
    again = chunks.plan_chunks(inbox, work, 2, seal=Seal())
    assert again.chunks == plan.chunks and len(list((work / chunks.CHUNK_DIR).iterdir())) == len(plan.chunks)


def test_a_failed_or_cancelled_flow_run_removes_the_copies_of_its_inputs(inbox: Path, tmp_path: Path) -> None:
    """The anonymize flow's hook on failure, crash and cancellation (flows.anonymize)."""
    from types import SimpleNamespace

    from flows.anonymize import discard_after_failure, work_dir_for

    work = work_dir_for(str(tmp_path), "s3://out/box")
    chunks.plan_chunks(inbox, work, 2, seal=SEAL)
    (work / chunks.INPUT_DIR).mkdir()
    SEAL.write(work / chunks.INPUT_DIR / "x.txt", b"staged")
    run = SimpleNamespace(id="r-1", parameters={"project_dir": str(tmp_path), "output": "s3://out/box"})
    discard_after_failure(None, run, SimpleNamespace(type=SimpleNamespace(value="CRASHED")))
    assert not (work / chunks.CHUNK_DIR).exists() and not (work / chunks.INPUT_DIR).exists()
