"""Which status answers which error a user can fix, in one table: the app's exception
handlers and the streamed analysis (:mod:`deid.app.service.progress`), whose errors arrive
after its response has begun, both answer from it."""

from __future__ import annotations

from fastapi import HTTPException

from deid.anonymizer.budget import OverBudget
from deid.app.service.documents import UnsupportedFormat
from deid.sources.errors import UserError
from deid.sources.io import InputError
from deid.sources.reviews import ReviewError

# the first matching class wins: subclasses before their bases
STATUS: tuple[tuple[type[Exception], int], ...] = (
    (UnsupportedFormat, 415),
    (InputError, 422),
    (ReviewError, 422),
    (OverBudget, 413),
    (UserError, 400),
)


def status_of(exc: BaseException) -> int | None:
    """The status of an error a user can fix (an ``HTTPException``'s own), None for any other."""
    if isinstance(exc, HTTPException):
        return exc.status_code
    return next((status for kind, status in STATUS if isinstance(exc, kind)), None)


def detail_of(exc: BaseException) -> str:
    """Its one-line message (written to hold no text), else its type's name."""
    if isinstance(exc, HTTPException):
        return str(exc.detail)
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
