"""The REST service (``deid serve``) as a real uvicorn process on a free loopback port:
analyze and anonymize text and files, reviews, models, the guards (body limit, time limit,
bearer token, refusing to listen beyond loopback without one) and logs without text. The
documents are real bundled decisions with a contact block of the kind decisions carry."""

from __future__ import annotations

import hashlib
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import docx
import httpx
import pytest

from deid.anonymizer.operators import anonymize_text
from deid.schema import Span
from deid.sources.reviews import check_review, read_reviews
from infra.stack import HOST, free_ports
from infra.workbench import Service, start_service
from tests.code.formats_data import IBAN, NAMES, name_spans, paragraphs
from tests.code.test_formats_docx import build_docx
from tests.code.test_registry import pipeline_dir  # noqa: F401 - the same untrained tiny pipeline
from tests.conftest import ROOT, read_source

pytestmark = pytest.mark.slow  # each test talks to a started `deid serve` process: seconds per test

DECISION = "decisions/bag/9-azr-115-23.txt.xz"
CONTACT = ("\n\nDie Klägerin ist erreichbar unter kanzlei.berger@beispiel-recht.de, "
           "Bankverbindung IBAN DE89 3704 0044 0532 0130 00.\n")  # fmt: skip
TOKEN = "t0k3n-for-the-service-test"
QUERY_SECRET = "Wolkenhammer-im-Querystring"


@pytest.fixture(scope="module")
def text() -> str:
    return read_source(DECISION) + CONTACT


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> Service:
    """Rules only, no token (loopback), a body limit that a decision fits in."""
    work = tmp_path_factory.mktemp("serve")
    env = {"MLFLOW_TRACKING_URI": "", "DEID_SECRET": ""}
    svc = start_service(["--rules-only", "--reviews", str(work / "reviews"), "--max-bytes", "400000"],
                        log=work / "serve.log", cwd=work, env=env)  # fmt: skip
    yield svc
    svc.stop()


@pytest.fixture(scope="module")
def guarded(tmp_path_factory) -> Service:
    """A token from the environment and a short time limit."""
    work = tmp_path_factory.mktemp("guarded")
    svc = start_service(["--rules-only", "--timeout", "3"], log=work / "serve.log", cwd=work, token=TOKEN)
    for _ in range(10):  # the first analysis loads the rules' lexicons: on a busy machine a 504 first
        warm = _post(svc, "/analyze", json={"text": "Die Klage wird abgewiesen."}, headers={"Authorization": f"Bearer {TOKEN}"})
        if warm.status_code == 200:
            break
        time.sleep(3)
    yield svc
    svc.stop()


def _post(svc: Service, path: str, **kwargs) -> httpx.Response:
    return httpx.post(f"{svc.url}{path}", timeout=60, **kwargs)


# --- analyze and anonymize ------------------------------------------------------------------------


def test_health_says_no_token_and_rules_only(service: Service) -> None:
    health = httpx.get(f"{service.url}/health").json()
    assert health["status"] == "ok" and health["auth"] is False and health["model"]["rules_only"] is True
    assert "label" in health["operators"]


