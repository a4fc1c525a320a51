"""Errors a user can fix: a setting, a missing store or model, a refused registry move.

Their message is one line that says what is wrong and what to do, with paths, ids and
counts only, never document text. The ``deid`` command line prints it without a traceback
and exits with status 2; the flows fail with it at once instead of retrying.
"""

from __future__ import annotations


class UserError(Exception):
    """Base of the errors a user can fix; the message is the whole report."""


def withheld(exc: BaseException) -> str:
    """An unexpected error named by its type and the file and line it was raised at, with
    its message withheld: some quote their input (a ``UnicodeEncodeError`` holds the whole
    string it could not encode), and that input may be a decision."""
    import traceback
    from pathlib import Path

    frames = traceback.extract_tb(exc.__traceback__)
    place = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}{place} (message withheld: it may quote a document)"
