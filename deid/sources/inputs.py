"""Walking an input into documents: a JSONL file, a single file of any format the registry
reads (``deid.sources.formats``) or a folder of them, with every unreadable file and bad
record yielded as a :class:`deid.sources.io.Rejected` to quarantine. Apart from ``io`` so that
``io`` stays below the format readers (they import it) and this module above them."""

from __future__ import annotations

import codecs
import hashlib
import io
import json
import lzma
from collections.abc import Callable
from pathlib import Path
from typing import Any, Iterator

from deid.schema import Document
from deid.sources.formats import read, read_path, strip_suffix
from deid.sources.io import (
    DEFAULT_MAX_BYTES,
    JSONL_SUFFIXES,
    UTF16_BOMS,
    InputError,
    Rejected,
    sha256_bytes,
    unsafe_id,
)
from deid.sources.records import parse_record, record_id


def doc_id_for(path: Path, root: Path | None = None) -> str:
    """A document id from its file name: relative path without the suffix of its format
    (``deid.sources.formats``: ``.txt.xz``, ``.docx``, ``.pdf`` ...), '/' kept."""
    rel = path.relative_to(root) if root is not None else Path(path.name)
    return strip_suffix(str(rel))



ReadBytes = Callable[[Path], bytes]


def iter_input(
    source: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES, read_bytes: ReadBytes | None = None
) -> Iterator[Document | Rejected]:
    """Yield documents from a JSONL file, a single-document file of any format the
    registry reads (``deid.sources.formats``: text, DOCX, PDF, HTML, court XML) or a directory of
    them. ``read_bytes``: how a file's bytes are read (default: from disk, ``.xz`` unpacked;
    a staged input opens its sealed copies, ``deid.ops.chunks``).

    Unreadable inputs, and every bad record of a JSONL file, are yielded as
    :class:`Rejected` so the caller can quarantine them and go on. In a directory, a symbolic
    link to anything outside it is refused, never read, and so is a hidden file or folder
    (its name starts with "."; a folder once, not what it holds): an editor's lock file, a
    copy a program left, a version-control folder, none of them a decision to publish.
    """
    source = Path(source)
    if source.is_dir():
        root = source.resolve()
        hidden: list[Path] = []
        for path in sorted(source.rglob("*")):
            if any(path.is_relative_to(folder) for folder in hidden):
                continue  # inside a hidden folder: quarantined as the folder
            problem = _link_problem(path, root) or _name_problem(path) or _hidden_problem(path)
            if path.name.startswith(".") and path.is_dir() and not path.is_symlink():
                hidden.append(path)
            if problem:
                yield _reject(path, problem) if path.is_file() and not path.is_symlink() else Rejected(
                    _printable(str(path)), problem, 0, "")  # fmt: skip
            elif path.is_file():
                yield from _iter_file(path, root=source, max_bytes=max_bytes, read_bytes=read_bytes)
    elif source.is_file():
        yield from _iter_file(source, root=None, max_bytes=max_bytes, read_bytes=read_bytes)
    else:
        raise InputError(f"{source}: no such file or directory")


def _link_problem(path: Path, root: Path) -> str | None:
    """A symbolic link that is broken or leads outside ``root`` (resolved) is refused."""
    if not path.is_symlink():
        return None
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "broken symbolic link"
    return None if target.is_relative_to(root) else "symbolic link to outside the input folder"


def _hidden_problem(path: Path) -> str | None:
    """A hidden file or folder (its name starts with ".") is not read: quarantined."""
    if not path.name.startswith("."):
        return None
    kind = "folder" if path.is_dir() else "file"
    return f"hidden {kind} (its name starts with '.'): not read"


def _name_problem(path: Path) -> str | None:
    """A file name that is not UTF-8 cannot become a document id (it would not encode)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return "file name is not valid UTF-8"
    return None


def _printable(text: str) -> str:
    """``text`` as valid UTF-8 (undecodable file-name bytes as backslash escapes)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _reject(path: Path, reason: str, read_bytes: ReadBytes | None = None) -> Rejected:
    """A rejected file by its size and sha256 (of the bytes it holds: a staged copy's as
    opened, not as sealed)."""
    if read_bytes is not None:
        try:
            data = read_bytes(path)
        except (OSError, InputError, EOFError, lzma.LZMAError):
            data = b""
        return Rejected(str(path), reason, len(data), sha256_bytes(data))
    digest, size = hashlib.sha256(), 0
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
                size += len(block)
    except OSError:
        digest, size = hashlib.sha256(), 0
    return Rejected(str(path), reason, size, digest.hexdigest())


