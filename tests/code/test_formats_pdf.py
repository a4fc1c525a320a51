"""PDF through the format registry: a multi-page PDF typeset here (reportlab) from a real
BVerwG decision is read page by page with page offsets, and written as a redacted PDF in
which the names are no longer extractable (not by PDFium, not in any decompressed stream),
black boxes cover them, and the anonymized text is the invisible text layer. Encrypted,
broken and scanned (text-less) PDFs are quarantined with a reason."""

from __future__ import annotations

import io
import re
import zlib
from pathlib import Path
from xml.sax.saxutils import escape

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.pdfgen import canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate

from deid.anonymizer.writer import anonymize as anonymize_file
from deid.sources import formats
from deid.sources.inputs import iter_input
from deid.sources.io import Rejected
from tests.code.formats_data import name_spans, paragraphs, surnames


def build_pdf(encrypt: StandardEncryption | None = None) -> bytes:
    """The decision typeset on A4 pages (lines wrap, so names also break across lines)."""
    buffer = io.BytesIO()
    style = getSampleStyleSheet()["BodyText"]
    story = [Paragraph(escape(line.replace("\u200c", "")), style) for line in paragraphs()]
    SimpleDocTemplate(buffer, invariant=1, encrypt=encrypt).build(story)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def pdf_data() -> bytes:
    return build_pdf()


def page_texts(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(data)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def words(text: str) -> str:
    return " ".join(text.split())


def test_a_pdf_is_read_page_by_page_with_offsets(pdf_data: bytes) -> None:
    doc = formats.read(pdf_data, name="urteil.pdf")
    assert doc.id == "urteil" and doc.meta["format"] == "pdf"
    pages = page_texts(pdf_data)
    assert len(doc.meta["pages"]) == len(pages) > 3
    for (start, end), page in zip(doc.meta["pages"], pages):
        # a hyphen at a line's end (PDFium: U+FFFE, the line joined) ends the line
        assert doc.text[start:end] == page.replace("\r\n", "\n").replace("\ufffe", "-\n") + "\n"
    assert words(" ".join(paragraphs()).replace("\u200c", "")) == words(doc.text)
    assert any("\n" in doc.text[s.start : s.end] for s in name_spans(doc.text))  # a name across lines


@pytest.mark.slow
def test_the_redacted_pdf_holds_no_name_anywhere(pdf_data: bytes) -> None:
    doc = formats.read(pdf_data, name="urteil.pdf")
    spans = name_spans(doc.text)
    assert len(spans) > 40
    out = anonymize_file(pdf_data, doc, spans, "label")
    # not extractable: neither by PDFium nor in any (decompressed) stream of the file
    extracted = "".join(page_texts(out.data))
    streams = [_inflate(s) for s in re.findall(rb"stream\r?\n(.*?)endstream", out.data, re.DOTALL)]
    for surname in surnames():
        assert surname not in extracted
        assert all(surname.encode() not in body for body in [out.data, *streams])
    # the anonymized text is the invisible text layer, in the original's lines (a name
    # broken over two lines leaves its replacement on the first)
    layer = "".join(page_texts(out.data)).replace("\ufffe", "-")  # PDFium's line-end hyphen
    assert "".join(layer.split()) == "".join(out.text.split())
    assert out.text.count("[PERSON]") == sum(s.label == "PERSON" for s in spans)
    # the same pages, black where the first name was
    original, redacted = pdfium.PdfDocument(pdf_data), pdfium.PdfDocument(out.data)
    assert [p.get_size() for p in original] == [p.get_size() for p in redacted]
    page, box = _first_name_box(original, doc, spans[0])
    image = redacted[page].render(scale=1).to_pil().convert("L")
    height = redacted[page].get_size()[1]
    left, bottom, right, top = box
    pixels = image.crop((int(left) + 1, int(height - top) + 1, int(right) - 1, int(height - bottom) - 1))
    assert pixels.getextrema()[1] < 40  # all black, no glyph edge left
    assert anonymize_file(pdf_data, doc, spans, "label").data == out.data  # no clock, no random id


def _first_name_box(pdf, doc, span) -> tuple[int, tuple[float, float, float, float]]:
    """Page and box (points) of the first character of ``span`` in the original PDF."""
    page = next(i for i, (start, end) in enumerate(doc.meta["pages"]) if start <= span.start < end)
    textpage = pdf[page].get_textpage()
    text = textpage.get_text_range()
    offset = span.start - doc.meta["pages"][page][0]
    index = len(text.replace("\r\n", "\n")[:offset].replace("\n", "\r\n"))
    first = textpage.get_charbox(index)
    last = textpage.get_charbox(index + 4)  # the first five letters: on one line
    return page, (first[0], min(first[1], last[1]), last[2], max(first[3], last[3]))


def _inflate(body: bytes) -> bytes:
    try:
        return zlib.decompress(body.strip())
    except zlib.error:
        return body


def test_encrypted_broken_and_scanned_pdfs_are_quarantined(tmp_path: Path, pdf_data: bytes) -> None:
    (tmp_path / "good.pdf").write_bytes(pdf_data)
    (tmp_path / "locked.pdf").write_bytes(build_pdf(StandardEncryption("geheim", "owner")))
    (tmp_path / "owner.pdf").write_bytes(build_pdf(StandardEncryption("", "owner", canModify=0)))
    (tmp_path / "cut.pdf").write_bytes(pdf_data[:300])
    scan = io.BytesIO()
    page = canvas.Canvas(scan, invariant=1)
    page.rect(72, 72, 300, 500, fill=1)  # a page with only pixels: a scan without OCR
    page.save()
    (tmp_path / "scan.pdf").write_bytes(scan.getvalue())
    items = {Path(i.path).name if isinstance(i, Rejected) else i.id: i for i in iter_input(tmp_path)}
    assert not isinstance(items.pop("good"), Rejected)
    assert {name: item.reason for name, item in items.items()} == {
        "locked.pdf": "encrypted PDF (password-protected): not readable",
        "owner.pdf": "encrypted PDF (it opens without a password but may not be changed)",
        "cut.pdf": "not a valid PDF (PDFium cannot load it)",
        "scan.pdf": "no text layer (a scanned PDF? run OCR first)",
    }


def test_page_images_have_a_pixel_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A poster-sized page is rendered at fewer DPI, never into an image over the bound."""
    import pypdfium2.raw as pdfium_c

    from deid.sources.formats import pdf as pdf_format

    buffer = io.BytesIO()
    poster = canvas.Canvas(buffer, pagesize=(2000, 2000), invariant=1)
    poster.setFont("Helvetica", 40)
    poster.drawString(100, 1000, "Die Zeugin Sabine Kowalczyk sagte aus.")
    poster.save()
    data = buffer.getvalue()
    doc = formats.read(data, name="poster.pdf")
    monkeypatch.setattr(pdf_format, "MAX_PIXELS", 1_000_000)
    out = anonymize_file(data, doc, name_spans(doc.text), "label")
    page = pdfium.PdfDocument(out.data)[0]
    [image] = list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))
    width, height = image.get_px_size()
    assert width * height <= 1_000_000 and width == height > 900
    assert page.get_size() == (2000, 2000) and "Kowalczyk" not in page.get_textpage().get_text_range()
