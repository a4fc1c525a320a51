"""Reading and writing documents safely.

Bad input never stops a batch: an empty, binary, undecodable or oversized file, and every
bad record of a JSONL file, is reported (by path, line, id, reason, size and hash, never by
content) and skipped, the rest goes on. A document's text is its file's text exactly as the
user has it (only a byte-order mark is not text), so offsets index the user's file. Writes
are atomic (temporary file + rename) so an interrupted run leaves no half-written output and
a re-run can resume from what exists.
"""

from __future__ import annotations

import bisect
import codecs
import hashlib
import json
import logging
import lzma
import os
import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Iterator

from deid.schema import Document, Span

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
TEXT_SUFFIXES = (".txt", ".txt.xz")
JSONL_SUFFIXES = (".jsonl", ".jsonl.xz")
# Byte-order marks and the codec that decodes the file without them (UTF-16 needs its BOM:
# without one it is indistinguishable from binary and is rejected as such)
BOM_CODECS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class InputError(ValueError):
    """A single input could not be read; the message names path and reason, never content."""


@dataclass(frozen=True)
class Rejected:
    """One input that was skipped, with a reason an operator can act on."""

    path: str
    reason: str
    size: int
    sha256: str
    line: int | None = None  # the record's line in a JSONL file
    id: str | None = None  # the record's id, when it has a readable one

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path}
        out.update({k: v for k, v in (("line", self.line), ("id", self.id)) if v is not None})
        return {**out, "reason": self.reason, "size": self.size, "sha256": self.sha256}


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def text_hash(text: str) -> str:
    """Short, stable fingerprint of a text for logs and reports (never the text itself)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def log_ref(value: str) -> str:
    """A document id or input path as logs and artifacts show it: its :func:`text_hash`. A
    file named after a party makes its id and path a name; outputs keep the id the user
    gave, from which an operator computes the same hash. Undecodable file names hash too."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:16]


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
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write a file atomically (temporary file + rename): never half written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
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


