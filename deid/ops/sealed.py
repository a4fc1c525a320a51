"""Sealed copies of a run's inputs: what an anonymize run writes of the decisions before
they are anonymized (the staged S3 objects, the chunk files) is encrypted with a key that
exists only in the run's memory.

A run that fails, is cancelled or is killed with ``kill -9`` cannot always delete its
working copies; sealed, they are unreadable once the run is gone (the key dies with it), and
the next run to the same output redoes them with its own key. ``cryptography``'s Fernet
(AES-128-CBC with HMAC-SHA256, authenticated: a changed file fails to open instead of
decoding to garbage). Only file paths and the key travel between a flow's tasks; the key is
never written, logged or put into an artifact.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

from deid.sources.io import InputError


class Seal:
    """One run's key: ``write`` seals bytes into a file, ``read`` opens one."""

    def __init__(self, key: str | None = None) -> None:
        self.key = key or Fernet.generate_key().decode("ascii")
        self._fernet = Fernet(self.key.encode("ascii"))

    def __repr__(self) -> str:  # never print the key
        return "Seal(<key withheld>)"

    def write(self, path: str | Path, data: bytes) -> None:
        """``data`` sealed into ``path``, atomically (temporary file + rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(self._fernet.encrypt(data))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def read(self, path: str | Path) -> bytes:
        """The bytes sealed in ``path``; :class:`deid.sources.io.InputError` for a file this
        key did not seal (another run's, or changed)."""
        try:
            return self._fernet.decrypt(Path(path).read_bytes())
        except InvalidToken:
            raise InputError(f"{path}: not sealed by this run (another run's copy, or changed)") from None
