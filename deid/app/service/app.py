"""The FastAPI application of ``deid serve`` (see :mod:`deid.app.service`).

Every endpoint that reads a document takes either JSON (``{"text": ...}``) or a multipart
form with a ``file``; blocking work (analysis, anonymization, the registry, fsync of a
review) runs in a thread, so the time limit can answer for a request that waits too long.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from dataclasses import dataclass
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from deid.anonymizer.operators import OPERATORS, check_operator
from deid.anonymizer.profiles import ProfileError
from deid.app.service.analysis import analysis, span_out
from deid.app.service.documents import UnsupportedFormat, Upload, describe, read_upload, render
from deid.app.service.errors import STATUS, detail_of
from deid.app.service.limits import DocumentSlots, parse_json
from deid.app.service.progress import streamed, wants_stream
from deid.app.service.queue_routes import QueueState, queue_routes
from deid.app.service.review_routes import review_routes
from deid.app.service.safety import BodyLimit, ErrorShield, TimeLimit
from deid.app.service.served import ServedModel
from deid.app.service.settings import ServiceSettings
from deid.ops.review_queue import LOW_CONFIDENCE, ReviewQueue
from deid.schema import FINE_TO_COARSE, LABELS, PROFILES
from deid.sources.reviews import ReviewStore, decision_counts, new_review
from deid.sources.reviews.record import known_spans, text_sha256

logger = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
MAX_FORM_FIELDS = 8

TEXT_BODY = {"type": "object", "required": ["text"], "properties": {
    "text": {"type": "string", "description": "The decision, as plain text."},
}}  # fmt: skip
SPANS_SCHEMA = {"type": "array", "items": {"type": "object", "required": ["start", "end", "label"], "properties": {
    "start": {"type": "integer"}, "end": {"type": "integer"}, "label": {"type": "string"},
}}}  # fmt: skip
FILE_FORM = {"type": "object", "required": ["file"], "properties": {
    "file": {"type": "string", "format": "binary", "description": "A decision file (.txt, .docx, .html, "
             "the court XML .zip; deid.sources.formats)."},
}}  # fmt: skip


def _body_doc(json_schema: dict[str, Any], form_schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI request body of an endpoint that reads its body itself (JSON or multipart)."""
    return {"requestBody": {"required": True, "content": {
        "application/json": {"schema": json_schema}, "multipart/form-data": {"schema": form_schema},
    }}}  # fmt: skip


def _with(schema: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {**schema, "properties": {**schema["properties"], **props}}


OPERATOR_FIELD = {"type": "string", "enum": sorted(OPERATORS), "description": "Default: the pipeline's."}
OUTPUTS = ("file", "json")
OUTPUT_FIELD = {"type": "string", "enum": list(OUTPUTS), "description": "file: the anonymized file in its format "
                "(default for a file; text as anonymized.txt); json: its text and the span report (default for text)"}
PROFILE_FIELD = {"type": "string", "enum": list(PROFILES), "description": "The anonymization profile "
                 "(docs/anonymization-policy.md); default: the pipeline's."}
ANALYZE_DOC = _body_doc(_with(TEXT_BODY, profile=PROFILE_FIELD), _with(FILE_FORM, profile=PROFILE_FIELD)) | {"responses": {"200": {"content": {
    "application/json": {}, "application/x-ndjson": {"schema": {"description": "with Accept: application/x-ndjson: "
    "progress lines, then the result (deid.app.service.progress)"}}}}}}
ANONYMIZE_DOC = _body_doc(
    _with(TEXT_BODY, operator=OPERATOR_FIELD, output=OUTPUT_FIELD, profile=PROFILE_FIELD, spans=SPANS_SCHEMA | {
          "description": "Spans to neutralize (offsets into text; labels of deid.schema.SENSITIVE_LABELS); "
          "default: the analysis' spans."}),
    _with(FILE_FORM, operator=OPERATOR_FIELD, spans={"type": "string", "description": "JSON list of spans"},
          output=OUTPUT_FIELD, profile=PROFILE_FIELD),
)  # fmt: skip
REVIEW_DOC = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["text", "model_spans", "spans", "reviewer"], "properties": {
        "text": {"type": "string"}, "model_spans": SPANS_SCHEMA,
        "spans": SPANS_SCHEMA | {"description": "The spans the reviewer decided (accepted, edited, added)."},
        "open": SPANS_SCHEMA | {"description": "Proposed spans nobody decided yet, unchanged: saved as open."},
        "reviewer": {"type": "string", "description": "One word: letters, digits, . _ @ -"},
        "effort": {"type": "object", "properties": {"seconds": {"type": "integer"}, "actions": {"type": "integer"}}},
        "supersedes": {"type": "string", "description": "The id of the saved review this one edits."},
        "profile": PROFILE_FIELD | {"description": "The profile the review was made under; default: the pipeline's."},
    }}}}}}  # fmt: skip