def documents_sha256(docs: Iterable[Document]) -> str:
    """sha256 of documents as the data contract writes them (one canonical JSON line each,
    in order): which gold documents an evaluation scored, comparable with the committed
    gold set (deid.ops.gate)."""
    digest = hashlib.sha256()
    for doc in docs:
        line = json.dumps(doc.to_dict(), sort_keys=True, ensure_ascii=False) + "\n"
        digest.update(line.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def read_documents(path: str | Path) -> list[Document]:
    """Read a JSONL file of documents (the data contract), ``.jsonl`` or ``.jsonl.xz``."""
    return [Document.from_dict(rec) for rec in read_jsonl(path)]


def write_documents(path: str | Path, docs: Iterable[Document]) -> int:
    return write_jsonl(path, (d.to_dict() for d in docs))


def decode_text(
    data: bytes, *, name: str = "<bytes>", max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[str, str]:
    """Decode a decision's bytes; return ``(text, codec)`` or raise :class:`InputError`.

    ``text == data.decode(codec)`` exactly: line ends are kept and only a byte-order mark is
    dropped, so every offset into ``text`` points at the file as its user reads it. A BOM
    decides the codec (``utf-8-sig``, ``utf-16``); else UTF-8, and Windows-1252 (old court
    exports) only for bytes that are not plausibly UTF-8 (see :func:`_utf8_or_cp1252`).
    NUL bytes or many control characters mean binary.
    """
    if len(data) == 0 or not data.strip():
        raise InputError(f"{name}: empty file")
    if len(data) > max_bytes:
        raise InputError(f"{name}: {len(data)} bytes exceeds the limit of {max_bytes} bytes")
    codec = next((c for bom, c in BOM_CODECS if data.startswith(bom)), None)
    if codec is None and b"\x00" in data[:65536]:
        raise InputError(f"{name}: binary content (NUL bytes)")
    try:
        text, codec = (data.decode(codec), codec) if codec else _utf8_or_cp1252(data, name)
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not valid {codec} (byte {exc.start})") from None
    if not text.strip():
        raise InputError(f"{name}: empty file")
    controls = sum(1 for ch in text[:65536] if ord(ch) < 32 and ch not in "\n\r\t\f")
    if controls > max(8, len(text[:65536]) // 1000):
        raise InputError(f"{name}: binary content ({controls} control characters)")
    return text, codec


def _utf8_or_cp1252(data: bytes, name: str) -> tuple[str, str]:
    """UTF-8, or Windows-1252 when the bytes hold no more valid UTF-8 sequences than invalid
    bytes: a cp1252 German text has an invalid byte at every umlaut and hardly ever a valid
    sequence, while a UTF-8 file with one broken or truncated sequence has many valid ones;
    guessing cp1252 there would garble every umlaut, so it is rejected instead. A file that
    is valid UTF-8 up to a multi-byte character cut at its very end (an all-ASCII text cut
    inside a final "ü") was truncated: rejected too, never read as cp1252."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        first = exc.start
        if exc.end == len(data) and exc.reason == "unexpected end of data":
            try:  # only the last character is cut: a UTF-8 file truncated, not a cp1252 one
                data[: exc.start].decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                raise InputError(f"{name}: not valid UTF-8 (cut inside its last character, byte {first})") from None
    escaped = data.decode("utf-8", "surrogateescape")  # each invalid byte -> one U+DC80..DCFF
    invalid = sum(1 for ch in escaped if "\udc80" <= ch <= "\udcff")
    if sum(1 for ch in escaped if ord(ch) > 127) - invalid >= invalid:
        raise InputError(
            f"{name}: not valid UTF-8 ({invalid} invalid bytes, first at byte {first})"
        )
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        raise InputError(f"{name}: neither UTF-8 nor Windows-1252 text") from None


@dataclass(frozen=True)
class LfView:
    """A text with every line end as ``"\\n"``, what the rules and models were built and
    validated on (a ``\\s`` in a rule matches one character, so ``"\\r\\n"`` changes what
    it spans), and the way back: ``dropped`` lists the view positions whose ``"\\r"`` of a
    ``"\\r\\n"`` was dropped, so spans found in the view index the original text."""

    text: str
    dropped: tuple[int, ...] = ()

    @classmethod
    def of(cls, text: str) -> LfView:
        if "\r" not in text:
            return cls(text)
        dropped = tuple(m.start() - i for i, m in enumerate(re.finditer("\r\n", text)))
        return cls(text.replace("\r\n", "\n").replace("\r", "\n"), dropped)

    def to_original(self, spans: Iterable[Span]) -> list[Span]:
        """``spans`` of the view at the same characters of the original text (a span that
        ends on a line end takes its whole ``"\\r\\n"``)."""
        return [self._shift(s) for s in spans] if self.dropped else list(spans)

    def _shift(self, span: Span) -> Span:
        start = span.start + bisect.bisect_right(self.dropped, span.start)
        return replace(span, start=start, end=span.end + bisect.bisect_left(self.dropped, span.end))


def unsafe_id(doc_id: str) -> str | None:
    """Why ``doc_id`` cannot name an output file below an output folder, or None. Ids name
    files (``deid anonymize --output DIR``), so one that is absolute, climbs with ``..`` or
    holds a backslash or a control character would write outside the folder or confuse it."""
    if not doc_id.strip():
        return "unsafe id: empty"
    if doc_id.startswith("/") or "\\" in doc_id:
        return "unsafe id: an absolute path or a backslash"
    if any(part in ("", ".", "..") for part in doc_id.split("/")):
        return "unsafe id: an empty, '.' or '..' path part"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in doc_id):
        return "unsafe id: a control character"
    return None


def output_path(folder: str | Path, doc_id: str, suffix: str) -> Path:
    """The file ``<folder>/<doc_id><suffix>``; raises :class:`InputError` for an id that
    would leave ``folder`` (also through a symbolic link inside it)."""
    folder = Path(folder)
    reason = unsafe_id(doc_id)
    path = folder / f"{doc_id}{suffix}"
    if reason is None and not path.resolve().is_relative_to(folder.resolve()):
        reason = "unsafe id: leads outside the output folder"
    if reason:
        raise InputError(f"document id refused as a file name ({reason})")
    return path


def tree_sha256(path: str | Path) -> str:
    """sha256 over a file, or a folder's relative file names and contents: what a model
    directory is, wherever it was copied or downloaded to."""
    path = Path(path)
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.relative_to(path).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        with open(file, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()
