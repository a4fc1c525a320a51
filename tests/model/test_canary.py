"""Issue 27, item 2, with a trained model: a made-up surname planted 15 times in each of seven
real decisions (tests/code/canaries.py: after titles and roles, inflected, possessive, in
capitals, hyphenated) is in clear nowhere: not in the anonymized outputs, and not in any
file an anonymize run leaves behind when it is cancelled or killed halfway.

The runs are the real ``anonymize`` flow (a subprocess with its own temporary Prefect server
and Prefect home; three decisions, one chunk each). The first is cancelled (SIGTERM, what a
worker sends) after its first chunk: it removes the copies of its inputs. The second is
killed (``kill -9``) after the next chunk: the copies stay, sealed (deid.ops.sealed). After
each, every file below the project, the output and the Prefect home is searched for the
canary in any case. A third run to the same output resumes and completes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deid.anonymizer.pipeline import Pipeline, build_pipeline
from deid.schema import Document
from tests.code import canaries
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

RUN_SECONDS = 600  # a whole run of the flow; the kill comes at the first chunk result


# the test model's score of the canary's name in full is 0.52 to 0.68 on these decisions (the
# main job's model: 0.94), below the 0.7 that consistency asks of a name before it spreads it
# (chosen on validation for the main job's model). As in test_encoder_model, the floor is set
# below this model's own scores: the test checks the spreading on real predictions, not the
# calibration of a model trained for a minute.
FLOOR = 0.5


@pytest.fixture(scope="module")
def spreading(trained: Path, tmp_path_factory) -> Path:
    """The trained test pipeline with consistency's ``min_score`` at :data:`FLOOR`."""
    folder = tmp_path_factory.mktemp("canary-model") / "pipeline"
    shutil.copytree(trained, folder)
    saved = json.loads((folder / "pipeline.json").read_text(encoding="utf-8"))
    steps = [s for s in saved["chain"] if s["name"] == "consistency"]
    assert len(steps) == 1 and steps[0]["version"] >= 3
    steps[0]["config"]["min_score"] = FLOOR
    (folder / "pipeline.json").write_text(json.dumps(saved), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def pipeline(spreading: Path) -> Pipeline:
    return build_pipeline(spreading, device="cpu")


def _inbox(folder: Path, sources: tuple[str, ...]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for source in sources:
        (folder / Path(source).name.removesuffix(".xz")).write_text(canaries.planted(source), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def inbox(tmp_path_factory) -> Path:
    return _inbox(tmp_path_factory.mktemp("canary-inbox"), canaries.DECISIONS)


def test_no_canary_mention_survives_in_the_outputs(pipeline: Pipeline, inbox: Path) -> None:
    docs = [Document(p.stem, p.read_text(encoding="utf-8")) for p in sorted(inbox.iterdir())]
    assert sum(canaries.count(d.text) for d in docs) == 105
    left = {d.id: canaries.count(pipeline.anonymize(d, operator="label")["text"]) for d in docs}
    assert left == dict.fromkeys(left, 0)


def _flow(inbox: Path, out: Path, project: Path, model: Path, home: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_API", "MLFLOW_"))}
    env |= {"PREFECT_HOME": str(home), "PYTHONPATH": str(ROOT), "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    argv = [sys.executable, "-m", "flows.anonymize", "--input", str(inbox), "--output", str(out),
            "--model-uri", str(model), "--project-dir", str(project), "--chunk-size", "1", "--no-track",
            "--operator", "label"]  # fmt: skip
    return subprocess.Popen(argv, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)  # fmt: skip


def _finished_chunks(work: Path) -> list[Path]:
    """The chunk results a run finished (a running chunk writes ``.jsonl.partial``)."""
    return [p for p in work.rglob("results/chunk-*.jsonl") if ".quarantine." not in p.name]


def _mentions_on_disk(*folders: Path) -> dict[str, int]:
    """Canary mentions per file below ``folders`` (read as bytes, any case; xz files too)."""
    import lzma

    found = {}
    for folder in folders:
        for path in (p for p in folder.rglob("*") if p.is_file()):
            data = path.read_bytes()
            if path.suffix == ".xz":
                data = lzma.decompress(data)
            hits = canaries.count(data.decode("utf-8", "replace"))
            if hits:
                found[str(path.relative_to(folder.parent))] = hits
    return found


def _run_until_a_chunk_finished(inbox: Path, out: Path, project: Path, model: Path, home: Path, finished: int,
                                how: signal.Signals) -> subprocess.Popen:  # fmt: skip
    """Start the flow, and send ``how`` once ``finished`` + 1 chunk results are on disk:
    SIGTERM to the flow's process (a cancellation), SIGKILL to it and its Prefect server."""
    run = _flow(inbox, out, project, model, home)
    deadline = time.monotonic() + RUN_SECONDS
    while len(_finished_chunks(project)) <= finished and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if how == signal.SIGKILL:
        os.killpg(run.pid, signal.SIGKILL)
    else:
        run.send_signal(how)
    run.communicate(timeout=120)
    return run


def test_a_run_killed_halfway_leaves_no_canary_on_disk_and_a_rerun_completes(spreading: Path, tmp_path: Path) -> None:
    inbox = _inbox(tmp_path / "inbox", canaries.DECISIONS[:3])  # three chunks: one per run
    project, out, home = tmp_path / "project", tmp_path / "out", tmp_path / "prefect"
    project.mkdir()
    chunks = project / "data" / "work" / "anonymize"
    cancelled = _run_until_a_chunk_finished(inbox, out, project, spreading, home, 0, signal.SIGTERM)
    assert cancelled.returncode != 0, "stopped before it finished"
    assert not list(chunks.rglob("chunks/*")), "a cancelled run removes the copies of its inputs"
    assert _mentions_on_disk(project, home) == {}
    killed = _run_until_a_chunk_finished(inbox, out, project, spreading, home, 1, signal.SIGKILL)
    assert killed.returncode == -signal.SIGKILL, "killed before it finished"
    assert list(chunks.rglob("chunks/chunk-*.jsonl")), "kill -9 leaves the copies of the inputs: sealed"
    assert _mentions_on_disk(project, home) == {}
    assert not out.exists() or _mentions_on_disk(out) == {}
    again = _flow(inbox, out, project, spreading, home)
    stdout, stderr = again.communicate(timeout=RUN_SECONDS)
    assert again.returncode == 0, stderr[-3000:]
    report = json.loads(stdout.strip().splitlines()[-1])["result"]
    assert report["documents"] == 3 and report["already_done"] == 2
    assert _mentions_on_disk(project, out, home) == {}
    assert not list(chunks.rglob("chunks/*")), "a completed run removes the copies of its inputs"
