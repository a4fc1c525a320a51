"""HTML: the text a browser shows (``<title>`` and the body; not scripts or styles), read
with the standard library's parser at its positions in the source, so the anonymized page
is the original source with only the text of sensitive spans replaced (HTML-escaped).

Whitespace runs read as one space and block elements (``<p>``, ``<br>``, ``<td>`` ...)
as line ends, as a browser lays them out (``<pre>`` keeps its whitespace). An entity
(``&amp;``, ``&#252;``) reads as its character and is replaced as a whole. Comments are
not text anyone reads but travel with the file, so the writer drops them. Attribute values
(``title``, ``alt``, link targets) are neither analyzed nor changed.
"""

from __future__ import annotations

import bisect
import html
from collections.abc import Sequence
from html.parser import HTMLParser

from deid.sources.formats.base import (
    DocumentFormat,
    Edit,
    Layout,
    Parsed,
    Replacement,
    apply_edits,
    plan_edits,
)
from deid.sources.io import DEFAULT_MAX_BYTES, InputError, decode_text

SKIPPED = frozenset({"script", "style"})
BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "div", "dl",
    "dt", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "head", "header", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section",
    "table", "tbody", "td", "th", "thead", "title", "tr", "ul"
})  # fmt: skip
SOURCE = 0  # the one file place of an HTML layout: the decoded source


class _Reader(HTMLParser):
    """Collects the layout of the visible text and where the comments are."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.layout = Layout()
        self.comments: list[tuple[int, int]] = []
        self._lines = [0] + [i + 1 for i, ch in enumerate(source) if ch == "\n"]
        self._skipping: list[str] = []
        self._pre = 0

    def _pos(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in SKIPPED:
            self._skipping.append(tag)
        elif tag in BLOCKS:
            self.layout.separator()
        self._pre += tag == "pre"

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag in BLOCKS:
            self.layout.separator()

    def handle_endtag(self, tag: str) -> None:
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()
        elif tag in BLOCKS:
            self.layout.separator()
        self._pre -= tag == "pre" and self._pre > 0

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.layout.add_source(data, SOURCE, self._pos(), collapse=not self._pre)

    def handle_entityref(self, name: str) -> None:
        self._reference(f"&{name}")

    def handle_charref(self, name: str) -> None:
        self._reference(f"&#{name}")

    def _reference(self, raw: str) -> None:
        start = self._pos()
        if self.source.startswith(";", start + len(raw)):
            raw += ";"
        if not self._skipping:
            self.layout.add(html.unescape(raw), SOURCE, start, start + len(raw), atomic=True)

    def handle_comment(self, data: str) -> None:
        start = self._pos()
        self.comments.append((start, start + len(data) + 7))  # "<!--" data "-->"


def _read(data: bytes, name: str, max_bytes: int) -> tuple[str, str, _Reader]:
    source, codec = decode_text(data, name=name, max_bytes=max_bytes)
    reader = _Reader(source)
    try:
        reader.feed(source)
        reader.close()
    except (AssertionError, ValueError) as exc:  # the parser's own failures on broken markup
        raise InputError(f"{name}: unreadable HTML ({type(exc).__name__})") from None
    return source, codec, reader


class HtmlFormat(DocumentFormat):
    name = "html"
    suffixes = (".html", ".htm", ".xhtml")
    media_type = "text/html"

    def sniff(self, data: bytes) -> bool:
        start = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")[:256].lower()
        return start.startswith(b"<!doctype html") or b"<html" in start

    def parse(self, data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Parsed:
        _, codec, reader = _read(data, name, max_bytes)
        text = reader.layout.text
        if not text.strip():
            raise InputError(f"{name}: no text in the page")
        return Parsed(text, {"format": self.name, "encoding": codec}, reader.layout)

    def write(
        self, data: bytes, replacements: Sequence[Replacement], max_bytes: int = DEFAULT_MAX_BYTES
    ) -> bytes:
        """The source with the spans' text replaced and comments dropped, in the file's own
        encoding (a character it cannot hold as a character reference)."""
        source, codec, reader = _read(data, "<html>", max_bytes)
        planned = plan_edits(reader.layout, len(reader.layout.text), replacements).get(SOURCE, [])
        edits = [Edit(e.start, e.end, html.escape(e.new, quote=False)) for e in planned]
        for start, end in reader.comments:
            bisect.insort(edits, Edit(start, end, ""), key=lambda e: (e.start, e.end))
        return apply_edits(source, edits).encode(codec, errors="xmlcharrefreplace")


HTML = HtmlFormat()
