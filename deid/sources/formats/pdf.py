"""PDF: the text layer page by page (PDFium via pypdfium2), page offsets in
``meta["pages"]``; written as a redacted PDF whose sensitive text is gone, not hidden.

Drawing a black box over a name leaves the name in the content stream, where any text
extractor finds it, and rewriting content streams in place is not something a well-kept
permissive library does. So the writer rebuilds every page: PDFium renders it to an image
(without annotations or form fields, whose text is not analyzed), black boxes cover the
character boxes of every span, and reportlab writes a new PDF of those images with the
anonymized text as an invisible text layer at each line's place (searchable and copyable
like an OCR layer). Nothing of the original file but its pixels survives: no text objects,
fonts, metadata, attachments or form data. Offsets: each page's lines in reading order,
``"\\n"`` after every line, one more between pages.

A PDF without a text layer (a scan) is refused ("run OCR first"); an encrypted PDF, also
one that opens without a password, is refused too: its permissions forbid changing it.
"""

from __future__ import annotations

import ctypes
import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from deid.sources.formats.base import (
    DocumentFormat,
    Layout,
    Parsed,
    Replacement,
    apply_edits,
    plan_edits,
)
from deid.sources.io import DEFAULT_MAX_BYTES, InputError

DPI = 150  # page images: sharp enough to read; about 0.2 MB per page of text
MAX_PIXELS = 40_000_000  # a page image never larger (a poster-sized page gets fewer DPI)
MAX_PAGES = 5000  # deterministic bounds, so no PDF can exhaust memory or time
PAD = 1.0  # points around a character box, so no anti-aliased edge of a glyph survives
FONT = "Helvetica"


@dataclass
class _Line:
    page: int
    chars: list[int]  # PDFium character index of each character of ``text``
    text: str


@dataclass
class _Pdf:
    lines: list[_Line]  # the layout's keys index this list
    parsed: Parsed


