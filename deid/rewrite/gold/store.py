"""Reading and writing the decisions file safely during hours of interactive work.

Every save is atomic (``deid.sources.io.write_jsonl``). Before writing, the file on disk is compared
with what this session last read or wrote: if someone else changed it meanwhile (a second
session on the same file), nothing is overwritten; the session's state goes to a side file
and the person is told, so neither person's work is lost.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

from deid.rewrite.gold.decisions import DecisionBook
from deid.sources.io import read_jsonl, write_jsonl

logger = logging.getLogger(__name__)


class ConflictError(RuntimeError):
    """The decisions file changed on disk since this session read it."""


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


class DecisionStore:
    """One decisions file, loaded once and saved many times."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._seen: str | None = None

    def load(self) -> DecisionBook:
        """The book in the file (empty if the file does not exist yet)."""
        if not self.path.exists():
            self._seen = None
            return DecisionBook()
        self._seen = _digest(self.path)
        book = DecisionBook.from_records(read_jsonl(self.path))
        logger.info("loaded decisions for %d documents from %s", len(book.docs), self.path)
        return book

    def save(self, book: DecisionBook) -> int:
        """Write the book atomically; raises :class:`ConflictError` (after saving to a side
        file) if the file was changed by someone else since it was loaded."""
        current = _digest(self.path)
        if current != self._seen:
            side = self.path.with_name(f"{self.path.name}.conflict-{os.getpid()}")
            write_jsonl(side, book.records())
            raise ConflictError(
                f"{self.path} was changed by another process; this session's decisions were "
                f"saved to {side} instead"
            )
        count = write_jsonl(self.path, book.records())
        self._seen = _digest(self.path)
        return count
