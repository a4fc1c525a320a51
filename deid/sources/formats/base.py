"""What every document format shares: the reader/writer interface, the layout that maps the
analyzed text back into the file, and safe zip and XML parsing.

A reader turns a file's bytes into the plain text the pipeline analyzes and a *layout*: the
text as a sequence of :class:`Piece`\\ s, each tied to a place in the file (a DOCX ``w:t``
element, an HTML source range, an XML text node, a line of a PDF page). A writer reads the
file again (readers are deterministic, so it gets the same text and layout), turns every
replacement ``(span of the text, new string)`` into edits of those places with
:func:`plan_edits`, and writes the file in its own format. Nothing else in the file changes.
"""

from __future__ import annotations

import bisect
import io
import re
import zipfile
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from deid.schema import Span
from deid.sources.io import DEFAULT_MAX_BYTES, InputError

Replacement = tuple[Span, str]  # a span of the document's text and what replaces it


@dataclass(frozen=True)
class Parsed:
    """A reader's result: the text to analyze, JSON-safe metadata (``meta["format"]`` and
    what the format knows: encoding, page offsets, court metadata ...) and the layout."""

    text: str
    meta: dict[str, Any]
    layout: Layout | None = None


@dataclass(frozen=True)
class Piece:
    """``text[start:end]`` comes from ``source[src_start:src_end]`` of the file place
    ``key``. A plain piece maps character for character; an *atomic* one (a tab element,
    an entity ``&amp;``, a run of whitespace shown as one space) is edited only as a whole.
    A piece without a key is a separator the reader added (a paragraph or page end): it has
    no place in the file, so nothing is edited for it."""

    start: int
    end: int
    key: Hashable | None
    src_start: int = 0
    src_end: int = 0
    atomic: bool = False


@dataclass
class Layout:
    """The pieces of a text, built in reading order with :meth:`add`."""

    pieces: list[Piece] = field(default_factory=list)
    _parts: list[str] = field(default_factory=list)
    _length: int = 0

    @property
    def text(self) -> str:
        return "".join(self._parts)

    @property
    def length(self) -> int:
        """``len(self.text)`` without joining it."""
        return self._length

    def ends_with(self, chars: str) -> bool:
        """Whether the text so far is empty or ends with one of ``chars``."""
        return not self._parts or self._parts[-1][-1:] in chars

    def add(
        self, text: str, key: Hashable | None = None, src_start: int = 0,
        src_end: int | None = None, *, atomic: bool = False,
    ) -> None:  # fmt: skip
        """Append ``text``; ``key``/``src_*``: where it is in the file (None: a separator)."""
        if not text:
            return
        end = src_start + len(text) if src_end is None else src_end
        self.pieces.append(Piece(self._length, self._length + len(text), key, src_start, end, atomic))
        self._parts.append(text)
        self._length += len(text)

    def add_source(self, source: str, key: Hashable, offset: int = 0, *, collapse: bool) -> None:
        """Append a text node of the file (``source`` at ``offset`` in place ``key``); with
        ``collapse`` every run of whitespace reads as one space, edited as a whole, and none
        at the start of a line (HTML and XML render whitespace so)."""
        if not collapse:
            self.add(source, key, offset)
            return
        pos = 0
        for match in _WHITESPACE.finditer(source):
            self.add(source[pos : match.start()], key, offset + pos)
            if not self.ends_with(" \n"):
                self.add(" ", key, offset + match.start(), offset + match.end(), atomic=True)
            pos = match.end()
        self.add(source[pos:], key, offset + pos)

    def separator(self, chars: str = "\n") -> None:
        """A line or paragraph end the file has as structure, not as text."""
        if not self.ends_with("\n"):
            self.add(chars)


_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Edit:
    """Replace ``source[start:end]`` of one file place by ``new``."""

    start: int
    end: int
    new: str


def plan_edits(layout: Layout, text_length: int, replacements: Sequence[Replacement]) -> dict[Hashable, list[Edit]]:
    """The edits of each file place that carry out ``replacements`` (spans of the text).

    A span inside one piece becomes one edit. A span over several pieces (a name across
    two runs, a tag or a line end) puts its whole replacement into the first piece it
    touches, so it takes that piece's formatting, and deletes its characters from the
    others; separators are skipped. Edits per place come sorted and disjoint.
    """
    starts = [p.start for p in layout.pieces]
    edits: dict[Hashable, list[Edit]] = {}
    previous_end = -1
    for span, new in sorted(replacements, key=lambda r: (r[0].start, r[0].end)):
        if span.start < previous_end or span.end > text_length:
            raise ValueError(f"replacement {span.start}..{span.end} overlaps another or leaves the text")
        previous_end = span.end
        first = True
        for piece in layout.pieces[max(0, bisect.bisect_right(starts, span.start) - 1) :]:
            if piece.start >= span.end:
                break
            if piece.end <= span.start or piece.key is None:
                continue
            edits.setdefault(piece.key, []).append(_edit(piece, span, new if first else ""))
            first = False
    return {key: sorted(items, key=lambda e: (e.start, e.end)) for key, items in edits.items()}