class PdfFormat(DocumentFormat):
    name = "pdf"
    suffixes = (".pdf",)
    media_type = "application/pdf"

    def sniff(self, data: bytes) -> bool:
        return b"%PDF-" in data[:1024]

    def parse(self, data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Parsed:
        pdf = _open(data, name)
        try:
            return _read(pdf, name).parsed
        finally:
            pdf.close()

    def write(self, data: bytes, replacements: Sequence[Replacement], max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
        from reportlab.pdfgen import canvas

        pdf = _open(data, "<pdf>")
        try:
            read = _read(pdf, "<pdf>")
            edits = plan_edits(read.parsed.layout, len(read.parsed.text), replacements)
            out = io.BytesIO()
            target = canvas.Canvas(out, invariant=1, pageCompression=1)  # invariant: no clock, no random id
            for number in range(len(pdf)):
                lines = [(i, line) for i, line in enumerate(read.lines) if line.page == number]
                _write_page(pdf, number, lines, edits, target)
            target.save()
            return out.getvalue()
        finally:
            pdf.close()


def _open(data: bytes, name: str):
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    if b"%PDF-" not in data[:1024]:
        raise InputError(f"{name}: not a PDF file")
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise InputError(f"{name}: encrypted PDF (password-protected): not readable") from None
        raise InputError(f"{name}: not a valid PDF (PDFium cannot load it)") from None
    if pdfium_c.FPDF_GetSecurityHandlerRevision(pdf.raw) != -1:
        pdf.close()
        raise InputError(f"{name}: encrypted PDF (it opens without a password but may not be changed)")
    return pdf


def _read(pdf, name: str) -> _Pdf:
    """The lines of every page, as the layout of the document's text."""
    if len(pdf) > MAX_PAGES:
        raise InputError(f"{name}: {len(pdf)} pages exceeds the limit of {MAX_PAGES} pages")
    layout, lines, pages = Layout(), [], []
    for number in range(len(pdf)):
        start = layout.length
        for chars, text in _page_lines(pdf, number):
            layout.add(text, len(lines))
            lines.append(_Line(number, chars, text))
            layout.add("\n")
        pages.append([start, layout.length])
        layout.add("\n")
    text = layout.text
    if not text.strip():
        raise InputError(f"{name}: no text layer (a scanned PDF? run OCR first)")
    meta = {"format": "pdf", "pages": pages}
    return _Pdf(lines, Parsed(text, meta, layout))


def _page_lines(pdf, number: int) -> list[tuple[list[int], str]]:
    """``(character indices, text)`` per line of a page: one PDFium character per text
    character; line ends (generated ``\\r\\n``, a real one, a hyphen at a line's end)
    split lines."""
    import pypdfium2.raw as pdfium_c

    page = pdf[number]
    textpage = page.get_textpage()
    try:
        out, chars, text = [], [], []
        for index in range(textpage.count_chars()):
            code = pdfium_c.FPDFText_GetUnicode(textpage.raw, index)
            if code == 0x02:  # a hyphen at the end of a line (PDFium joins the word over it)
                chars.append(index)
                text.append("-")
            if code in (0x02, 0x0A, 0x0D):
                if chars:
                    out.append((chars, "".join(text)))
                chars, text = [], []
                continue
            chars.append(index)
            text.append(_character(code))
        if chars:
            out.append((chars, "".join(text)))
        return out
    finally:
        textpage.close()
        page.close()


def _character(code: int) -> str:
    """A text character for a PDFium code; surrogates, controls and unmapped glyphs (0)
    become U+FFFD or a space, so every index stays one character of the text."""
    if code == 0x09 or code >= 0x20 and not 0xD800 <= code <= 0xDFFF and code <= 0x10FFFF:
        return chr(code)
    return " " if code < 0x20 else "\ufffd"


def _write_page(pdf, number: int, lines: list[tuple[int, _Line]], edits: dict, target) -> None:
    """One page of the output: its image with black boxes, and its anonymized lines."""
    from PIL import ImageDraw
    from reportlab.lib.utils import ImageReader

    page = pdf[number]
    textpage = page.get_textpage()
    try:
        width, height = page.get_size()
        scale = min(DPI / 72, (MAX_PIXELS / max(1.0, width * height)) ** 0.5)
        image = page.render(scale=scale, may_draw_forms=False, draw_annots=False).to_pil().convert("RGB")
        device = _Device(page, image.size)
        draw = ImageDraw.Draw(image)
        placed = []
        for key, line in lines:
            redacted = [c for e in edits.get(key, []) for c in line.chars[e.start : e.end]]
            for box in _boxes(textpage, device, redacted):
                draw.rectangle(box, fill=(0, 0, 0))
            box = _union(_char_boxes(textpage, device, line.chars))
            new_text = apply_edits(line.text, edits.get(key, []))
            if box and new_text.strip():
                placed.append((_baseline(textpage, device, line.chars), box, new_text))
        target.setPageSize((width, height))
        target.drawImage(ImageReader(_compact(image)), 0, 0, width, height)
        for (x, y, size), (left, _, right, _), text in placed:
            _invisible_text(target, text, x / scale, height - y / scale, (right - x) / scale, size)
        target.showPage()
    finally:
        textpage.close()
        page.close()


class _Device:
    """Page space (points, origin bottom left, the page's own rotation) to image pixels."""

    def __init__(self, page, size: tuple[int, int]) -> None:
        import pypdfium2.raw as pdfium_c

        self._to_device = pdfium_c.FPDF_PageToDevice
        self._page = page.raw
        self._size = size

    def __call__(self, x: float, y: float) -> tuple[int, int]:
        dx, dy = ctypes.c_int(), ctypes.c_int()
        self._to_device(self._page, 0, 0, self._size[0], self._size[1], 0, x, y, dx, dy)
        return dx.value, dy.value


def _baseline(textpage, device: _Device, indices: list[int]) -> tuple[int, int, float]:
    """Where a line's text starts (pixels, on its baseline) and its font size (points),
    from its first character that has a glyph."""
    import pypdfium2.raw as pdfium_c

    index = next((i for i in indices if _has_glyph(textpage, i)), indices[0])
    x, y = ctypes.c_double(), ctypes.c_double()
    pdfium_c.FPDFText_GetCharOrigin(textpage.raw, index, x, y)
    size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index)
    return (*device(x.value, y.value), size if size > 0 else 10.0)


def _has_glyph(textpage, index: int) -> bool:
    left, bottom, right, top = textpage.get_charbox(index)
    return right > left and top > bottom


def _char_boxes(textpage, device: _Device, indices: list[int]) -> list[tuple[int, int, int, int]]:
    """Pixel boxes ``(left, top, right, bottom)`` of characters that have a glyph."""
    boxes = []
    for index in indices:
        if not _has_glyph(textpage, index):
            continue  # a generated space or an empty glyph: nothing drawn
        left, bottom, right, top = textpage.get_charbox(index)
        corners = [device(left - PAD, bottom - PAD), device(right + PAD, top + PAD)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def _boxes(textpage, device: _Device, indices: list[int]) -> list[tuple[int, int, int, int]]:
    """The boxes of the redacted characters of one line, joined into one box per run of
    neighbouring characters (so the blank between two redacted words is covered too)."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return [box for run in runs if (box := _union(_char_boxes(textpage, device, run)))]


def _union(boxes: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int] | None:
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _compact(image):
    """A page that is all grey goes in as a greyscale image (a third of the size)."""
    pixels = np.asarray(image)
    grey = bool((pixels[..., 0] == pixels[..., 1]).all() and (pixels[..., 1] == pixels[..., 2]).all())
    return image.convert("L") if grey else image


def _invisible_text(target, text: str, x: float, y: float, width: float, size: float) -> None:
    """``text`` from the line's baseline start, invisible (render mode 3), in the line's
    font size, stretched to the line's width."""
    natural = target.stringWidth(text, FONT, size)
    body = target.beginText(x, y)
    body.setTextRenderMode(3)
    body.setFont(FONT, size)
    body.setHorizScale(100.0 * width / natural if natural > 0 and width > 0 else 100.0)
    body.textOut(text)
    target.drawText(body)


PDF = PdfFormat()
