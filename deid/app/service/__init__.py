"""The review workbench's REST service: ``deid serve``.

FastAPI on uvicorn, loopback by default. ``POST /analyze`` and ``POST /anonymize`` take text
(JSON) or a file (multipart), ``GET /models`` says which model serves and what the registry
holds, ``GET /health`` answers without a token, ``POST /reviews`` saves a review
(:mod:`deid.sources.reviews`), ``/`` is the review page (static files in ``static/``, no build step,
nothing fetched from elsewhere) and ``/docs`` the OpenAPI page (served from the
fastapi-offline package, no CDN).

Guards: a body size limit, a time limit per request, a bearer token whenever the service
listens beyond loopback, and logs that hold methods, paths, statuses, ids, hashes and counts
only: query strings are cut from the access log and an unexpected error is logged by its
type and place, never its message or a traceback (either may quote a document).
"""
