"""Plain text and JSONL through the format registry: a real decision as UTF-8, Windows-1252
(CRLF) and xz-compressed file is read with offsets into the file as its user reads it and
written back as UTF-8 with only the spans replaced; formats are picked by suffix, else by
content; JSONL stays a collection read record by record."""

from __future__ import annotations

import codecs
import lzma
from pathlib import Path

import pytest

from deid.anonymizer.writer import anonymize as anonymize_file
from deid.sources import formats
from deid.sources.inputs import iter_input
from deid.sources.io import InputError
from tests.code.formats_data import decision, name_spans, surnames


@pytest.mark.parametrize(
    "encode, codec",
    [
        (lambda t: t.encode("utf-8"), "utf-8"),
        (lambda t: t.replace("\n", "\r\n").replace("\u200c", "").encode("cp1252"), "cp1252"),
        (lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), "utf-8-sig"),
    ],
    ids=["utf8", "cp1252_crlf", "utf8_bom"],
)
def test_text_is_read_as_the_user_has_it_and_written_as_utf8(encode, codec) -> None:
    data = encode(decision())
    doc = formats.read(data, name="urteil.txt")
    assert doc.id == "urteil" and doc.meta == {"encoding": codec}  # no format key: text
    assert doc.text == data.decode(codec) and formats.format_of(doc).name == "text"
    out = anonymize_file(data, doc, name_spans(doc.text), "label")
    assert out.data == out.text.encode("utf-8-sig" if codec == "utf-8-sig" else "utf-8")
    assert all(name not in out.text for name in surnames()) and out.text.count("\r\n") == doc.text.count("\r\n")


def test_formats_are_picked_by_suffix_then_by_content(tmp_path: Path) -> None:
    text = decision()
    assert formats.detect("a.TXT", b"").name == "text" and formats.detect("b.jsonl.xz", b"").name == "jsonl"
    assert formats.detect("c.docx", b"").name == "docx"
    assert formats.detect("no-suffix", text.encode()).name == "text"
    assert formats.strip_suffix("dir/urteil.txt.xz") == "dir/urteil" and formats.strip_suffix("x.md") == "x.md"
    packed = tmp_path / "urteil.txt.xz"
    packed.write_bytes(lzma.compress(text.encode("utf-8")))
    [doc] = iter_input(packed)
    assert doc.id == "urteil" and doc.text == text and doc.source == str(packed)


def test_jsonl_is_a_collection_not_a_single_document() -> None:
    with pytest.raises(InputError, match="holds several documents"):
        formats.read(b'{"id": "a", "text": "Der Kl\xc3\xa4ger"}\n', name="docs.jsonl")
    assert not formats.get("jsonl").writes
    with pytest.raises(ValueError, match="unknown document format 'odt'"):
        formats.get("odt")
