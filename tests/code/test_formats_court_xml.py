"""The court XML of rechtsprechung-im-internet.de through the format registry: a decision
archive built here from a real BVerwG decision (head elements, Leitsatz, Tenor, Gründe with
numbered paragraphs in <dl>, the DOCTYPE of the portal, HTML entity names) is read as the
text of its content elements with the head in meta, and written back as the same archive
with only the names replaced. Archives that hold no decision are quarantined."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from lxml import etree

from deid.anonymizer.writer import anonymize as anonymize_file
from deid.sources import formats
from deid.sources.inputs import iter_input
from deid.sources.io import Rejected
from tests.code.formats_data import decision, name_spans, surnames

DOCTYPE = '<!DOCTYPE dokument SYSTEM "http://www.rechtsprechung-im-internet.de/dtd/v1/rii-dok.dtd">'
MEMBER = "KVRE123452024.xml"


def sections(text: str) -> dict[str, list[str]]:
    """The bundled decision's parts as the portal separates them."""
    lines = [line for line in text.split("\n") if line.strip()]
    norms = lines.index("Rechtsquellen")
    tenor = next(i for i, line in enumerate(lines) if line.endswith("für Recht erkannt:")) + 1
    reasons = lines.index("Gründe", tenor)
    return {"leitsatz": lines[1:norms], "norm": lines[norms + 1 : lines.index("Zitiervorschlag")],
            "tenor": lines[tenor:reasons], "gruende": lines[reasons + 1 :]}  # fmt: skip


def paragraphs_xml(lines: list[str]) -> str:
    """Numbered paragraphs as <dl> (the number in <dt>), headings and the rest as <p>."""
    out, number = [], None
    for line in lines:
        if line.isdigit():
            number = line
            continue
        body = escape(line).replace("ä", "&auml;", 1)  # the portal's entity names
        if number:
            out.append(f'<dl class="RspDL"><dt><a name="rd_{number}">{number}</a></dt><dd><p>{body}</p></dd></dl>')
        else:
            out.append(f"<p>{body}</p>")
        number = None
    return "<div>" + "\n".join(out) + "</div>"


def build_xml() -> bytes:
    parts = sections(decision())
    head = (
        "<doknr>KVRE123452024</doknr><ecli>ECLI:DE:BVerwG:2024:010224U2A7.23.0</ecli>"
        "<gertyp>BVerwG</gertyp><gerort>Leipzig</gerort><spruchkoerper>2. Senat</spruchkoerper>"
        "<entsch-datum>20240201</entsch-datum><aktenzeichen>2 A 7.23</aktenzeichen><doktyp>Urteil</doktyp>"
        + "".join(f"<norm>{escape(n)}</norm>" for n in parts["norm"])
    )
    content = "".join(f"\n<{name}>{paragraphs_xml(parts[name])}</{name}>" for name in ("leitsatz", "tenor", "gruende"))
    xml = f'<?xml version="1.0" encoding="utf-8"?>\n{DOCTYPE}\n<dokument>\n{head}\n<titelzeile>Zurückstufung wegen sexueller Belästigung</titelzeile>{content}\n</dokument>\n'
    return xml.encode("utf-8")


def build_zip(xml: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MEMBER, xml)
        archive.writestr("bild1.jpg", b"\xff\xd8\xff\xe0 not really a picture")
    return out.getvalue()


def test_a_decision_archive_is_read_with_its_head_in_meta() -> None:
    doc = formats.read(build_zip(build_xml()), name="KVRE123452024.zip")
    assert doc.meta["format"] == "court-xml" and doc.meta["member"] == MEMBER
    fields = doc.meta["fields"]
    assert (fields["gertyp"], fields["aktenzeichen"], fields["entsch-datum"]) == ("BVerwG", "2 A 7.23", "20240201")
    assert fields["norm"] == sections(decision())["norm"]
    assert [s["name"] for s in doc.meta["sections"]] == ["titelzeile", "leitsatz", "tenor", "gruende"]
    assert "KVRE123452024" not in doc.text and "Leipzig" not in doc.text  # the head is not text
    parts = sections(decision())
    for line in parts["leitsatz"] + parts["tenor"] + [p for p in parts["gruende"] if not p.isdigit()]:
        assert line in doc.text  # entity names read, paragraphs as lines
    gruende = doc.meta["sections"][-1]
    assert doc.text[gruende["start"] :].startswith("I\n1\nMit ihrer Disziplinarklage")


def test_the_anonymized_archive_is_the_same_archive_without_the_names() -> None:
    xml = build_xml()
    data = build_zip(xml)
    doc = formats.read(data, name="KVRE123452024.zip")
    spans = name_spans(doc.text)
    assert len(spans) > 40
    out = anonymize_file(data, doc, spans, "label")
    with zipfile.ZipFile(io.BytesIO(data)) as before, zipfile.ZipFile(io.BytesIO(out.data)) as after:
        assert [i.filename for i in after.infolist()] == [MEMBER, "bild1.jpg"]
        assert after.read("bild1.jpg") == before.read("bild1.jpg")
        written = after.read(MEMBER)
    assert all(surname.encode() not in written for surname in surnames())
    assert written.startswith(b"<?xml version='1.0' encoding='utf-8'?>\n" + DOCTYPE.encode())
    assert formats.read(out.data, name="out.zip").text == out.text
    # the same elements in the same order; only text changed
    old, new = etree.fromstring(xml.replace(b"&auml;", "ä".encode())), etree.fromstring(written)
    assert [e.tag for e in old.iter()] == [e.tag for e in new.iter()]
    assert [e.attrib for e in old.iter()] == [e.attrib for e in new.iter()]
    assert out.text.count("[PERSON]") == sum(s.label == "PERSON" for s in spans)


@pytest.mark.slow
def test_a_bare_decision_xml_is_written_back_as_xml(tmp_path: Path) -> None:
    path = tmp_path / "KVRE123452024.xml"
    path.write_bytes(build_xml())
    [doc] = iter_input(path)
    out = anonymize_file(path.read_bytes(), doc, name_spans(doc.text), "mask")
    assert out.data.startswith(b"<?xml") and all(s.encode() not in out.data for s in surnames())


def test_archives_without_a_decision_are_quarantined(tmp_path: Path) -> None:
    xml = build_xml()
    (tmp_path / "good.zip").write_bytes(build_zip(xml))
    (tmp_path / "two.zip").write_bytes(_zip({"a.xml": xml, "b.xml": xml}))
    (tmp_path / "other.xml").write_bytes(b'<?xml version="1.0"?><rss><channel/></rss>')
    (tmp_path / "broken.xml").write_bytes(xml[: len(xml) // 2])
    (tmp_path / "cut.zip").write_bytes(build_zip(xml)[:200])
    items = {Path(i.path).name if isinstance(i, Rejected) else i.id: i for i in iter_input(tmp_path)}
    assert not isinstance(items.pop("good"), Rejected)
    reasons = {name: item.reason for name, item in items.items()}
    assert reasons == {
        "two.zip": "the archive holds 2 XML files; a decision archive holds one",
        "other.xml": "not a court decision XML (root element 'rss', expected 'dokument')",
        "broken.xml": reasons["broken.xml"],
        "cut.zip": "not a valid decision archive (broken zip archive)",
    }
    assert reasons["broken.xml"].startswith("the decision is not well-formed XML (line ")


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, body in members.items():
            archive.writestr(name, body)
    return out.getvalue()
