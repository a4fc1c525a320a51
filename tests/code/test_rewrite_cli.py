"""``deid rewrite auto | interactive --script | apply`` end to end in a temporary folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from deid.app.cli import app
from deid.rewrite.gold.doctext import DocText
from deid.rewrite.placeholders import detect_placeholders
from deid.sources.inputs import iter_input
from deid.sources.io import read_documents, read_jsonl
from tests.conftest import SOURCES

DOC_ID = "Y-300-Z-BECKRS-B-2023-N-47357"
OTHER_ID = "Y-300-Z-BECKRS-B-2023-N-35568"  # a short decision without a single suggestion


@pytest.fixture
def docs_dir(tmp_path):
    """Two Bavarian decisions as a folder input (ids are the file names)."""
    folder = tmp_path / "bavaria"
    folder.mkdir()
    for name in (DOC_ID, OTHER_ID):
        shutil.copy(SOURCES / "decisions" / "bavaria" / f"{name}.txt.xz", folder)
    return folder


def _interactive(tmp_path, docs_dir, *extra: str, stdin: str | None = None):
    args = [
        "rewrite", "interactive", "--input", str(docs_dir), "--courts", "",
        "--decisions", str(tmp_path / "decisions.jsonl"), "--output", str(tmp_path / "rewritten.jsonl"),
        "--quiet", *extra,
    ]  # fmt: skip
    return CliRunner().invoke(app, args, input=stdin)


def test_script_session_resume_and_apply(tmp_path, docs_dir):
    script = tmp_path / "part1.txt"
    # "(B)" Enter, "(B)," n: no placeholders; lawyer "…": edit surrogate, accept; then a
    # correction and quit
    script.write_text(
        "\nn\ne Dr. Kunibert Lanz\n\nc Verfahrenskostenhilfe => Verfahrens-Kostenhilfe\nq\n"
    )
    result = _interactive(tmp_path, docs_dir, "--ids", DOC_ID, "--script", str(script))
    assert result.exit_code == 0, result.output
    rows = list(read_jsonl(tmp_path / "decisions.jsonl"))
    assert [r["record"] for r in rows] == [
        "document",
        "decision",
        "decision",
        "decision",
        "correction",
    ]
    assert rows[3]["surrogate"] == "Dr. Kunibert Lanz"
    assert not list(read_jsonl(tmp_path / "rewritten.jsonl"))  # nothing finished yet

    # resume from stdin: Enter to the end of both documents
    result = _interactive(tmp_path, docs_dir, stdin="\n" * 40)
    assert result.exit_code == 0, result.output
    out = read_documents(tmp_path / "rewritten.jsonl")
    assert [d.meta["source_id"] for d in out] == [OTHER_ID, DOC_ID]  # input order
    lawyer = out[1]
    assert lawyer.text.count("Rechtsanwalt Dr. Kunibert Lanz") == 4  # reused for every "…"
    assert "Verfahrens-Kostenhilfe bewilligt" in lawyer.text
    assert all(s.label for s in lawyer.spans)

    rebuilt = tmp_path / "rebuilt.jsonl"
    result = CliRunner().invoke(
        app,
        ["rewrite", "apply", "--input", str(docs_dir), "--decisions", str(tmp_path / "decisions.jsonl"),
         "--output", str(rebuilt)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert rebuilt.read_bytes() == (tmp_path / "rewritten.jsonl").read_bytes()


def test_a_failing_script_line_stops_the_replay(tmp_path, docs_dir):
    script = tmp_path / "bad.txt"
    script.write_text("\nzz\n\n")
    result = _interactive(tmp_path, docs_dir, "--ids", DOC_ID, "--script", str(script))
    assert result.exit_code == 1
    assert "script line 2" in result.output
    rows = [r for r in read_jsonl(tmp_path / "decisions.jsonl") if r["record"] == "decision"]
    assert len(rows) == 1  # the first line was applied and saved, the third never ran


def test_unknown_ids_are_refused(tmp_path, docs_dir):
    result = _interactive(tmp_path, docs_dir, "--ids", "nope", "--script", "-", stdin="q\n")
    assert result.exit_code != 0 and "not in the input" in result.output


@pytest.mark.slow
def test_auto_on_ler_conll(tmp_path):
    out = tmp_path / "auto.jsonl"
    result = CliRunner().invoke(
        app,
        ["rewrite", "auto", "--input", str(SOURCES / "ler" / "bgh.conll.xz"), "--output", str(out),
         "--courts", "bgh", "--seed", "7"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    docs = read_documents(out)
    assert docs and all(d.court == "bgh" and d.meta["seed"] == 7 for d in docs)
    assert sum(len(d.spans) for d in docs) > 400 and all(d.keep for d in docs)


def _tmux(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")
def test_tmux_can_drive_the_terminal_ui(tmp_path, docs_dir):
    """The real TUI in a small tmux pane: send keys, read the screen, quit, check the file."""
    name = f"deid-rewrite-test-{time.monotonic_ns()}"
    command = (  # the short sleep lets tmux settle the pane size before the first screen
        f"sleep 0.5; {sys.executable} -m deid.app.cli rewrite interactive --input {docs_dir} --courts '' "
        f"--ids {DOC_ID} --decisions {tmp_path / 'd.jsonl'} --output {tmp_path / 'o.jsonl'}"
    )
    assert _tmux("new-session", "-d", "-s", name, "-x", "70", "-y", "18", command).returncode == 0

    def wait_for(needle: str) -> str:
        for _ in range(100):
            text = _tmux("capture-pane", "-p", "-t", name).stdout
            if needle in text:
                return text
            time.sleep(0.1)
        raise AssertionError(f"{needle!r} not on screen:\n{text}")

    doc = next(iter(iter_input(docs_dir / f"{DOC_ID}.txt.xz")))
    needed = len(DocText.build(doc, detect_placeholders).needs)
    try:
        first = wait_for("[[B]]")  # the case number "116/22 (B)": no suggestion, no type
        assert f"element 1/{needed}" in first and "no suggestion" in first
        _tmux("send-keys", "-t", name, "Enter")  # not a placeholder
        wait_for(f"element 2/{needed}")
        _tmux("send-keys", "-t", name, "g", "Enter")  # the next suggestion: the lawyer "…"
        lawyer = wait_for("suggested PERSON")
        assert f"element 3/{needed}" in lawyer and "[[…]]" in lawyer
        _tmux("send-keys", "-t", name, "<", "Enter")
        wait_for("»Rechtsanwalt …«")
        _tmux("send-keys", "-t", name, ",", "Enter")  # back to "…"
        _tmux("send-keys", "-t", name, "Enter")  # accept it
        wait_for(f"element 4/{needed}")
        _tmux("send-keys", "-t", name, "q", "Enter")
        for _ in range(50):
            if _tmux("has-session", "-t", name).returncode != 0:
                break
            time.sleep(0.1)
    finally:
        _tmux("kill-session", "-t", name)
    rows = [r for r in read_jsonl(tmp_path / "d.jsonl") if r["record"] == "decision"]
    assert [(r["decision"], r["suggested"]) for r in rows] == [
        ("not_placeholder", False),
        ("placeholder", True),
    ]
    assert doc.text[rows[1]["start"] : rows[1]["end"]] == "…" and rows[1]["label"] == "PERSON"
