"""deid.sources.corpus and ``deid corpus``: sources → documents, document-level split, manifest."""

from __future__ import annotations

import json
import lzma
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deid.app.cli import app
from deid.schema import Document
from deid.sources.corpus import (
    SPLITS,
    assign_split,
    build_corpus,
    is_reserved,
    load_decisions,
    parse_header,
    split_corpus,
)
from deid.sources.io import read_documents, sha256_bytes

SOURCES = Path(__file__).resolve().parents[2] / "data" / "sources"


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> Path:
    """A small copy of the bundled sources (LER files linked; decisions copied, as the reader
    refuses links out of an input folder), with both reserved LER courts, one training court,
    the reserved and two training decision folders, and two bad files."""
    root = tmp_path_factory.mktemp("sources")
    (root / "ler").mkdir()
    for court in ("bgh", "bverwg", "bfh"):
        (root / "ler" / f"{court}.conll.xz").symlink_to(SOURCES / "ler" / f"{court}.conll.xz")
    for folder in ("bavaria", "bag", "bfh"):
        target = root / "decisions" / folder
        target.mkdir(parents=True)
        for path in sorted((SOURCES / "decisions" / folder).glob("*.txt.xz")):
            shutil.copyfile(path, target / path.name)
    (root / "decisions" / "bag" / "empty.txt").write_bytes(b"")
    (root / "decisions" / "bag" / "binary.txt.xz").write_bytes(lzma.compress(b"\x00\x01" * 50))
    return root


@pytest.fixture(scope="module")
def built(sources, tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("corpus")
    return out, build_corpus(sources, out, validation_share=0.2, salt="test")


def _doc(doc_id: str, corpus: str, court: str) -> Document:
    return Document(id=doc_id, text="x", court=court, meta={"corpus": corpus})


# --- reserved parts and split -------------------------------------------------------------

RESERVED = [
    ("ler", "bgh", True),
    ("ler", "bverwg", True),
    ("decisions", "bavaria", True),
    ("ler", "bag", False),
    ("ler", "bfh", False),
    ("ler", "bpatg", False),
    ("decisions", "bverwg", False),  # raw BVerwG 2019–2024 is training material
    ("decisions", "bag", False),
    ("other", "bgh", False),
]


@pytest.mark.parametrize("corpus,court,reserved", RESERVED)
def test_is_reserved(corpus, court, reserved):
    assert is_reserved(_doc("d", corpus, court)) is reserved


@pytest.mark.parametrize("share", [0.0, 0.1, 0.5, 1.0])
@pytest.mark.parametrize(
    "corpus,court", [("ler", "bgh"), ("ler", "bverwg"), ("decisions", "bavaria")]
)
def test_reserved_documents_always_go_to_test(corpus, court, share):
    for k in range(50):
        assert assign_split(_doc(f"id-{k}", corpus, court), share, salt=f"s{k}") == "test"


def test_split_is_deterministic_and_near_the_share():
    docs = [_doc(f"ler-bag-{k:04d}", "ler", "bag") for k in range(3000)]
    first = [assign_split(d, 0.1, "deid") for d in docs]
    assert first == [assign_split(d, 0.1, "deid") for d in docs]
    share = first.count("validation") / len(first)
    assert 0.08 < share < 0.12
    assert set(first) == {"train", "validation"}


def test_salt_and_share_change_the_split():
    docs = [_doc(f"ler-bfh-{k:04d}", "ler", "bfh") for k in range(500)]
    a = [assign_split(d, 0.1, "a") for d in docs]
    b = [assign_split(d, 0.1, "b") for d in docs]
    assert a != b
    assert all(assign_split(d, 0.0, "a") == "train" for d in docs)
    assert all(assign_split(d, 1.0, "a") == "validation" for d in docs)


def test_validation_share_out_of_range_is_rejected():
    with pytest.raises(ValueError):
        assign_split(_doc("x", "ler", "bag"), 1.5)


def test_split_corpus_refuses_duplicate_ids():
    with pytest.raises(ValueError, match="duplicate"):
        split_corpus([_doc("a", "ler", "bag"), _doc("a", "ler", "bag")])


# --- loading ------------------------------------------------------------------------------


def test_decisions_become_documents_with_ids_and_meta():
    docs, rejected = load_decisions(SOURCES)
    assert not rejected
    assert len(docs) == 36 + 50 + 22 + 3
    ids = [d.id for d in docs]
    assert len(set(ids)) == len(ids)
    by_id = {d.id: d for d in docs}
    doc = by_id["dec-bverwg-010224U2A7.23.0"]
    assert doc.court == "bverwg" and doc.source.endswith("010224U2A7.23.0.txt.xz")
    assert doc.meta["corpus"] == "decisions"
    assert doc.meta["ecli"] == "ECLI:DE:BVerwG:2024:010224U2A7.23.0"
    assert doc.meta["file_number"] == "2 A 7.23" and doc.meta["date"] == "01.02.2024"
    assert by_id["dec-bag-1-azr-62-23"].meta["file_number"] == "1 AZR 62/23"
    assert by_id["dec-bfh-STRE202450071"].meta["file_number"] == "IV R 24/21"
    assert by_id["dec-bfh-STRE202450071"].meta["ecli"] == "ECLI:DE:BFH:2024:U.110124.IVR24.21.0"
    title = by_id["dec-bavaria-Y-300-Z-BECKRS-B-2019-N-17491"].meta["title"]
    assert title == "Entziehung der Fahrerlaubnis"


def test_parse_header_leaves_out_what_it_cannot_find():
    assert parse_header("Tenor\nDie Revision wird zurückgewiesen.", "bag", "kein-stem") == {}


def test_bad_files_are_rejected_not_fatal(sources):
    docs, rejected = load_decisions(sources)
    reasons = {Path(r.path).name: r.reason for r in rejected}
    assert set(reasons) == {"empty.txt", "binary.txt.xz"}
    assert "empty" in reasons["empty.txt"] and "binary" in reasons["binary.txt.xz"]
    assert docs


# --- build --------------------------------------------------------------------------------


@pytest.mark.slow
def test_build_writes_three_splits_and_a_manifest(built):
    out, manifest = built
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{s}.jsonl" for s in SPLITS] + ["manifest.json"]
    )
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8")) == manifest
    for name in SPLITS:
        row = manifest["splits"][name]
        path = out / row["file"]
        assert row["sha256"] == sha256_bytes(path.read_bytes())
        docs = read_documents(path)
        assert row["documents"] == len(docs)
        assert row["characters"] == sum(len(d.text) for d in docs)
        assert sum(c["documents"] for c in row["courts"].values()) == len(docs)
    assert manifest["parameters"]["validation_share"] == 0.2
    assert {Path(r["path"]).name for r in manifest["rejected"]} == {"empty.txt", "binary.txt.xz"}


