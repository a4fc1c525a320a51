"""HTML through the format registry: a web page built here from a real BVerwG decision (a
title, a style sheet, a script, paragraphs, a name split over <b> and <i>, entities, a
table, a comment naming a witness) is read as the text a browser shows and written back
with the same markup and only the names replaced; a Windows-1252 page stays Windows-1252."""

from __future__ import annotations

import html
from html.parser import HTMLParser
from pathlib import Path

from deid.anonymizer.writer import anonymize as anonymize_file
from deid.sources import formats
from deid.sources.inputs import iter_input
from deid.sources.io import Rejected
from tests.code.formats_data import NAMES, name_spans, paragraphs, surnames

SPLIT_NAME = NAMES["Zeugin S."]
FIRST, LAST = SPLIT_NAME.split()
OTHER = NAMES["Zeugin N."]


def build_html() -> str:
    lines = paragraphs()
    body = []
    for i, line in enumerate(lines):
        escaped = html.escape(line, quote=False)
        if i == 5:  # umlauts as entities, named and numeric, as old exports have them
            escaped = escaped.replace("ü", "&uuml;").replace("ä", "&#228;")
        body.append(f"    <p>{escaped}\n    </p>")
    first = next(i for i, line in enumerate(body) if SPLIT_NAME in line)
    body[first] = body[first].replace(SPLIT_NAME, f"<b>{FIRST}</b>\n      <i>{LAST}</i>", 1)
    body.insert(first + 1, f"<table><tr><td>Zeugin</td><td>{SPLIT_NAME}</td></tr></table>")
    return (
        "<!DOCTYPE html>\n<html lang=\"de\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>BVerwG 2 A 7.23 &ndash; Zeugin {SPLIT_NAME}</title>\n"
        "<style>p { margin: 0 }</style>\n<script>var az = \"2 A 7.23\";</script>\n</head>\n<body>\n"
        f"<!-- Bearbeitung: Zeugin {OTHER} -->\n<h1>Urteil</h1>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(f"<{tag} {attrs}>")

    def handle_endtag(self, tag) -> None:
        self.tags.append(f"</{tag}>")


def tags(source: str) -> list[str]:
    parser = _Tags()
    parser.feed(source)
    return parser.tags


def test_a_page_is_read_as_its_visible_text() -> None:
    doc = formats.read(build_html().encode("utf-8"), name="urteil.html")
    assert doc.id == "urteil" and doc.meta == {"format": "html", "encoding": "utf-8"}
    assert doc.text.startswith(f"BVerwG 2 A 7.23 – Zeugin {SPLIT_NAME}\nUrteil\n")  # title, entity read
    for line in paragraphs():
        assert line in doc.text  # entities, the split name and source line breaks read as shown
    assert f"Zeugin\n{SPLIT_NAME}\n" in doc.text and "var az" not in doc.text and "margin" not in doc.text
    assert OTHER not in doc.text.split("\n")[0] and "Bearbeitung" not in doc.text  # a comment is no text


def test_the_anonymized_page_keeps_its_markup_and_loses_the_names() -> None:
    source = build_html()
    data = source.encode("utf-8")
    doc = formats.read(data, name="urteil.html")
    spans = name_spans(doc.text)
    out = anonymize_file(data, doc, spans, "label")
    written = out.data.decode("utf-8")
    assert all(surname not in written for surname in surnames())  # also the comment is gone
    assert tags(written) == tags(source)  # the same elements with the same attributes
    assert "<b>[PERSON]</b><i></i>" in written  # the split name (and the blank in it) in its first element
    assert "<title>BVerwG 2 A 7.23 &ndash; Zeugin [PERSON]</title>" in written
    assert formats.read(out.data, name="out.html").text == out.text
    assert out.text.count("[PERSON]") == sum(s.label == "PERSON" for s in spans)
    # outside the spans (and the comment) the source is the original, character for character
    assert written.replace("[PERSON]", "").replace("[ID]", "") == _strip(source, doc.text, spans)


def _strip(source: str, text: str, spans) -> str:
    """The source without the spans' characters and without the comment."""
    out = source.replace(f"<!-- Bearbeitung: Zeugin {OTHER} -->", "")
    out = out.replace(f"<b>{FIRST}</b>\n      <i>{LAST}</i>", "<b></b><i></i>")
    for surface in {text[s.start : s.end] for s in spans}:
        out = out.replace(surface, "")
    return out


def test_a_windows_1252_page_stays_windows_1252(tmp_path: Path) -> None:
    source = build_html().replace('charset="utf-8"', 'charset="windows-1252"').replace("\u200c", "")
    (tmp_path / "alt.htm").write_bytes(source.encode("cp1252"))
    (tmp_path / "leer.html").write_bytes(b"<html><body><script>var x = 1;</script></body></html>")
    items = {Path(i.path).name if isinstance(i, Rejected) else i.id: i for i in iter_input(tmp_path)}
    assert items["leer.html"].reason == "no text in the page"
    doc = items["alt"]
    assert doc.meta["encoding"] == "cp1252" and SPLIT_NAME in doc.text
    out = anonymize_file((tmp_path / "alt.htm").read_bytes(), doc, name_spans(doc.text), "mask")
    written = out.data.decode("cp1252")  # the mask character, not in cp1252, as a reference
    assert "&#9608;" * len(LAST) in written and all(s not in written for s in surnames())
