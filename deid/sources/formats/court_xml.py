"""The XML in which the federal courts publish decisions on rechtsprechung-im-internet.de:
one ``<dokument>`` per zip archive (or as a bare ``.xml``), head elements with the court's
metadata (``doknr``, ``ecli``, ``gertyp``, ``entsch-datum``, ``aktenzeichen``, ``norm`` ...)
and content elements (``titelzeile``, ``leitsatz``, ``tenor``, ``tatbestand``,
``entscheidungsgruende``, ``gruende`` ...) holding XHTML-like markup (``<p>``, ``<br/>``,
``<dl>`` with the paragraph numbers).

The text is every content element's text, blocks as lines; the head goes into
``meta["fields"]`` and is not analyzed (it is public: court, date, file number, norms).
An element this reader does not know counts as content, so nothing unknown escapes the
analysis. The writer replaces the spans' text in the XML text nodes and writes the same
archive (every other member copied as it is) or the same bare file.
"""

from __future__ import annotations

import html.entities
import io
import re
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

ROOT = "dokument"
HEAD = frozenset({
    "doknr", "ecli", "gertyp", "gerort", "gericht", "spruchkoerper", "entsch-datum",
    "aktenzeichen", "doktyp", "norm", "vorinstanz", "region", "mitwirkung", "identifier",
    "coverage", "language", "publisher", "accessRights"
})  # fmt: skip
BLOCKS = frozenset({
    "p", "br", "div", "dl", "dt", "dd", "table", "tr", "td", "th", "li", "ul", "ol", "h1",
    "h2", "h3", "h4", "h5", "h6", "body"
})  # fmt: skip
_NAMED_ENTITY = re.compile(rb"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})


@dataclass
class _Decision:
    tree: etree._ElementTree
    member: str | None  # the XML's name in its zip archive; None for a bare file
    nodes: list[tuple[etree._Element, str]]  # (element, "text" | "tail"): the layout's keys
    parsed: Parsed


class CourtXmlFormat(DocumentFormat):
    name = "court-xml"
    suffixes = (".zip", ".xml")
    media_type = "application/zip"

    def sniff(self, data: bytes) -> bool:
        if data.startswith(b"PK"):
            try:
                names = zipfile.ZipFile(io.BytesIO(data)).namelist()
            except (zipfile.BadZipFile, ValueError, OSError):
                return False
            return sum(n.lower().endswith(".xml") for n in names) == 1 and not any(
                n.startswith("word/") for n in names
            )
        return (
            data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml") and b"<dokument" in data[:4096]
        )

    def parse(self, data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Parsed:
        return _load(data, name, max_bytes).parsed

    def write(
        self, data: bytes, replacements: Sequence[Replacement], max_bytes: int = DEFAULT_MAX_BYTES
    ) -> bytes:
        decision = _load(data, "<court xml>", max_bytes)
        layout = decision.parsed.layout
        for key, edits in plan_edits(layout, len(decision.parsed.text), replacements).items():
            element, attribute = decision.nodes[key]
            setattr(element, attribute, apply_edits(getattr(element, attribute) or "", edits))
        body = xml_bytes(decision.tree)
        return body if decision.member is None else rewrite_zip(data, {decision.member: body})


def _load(data: bytes, name: str, max_bytes: int) -> _Decision:
    member = None
    if data.startswith(b"PK"):
        archive = open_zip(data, name, "decision archive")
        xml_members = [n for n in archive.namelist() if n.lower().endswith(".xml")]
        if len(xml_members) != 1:
            raise InputError(
                f"{name}: the archive holds {len(xml_members)} XML files; a decision archive holds one"
            )
        member = xml_members[0]
        data = read_member(archive, member, name, max_bytes)
    tree = _parse(data, name)
    root = tree.getroot()
    if root.tag != ROOT:
        raise InputError(
            f"{name}: not a court decision XML (root element {str(root.tag)[:40]!r}, expected {ROOT!r})"
        )
    layout, nodes, fields, sections = Layout(), [], {}, []
    for child in root:
        if not isinstance(child.tag, str):
            continue  # a comment or processing instruction between the elements
        if child.tag in HEAD:
            _head_field(child, fields)
            continue
        start = layout.length
        _walk(child, layout, nodes, top=True)
        layout.separator()
        sections.append({"name": child.tag, "start": start, "end": layout.length})
    text = layout.text
    if not text.strip():
        raise InputError(f"{name}: no decision text in the XML")
    meta = {"format": "court-xml", "member": member, "fields": fields, "sections": sections}
    return _Decision(tree, member, nodes, Parsed(text, meta, layout))


def _parse(data: bytes, name: str) -> etree._ElementTree:
    """The XML; HTML entity names (``&auml;``) that the portal's DTD defines are read as
    the characters they stand for, since the DTD is never loaded."""
    if _NAMED_ENTITY.search(data):
        data = _NAMED_ENTITY.sub(_numeric_entity, data)
    return parse_xml(data, name, "the decision")


def _numeric_entity(match: re.Match[bytes]) -> bytes:
    entity = match.group(1).decode("ascii")
    code = html.entities.name2codepoint.get(entity)
    return match.group() if code is None or entity in _XML_ENTITIES else f"&#{code};".encode()


def _head_field(element: etree._Element, fields: dict) -> None:
    """A head element's text into ``fields``; repeated ones (``norm``) as a list; a wrapper
    (``gericht``) by its children."""
    children = [c for c in element if isinstance(c.tag, str)]
    if children and all(c.tag in HEAD for c in children):
        for child in children:
            _head_field(child, fields)
        return
    value = " ".join("".join(element.itertext()).split())
    if element.tag in fields:
        previous = fields[element.tag]
        fields[element.tag] = (
            [*previous, value] if isinstance(previous, list) else [previous, value]
        )
    else:
        fields[element.tag] = value


def _walk(element: etree._Element, layout: Layout, nodes: list, *, top: bool = False) -> None:
    """Text and tail of every element in document order, blocks as lines."""
    block = element.tag in BLOCKS
    if block:
        layout.separator()
    _add(element, "text", layout, nodes)
    for child in element:
        if isinstance(child.tag, str):
            _walk(child, layout, nodes)
        else:  # a comment inside the content: its tail is still text
            _add(child, "tail", layout, nodes)
    if block:
        layout.separator()
    if not top:
        _add(element, "tail", layout, nodes)


def _add(element: etree._Element, attribute: str, layout: Layout, nodes: list) -> None:
    value = getattr(element, attribute)
    if value:
        layout.add_source(value, len(nodes), collapse=True)
        nodes.append((element, attribute))


COURT_XML = CourtXmlFormat()