def _iter_file(
    path: Path, *, root: Path | None, max_bytes: int, read_bytes: ReadBytes | None
) -> Iterator[Document | Rejected]:
    if path.name.endswith(JSONL_SUFFIXES):
        yield from _iter_jsonl(path, max_bytes=max_bytes, read_bytes=read_bytes)
        return

    try:
        if read_bytes is None:
            yield read_path(path, doc_id_for(path, root), max_bytes=max_bytes)
        else:
            yield read(read_bytes(path), name=str(path), doc_id=doc_id_for(path, root), max_bytes=max_bytes,
                       source=str(path))  # fmt: skip
    except InputError as exc:
        yield _reject(path, str(exc).removeprefix(f"{path}: "), read_bytes)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        yield _reject(path, f"unreadable file: {type(exc).__name__}", read_bytes)


def _iter_jsonl(path: Path, *, max_bytes: int, read_bytes: ReadBytes | None = None) -> Iterator[Document | Rejected]:
    """Every record on its own: a bad one is rejected with its line number (and id when it
    has a readable one) and the lines after it are still read."""
    lineno, name = 0, str(path)
    try:
        if read_bytes is not None:
            opened: Any = io.BytesIO(read_bytes(path))
        else:
            opened = lzma.open(path, "rb") if path.suffix == ".xz" else open(path, "rb")  # noqa: SIM115 - closed by the with below
        with opened as fh:
            for lineno, line in enumerate(_lines(fh, max_bytes), 1):
                if isinstance(line, int):
                    reason = f"line of {line} bytes exceeds the limit of {max_bytes} bytes"
                    yield Rejected(name, reason, line, "", lineno)
                elif lineno == 1 and line.startswith(UTF16_BOMS):
                    yield _reject(path, "JSONL must be UTF-8 (it starts with a UTF-16 BOM)", read_bytes)
                    return
                elif line.strip():
                    yield _record(path, lineno, line.removeprefix(codecs.BOM_UTF8))
    except (OSError, EOFError, lzma.LZMAError) as exc:
        reason = f"unreadable from this line on ({type(exc).__name__})"
        yield Rejected(name, reason, 0, "", lineno + 1)


def _lines(fh: Any, max_bytes: int) -> Iterator[bytes | int]:
    """The lines of a binary file; one longer than ``max_bytes`` comes back as its length
    only (skipped without holding it in memory)."""
    while line := fh.readline(max_bytes + 1):
        if len(line) <= max_bytes or line.endswith(b"\n"):
            yield line
            continue
        size = len(line)
        while not line.endswith(b"\n") and (line := fh.readline(1 << 20)):
            size += len(line)
        yield size


def _record(path: Path, lineno: int, line: bytes) -> Document | Rejected:
    """One JSONL line as a document, or rejected with the reason: the schema of
    :mod:`deid.sources.records` (pydantic: bounded nesting, numbers and sizes; integer
    offsets inside the text), then what a document id may be (never quoting content)."""
    rec: dict[str, Any] | None = None
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason: str | None = f"not valid UTF-8 (byte {exc.start} of the line)"
    else:
        rec, reason = parse_record(line)
    if rec is not None:
        reason = _unencodable(rec) or unsafe_id(rec["id"])
    if reason is None and rec is not None:
        return Document.from_dict(rec)
    doc_id = _reportable_id(rec["id"] if rec is not None else record_id(line))
    return Rejected(str(path), reason or "", len(line), sha256_bytes(line), lineno, doc_id)


def _unencodable(rec: dict[str, Any]) -> str | None:
    """A string that is not Unicode (a lone surrogate): it could never be written out."""
    try:
        json.dumps(rec, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate such as \\ud800 (not valid Unicode)"
    return None


def _reportable_id(value: Any) -> str | None:
    """An id fit for a quarantine row: a string or number that encodes as UTF-8."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    try:
        str(value).encode("utf-8")
    except UnicodeEncodeError:
        return None
    return str(value)