def test_analyze_text_gives_labels_scores_and_sources(service: Service, text: str) -> None:
    body = _post(service, "/analyze", json={"text": text}).json()
    found = {(text[s["start"]:s["end"]], s["type"]) for s in body["spans"]}
    assert ("kanzlei.berger@beispiel-recht.de", "CONTACT") in found
    assert ("DE89 3704 0044 0532 0130 00", "ID") in found
    assert all(s["source"].startswith("deid.recognizers.") and 0 < s["score"] <= 1 for s in body["spans"])
    assert body["sha256"] == body["lineage"]["input_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert "text" not in body  # a JSON client has its text


def test_a_request_chooses_its_profile_and_an_unknown_one_is_refused(service: Service, text: str) -> None:
    """The served pipeline's profile is strict (params.yaml); a request may ask for federal:
    the answer and its lineage say so, and a review saved from it records it."""
    health = httpx.get(f"{service.url}/health").json()
    assert health["profiles"] == ["strict", "federal"] and health["default_profile"] == "strict"
    own = _post(service, "/analyze", json={"text": text}).json()
    federal = _post(service, "/analyze", json={"text": text, "profile": "federal"}).json()
    assert own["profile"] == "strict" and "profile" not in own["lineage"].get("overrides", {})
    assert federal["profile"] == "federal" and federal["lineage"]["overrides"]["profile"] == "federal"
    form = _post(service, "/analyze", files={"file": ("urteil.txt", text.encode(), "text/plain")}, data={"profile": "federal"})
    assert form.json()["profile"] == "federal"
    for path in ("/analyze", "/anonymize"):
        bad = _post(service, path, json={"text": text, "profile": "lax"})
        assert bad.status_code == 422 and "unknown anonymization profile 'lax'" in bad.json()["detail"]
    spans = [{"start": s["start"], "end": s["end"], "label": s["type"]} for s in federal["spans"]]
    body = {"text": text, "model_spans": federal["spans"], "spans": spans, "reviewer": "a.richter", "profile": "federal"}
    (record,) = _reviews(service, _post(service, "/reviews", json=body).json()["id"])
    assert record["profile"] == "federal"


def test_analyze_a_cp1252_file_with_crlf_returns_its_text(service: Service, text: str) -> None:
    data = text.replace("\n", "\r\n").encode("cp1252")
    body = _post(service, "/analyze", files={"file": ("urteil.txt", data, "text/plain")}).json()
    assert body["text"] == data.decode("cp1252") and "\r\n" in body["text"]
    assert body["document"] == {"format": "text", "encoding": "cp1252", "bytes": len(data), "characters": len(body["text"])}
    assert {body["text"][s["start"]:s["end"]] for s in body["spans"]} >= {"kanzlei.berger@beispiel-recht.de"}


def test_anonymize_text_with_the_analysis_or_with_given_spans(service: Service, text: str) -> None:
    body = _post(service, "/anonymize", json={"text": text, "operator": "mask"}).json()
    assert "kanzlei.berger" not in body["text"] and "0532 0130" not in body["text"]
    assert body["operator"] == "mask" and body["text"][:2000] == text[:2000]
    start = text.index("Klägerin ist")
    given = [{"start": start, "end": start + len("Klägerin"), "label": "PERSON"}]
    body = _post(service, "/anonymize", json={"text": text, "operator": "label", "spans": given}).json()
    assert body["text"] == anonymize_text(text, [Span(**given[0])], "label", doc_id="x").text
    assert "kanzlei.berger@beispiel-recht.de" in body["text"]  # only the given span
    assert body["output_spans"][0]["operator"] == "label"


def test_anonymize_a_text_file_gives_the_registry_s_text_file(service: Service, text: str) -> None:
    data = text.replace("\n", "\r\n").encode("cp1252")
    source = data.decode("cp1252")
    spans = _post(service, "/analyze", files={"file": ("urteil.txt", data)}).json()["spans"]
    reply = _post(service, "/anonymize", files={"file": ("urteil.txt", data)}, data={"operator": "label"})
    assert reply.status_code == 200 and reply.headers["x-deid-spans"] == str(len(spans))
    assert reply.headers["content-disposition"] == 'attachment; filename="anonymized.txt"'
    expected = anonymize_text(source, [Span.from_dict(s) for s in spans], "label", doc_id="x").text
    assert reply.content == expected.encode("utf-8") and b"\r\n" in reply.content  # deid.sources.formats: UTF-8 out
    as_json = _post(service, "/anonymize", files={"file": ("urteil.txt", data)}, data={"output": "json"}).json()
    assert as_json["text"] == expected and as_json["document"]["encoding"] == "cp1252"


def test_a_docx_decision_is_analyzed_and_comes_back_as_docx(service: Service) -> None:
    data = build_docx()
    analysis = _post(service, "/analyze", files={"file": ("Urteil Kowalczyk.docx", data)}).json()
    text = analysis["text"]
    assert analysis["document"]["format"] == "docx" and text.startswith(paragraphs()[0])
    assert IBAN in {text[s["start"]:s["end"]] for s in analysis["spans"]}
    given = [s.to_dict() for s in name_spans(text)]
    reply = _post(service, "/anonymize", files={"file": ("Urteil Kowalczyk.docx", data)},
                  data={"operator": "label", "spans": json.dumps(given)})  # fmt: skip
    assert reply.headers["content-disposition"] == 'attachment; filename="anonymized.docx"'
    document = docx.Document(io.BytesIO(reply.content))
    body = "\n".join(p.text for p in document.paragraphs)
    assert not [n for n in [*NAMES.values(), IBAN] if n in body] and "[PERSON]" in body
    assert "Kowalczyk" not in service.logs()


@pytest.mark.parametrize(
    ("request_kwargs", "status", "detail"),
    [
        ({"json": {"text": "x", "operator": "shred"}}, 422, "unknown operator"),
        ({"json": {"text": "Die Klage.", "operator": "pseudonymize"}}, 422, "DEID_SECRET"),
        ({"json": {"text": "Die Klage.", "spans": [{"start": 0, "end": 99, "label": "PERSON"}]}}, 422, "offsets"),
        ({"json": {"text": ""}}, 422, "non-empty"),
        ({"json": ["a", "list"]}, 422, "JSON object"),
        ({"content": b"\xff not json", "headers": {"content-type": "application/json"}}, 400, "not JSON"),
        ({"files": {"file": ("urteil.odt", b"PK\x03\x04\x14\x00\x00\x00")}}, 415, "not supported"),
        ({"files": {"file": ("urteil.txt", b"\x00\x01binary" * 10)}}, 422, "binary"),
        ({"files": {"file": ("urteil.txt", b"  \n")}}, 422, "empty"),
        ({"data": {"operator": "label"}, "files": {"other": ("a.txt", b"Text")}}, 422, "'file'"),
    ],
)
def test_bad_requests_get_a_clear_error(service: Service, request_kwargs, status: int, detail: str) -> None:
    reply = _post(service, "/anonymize", **request_kwargs)
    assert reply.status_code == status and detail in reply.json()["detail"]


def test_the_body_limit_refuses_by_length_and_while_streaming(service: Service) -> None:
    big = b"Der Kl\xc3\xa4ger " * 40_000  # 480 kB > 400 kB
    reply = _post(service, "/analyze", files={"file": ("urteil.txt", big)})
    assert reply.status_code == 413 and "400000" in reply.json()["detail"]

    def chunks():  # no Content-Length: the limit counts the stream
        for _ in range(50):
            yield b"x" * 10_000

    reply = _post(service, "/analyze", content=chunks(), headers={"content-type": "application/json"})
    assert reply.status_code == 413
    assert httpx.get(f"{service.url}/health").status_code == 200  # still serving


# --- reviews, models, docs -------------------------------------------------------------------------


def test_a_saved_review_lands_in_the_reviews_file(service: Service, text: str) -> None:
    spans = _post(service, "/analyze", json={"text": text}).json()["spans"]
    final = [{"start": s["start"], "end": s["end"], "label": s["type"]} for s in spans[1:]]
    start = text.index("Klägerin ist")
    final.append({"start": start, "end": start + 8, "label": "PERSON"})
    body = {"text": text, "model_spans": spans, "spans": final, "reviewer": "a.richter"}
    saved = _post(service, "/reviews", json=body).json()
    assert saved["decisions"]["rejected"] == 1 and saved["decisions"]["added"] == 1
    assert saved["decisions"]["accepted"] == len(spans) - 1
    (record,) = _reviews(service, saved["id"])
    check_review(record)
    assert record["text"] == text and record["reviewer"] == "a.richter" and record["model"]["uri"] is None
    bad = _post(service, "/reviews", json=body | {"reviewer": "Anna Richter"})
    assert bad.status_code == 422 and "reviewer" in bad.json()["detail"]


def _reviews(service: Service, review_id: str) -> list[dict]:
    folder = Path(service.process.args[service.process.args.index("--reviews") + 1])
    return [r for r in read_reviews(folder) if isinstance(r, dict) and r["id"] == review_id]


def test_models_reports_the_model_in_use_and_a_missing_registry(service: Service) -> None:
    body = httpx.get(f"{service.url}/models").json()
    assert body["in_use"]["rules_only"] is True and len(body["in_use"]["pipeline_sha256"]) == 64
    assert body["registry"]["versions"] == [] and "no MLflow store" in body["registry"]["error"]


def test_openapi_docs_are_served_without_a_cdn(service: Service) -> None:
    schema = httpx.get(f"{service.url}/openapi.json").json()
    assert {"/analyze", "/anonymize", "/models", "/health", "/reviews"} <= set(schema["paths"])
    assert set(schema["paths"]["/analyze"]["post"]["requestBody"]["content"]) == {"application/json", "multipart/form-data"}
    page = httpx.get(f"{service.url}/docs").text
    assert "https://" not in page and "/static-offline-docs/swagger-ui-bundle.js" in page
    assert httpx.get(f"{service.url}/static-offline-docs/swagger-ui-bundle.js").status_code == 200
    assert httpx.get(f"{service.url}/").text.count("https://") == 0


def test_no_document_text_reaches_the_log(service: Service, text: str) -> None:
    httpx.get(f"{service.url}/health", params={"q": QUERY_SECRET})
    _post(service, f"/analyze?name={QUERY_SECRET}", json={"text": text})
    log = service.logs()
    assert "POST /analyze HTTP/1.1" in log and "analyze " in log
    lines = [line for line in text.splitlines() if len(line) > 30]
    assert lines and not [line for line in lines if line in log]
    for secret in ("kanzlei.berger", "DE89 3704", QUERY_SECRET, "Klägerin ist"):
        assert secret not in log


# --- the guards ------------------------------------------------------------------------------------


def test_a_token_is_required_when_set(guarded: Service) -> None:
    assert httpx.get(f"{guarded.url}/health").json()["auth"] is True
    body = {"json": {"text": "E-Mail: kanzlei.berger@beispiel-recht.de"}}
    assert _post(guarded, "/analyze", **body).status_code == 401
    assert _post(guarded, "/analyze", headers={"Authorization": "Bearer wrong-token-123456"}, **body).status_code == 401
    assert httpx.get(f"{guarded.url}/models").status_code == 401
    ok = _post(guarded, "/analyze", headers={"Authorization": f"Bearer {TOKEN}"}, **body)
    assert ok.status_code == 200 and ok.json()["spans"][0]["type"] == "CONTACT"
    assert TOKEN not in guarded.logs()


def test_a_request_that_outlasts_the_time_limit_gets_504(guarded: Service) -> None:
    port = int(guarded.url.rsplit(":", 1)[1])
    with socket.create_connection((HOST, port), timeout=30) as sock:  # a body that never comes
        sock.sendall(b"POST /analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode()
                     + b"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"text\": ")  # fmt: skip
        reply = b""
        while not reply.endswith(b"}"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            reply += chunk
        reply = reply.decode("latin-1")
    assert reply.startswith("HTTP/1.1 504") and "longer than the limit of 3 s" in reply


def _serve(args: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != "DEID_SERVE_TOKEN"} | (env or {})
    return subprocess.run([sys.executable, "-m", "deid.app.cli", "serve", "--rules-only", *args], cwd=cwd,
                          env=full, capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def test_it_refuses_to_listen_beyond_loopback_without_a_token(tmp_path: Path) -> None:
    done = _serve(["--host", "0.0.0.0", "--port", str(free_ports(1)[0])])
    assert done.returncode == 2 and "refusing to listen on 0.0.0.0 without a token" in done.stderr
    done = _serve(["--token", TOKEN])  # never on the command line
    assert done.returncode == 2 and "No such option" in done.stderr
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n", encoding="utf-8")
    token_file.chmod(0o644)
    done = _serve(["--host", "0.0.0.0", "--token-file", str(token_file)])
    assert done.returncode == 2 and "readable by others" in done.stderr
    done = _serve(["--host", "::1", "--port", "1"], env={"DEID_SERVE_TOKEN": "short"})
    assert done.returncode == 2 and "at least 16 characters" in done.stderr


def test_an_unexpected_error_is_answered_and_logged_without_its_message(caplog) -> None:
    """The shield in front of the app: an error quoting a document (a UnicodeEncodeError
    holds the string it failed on) becomes a 500 naming its type and place only."""
    import uvicorn
    from fastapi import FastAPI

    from deid.app.service.safety import ErrorShield, install_log_filters

    app = FastAPI()

    @app.get("/boom")
    async def boom() -> None:
        "Klägerin Wolkenhammer".encode("ascii")

    app.add_middleware(ErrorShield)
    port = free_ports(1)[0]
    server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_config=None))
    thread = threading.Thread(target=server.run, daemon=True)
    install_log_filters()
    with caplog.at_level("INFO"):
        thread.start()
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.1)
        reply = httpx.get(f"http://{HOST}:{port}/boom?who=Wolkenhammer")
        server.should_exit = True
        thread.join(timeout=20)
    assert reply.status_code == 500 and "UnicodeEncodeError" in reply.json()["detail"]
    assert "Wolkenhammer" not in reply.text
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records if r.name != "httpx")
    assert "UnicodeEncodeError at test_service.py" in logged and "Wolkenhammer" not in logged


