"""The audit's input faults (issue 18): every bad JSONL record is quarantined on its own with
file, line, id and reason and the lines after it are still done; encodings are read as the
user has them (CRLF, BOM, cp1252, UTF-16) and offsets index that text; a truncated UTF-8
file is rejected, not garbled as cp1252; symbolic links out of the input folder and ids
that leave the output folder are refused; a re-run lists each bad input once, refuses
results made with another operator, and an unknown operator fails before any input is read.
Real bundled decisions, real files, the real ``deid anonymize`` command (rules only)."""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deid.anonymizer.operators.mask import DEFAULT_MASK_CHAR
from deid.anonymizer.pipeline import Pipeline, PipelineConfig, build_pipeline
from deid.app.cli import app
from deid.ops import chunks
from deid.ops.batch import run_batch, run_settings
from deid.ops.sealed import Seal
from deid.schema import Span
from deid.sources.inputs import iter_input
from deid.sources.io import InputError, Rejected, decode_text, read_jsonl
from tests.conftest import read_source

SEAL = Seal()  # the run's key of the chunk files (deid.ops.sealed)

DECISION = "decisions/bag/9-azr-115-23.txt.xz"
OTHER = "decisions/bag/1-azr-62-23.txt.xz"
IBAN = "DE89 3704 0044 0532 0130 00"


