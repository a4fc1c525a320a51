"""The formats in a batch: ``deid anonymize`` (rules only) over a folder holding a real
decision as DOCX, PDF, HTML, court archive and text, next to an encrypted PDF, a broken
DOCX and a second file with an id already taken, writes each document in its own format
without the account number, quarantines the bad ones with their reasons and resumes; the
anonymize flow's chunk planning reads the same folder."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest
from reportlab.lib.pdfencrypt import StandardEncryption
from typer.testing import CliRunner

from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
from deid.app.cli import app
from deid.ops import chunks
from deid.ops.batch import run_batch
from deid.ops.sealed import Seal
from deid.sources import formats
from deid.sources.io import read_jsonl
from tests.code.formats_data import IBAN, decision
from tests.code.test_formats_court_xml import build_xml, build_zip
from tests.code.test_formats_docx import build_docx
from tests.code.test_formats_html import build_html
from tests.code.test_formats_pdf import build_pdf

SEAL = Seal()  # the run's key of the chunk files (deid.ops.sealed)

GOOD = ["urteil.docx", "urteil-scan.pdf", "beschluss.html", "KVRE123452024.zip", "urteil-alt.txt"]


def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    files = {
        "urteil.docx": build_docx(), "urteil-scan.pdf": build_pdf(), "beschluss.html": build_html().encode(),
        "KVRE123452024.zip": build_zip(build_xml()), "urteil-alt.txt": decision().encode("utf-8"),
        "locked.pdf": build_pdf(StandardEncryption("geheim", "owner")), "cut.docx": build_docx()[:4000],
        "urteil-alt.txt.xz": lzma.compress(decision().encode()),  # id 'urteil-alt' again: the first keeps it
    }  # fmt: skip
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def test_a_threshold_without_a_model_is_a_user_error(tmp_path: Path) -> None:
    """The threshold is the chain's model step's: a rules-only run has none to set."""
    source, out = inbox(tmp_path), tmp_path / "out"
    args = ["anonymize", "--rules-only", "--threshold", "0.3", "--input", str(source), "--output", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "a --rules-only run has no model" in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_the_profile_is_chosen_on_the_command_line_and_recorded(tmp_path: Path) -> None:
    """``--profile`` runs the chain's policy step under that profile and names it in every
    record's lineage; an unknown one is a one-line user error before any input is read, and a
    resumed run with another profile is refused."""
    source = tmp_path / "urteil.txt"
    source.write_text(decision(), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    bad = CliRunner().invoke(app, ["anonymize", "--rules-only", "--profile", "lax", "-i", str(source), "-o", str(out)])
    assert bad.exit_code == 2 and "unknown anonymization profile 'lax': use strict or federal" in bad.output
    assert "Traceback" not in bad.output and not out.exists()
    done = CliRunner().invoke(app, ["anonymize", "--rules-only", "--profile", "federal", "-i", str(source), "-o", str(out)])
    assert done.exit_code == 0, done.output
    (record,) = read_jsonl(out)
    assert record["lineage"]["overrides"] == {"profile": "federal"}
    again = CliRunner().invoke(app, ["anonymize", "--rules-only", "--profile", "strict", "-i", str(source), "-o", str(out)])
    assert again.exit_code == 2 and "profile" in again.output


@pytest.mark.slow
def test_the_cli_writes_every_document_in_its_own_format(tmp_path: Path) -> None:
    source, out = inbox(tmp_path), tmp_path / "out"
    args = ["anonymize", "--rules-only", "--input", str(source), "--output", str(out), "--operator", "label"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in out.iterdir() if not p.name.startswith("spans"))
    assert written == sorted(GOOD)
    for name in written:  # the account number is gone from every file, in its own format
        doc = formats.read((out / name).read_bytes(), name=name)
        assert formats.format_of(doc).name == formats.detect(name, b"").name
        assert digits(IBAN) not in digits(doc.text) and "[ID]" in doc.text
    report = {r["id"]: r for r in read_jsonl(out / "spans.jsonl")}
    assert sorted(report) == sorted(formats.strip_suffix(n) for n in GOOD)
    assert all(any(s["label"] == "IBAN" for s in r["spans"]) for r in report.values())
    rows = {Path(r["path"]).name: r["reason"] for r in read_jsonl(out / "spans.quarantine.jsonl")}
    assert rows == {
        "cut.docx": "not a valid DOCX file (broken zip archive)",
        "locked.pdf": "encrypted PDF (password-protected): not readable",
        "urteil-alt.txt.xz": "duplicate id (an earlier record has the same id)",
    }
    quarantine = (out / "spans.quarantine.jsonl").read_text(encoding="utf-8")
    assert "Kowalczyk" not in quarantine and "Pietrowski" not in quarantine
    # a re-run resumes: nothing is done twice, the same bad inputs are listed once
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0
    summary = json.loads(again.stderr[again.stderr.index("{") :])  # the summary goes to stderr
    assert (summary["processed"], summary["skipped_done"], summary["quarantined"]) == (0, 5, 3)


@pytest.mark.slow
def test_the_flow_plans_chunks_from_every_format(tmp_path: Path) -> None:
    source, work, out = inbox(tmp_path), tmp_path / "work", tmp_path / "out"
    plan = chunks.plan_chunks(source, work, 2, location="s3://in/box", seal=SEAL)
    assert plan.documents == 5 and len(plan.chunks) == 3
    assert sorted((r["input"], r.get("id"), r["reason"]) for r in plan.rejected) == [
        ("s3://in/box", "urteil-alt", chunks.DUPLICATE_ID),
        ("s3://in/box/cut.docx", None, "not a valid DOCX file (broken zip archive)"),
        ("s3://in/box/locked.pdf", None, "encrypted PDF (password-protected): not readable"),
    ]
    rules = build_pipeline(config=PipelineConfig.rules_only())
    for chunk in plan.chunks:
        results, quarantine = chunks.chunk_paths(chunk, work)
        run_batch(chunks.read_chunk(chunk, SEAL)[0], results, lambda d: chunks.output_record(d, rules.anonymize(d)), quarantine=quarantine,
                  show_progress=False)  # fmt: skip
    chunks.write_outputs(work, out, plan.rejected)
    results = list(read_jsonl(out / chunks.RESULTS))
    assert len(results) == 5 and all(digits(IBAN) not in digits(r["text"]) for r in results)