@dataclass(frozen=True)
class Input:
    """A request's document: its text, the upload it came from (None for JSON text) and
    the other fields it carried."""

    text: str
    upload: Upload | None
    fields: dict[str, Any]


def create_app(
    served: ServedModel, settings: ServiceSettings, *, secret: bytes | None = None, queue: ReviewQueue | None = None
) -> FastAPI:
    """The app serving ``served`` under ``settings``; ``secret`` keys ``pseudonymize``; ``queue``:
    the documents to review (``GET /queue``)."""
    app = FastAPIOffline(
        title="deid", version=package_version("deid"),
        description="Find and neutralize sensitive references in German court decisions; review them.",
        swagger_ui_parameters={"validatorUrl": None},
    )  # fmt: skip
    store = ReviewStore(settings.reviews_dir)
    authorized = _bearer(settings.token)
    _exception_handlers(app)

    operators = runnable_operators(secret)

    @app.get("/health", tags=["service"])
    async def health() -> dict[str, Any]:
        """Liveness, whether API calls need a token, the model in use, the operators that can
        run here (``pseudonymize`` only with a key), the labels, the score below which a span
        counts as uncertain, and whether there is a queue (no token needed)."""
        return {"status": "ok", "auth": settings.token is not None, "model": served.info(),
                "operators": operators, "default_operator": settings.operator if settings.operator in operators
                else operators[0], "labels": list(LABELS), "fine_labels": FINE_TO_COARSE, "low_confidence": LOW_CONFIDENCE,
                "queue": queue is not None, "max_bytes": settings.max_bytes,
                "profiles": list(PROFILES) if served.profile else [], "default_profile": served.profile}  # fmt: skip

    @app.get("/models", tags=["service"], dependencies=[authorized])
    async def models() -> dict[str, Any]:
        """The model in use and the registered versions and aliases of the tracking store."""
        return {"in_use": served.info(), "registry": await asyncio.to_thread(served.registry)}

    @app.post("/analyze", tags=["documents"], dependencies=[authorized], openapi_extra=ANALYZE_DOC)
    async def analyze(request: Request) -> Any:
        """Spans of a text or file: offsets, label, coarse type, score and the recognizer
        or model that found each (``source``). A file's extracted text is returned too. With
        ``Accept: application/x-ndjson``: progress lines first (``deid.app.service.progress``)."""
        doc = await _read_input(request, settings)
        profile = _profile(served, doc.fields.get("profile"))
        if wants_stream(request):
            return streamed(lambda reporter: analysis(served, doc.text, doc.upload,
                                                      reporter.deadline(served.pipeline, doc.text), profile=profile))  # fmt: skip
        return await asyncio.to_thread(analysis, served, doc.text, doc.upload, profile=profile)

    @app.post("/anonymize", tags=["documents"], dependencies=[authorized], openapi_extra=ANONYMIZE_DOC)
    async def anonymize(request: Request) -> Any:
        """A text or file with its spans neutralized by an operator: the anonymized text (or
        file, in its own format) and the span report."""
        doc = await _read_input(request, settings)
        operator = doc.fields.get("operator") or served.pipeline.config.operator
        _check_operator(operator, secret)
        profile = _profile(served, doc.fields.get("profile"))
        output = doc.fields.get("output") or ("file" if doc.upload is not None else "json")
        if output not in OUTPUTS:
            raise HTTPException(422, f"output {str(output)[:32]!r} is not supported: use {' or '.join(OUTPUTS)}")
        given = doc.fields.get("spans")
        spans = known_spans(doc.text, given, "spans") if given is not None else None
        if spans is None:
            spans = await asyncio.to_thread(served.analyze, doc.text, None, profile)
        sha = text_sha256(doc.text)
        rendered = await asyncio.to_thread(render, doc.upload, doc.text, spans, operator, secret=secret,
                                           max_bytes=settings.max_bytes)  # fmt: skip
        logger.info("anonymize %s: %d spans, operator %s", sha[:12], len(spans), operator)
        if output == "file":
            headers = {"Content-Disposition": f'attachment; filename="{rendered.filename}"',
                       "X-Deid-Spans": str(len(spans)), "X-Deid-Input-Sha256": sha}  # fmt: skip
            return Response(rendered.data, media_type=rendered.media_type, headers=headers)
        out = {"text": rendered.text, "operator": operator, "spans": [span_out(s) for s in spans],
               "output_spans": [s.to_dict() | {"operator": operator} for s in rendered.spans],
               "profile": profile or served.profile, "lineage": served.lineage_for(doc.text, profile)}  # fmt: skip
        return out | ({"document": describe(doc.upload)} if doc.upload is not None else {})

    @app.post("/reviews", tags=["reviews"], dependencies=[authorized], openapi_extra=REVIEW_DOC)
    async def save_review(request: Request) -> dict[str, Any]:
        """Save a review: the text, the spans the analysis proposed, the spans the reviewer
        decided and those left open; decisions (accepted, rejected, relabelled, widened, added,
        open) and the document's state follow from them. ``effort`` (seconds, actions) is kept
        as counts; ``supersedes`` names the saved review this one edits (it stays in the store)."""
        body = await _json_object(request)
        record = new_review(body.get("text"), body.get("model_spans"), body.get("spans"),
                            reviewer=body.get("reviewer"), model_info=served.info(), open_spans=body.get("open"),
                            effort=body.get("effort"), supersedes=body.get("supersedes"),
                            profile=body.get("profile", served.profile))  # fmt: skip
        review_id = await asyncio.to_thread(store.save, record)
        return {"id": review_id, "sha256": record["sha256"], "spans": len(record["spans"]),
                "open": len(record["open"]), "state": record["state"],
                "decisions": decision_counts(record["decisions"])}  # fmt: skip

    app.include_router(review_routes(store, authorized))
    app.include_router(queue_routes(QueueState(queue, store, served, settings) if queue else None, authorized))

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # the last added is the outermost: the shield around everything, then the time limit
    app.add_middleware(DocumentSlots)  # one document at work, a few waiting (deid.app.service.limits)
    app.add_middleware(BodyLimit, max_bytes=settings.max_bytes)
    app.add_middleware(TimeLimit, seconds=settings.timeout)
    app.add_middleware(ErrorShield)
    return app


