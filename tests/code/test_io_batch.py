"""Bad input never stops a batch: empty, binary, non-UTF-8 and huge files are reported or
processed, the rest goes on, and a re-run resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deid.ops.batch import run_batch
from deid.rewrite.placeholders import detect_placeholders
from deid.schema import spans_to_dicts
from deid.sources.inputs import iter_input
from deid.sources.io import InputError, Rejected, decode_text
from tests.conftest import read_source


def _detect(doc):
    return {"id": doc.id, "placeholders": spans_to_dicts(detect_placeholders(doc.text))}


@pytest.fixture()
def messy_dir(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    real = read_source("decisions/bag/9-azr-115-23.txt.xz")
    (d / "good.txt").write_text(real, encoding="utf-8")
    (d / "empty.txt").write_bytes(b"")
    (d / "blank.txt").write_bytes(b"   \n\n")
    (d / "binary.pdf").write_bytes(b"%PDF-1.4\x00\x01\x02" + bytes(range(256)) * 20)
    (d / "cp1252.txt").write_bytes("Der Kläger K. wohnt in der Kstraße 5 in Würzburg.".encode("cp1252"))
    return d


def test_decode_rejects_with_reason_but_never_content() -> None:
    with pytest.raises(InputError, match="empty"):
        decode_text(b"", name="a.txt")
    with pytest.raises(InputError, match="binary"):
        decode_text(b"abc\x00def", name="b.txt")
    with pytest.raises(InputError, match="exceeds"):
        decode_text(b"x" * 100, name="c.txt", max_bytes=10)
    text, enc = decode_text("Zeuge Müller".encode("cp1252"), name="d.txt")
    assert (text, enc) == ("Zeuge Müller", "cp1252")
    try:
        decode_text("geheim\x00".encode(), name="e.txt")
    except InputError as exc:
        assert "geheim" not in str(exc)


def test_batch_quarantines_bad_files_and_processes_the_rest(messy_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "placeholders.jsonl"
    summary = run_batch(messy_dir, out, _detect, show_progress=False)
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == ["cp1252", "good"]
    assert summary.processed == 2 and summary.quarantined == 3
    quarantine = [json.loads(l) for l in (out.parent / "placeholders.quarantine.jsonl").read_text().splitlines()]
    reasons = {Path(q["path"]).name: q["reason"] for q in quarantine}
    assert reasons["empty.txt"] == "empty file" and reasons["blank.txt"] == "empty file"
    assert reasons["binary.pdf"] == "not a valid PDF (PDFium cannot load it)"  # read as a PDF (deid.sources.formats)
    cp = [json.loads(l) for l in out.read_text().splitlines() if json.loads(l)["id"] == "cp1252"][0]
    text = "Der Kläger K. wohnt in der Kstraße 5 in Würzburg."
    assert [text[s["start"] : s["end"]] for s in cp["placeholders"]] == ["K.", "Kstraße 5"]


def test_a_failing_document_is_quarantined_and_the_batch_goes_on(messy_dir: Path, tmp_path: Path) -> None:
    def flaky(doc):
        if doc.id == "good":
            raise RuntimeError("boom")
        return _detect(doc)

    out = tmp_path / "o.jsonl"
    summary = run_batch(messy_dir, out, flaky, show_progress=False)
    assert summary.failed == 1 and summary.processed == 1
    q = (tmp_path / "o.quarantine.jsonl").read_text()
    assert "processing failed: RuntimeError" in q and "boom" not in q


def test_rerun_resumes_without_redoing_documents(messy_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    partial = tmp_path / "r.jsonl.partial"
    partial.write_text(json.dumps({"id": "good", "placeholders": []}) + "\n" + '{"id": "torn', encoding="utf-8")
    seen: list[str] = []

    def record(doc):
        seen.append(doc.id)
        return _detect(doc)

    summary = run_batch(messy_dir, out, record, show_progress=False)
    assert seen == ["cp1252"] and summary.skipped_done == 1
    assert sorted(json.loads(l)["id"] for l in out.read_text().splitlines()) == ["cp1252", "good"]
    # a finished run is not redone either
    seen.clear()
    run_batch(messy_dir, out, record, show_progress=False)
    assert seen == []


@pytest.mark.slow
def test_a_20_mb_decision_is_processed(tmp_path: Path) -> None:
    real = read_source("decisions/bag/9-azr-115-23.txt.xz")
    big = (real + "\n") * (20_000_000 // len(real) + 1)
    path = tmp_path / "huge.txt"
    path.write_text(big, encoding="utf-8")
    assert path.stat().st_size >= 20_000_000
    docs = [d for d in iter_input(path) if not isinstance(d, Rejected)]
    assert len(docs) == 1
    spans = detect_placeholders(docs[0].text)
    assert len(spans) > 100
