"""Issue 27, item 5: ``deid serve``'s bounds (deid.app.service.limits) on a real uvicorn
process (rules only) and, for the queue, on the app in this process: every malformed body
gets a 4xx, never a 500; document requests beyond one at work and eight waiting are answered
503 at once, before their bodies are read; a document over the service's token cap gets a
413 with the reason; the memory of a request is given back. Peak RSS of a model service
under 50 mixed requests: bench/service_load.py."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from infra.workbench import Service, start_service
from tests.code.test_formats_docx import build_docx
from tests.conftest import read_source

pytestmark = pytest.mark.slow  # a started `deid serve` process

DECISION = "decisions/bag/9-azr-115-23.txt.xz"
NESTED = b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
JSON = {"content-type": "application/json"}
BROKEN_MULTIPART = b'--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc'


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> Service:
    work = tmp_path_factory.mktemp("serve-limits")
    svc = start_service(["--rules-only", "--reviews", str(work / "reviews")], log=work / "serve.log", cwd=work,
                        env={"MLFLOW_TRACKING_URI": "", "DEID_SECRET": ""})  # fmt: skip
    yield svc
    svc.stop()


def test_every_malformed_body_gets_a_4xx(service: Service) -> None:
    """Deeply nested JSON used to raise RecursionError in the handler: a 500."""
    text = read_source(DECISION)[:2000]
    docx = build_docx()
    bodies = {
        "nested JSON": {"content": NESTED, "headers": JSON},
        "nested JSON in a list": {"content": b"[" * 100_000, "headers": JSON},
        "Infinity": {"content": b'{"text": "x", "spans": [{"start": 0, "end": Infinity, "label": "P"}]}', "headers": JSON},
        "a 5,000-digit number": {"content": b'{"text": ' + b"9" * 5000 + b"}", "headers": JSON},
        "not JSON": {"content": b'{"text": "Der Kl', "headers": JSON},
        "not UTF-8": {"content": b'{"text": "\xff\xfe"}', "headers": JSON},
        "no object": {"content": b"[1, 2]", "headers": JSON},
        "no text": {"json": {"txt": text}},
        "a truncated DOCX": {"files": {"file": ("urteil.docx", docx[: len(docx) // 2])}},
        "no file part": {"files": {"datei": ("urteil.docx", docx)}},
        "nested spans field": {"files": {"file": ("urteil.txt", text.encode())}, "data": {"spans": "[" * 100_000}},
        "a broken multipart": {"content": BROKEN_MULTIPART, "headers": {"content-type": "multipart/form-data; boundary=x"}},
        "a multipart without boundary": {"content": b"abc", "headers": {"content-type": "multipart/form-data"}},
    }
    for path in ("/analyze", "/anonymize", "/reviews"):
        for name, kwargs in bodies.items():
            reply = httpx.post(f"{service.url}{path}", timeout=60, **kwargs)
            assert 400 <= reply.status_code < 500, (path, name, reply.status_code, reply.text[:200])
            assert text[:40] not in reply.text
    assert "internal error" not in service.logs()


def test_a_document_over_the_service_token_cap_is_refused_with_the_reason(service: Service) -> None:
    """One document's memory is capped in the service: its tokens (here words and marks: rules
    only) at deid.app.service.limits.SERVICE_MAX_TOKENS; the batch allows more."""
    from deid.anonymizer.budget import count_tokens
    from deid.app.service.limits import SERVICE_MAX_TOKENS

    decision = read_source(DECISION) + "\n"
    text = decision * (SERVICE_MAX_TOKENS // count_tokens(decision) + 1)  # ~1.7 M characters
    assert count_tokens(text) > SERVICE_MAX_TOKENS and len(text) < 5_000_000  # the batch would take it
    reply = httpx.post(f"{service.url}/analyze", json={"text": text}, timeout=120)
    assert reply.status_code == 413
    assert reply.json()["detail"].startswith("document too large: ") and f"tokens > {SERVICE_MAX_TOKENS}" in reply.text


def test_requests_beyond_the_queue_are_refused_at_once_and_memory_is_given_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app in this process, its analysis held until the test lets it go: one request at
    work, eight waiting, the next ones answered 503 with Retry-After without being read;
    once released, the nine are answered 200 and the memory is given back after each."""
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
    from deid.app.service import limits
    from deid.app.service.app import create_app
    from deid.app.service.served import ServedModel
    from deid.app.service.settings import ServiceSettings

    served = ServedModel(build_pipeline(config=PipelineConfig.rules_only()), None)
    gate, analysing = threading.Event(), threading.Event()
    real = served.analyze

    def held(text: str, *args: Any, **kwargs: Any) -> Any:
        analysing.set()
        gate.wait(60)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(served, "analyze", held)
    released: list[int] = []
    monkeypatch.setattr(limits, "release_memory", lambda: released.append(1))
    app = create_app(served, ServiceSettings(reviews_dir=tmp_path / "reviews"))
    text = read_source(DECISION)[:3000]

    async def scenario() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://deid", timeout=60) as client:
            first = asyncio.create_task(client.post("/analyze", json={"text": text}))
            assert await asyncio.to_thread(analysing.wait, 60), (await first).text
            waiting = [asyncio.create_task(client.post("/analyze", json={"text": text})) for _ in range(8)]
            for _ in range(6000):  # at most 60 s: a request that never queues fails, never hangs
                if _slots(app)._waiting >= 8:
                    break
                await asyncio.sleep(0.01)
            assert _slots(app)._waiting == 8
            refused = [await client.post("/analyze", json={"text": text}) for _ in range(3)]
            assert {r.status_code for r in refused} == {503}
            assert refused[0].headers["retry-after"] and "busy: 8 documents are waiting" in refused[0].text
            assert (await client.get("/health")).status_code == 200  # not a document request: not queued
            gate.set()
            return [(await t).status_code for t in [first, *waiting]]

    assert asyncio.run(scenario()) == [200] * 9
    assert len(released) == 9


def _slots(app) -> object:
    """The DocumentSlots middleware instance of a started app."""
    layer = app.middleware_stack
    while layer is not None and type(layer).__name__ != "DocumentSlots":
        layer = getattr(layer, "app", None)
    assert layer is not None
    return layer
