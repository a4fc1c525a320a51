"""The review queue and saved reviews over the REST service (``deid serve`` as a real uvicorn
process), on five real decisions. The queue is a batch of the anonymize flow (its own chunk
steps, rules only) whose input and outputs lie in a real SeaweedFS S3 store on loopback: its
documents come with the night's spans and are ordered by certainty without an analysis.
Saved reviews set each document's state and keep their history; a long analysis streams its
progress and stops when the client goes away; the API speaks one label vocabulary."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
from deid.ops import chunks, s3
from deid.ops.sealed import Seal
from deid.schema import LABELS
from infra.stack import StackConfig, launch, s3_env, s3_ready, stop, wait_until
from infra.workbench import Service, start_service
from tests.code.review_data import CONTACT, DIRECTOR, IBAN, LONG_PAGES, OFFICER, long_docx, write_queue
from tests.conftest import read_source

pytestmark = pytest.mark.slow  # a SeaweedFS and a `deid serve` process: seconds per module

BUCKET = "deid-queue"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StackConfig]:
    """SeaweedFS alone (the local stack's S3), on free loopback ports."""
    cfg = StackConfig.with_free_ports(tmp_path_factory.mktemp("seaweed"))
    cfg.save()
    pid = launch(cfg, "weed")
    try:
        wait_until(lambda: s3_ready(cfg), "seaweedfs", 120, pid)
        yield cfg
    finally:
        stop(cfg)


@pytest.fixture(scope="module")
def batch(store: StackConfig, tmp_path_factory: pytest.TempPathFactory, monkeypatch_module: Any) -> dict[str, Any]:
    """The five decisions as the anonymize flow's input in S3, and the flow's outputs beside
    them: its chunk steps (``deid.ops.chunks``, what the flow's tasks call) with the rules."""
    for key, value in s3_env(store).items():
        monkeypatch_module.setenv(key, value)
    work = tmp_path_factory.mktemp("batch")
    texts = write_queue(work / "inbox")
    pipeline = build_pipeline(config=PipelineConfig.rules_only())
    seal = Seal()  # the run's key of its chunk files (deid.ops.sealed)
    plan = chunks.plan_chunks(work / "inbox", work / "run", 8, seal=seal)
    for chunk in plan.chunks:
        chunks.anonymize_chunk(chunk, work / "run", pipeline, seal=seal)
    chunks.write_outputs(work / "run", work / "out", plan.rejected)
    client = s3.client()
    s3.ensure_bucket(BUCKET, client)
    s3.upload_files(sorted(p for p in (work / "inbox").iterdir()), work / "inbox", f"s3://{BUCKET}/in", client)
    s3.upload_files([work / "out" / chunks.SPANS], work / "out", f"s3://{BUCKET}/out", client)
    report = {r["id"]: r for r in map(json.loads, (work / "out" / chunks.SPANS).read_text().splitlines())}
    return {"texts": texts, "report": report, "inbox": work / "inbox"}


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as mp:
        yield mp


@pytest.fixture(scope="module")
def service(store: StackConfig, batch: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    work = tmp_path_factory.mktemp("serve")
    svc = start_service(["--rules-only", "--reviews", str(work / "reviews"), "--queue", f"s3://{BUCKET}/in",
                         "--queue-batch", f"s3://{BUCKET}/out"], log=work / "serve.log", cwd=work,
                        env={**s3_env(store), "DEID_SECRET": "", "MLFLOW_TRACKING_URI": ""})  # fmt: skip
    yield svc
    svc.stop()


def _get(svc: Service, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(f"{svc.url}{path}", timeout=120, **kwargs)


def _post(svc: Service, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.post(f"{svc.url}{path}", timeout=120, **kwargs)


def test_a_flow_batch_in_s3_is_a_queue_with_its_spans(service: Service, batch: dict[str, Any]) -> None:
    listing = _get(service, "/queue").json()
    assert listing["source"] == "batch" and [i["name"] for i in listing["items"]] == list(batch["texts"])
    assert listing["counts"] == {"open": 5, "in_review": 0, "done": 0}
    for item in listing["items"]:  # the batch's spans: certainty known before any analysis
        spans = batch["report"][item["name"]]["spans"]
        assert item["uncertainty"]["spans"] == len(spans) > 0
        assert item["uncertainty"]["low"] == sum(1 for s in spans if s["score"] < 0.6)
    ordered = _get(service, "/queue", params={"order": "uncertain"}).json()["items"]
    lows = [(-i["uncertainty"]["low"], i["uncertainty"]["min_score"]) for i in ordered]
    assert lows == sorted(lows) and lows[0][0] < 0  # the least certain first
    assert "analyze" not in service.logs()  # nothing was analysed for the order

    first = listing["items"][0]
    opened = _get(service, f"/queue/{first['id']}").json()
    text = batch["texts"][first["name"]]
    assert opened["from_batch"] and opened["text"] == text and opened["review"] is None
    assert [(s["start"], s["end"], s["label"]) for s in opened["spans"]] == [
        (s["start"], s["end"], s["label"]) for s in batch["report"][first["name"]]["spans"]]
    assert IBAN in {text[s["start"]:s["end"]] for s in opened["spans"]}
    second = listing["items"][1]  # a DOCX: the file comes back as it was, to be written anonymized
    original = (batch["inbox"] / f"{second['name']}.docx").read_bytes()
    assert _get(service, f"/queue/{second['id']}/file").content == original
    assert _get(service, "/queue/000000000000").status_code == 404
    assert _get(service, "/queue", params={"order": "random"}).status_code == 422
    assert DIRECTOR not in service.logs() and first["name"] not in service.logs()  # ids are hashes in the log


def test_saved_reviews_set_the_state_and_keep_their_history(service: Service, batch: dict[str, Any]) -> None:
    item = _get(service, "/queue").json()["items"][2]
    opened = _get(service, f"/queue/{item['id']}").json()
    text, proposed = opened["text"], opened["spans"]
    start = text.index(OFFICER)
    name = {"start": start, "end": start + len(OFFICER), "label": "PERSON"}  # no rule's: the reviewer adds it
    first = _post(service, "/reviews", json={  # one accepted, the rest left open, a name added
        "text": text, "model_spans": proposed, "spans": [proposed[0], name], "open": proposed[1:],
        "reviewer": "a.richter", "effort": {"seconds": 40, "actions": 3}}).json()  # fmt: skip
    assert first["state"] == "in_review" and first["open"] == len(proposed) - 1
    assert first["decisions"]["open"] == len(proposed) - 1 and first["decisions"]["accepted"] == 1
    listed = _get(service, "/queue").json()
    assert [i["state"] for i in listed["items"]][2] == "in_review" and listed["counts"]["in_review"] == 1

    second = _post(service, "/reviews", json={  # reopened: the rest decided, one rejected
        "text": text, "model_spans": proposed, "spans": [proposed[0], name, *proposed[2:]], "open": [],
        "reviewer": "b.schulz", "effort": {"seconds": 25, "actions": 2}, "supersedes": first["id"]}).json()  # fmt: skip
    assert second["state"] == "done" and second["decisions"]["rejected"] == 1
    record = _get(service, f"/reviews/{second['id']}").json()
    assert record["supersedes"] == first["id"] and record["text"] == text and record["effort"]["seconds"] == 25
    assert [h["id"] for h in record["history"]] == [first["id"], second["id"]]
    assert [h["state"] for h in record["history"]] == ["in_review", "done"]
    assert _get(service, f"/reviews/{first['id']}").json()["state"] == "in_review"  # the old one is kept
    reviews = _get(service, "/reviews").json()["reviews"]
    assert [r["id"] for r in reviews][:2] == [second["id"], first["id"]] and "text" not in reviews[0]
    assert [r["id"] for r in _get(service, "/reviews", params={"state": "in_review"}).json()["reviews"]] == [first["id"]]
    assert _get(service, "/queue").json()["items"][2]["state"] == "done"
    assert _get(service, f"/queue/{item['id']}").json()["review"]["id"] == second["id"]  # the page reopens it
    assert _get(service, "/reviews/" + "f" * 20).status_code == 404
    assert _get(service, "/reviews/../etc").status_code == 404
    assert DIRECTOR not in service.logs() and OFFICER not in service.logs()


def _lines(response: httpx.Response) -> Iterator[dict[str, Any]]:
    for line in response.iter_lines():
        yield json.loads(line)


def test_a_long_analysis_streams_its_progress_and_stops_when_cancelled(service: Service) -> None:
    data = long_docx()
    files = {"file": ("urteil.docx", data)}
    stream = {"Accept": "application/x-ndjson"}
    with httpx.stream("POST", f"{service.url}/analyze", files=files, headers=stream, timeout=120) as response:
        lines = list(_lines(response))
    steps = [line["progress"] for line in lines if "progress" in line and line["progress"]["stage"] == "analysing"]
    assert lines[0]["progress"]["stage"] == "starting" and len(steps) >= 3
    assert [s["done"] for s in steps] == list(range(1, len(steps) + 1))
    assert all(0 < s["fraction"] < 1 for s in steps)
    result = lines[-1]["result"]
    plain = _post(service, "/analyze", files=files).json()
    assert result["spans"] == plain["spans"] and result["document"]["format"] == "docx"
    characters = result["characters"]
    assert characters >= LONG_PAGES * 3000

    # the client goes away after the first step: the analysis stops there, the next one runs
    with httpx.stream("POST", f"{service.url}/analyze", files=files, headers=stream, timeout=120) as response:
        for line in _lines(response):
            if line.get("progress", {}).get("stage") == "analysing":
                break
    after = _post(service, "/analyze", json={"text": read_source("decisions/bag/9-azr-115-23.txt.xz")[:2000]})
    assert after.status_code == 200  # it waited for the cancelled analysis to let go
    analysed = re.findall(rf"analyze [0-9a-f]{{12}}: {characters} characters", service.logs())
    assert len(analysed) == 2  # the streamed and the plain one; the cancelled one never finished

    bad = _post(service, "/analyze", files={"file": ("urteil.odt", b"PK")}, headers=stream)
    assert bad.status_code == 415  # refused before anything streams


def test_the_api_speaks_one_label_vocabulary(service: Service) -> None:
    text = read_source("decisions/bag/9-azr-115-23.txt.xz")[:1500] + "\n\n" + CONTACT + "\n"
    health = _get(service, "/health").json()
    assert health["labels"] == list(LABELS) and "pseudonymize" not in health["operators"]  # no key here
    found = _post(service, "/analyze", json={"text": text}).json()["spans"]
    assert {s["label"] for s in found} >= {"STREET_ADDRESS", "POSTAL_TOWN", "IBAN"}
    api = _post(service, "/anonymize", json={"text": text}).json()["text"]
    page = _post(service, "/anonymize", json={"text": text, "spans": [  # as the page sends them: coarse types
        {"start": s["start"], "end": s["end"], "label": s["type"]} for s in found]}).json()["text"]
    assert api == page and "[STREET], [LOCATION]" in api and f"IBAN {IBAN}" not in api and "IBAN [ID]" in api
    unknown = _post(service, "/anonymize", json={"text": text, "spans": [{"start": 0, "end": 3, "label": "FOO"}]})
    assert unknown.status_code == 422 and "FOO" in unknown.json()["detail"]
    pdf = _post(service, "/anonymize", files={"file": ("a.txt", text.encode())}, data={"output": "pdf"})
    assert pdf.status_code == 422 and "'pdf'" in pdf.json()["detail"]
    as_file = _post(service, "/anonymize", json={"text": text, "output": "file"})
    assert as_file.headers["content-type"].startswith("text/plain") and "[ID]" in as_file.text
    pseudo = _post(service, "/anonymize", json={"text": text, "operator": "pseudonymize"})
    assert pseudo.status_code == 422 and "DEID_SECRET" in pseudo.json()["detail"]
    review = _post(service, "/reviews", json={"text": text, "model_spans": found, "spans": found, "reviewer": "x"})
    assert review.status_code == 200 and review.json()["decisions"]["accepted"] == len(found)
    saved = _get(service, f"/reviews/{review.json()['id']}").json()
    assert {s["label"] for s in saved["spans"]} <= set(LABELS)  # a recognizer's label is stored as its type
    bad = _post(service, "/reviews", json={"text": text, "model_spans": [], "reviewer": "x",
                                           "spans": [{"start": 0, "end": 3, "label": "FOO"}]})  # fmt: skip
    assert bad.status_code == 422 and "FOO" in bad.json()["detail"]