@pytest.mark.slow
def test_no_reserved_document_outside_test(built):
    out, manifest = built
    splits = {name: read_documents(out / f"{name}.jsonl") for name in SPLITS}
    assert all(is_reserved(d) for d in splits["test"])
    for name in ("train", "validation"):
        assert splits[name] and not any(is_reserved(d) for d in splits[name])
    test_courts = set(manifest["splits"]["test"]["courts"])
    assert test_courts == {"ler:bgh", "ler:bverwg", "decisions:bavaria"}
    ids = [d.id for docs in splits.values() for d in docs]
    assert len(ids) == len(set(ids))


@pytest.mark.slow
def test_documents_round_trip_with_entities(built):
    out, _ = built
    docs = read_documents(out / "test.jsonl")
    ler = [d for d in docs if d.meta["corpus"] == "ler"]
    assert ler and all(d.entities for d in ler)
    for doc in ler[:20]:
        assert all(0 <= e.start < e.end <= len(doc.text) for e in doc.entities)


@pytest.mark.slow
def test_cli_build_is_deterministic_and_stats_show_no_text(sources, built, tmp_path):
    _, manifest = built
    runner = CliRunner()
    args = ["corpus", "build", "--sources", str(sources), "--output", str(tmp_path)]
    result = runner.invoke(app, [*args, "--validation-share", "0.2", "--salt", "test"])
    assert result.exit_code == 0, result.output
    again = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    for name in SPLITS:
        assert again["splits"][name]["sha256"] == manifest["splits"][name]["sha256"]
    result = runner.invoke(app, ["corpus", "stats", "--corpus", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "ler:bgh" in result.output and "decisions:bavaria" in result.output
    sample = read_documents(tmp_path / "test.jsonl")[0].text
    assert sample[:40] not in result.output


def test_cli_stats_without_corpus_fails(tmp_path):
    result = CliRunner().invoke(app, ["corpus", "stats", "--corpus", str(tmp_path)])
    assert result.exit_code == 1