# --- a registered model -----------------------------------------------------------------------------


@pytest.mark.slow
def test_serving_the_champion_of_the_tracking_store(tmp_path: Path, pipeline_dir: Path) -> None:  # noqa: F811
    """Without --model the service loads models:/deid-ner@champion, like deid anonymize, and
    /models lists the registered versions and aliases."""
    import mlflow

    from deid.ops import mlflow_registry as registry

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = registry.get_client(uri, create=True)
    experiment = registry.ensure_experiment(client, "deid", (tmp_path / "artifacts").as_uri())
    with registry.active_tracking(uri), mlflow.start_run(experiment_id=experiment):
        info = registry.log_pipeline_model(pipeline_dir)
    version = str(info.registered_model_version)
    from deid.ops import gate, vetting
    from deid.sources.io import tree_sha256

    client.set_model_version_tag(registry.MODEL_NAME, version, vetting.CONTENT_TAG, tree_sha256(pipeline_dir))
    gate.promote(version, "the test pipeline", by="tests", override_gate=True, tracking_uri=uri)  # a signed champion
    svc = start_service(["--reviews", str(tmp_path / "reviews")], log=tmp_path / "serve.log", cwd=tmp_path,
                        env={"MLFLOW_TRACKING_URI": uri})  # fmt: skip
    try:
        body = httpx.get(f"{svc.url}/models", timeout=60).json()
        analysis = _post(svc, "/analyze", json={"text": read_source(DECISION)[:3000]}).json()
    finally:
        svc.stop()
    assert body["in_use"]["version"] == version and body["in_use"]["alias"] == "champion"
    assert body["in_use"]["rules_only"] is False
    pipeline_sha = hashlib.sha256((pipeline_dir / "pipeline.json").read_bytes()).hexdigest()
    assert body["in_use"]["pipeline_sha256"] == pipeline_sha
    assert body["registry"]["aliases"] == {"champion": version} and body["in_use"]["vetting"]["kind"] == "override"
    assert [v["version"] for v in body["registry"]["versions"]] == [version]
    assert analysis["lineage"]["model"]["version"] == version
    assert f"no --model: models:/deid-ner@champion (version {version})" in svc.logs()

