"""Errors a user can fix: a setting, a missing store or model, a refused registry move.

Their message is one line that says what is wrong and what to do, with paths, ids and
counts only, never document text. The ``deid`` command line prints it without a traceback
and exits with status 2; the flows fail with it at once instead of retrying.
"""

from __future__ import annotations


class UserError(Exception):
    """Base of the errors a user can fix; the message is the whole report."""
