"""Word documents (DOCX): the text of the body, tables, headers, footers, footnotes, endnotes
and comments; written back with only the characters of sensitive spans changed.

Every ``w:t`` element (and ``w:delText``, deleted text that tracked changes keep in the
file) is one piece of the layout, so a replacement lands in the run that held the span
and keeps that run's formatting; a span across runs puts its replacement into the first
run and removes its characters from the others. Paragraph ends, tabs and breaks are
separators. Everything else in the package (styles, numbering, images, relationships,
properties) is copied byte for byte. python-docx validates the package and says which
parts are Word text.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from deid.sources.formats.base import (
    DocumentFormat,
    Layout,
    Parsed,
    Replacement,
    apply_edits,
    open_zip,
    parse_xml,
    plan_edits,
    read_member,
    rewrite_zip,
    xml_bytes,
)
from deid.sources.io import DEFAULT_MAX_BYTES, InputError

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
TEXT_TAGS = (f"{W}t", f"{W}delText")
SEPARATORS = {f"{W}tab": "\t", f"{W}br": "\n", f"{W}cr": "\n", f"{W}noBreakHyphen": "-"}
# An encrypted Office file (and an old binary .doc) is an OLE compound file, not a zip
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml"
PART_ORDER = tuple(  # reading order: the body first, then what surrounds it
    f"{_MAIN}.{kind}+xml"
    for kind in ("document.main", "header", "footer", "footnotes", "endnotes", "comments")
)


@dataclass
class _Package:
    trees: dict[str, etree._ElementTree]  # zip member name -> parsed part
    nodes: list[etree._Element]  # the layout's keys index this list
    parsed: Parsed


class DocxFormat(DocumentFormat):
    name = "docx"
    suffixes = (".docx",)
    media_type = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

    def sniff(self, data: bytes) -> bool:
        if not data.startswith(b"PK"):
            return False
        try:
            return "word/document.xml" in zipfile.ZipFile(io.BytesIO(data)).namelist()
        except (zipfile.BadZipFile, ValueError, OSError):
            return False

    def parse(self, data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Parsed:
        return _load(data, name, max_bytes).parsed

    def write(self, data: bytes, replacements: Sequence[Replacement], max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
        package = _load(data, "<docx>", max_bytes)
        edits = plan_edits(package.parsed.layout, len(package.parsed.text), replacements)
        changed: set[str] = set()
        for key, items in edits.items():
            element = package.nodes[key]
            element.text = apply_edits(element.text or "", items)
            element.set(XML_SPACE, "preserve")  # a replacement may start or end with a blank
            changed.add(element.getroottree().docinfo.URL or "")
        members = {member: xml_bytes(tree) for member, tree in package.trees.items() if member in changed}
        return rewrite_zip(data, members)


def _load(data: bytes, name: str, max_bytes: int) -> _Package:
    """The Word text parts of ``data`` parsed, with the text and its layout."""
    if data.startswith(OLE_MAGIC):
        raise InputError(f"{name}: encrypted (password-protected) Word file or old .doc format: not readable")
    archive = open_zip(data, name, "DOCX file")
    total = sum(info.file_size for info in archive.infolist())
    if total > 4 * max_bytes:
        raise InputError(f"{name}: unpacks to {total} bytes, over the limit of {4 * max_bytes} bytes")
    members = _text_parts(data, name)
    trees: dict[str, etree._ElementTree] = {}
    nodes: list[etree._Element] = []
    layout = Layout()
    parts = []
    for member in members:
        tree = parse_xml(read_member(archive, member, name, max_bytes), name, member)
        tree.docinfo.URL = member  # which member an element's edits change
        trees[member] = tree
        start = layout.length
        _walk(tree.getroot(), layout, nodes)
        layout.separator()
        parts.append({"part": member, "start": start, "end": layout.length})
    text = layout.text
    if not text.strip():
        raise InputError(f"{name}: no text in the document")
    return _Package(trees, nodes, Parsed(text, {"format": "docx", "parts": parts}, layout))


def _text_parts(data: bytes, name: str) -> list[str]:
    """Zip member names of the parts that hold text, in reading order (python-docx checks
    that the package is a Word document and reads the content types)."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        package = docx.Document(io.BytesIO(data)).part.package
    except (PackageNotFoundError, zipfile.BadZipFile):
        raise InputError(f"{name}: not a valid DOCX file") from None
    except (ValueError, KeyError, etree.XMLSyntaxError) as exc:
        raise InputError(f"{name}: not a Word document ({type(exc).__name__})") from None
    found = [(PART_ORDER.index(p.content_type), str(p.partname)) for p in package.iter_parts()
             if p.content_type in PART_ORDER]  # fmt: skip
    return [partname.lstrip("/") for _, partname in sorted(found)]


def _walk(element: etree._Element, layout: Layout, nodes: list[etree._Element]) -> None:
    """Text in document order: text elements are pieces, tabs and breaks separators, and
    every paragraph (also one inside a text box) ends with a line end."""
    for child in element:
        tag = child.tag
        if tag in TEXT_TAGS:
            if child.text:
                layout.add(child.text, len(nodes))
                nodes.append(child)
        elif tag in SEPARATORS:
            layout.add(SEPARATORS[tag])
        elif isinstance(tag, str):
            _walk(child, layout, nodes)
            if tag == f"{W}p":
                layout.add("\n")


DOCX = DocxFormat()