def _edit(piece: Piece, span: Span, new: str) -> Edit:
    if piece.atomic:
        return Edit(piece.src_start, piece.src_end, new)
    start = piece.src_start + max(span.start, piece.start) - piece.start
    end = piece.src_start + min(span.end, piece.end) - piece.start
    return Edit(start, end, new)


def apply_edits(source: str, edits: Sequence[Edit]) -> str:
    """``source`` with sorted, disjoint ``edits`` applied."""
    parts, pos = [], 0
    for edit in edits:
        if edit.start < pos:
            raise ValueError(f"edits overlap at {edit.start}")
        parts.append(source[pos : edit.start])
        parts.append(edit.new)
        pos = edit.end
    parts.append(source[pos:])
    return "".join(parts)


class DocumentFormat:
    """One file format: how to recognize, read and write it. Subclasses set the class
    attributes and implement :meth:`parse` and :meth:`write`."""

    name: str = ""
    suffixes: tuple[str, ...] = ()  # lower case, with the dot; the first names outputs
    media_type: str = "application/octet-stream"
    writes: bool = True  # whether write() gives the anonymized file in this format

    @property
    def output_suffix(self) -> str:
        return self.suffixes[0]

    def sniff(self, data: bytes) -> bool:
        """Whether a file whose name says nothing is of this format (a cheap look)."""
        return False

    def parse(self, data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Parsed:
        """The text, metadata and layout of ``data``; :class:`InputError` with a reason
        (never content) when it cannot be read."""
        raise NotImplementedError

    def write(self, data: bytes, replacements: Sequence[Replacement], max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
        """The file ``data`` with every replacement (spans of the text :meth:`parse` gives)
        carried out and everything else kept."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<format {self.name}>"


# --- safe containers ---------------------------------------------------------------------


def open_zip(data: bytes, name: str, what: str) -> zipfile.ZipFile:
    """``data`` as a zip archive or :class:`InputError` naming ``what`` it should be."""
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise InputError(f"{name}: not a valid {what} (broken zip archive)") from None


def read_member(archive: zipfile.ZipFile, member: str, name: str, max_bytes: int) -> bytes:
    """One member, refused when it unpacks beyond ``max_bytes`` (a zip bomb) or is broken."""
    info = archive.getinfo(member)
    if info.file_size > max_bytes:
        raise InputError(f"{name}: {member} unpacks to {info.file_size} bytes, over the limit of {max_bytes} bytes")
    if info.flag_bits & 0x1:
        raise InputError(f"{name}: encrypted zip archive")
    try:
        with archive.open(info) as fh:
            data = fh.read(max_bytes + 1)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError) as exc:
        raise InputError(f"{name}: broken zip member {member} ({type(exc).__name__})") from None
    if len(data) > max_bytes:
        raise InputError(f"{name}: {member} unpacks beyond the limit of {max_bytes} bytes")
    return data


def rewrite_zip(data: bytes, replaced: dict[str, bytes]) -> bytes:
    """The archive ``data`` with the members in ``replaced`` swapped, every other member
    copied as it is, in the same order, names, dates and compression."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            body = replaced.get(info.filename)
            target.writestr(info, body if body is not None else source.read(info))
    return out.getvalue()


def xml_parser() -> etree.XMLParser:
    """An XML parser that never loads a DTD, resolves an external entity or goes online."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def parse_xml(data: bytes, name: str, what: str) -> etree._ElementTree:
    try:
        return etree.parse(io.BytesIO(data), xml_parser())
    except etree.XMLSyntaxError as exc:
        line = getattr(exc, "lineno", None) or "?"
        raise InputError(f"{name}: {what} is not well-formed XML (line {line})") from None


def xml_bytes(tree: etree._ElementTree) -> bytes:
    """The tree as a file again, with its declaration's encoding, its standalone flag when
    it says yes (lxml reads an absent flag as no) and its document type."""
    info = tree.docinfo
    return etree.tostring(
        tree, xml_declaration=True, encoding=info.encoding or "UTF-8", standalone=info.standalone or None
    )
