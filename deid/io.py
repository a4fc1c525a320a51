"""Reading and writing documents safely.

Bad input never stops a batch: an empty, binary, undecodable or oversized file is reported
(by path, reason, size and hash, never by content) and skipped, the rest goes on. Writes are
atomic (temporary file + rename) so an interrupted run leaves no half-written output and a
re-run can resume from what exists.
"""

from __future__ import annotations

import hashlib
import json
import logging
import lzma
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from deid.schema import Document

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
TEXT_SUFFIXES = (".txt", ".txt.xz")
JSONL_SUFFIXES = (".jsonl", ".jsonl.xz")


class InputError(ValueError):
    """A single input could not be read; the message names path and reason, never content."""


@dataclass(frozen=True)
class Rejected:
    """One input that was skipped, with a reason an operator can act on."""

    path: str
    reason: str
    size: int
    sha256: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "reason": self.reason, "size": self.size, "sha256": self.sha256}


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def text_hash(text: str) -> str:
    """Short, stable fingerprint of a text for logs and reports (never the text itself)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _open_text(path: Path, mode: str = "rt"):
    if path.suffix == ".xz":
        return lzma.open(path, mode, encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Yield one dict per non-empty line; a broken line raises with its line number only."""
    path = Path(path)
    with _open_text(path) as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None


def write_jsonl(path: str | Path, records: Iterable[dict[str, Any]]) -> int:
    """Write records atomically; returns the number written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        if path.suffix == ".xz":
            os.close(fd)
            fh = lzma.open(tmp, "wt", encoding="utf-8")
        else:
            fh = os.fdopen(fd, "w", encoding="utf-8")
        with fh:
            for rec in records:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                count += 1
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count


def write_text_atomic(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_word_list(path: Path) -> frozenset[str]:
    """A bundled xz word list (one word per line); empty when it has not been built."""
    if not path.exists():
        return frozenset()
    with lzma.open(path, "rt", encoding="utf-8") as fh:
        return frozenset(line.strip() for line in fh if line.strip())


def write_word_list(path: Path, words: Iterable[str]) -> None:
    with lzma.open(path, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(words) + "\n")


def read_documents(path: str | Path) -> list[Document]:
    """Read a JSONL file of documents (the data contract), ``.jsonl`` or ``.jsonl.xz``."""
    return [Document.from_dict(rec) for rec in read_jsonl(path)]


def write_documents(path: str | Path, docs: Iterable[Document]) -> int:
    return write_jsonl(path, (d.to_dict() for d in docs))


def decode_text(data: bytes, *, name: str = "<bytes>", max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, str]:
    """Decode a decision's bytes; return ``(text, encoding)`` or raise :class:`InputError`.

    UTF-8 (with or without BOM) first; a file that is not UTF-8 but decodes as Windows-1252
    without control characters is accepted as cp1252 (old court exports are), anything with
    NUL bytes or many control characters is treated as binary.
    """
    if len(data) == 0 or not data.strip():
        raise InputError(f"{name}: empty file")
    if len(data) > max_bytes:
        raise InputError(f"{name}: {len(data)} bytes exceeds the limit of {max_bytes} bytes")
    if b"\x00" in data[:65536]:
        raise InputError(f"{name}: binary content (NUL bytes)")
    try:
        text = data.decode("utf-8-sig")
        encoding = "utf-8"
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
            encoding = "cp1252"
        except UnicodeDecodeError:
            raise InputError(f"{name}: neither UTF-8 nor Windows-1252 text") from None
    controls = sum(1 for ch in text[:65536] if ord(ch) < 32 and ch not in "\n\r\t\f")
    if controls > max(8, len(text[:65536]) // 1000):
        raise InputError(f"{name}: binary content ({controls} control characters)")
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding


def read_text_file(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, str]:
    """Read a plain-text decision (``.txt`` or ``.txt.xz``) with :func:`decode_text`."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(f"{path}: {size} bytes exceeds the limit of {max_bytes} bytes")
    data = lzma.decompress(path.read_bytes()) if path.suffix == ".xz" else path.read_bytes()
    return decode_text(data, name=str(path), max_bytes=max_bytes)


def doc_id_for(path: Path, root: Path | None = None) -> str:
    """A document id from its file name: relative path without suffixes, '/' kept."""
    rel = path.relative_to(root) if root is not None else Path(path.name)
    name = str(rel)
    for suffix in (".xz", ".txt", ".jsonl"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def iter_input(
    source: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> Iterator[Document | Rejected]:
    """Yield documents from a JSONL file, a ``.txt`` file or a directory of them.

    Unreadable inputs are yielded as :class:`Rejected` so the caller can quarantine them
    and go on.
    """
    source = Path(source)
    if source.is_dir():
        files = sorted(
            p for p in source.rglob("*") if p.is_file() and not p.name.startswith(".")
        )
        for path in files:
            yield from _iter_file(path, root=source, max_bytes=max_bytes)
    elif source.is_file():
        yield from _iter_file(source, root=None, max_bytes=max_bytes)
    else:
        raise InputError(f"{source}: no such file or directory")


def _reject(path: Path, reason: str) -> Rejected:
    try:
        data = path.read_bytes()
    except OSError:
        data = b""
    return Rejected(str(path), reason, len(data), sha256_bytes(data))


def _iter_file(path: Path, *, root: Path | None, max_bytes: int) -> Iterator[Document | Rejected]:
    name = path.name
    if name.endswith(JSONL_SUFFIXES):
        try:
            for rec in read_jsonl(path):
                try:
                    yield Document.from_dict(rec)
                except ValueError as exc:
                    yield Rejected(str(path), str(exc), 0, "")
        except (InputError, UnicodeDecodeError, lzma.LZMAError) as exc:
            yield _reject(path, f"unreadable JSONL: {type(exc).__name__}")
        return
    try:
        text, encoding = read_text_file(path, max_bytes=max_bytes)
    except InputError as exc:
        yield _reject(path, str(exc).split(": ", 1)[-1])
        return
    except (OSError, lzma.LZMAError) as exc:
        yield _reject(path, f"unreadable file: {type(exc).__name__}")
        return
    doc_id = doc_id_for(path, root)
    yield Document(id=doc_id, text=text, source=str(path), meta={"encoding": encoding})