# --- requests ------------------------------------------------------------------------------------


def _bearer(token: str | None) -> Any:
    """A dependency that requires ``Authorization: Bearer <token>`` when a token is set."""
    scheme = HTTPBearer(auto_error=False, description="Required when the service has a token.")

    async def check(credentials: HTTPAuthorizationCredentials | None = Depends(scheme)) -> None:  # noqa: B008
        if token is None:
            return
        given = credentials.credentials.encode("utf-8") if credentials else b""
        if not hmac.compare_digest(given, token.encode("utf-8")):
            raise HTTPException(401, "a valid bearer token is required", headers={"WWW-Authenticate": "Bearer"})

    return Depends(check)


async def _read_input(request: Request, settings: ServiceSettings) -> Input:
    """The document of a JSON or multipart request."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        return await _read_form(request, settings)
    body = await _json_object(request)
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise HTTPException(422, "'text' must be a non-empty string")
    return Input(text, None, {k: v for k, v in body.items() if k != "text"})


async def _json_object(request: Request) -> dict[str, Any]:
    body = parse_json(await request.body())
    if not isinstance(body, dict):
        raise HTTPException(422, "the body must be a JSON object")
    return body


async def _read_form(request: Request, settings: ServiceSettings) -> Input:
    form = await request.form(max_files=1, max_fields=MAX_FORM_FIELDS, max_part_size=settings.max_bytes)
    file = form.get("file")
    if file is None or isinstance(file, str):
        raise HTTPException(422, "multipart requests need a 'file' part")
    data = await file.read()
    upload = await asyncio.to_thread(read_upload, file.filename, data, max_bytes=settings.max_bytes)
    fields: dict[str, Any] = {k: v for k, v in form.items() if k != "file" and isinstance(v, str)}
    if "spans" in fields:
        fields["spans"] = parse_json(fields["spans"])
    return Input(upload.doc.text, upload, fields)


def _check_operator(operator: Any, secret: bytes | None) -> None:
    if not isinstance(operator, str):
        raise HTTPException(422, "'operator' must be a string")
    try:
        check_operator(operator)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    if operator == "pseudonymize" and not secret:
        raise HTTPException(422, "pseudonymize needs a secret key: start the service with $DEID_SECRET set")


def _profile(served: ServedModel, value: Any) -> str | None:
    """A request's anonymization profile (None: the served pipeline's); a 422 that names an
    unknown one, or says that the pipeline was evaluated without profiles."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise HTTPException(422, "'profile' must be a string: strict or federal")
    try:
        served.under(value)
    except ProfileError as exc:
        raise HTTPException(422, str(exc)) from None
    return value


def runnable_operators(secret: bytes | None) -> list[str]:
    """The operators this service can run: ``pseudonymize`` needs a key."""
    return [name for name in sorted(OPERATORS) if name != "pseudonymize" or secret]


# --- errors --------------------------------------------------------------------------------------


def _exception_handlers(app: FastAPI) -> None:
    """User errors answer with their one-line message (written to hold no text); validation
    errors without the input FastAPI would echo."""

    def reply(status: int):
        async def handler(request: Request, exc: Exception) -> JSONResponse:
            return JSONResponse({"detail": detail_of(exc)}, status)

        return handler

    for kind, status in STATUS:
        app.add_exception_handler(kind, reply(status))

    async def validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": e.get("loc"), "msg": e.get("msg"), "type": e.get("type")} for e in exc.errors()]
        return JSONResponse({"detail": errors}, 422)

    app.add_exception_handler(RequestValidationError, validation)
