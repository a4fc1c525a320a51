"""DOCX through the format registry: a Word document built here from a real BVerwG decision
(bold and italic runs, a name split across two runs, a table of the parties, a header) is
read, anonymized and reopened with python-docx: the names are gone from body, table and
header, every run keeps its formatting, every other part of the package is byte for byte
the original. Broken and encrypted files are refused with a reason."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import docx
import pytest

from deid.anonymizer.writer import anonymize as anonymize_file
from deid.sources import formats
from deid.sources.inputs import iter_input
from deid.sources.io import InputError, Rejected
from tests.code.formats_data import NAMES, name_spans, paragraphs, surnames

SPLIT_NAME = NAMES["Zeugin S."]


def build_docx() -> bytes:
    """The decision as Word would hold it: a bold heading, each paragraph one run, one
    paragraph with the name split over a bold and an italic run, a parties table, a header."""
    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = f"BVerwG 2 A 7.23 – Zeugin {SPLIT_NAME}"
    lines = paragraphs()
    heading = document.add_paragraph()
    heading.add_run(lines[0]).bold = True
    for line in lines[1:]:
        if SPLIT_NAME in line and not document.tables:
            before, after = line.split(SPLIT_NAME, 1)
            paragraph = document.add_paragraph(before)
            paragraph.add_run(SPLIT_NAME[:9]).bold = True
            paragraph.add_run(SPLIT_NAME[9:]).italic = True
            paragraph.add_run(after)
            table = document.add_table(rows=len(NAMES), cols=2)
            for row, (role, name) in zip(table.rows, NAMES.items()):
                row.cells[0].text, row.cells[1].text = role.split()[0], name
        else:
            document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def runs(document: docx.document.Document) -> list[tuple[bool | None, bool | None]]:
    return [(run.bold, run.italic) for p in document.paragraphs for run in p.runs]


def test_a_decision_docx_is_read_with_table_and_header() -> None:
    data = build_docx()
    doc = formats.read(data, name="urteil.docx")
    assert doc.id == "urteil" and doc.meta["format"] == "docx"
    assert [p["part"] for p in doc.meta["parts"]] == ["word/document.xml", "word/header1.xml"]
    for line in paragraphs():
        assert line in doc.text  # every paragraph, also the one split into three runs
    assert f"Zeugin\n{SPLIT_NAME}\n" in doc.text  # the table, cell by cell
    header = doc.meta["parts"][1]
    assert doc.text[header["start"] : header["end"]] == f"BVerwG 2 A 7.23 – Zeugin {SPLIT_NAME}\n"


def test_anonymized_docx_keeps_formatting_and_loses_the_names() -> None:
    data = build_docx()
    doc = formats.read(data, name="urteil.docx")
    spans = name_spans(doc.text)
    assert len(spans) > 40
    out = anonymize_file(data, doc, spans, "label")
    reopened = docx.Document(io.BytesIO(out.data))
    original = docx.Document(io.BytesIO(data))
    # the names are gone everywhere: body, table, header, and the raw XML of every part
    with zipfile.ZipFile(io.BytesIO(out.data)) as archive:
        xml = b"".join(archive.read(n) for n in archive.namelist())
    for surname in surnames():
        assert surname.encode() not in xml
    assert reopened.tables[0].cell(0, 1).text == "[PERSON]"
    assert reopened.sections[0].header.paragraphs[0].text == "BVerwG 2 A 7.23 – Zeugin [PERSON]"
    # the plain text of the new file is the operators' text: nothing else changed
    assert formats.read(out.data, name="out.docx").text == out.text
    assert out.text.count("[PERSON]") == len(spans) - 1 and "[ID]" in out.text
    # every run keeps its formatting; the split name went into its first (bold) run
    assert runs(reopened) == runs(original)
    split = next(p for p in reopened.paragraphs if len(p.runs) == 4)
    assert [(r.text, r.bold, r.italic) for r in split.runs[1:3]] == [("[PERSON]", True, None), ("", None, True)]
    assert reopened.paragraphs[0].runs[0].bold and reopened.paragraphs[0].text == original.paragraphs[0].text
    # styles, settings, relationships ...: byte for byte the original
    with zipfile.ZipFile(io.BytesIO(data)) as before, zipfile.ZipFile(io.BytesIO(out.data)) as after:
        assert before.namelist() == after.namelist()
        changed = [n for n in before.namelist() if before.read(n) != after.read(n)]
    assert changed == ["word/document.xml", "word/header1.xml"]


def test_operators_other_than_label_and_no_spans() -> None:
    data = build_docx()
    doc = formats.read(data, name="urteil.docx")
    masked = anonymize_file(data, doc, name_spans(doc.text), "mask")
    assert len(masked.text) == len(doc.text)  # mask keeps every offset
    assert formats.read(masked.data, name="m.docx").text == masked.text
    untouched = anonymize_file(data, doc, [], "label")
    assert untouched.data == data or formats.read(untouched.data, name="u.docx").text == doc.text


def test_a_file_that_changed_since_reading_is_refused() -> None:
    data = build_docx()
    doc = formats.read(data, name="urteil.docx")
    other = formats.read(data, name="urteil.docx")
    other.text = other.text.replace("Kowalczyk", "Kowalski")
    with pytest.raises(InputError, match="no longer gives the text"):
        anonymize_file(data, other, name_spans(doc.text), "label")


def test_broken_and_encrypted_docx_files_are_quarantined(tmp_path: Path) -> None:
    data = build_docx()
    (tmp_path / "good.docx").write_bytes(data)
    (tmp_path / "cut.docx").write_bytes(data[: len(data) // 2])
    # what Word writes for a password-protected document: an OLE compound file
    (tmp_path / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4088))
    (tmp_path / "sheet.docx").write_bytes(_not_word(data))
    items = {Path(i.path).name if isinstance(i, Rejected) else i.id: i for i in iter_input(tmp_path)}
    assert not isinstance(items["good"], Rejected) and SPLIT_NAME in items["good"].text
    reasons = {name: item.reason for name, item in items.items() if isinstance(item, Rejected)}
    assert reasons == {
        "cut.docx": "not a valid DOCX file (broken zip archive)",
        "locked.docx": "encrypted (password-protected) Word file or old .doc format: not readable",
        "sheet.docx": "not a Word document (ValueError)",
    }
    assert all(item.sha256 and item.size for item in items.values() if isinstance(item, Rejected))


def _not_word(data: bytes) -> bytes:
    """The same package declaring its main part a spreadsheet: a zip that is no Word file."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            body = source.read(info)
            if info.filename == "[Content_Types].xml":
                body = body.replace(b"wordprocessingml.document.main", b"spreadsheetml.sheet.main")
            target.writestr(info, body)
    return out.getvalue()