def decision_with_iban() -> str:
    """A real decision with an account number half-way through, after many line ends."""
    text = read_source(DECISION)
    cut = text.index("\n", len(text) // 2) + 1
    return text[:cut] + f"Die Zahlung ging auf das Konto des Klägers, IBAN {IBAN}.\n" + text[cut:]


def anonymize(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["anonymize", "--rules-only", *args])
    return result.exit_code, result.stdout, result.stderr


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


# --- encodings: offsets index the file as the user has it ------------------------------------

VARIANTS = {  # file name -> (bytes of the decision, the codec the user reads it with)
    "lf": (lambda t: t.encode("utf-8"), "utf-8"),
    "crlf": (lambda t: crlf(t).encode("utf-8"), "utf-8"),
    "bom_crlf": (lambda t: codecs.BOM_UTF8 + crlf(t).encode("utf-8"), "utf-8-sig"),
    "cp1252_crlf": (lambda t: crlf(t).encode("cp1252"), "cp1252"),
    "utf16": (lambda t: t.encode("utf-16"), "utf-16"),
    "utf16be_crlf": (lambda t: codecs.BOM_UTF16_BE + crlf(t).encode("utf-16-be"), "utf-16"),
}


def test_offsets_point_at_the_users_file_in_every_encoding(tmp_path: Path) -> None:
    text = decision_with_iban()
    inbox = tmp_path / "in"
    inbox.mkdir()
    for name, (encode, _) in VARIANTS.items():
        (inbox / f"{name}.txt").write_bytes(encode(text))
    out = tmp_path / "out.jsonl"
    code, _, _ = anonymize("--input", str(inbox), "--output", str(out), "--operator", "mask")
    assert code == 0
    records = {r["id"]: r for r in read_jsonl(out)}
    assert sorted(records) == sorted(VARIANTS)  # UTF-16 is read, not quarantined as binary
    lf_spans = [(s["label"], text[s["start"] : s["end"]]) for s in records["lf"]["spans"]]
    assert ("IBAN", IBAN) in lf_spans
    for name, (encode, codec) in VARIANTS.items():
        users = encode(text).decode(codec)
        rec = records[name]
        found = [
            (s["label"], users[s["start"] : s["end"]].replace("\r\n", "\n")) for s in rec["spans"]
        ]
        assert found == lf_spans, name  # same spans as the LF file, at this file's offsets
        # the output keeps the file's line ends; mask keeps offsets: only spans differ
        assert len(rec["text"]) == len(users) and rec["text"].count("\r\n") == users.count("\r\n")
        masked = {i for s in rec["spans"] for i in range(s["start"], s["end"])}
        assert all(a == b for i, (a, b) in enumerate(zip(rec["text"], users)) if i not in masked)


def test_a_crlf_decision_gets_the_spans_of_its_lf_twin() -> None:
    """Rules were validated on "\\n" text; a "\\s" in them matches one character, so "\\r\\n"
    moves statute zones (here over "FeV" on the next line). A stand-in model marks "FeV"."""
    pipeline = build_pipeline(config=PipelineConfig.rules_only())
    pipeline.model_spans = lambda texts, deadline=None: [
        [Span(m.start(), m.end(), "ORGANIZATION", 0.9, "model") for m in re.finditer(r"\bFeV\b", t)]
        for t in texts
    ]
    lf = read_source("decisions/bavaria/Y-300-Z-BECKRS-B-2019-N-17491.txt.xz")
    windows = crlf(lf)
    expected = [
        (lf[s.start : s.end], s.start + lf.count("\n", 0, s.start)) for s in pipeline.analyze(lf)
    ]
    got = [
        (windows[s.start : s.end].replace("\r\n", "\n"), s.start) for s in pipeline.analyze(windows)
    ]
    assert got == expected and expected


def test_a_truncated_utf8_file_is_rejected_not_read_as_cp1252(tmp_path: Path) -> None:
    data = read_source(DECISION).encode("utf-8")
    assert data.count("ä".encode()) > 10
    with pytest.raises(InputError, match=r"not valid UTF-8 \(cut inside its last character, byte"):
        decode_text(data + "ä".encode()[:1], name="cut.txt")
    (tmp_path / "cut.txt").write_bytes(data[:-1] + "ü".encode()[:1])
    [item] = iter_input(tmp_path / "cut.txt")
    assert isinstance(item, Rejected) and item.reason.startswith("not valid UTF-8")
    # issue 27: an all-ASCII text cut inside a final "ü" has no other multi-byte character to
    # tell it by, and was read as cp1252 ("Ã" at its end)
    ascii_only = "".join(ch for ch in read_source(DECISION) if ord(ch) < 128).encode("ascii")
    with pytest.raises(InputError, match=r"cut inside its last character"):
        decode_text(ascii_only + "ü".encode()[:1], name="cut.txt")
    # a real Windows-1252 export is still read, as cp1252
    text, codec = decode_text(read_source(DECISION).encode("cp1252"), name="old.txt")
    assert (text, codec) == (read_source(DECISION), "cp1252")


# --- JSONL: every bad record on its own, every good one done ---------------------------------


def test_every_bad_jsonl_record_is_quarantined_and_later_lines_are_done(tmp_path: Path) -> None:
    good = {i: read_source(r) for i, r in (("a", DECISION), ("c", OTHER), ("f", DECISION))}
    escaped = tmp_path / "escaped"
    lines = [
        json.dumps({"id": "a", "text": good["a"]}),
        '{"id": "b", "text": "Der Kläger',  # not JSON
        json.dumps({"id": "c", "text": good["c"]}),
        json.dumps(["not", "an", "object"]),
        json.dumps({"id": "d", "text": good["a"], "spans": [{"start": 0}]}),
        '{"id": "e", "text": "Zeuge \\ud800 M."}',  # a lone surrogate: valid JSON, not Unicode
        "",
        json.dumps({"id": "../../x", "text": good["a"]}),
        json.dumps({"id": str(escaped), "text": good["a"]}),
        json.dumps({"id": "f", "text": good["f"]}),
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "a" / "b" / "out"  # text output: one file per id
    for _ in range(2):  # a re-run lists the same rows once, without a traceback
        code, _, _ = anonymize("--input", str(source), "--output", str(out))
        assert code == 0
        rows = list(read_jsonl(out / "spans.quarantine.jsonl"))
        assert [(r["line"], r.get("id")) for r in rows] == [
            (2, None), (4, None), (5, "d"), (6, "e"), (8, "../../x"), (9, str(escaped))
        ]  # fmt: skip
        assert all(r["path"] == str(source) and r["sha256"] for r in rows)
    reasons = [r["reason"] for r in rows]
    assert reasons[0].startswith("not valid JSON") and reasons[1] == "not a JSON object"
    assert reasons[2] == "bad 'spans.0.end': Field required"
    assert reasons[3] == "not valid JSON (unexpected end of hex escape at line 1 column 34)"  # a lone surrogate
    assert all(r.startswith("unsafe id") for r in reasons[4:])
    assert sorted(r["id"] for r in read_jsonl(out / "spans.jsonl")) == ["a", "c", "f"]
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.txt"))
    assert written == ["a/b/out/a.txt", "a/b/out/c.txt", "a/b/out/f.txt"]
    assert not escaped.with_suffix(".txt").exists()
    assert "Kläger" not in (out / "spans.quarantine.jsonl").read_text(encoding="utf-8")


# --- paths ------------------------------------------------------------------------------------


def test_symbolic_links_out_of_the_input_folder_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.txt").write_text(read_source(OTHER), encoding="utf-8")
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "good.txt").write_text(read_source(DECISION), encoding="utf-8")
    (inbox / "link.txt").symlink_to(outside / "secret.txt")
    (inbox / "folder").symlink_to(outside)
    (inbox / "inside.txt").symlink_to(inbox / "good.txt")  # a link within the folder is fine
    items = list(iter_input(inbox))
    assert sorted(d.id for d in items if not isinstance(d, Rejected)) == ["good", "inside"]
    assert {Path(r.path).name: r.reason for r in items if isinstance(r, Rejected)} == {
        "folder": "symbolic link to outside the input folder",
        "link.txt": "symbolic link to outside the input folder",
    }
    assert all(d.text != read_source(OTHER) for d in items if not isinstance(d, Rejected))


# --- re-runs ------------------------------------------------------------------------------------


def test_a_finished_batch_run_again_lists_each_bad_input_once(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "good.txt").write_text(read_source(DECISION), encoding="utf-8")
    (inbox / "empty.txt").write_bytes(b"")
    (inbox / "scan.txt").write_bytes(bytes(range(256)) * 4)
    out = tmp_path / "out.jsonl"
    for _ in range(3):
        summary = run_batch(inbox, out, lambda d: {"id": d.id}, show_progress=False)
        rows = list(read_jsonl(tmp_path / "out.quarantine.jsonl"))
        assert sorted(Path(r["path"]).name for r in rows) == ["empty.txt", "scan.txt"]
    assert summary.skipped_done == 1


def test_a_rerun_with_another_operator_is_refused_until_asked_to_redo(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text(decision_with_iban(), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert anonymize("--input", str(source), "--output", str(out), "--operator", "mask")[0] == 0
    masked = out.read_text(encoding="utf-8")
    assert IBAN not in masked and DEFAULT_MASK_CHAR * len(IBAN) in masked
    code, _, err = anonymize("--input", str(source), "--output", str(out), "--operator", "label")
    assert code == 2 and out.read_text(encoding="utf-8") == masked
    assert err.count("\n") == 1 and "other operator" in err and "--no-resume" in err
    code, _, _ = anonymize(
        "--input", str(source), "--output", str(out), "--operator", "label", "--no-resume"
    )
    assert code == 0 and "IBAN [ID]." in out.read_text(encoding="utf-8")
    code, _, _ = anonymize("--input", str(source), "--output", str(out), "--operator", "label")
    assert code == 0  # the same settings resume


def test_an_unknown_operator_fails_before_reading_input(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text(read_source(DECISION), encoding="utf-8")
    out = tmp_path / "out" / "out.jsonl"
    code, stdout, err = anonymize("--input", str(source), "--output", str(out), "--operator", "foo")
    assert code == 2 and stdout == ""
    assert err == "error: unknown operator 'foo': use one of label, mask, pseudonymize, remove\n"
    assert not out.parent.exists()


# --- the same in the anonymize flow's chunk planning and merging ----------------------------


@pytest.fixture(scope="module")
def rules() -> Pipeline:
    return build_pipeline(config=PipelineConfig.rules_only())


def flow_run(source: Path, work: Path, out: Path, process, settings=None) -> chunks.Plan:
    """What the anonymize flow does, without Prefect: forget results made otherwise, plan,
    run each chunk, merge."""
    if settings is not None:
        chunks.forget_other_results(work, settings)
    plan = chunks.plan_chunks(source, work, 2, location="s3://in/box.jsonl", seal=SEAL)
    for chunk in plan.chunks:
        results, quarantine = chunks.chunk_paths(chunk, work)
        run_batch(chunks.read_chunk(chunk, SEAL)[0], results, process, quarantine=quarantine, show_progress=False)
    chunks.write_outputs(work, out, plan.rejected)
    return plan


def test_flow_quarantine_rows_of_bad_records_carry_line_and_id(tmp_path: Path) -> None:
    source = tmp_path / "box.jsonl"
    records = [{"id": "a", "text": read_source(DECISION)}, {"id": "b", "text": ["x"]}]
    lines = [json.dumps(r) for r in records] + ["{broken", json.dumps({"id": "c", "text": "M."})]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plan = chunks.plan_chunks(source, tmp_path / "work", 2, location="s3://in/box.jsonl", seal=SEAL)
    assert plan.documents == 2  # a and c: the lines after the broken one are still read
    assert [(r["input"], r["line"], r.get("id"), r["reason"]) for r in plan.rejected] == [
        ("s3://in/box.jsonl", 2, "b", "bad 'text': Input should be a valid string"),
        ("s3://in/box.jsonl", 3, None, "not valid JSON (key must be a string at line 1 column 2)"),
    ]  # fmt: skip


def test_flow_lists_a_document_that_fails_again_once(tmp_path: Path, rules: Pipeline) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    for rel in (DECISION, OTHER, "decisions/bag/1-azr-74-23.txt.xz"):
        (inbox / Path(rel).name.removesuffix(".xz")).write_text(read_source(rel), encoding="utf-8")

    def process(doc):
        if doc.id == "1-azr-62-23":
            raise RuntimeError("model crashed")
        return chunks.output_record(doc, rules.anonymize(doc))

    for _ in range(3):
        flow_run(inbox, tmp_path / "work", tmp_path / "out", process)
        rows = list(read_jsonl(tmp_path / "out" / chunks.QUARANTINE))
        assert [(r["id"], r["reason"]) for r in rows] == [
            ("1-azr-62-23", "processing failed: RuntimeError")
        ]


def test_flow_redoes_results_made_with_another_operator(tmp_path: Path, rules: Pipeline) -> None:
    source = tmp_path / "in.txt"
    source.write_text(decision_with_iban(), encoding="utf-8")
    work, out = tmp_path / "work", tmp_path / "out"

    def with_operator(op: str):
        return lambda doc: chunks.output_record(doc, rules.anonymize(doc, operator=op))

    def text() -> str:
        return next(iter(read_jsonl(out / chunks.RESULTS)))["text"]

    plan = flow_run(source, work, out, with_operator("mask"), run_settings("mask", None))
    assert plan.already_done == 0 and DEFAULT_MASK_CHAR * len(IBAN) in text()
    plan = flow_run(source, work, out, with_operator("mask"), run_settings("mask", None))
    assert plan.already_done == 1  # the same settings resume
    assert chunks.forget_other_results(work, run_settings("label", None)) == "other operator"
    plan = flow_run(source, work, out, with_operator("label"), run_settings("label", None))
    assert plan.already_done == 0 and "IBAN [ID]." in text()


def test_the_flow_refuses_an_unknown_operator_before_reading_input(tmp_path: Path) -> None:
    from flows.anonymize import anonymize as flow

    with pytest.raises(ValueError, match="unknown operator 'foo'"):
        flow.fn(input=str(tmp_path / "in"), output=str(tmp_path / "out"), operator="foo",
                project_dir=str(tmp_path), track=False)  # fmt: skip
    assert list(tmp_path.iterdir()) == []


# --- issue 27: records that are valid JSON to Python but not a document ------------------------------


def hostile_records() -> tuple[list[str], dict[str, str]]:
    """Two real decisions around the records the audit found stopping a whole batch (rc 1,
    no output, no quarantine), and the reason each must be quarantined with."""
    text, other = read_source(DECISION), read_source(OTHER)
    body = json.dumps(text[:2000])  # real text inside each bad record
    span = '"spans": [{"start": 0, "end": %s, "label": "PERSON"}]'
    bad = {
        "infinity": (span % "Infinity", "bad 'spans.0.end': Input should be a valid integer"),
        "huge": (span % "1e400", "bad 'spans.0.end': Input should be a valid integer"),
        "digits": (span % ("9" * 5000), "not valid JSON (number out of range"),
        "float": (span % "3.5", "bad 'spans.0.end': Input should be a valid integer"),
        "past-end": (span % 2001, "bad 'spans': a span ends beyond the end of the text"),
        "nested": ('"meta": {"x": %s}' % ("[" * 50_000 + "]" * 50_000), "not valid JSON (recursion limit"),
    }  # fmt: skip
    lines = [json.dumps({"id": "first", "text": text})]
    lines += [f'{{"id": "{name}", "text": {body}, {extra}}}' for name, (extra, _) in bad.items()]
    lines.append(json.dumps({"id": "last", "text": other}))
    return lines, {name: reason for name, (_, reason) in bad.items()}


def test_hostile_numbers_nesting_and_offsets_are_quarantined_and_the_batch_goes_on(tmp_path: Path) -> None:
    """Issue 27, item 3: Infinity or 1e400 in a span, a 5,000-digit integer, deeply nested
    JSON, a float offset and a span past the end of the text: each record is quarantined
    with its line and reason (the schema of deid.sources.records), both good decisions are
    anonymized, by the command line and by the flow's chunk planning alike."""
    lines, reasons = hostile_records()
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, _ = anonymize("--input", str(source), "--output", str(tmp_path / "cli.jsonl"))
    assert code == 0
    assert sorted(r["id"] for r in read_jsonl(tmp_path / "cli.jsonl")) == ["first", "last"]
    rows = list(read_jsonl(tmp_path / "cli.quarantine.jsonl"))
    assert [r["line"] for r in rows] == list(range(2, 2 + len(reasons)))
    # the id of a record that is JSON (to the same bounded parser): what an operator looks for
    assert [r.get("id") for r in rows] == [None if why.startswith("not valid JSON") else n for n, why in reasons.items()]
    for row, (name, reason) in zip(rows, reasons.items()):
        assert row["reason"].startswith(reason), (name, row["reason"])

    def nothing(doc):
        return chunks.output_record(doc, {"id": doc.id, "text": "x", "spans": []})

    plan = flow_run(source, tmp_path / "work", tmp_path / "out", nothing)
    assert plan.documents == 2 and [r["reason"] for r in plan.rejected] == [r["reason"] for r in rows]
    assert all(r["input"] == "s3://in/box.jsonl" and r["line"] for r in plan.rejected)
    assert read_source(DECISION)[:60] not in (tmp_path / "cli.quarantine.jsonl").read_text(encoding="utf-8")


def test_hidden_files_and_folders_are_quarantined_with_a_reason(tmp_path: Path) -> None:
    """Issue 27, item 6: a hidden file (an editor's lock file holding a real decision, a
    copy in a hidden folder) was skipped without a word. Now each hidden file, and each
    hidden folder once, is quarantined with the reason, never read; the decisions are done;
    the command line and the flow alike."""
    inbox = tmp_path / "in"
    (inbox / "sub").mkdir(parents=True)
    (inbox / ".git").mkdir()
    (inbox / "urteil.txt").write_text(read_source(DECISION), encoding="utf-8")
    (inbox / ".~lock.urteil.txt#").write_text(read_source(DECISION), encoding="utf-8")
    (inbox / "sub" / ".kopie.txt").write_text(read_source(OTHER), encoding="utf-8")
    (inbox / "sub" / "zwei.txt").write_text(read_source(OTHER), encoding="utf-8")
    (inbox / ".git" / "entwurf.txt").write_text(read_source(OTHER), encoding="utf-8")
    code, _, _ = anonymize("--input", str(inbox), "--output", str(tmp_path / "out.jsonl"))
    assert code == 0
    assert sorted(r["id"] for r in read_jsonl(tmp_path / "out.jsonl")) == ["sub/zwei", "urteil"]
    rows = {Path(r["path"]).relative_to(inbox).as_posix(): r for r in read_jsonl(tmp_path / "out.quarantine.jsonl")}
    assert {p: r["reason"] for p, r in rows.items()} == {
        ".git": "hidden folder (its name starts with '.'): not read",
        ".~lock.urteil.txt#": "hidden file (its name starts with '.'): not read",
        "sub/.kopie.txt": "hidden file (its name starts with '.'): not read",
    }
    assert rows["sub/.kopie.txt"]["size"] == len(read_source(OTHER).encode()) and rows["sub/.kopie.txt"]["sha256"]
    plan = chunks.plan_chunks(inbox, tmp_path / "work", 2, location="s3://in/box", seal=SEAL)
    assert plan.documents == 2 and sorted(r["input"] for r in plan.rejected) == [
        "s3://in/box/.git", "s3://in/box/.~lock.urteil.txt#", "s3://in/box/sub/.kopie.txt"]
