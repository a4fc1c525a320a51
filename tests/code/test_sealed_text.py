"""No line of the project's own tests, code or documentation repeats a sealed half's passages
(deid.evaluation.sealed_text): the sealed halves report, nothing is written from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid.evaluation.profiles import GOLD_FILES
from deid.evaluation.sealed_text import MIN_SHARED, repeated_lines, sealed_passages
from deid.sources.corpus import load_decisions
from deid.sources.io import read_documents
from deid.sources.ler import load_ler_file

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "data" / "sources"
# the reserved decisions' gold sets, whose sealed halves report; the from-scratch sets are written
# by the project and are background
RESERVED_SETS = ("ler", "ler_novel", "bavaria")
TRAINING_COURTS = ("bag", "bfh", "bpatg", "bsg", "bverfg")
SCANNED = ("tests/**/*.py", "deid/**/*.py", "flows/**/*.py", "pipelines/**/*.py", "bench/**/*.py",
           "docs/**/*.md", "README.md", "params.yaml", "dvc.yaml")  # fmt: skip


@pytest.fixture(scope="module")
def passages() -> frozenset[tuple[str, ...]]:
    gold = [doc for name in RESERVED_SETS for doc in read_documents(ROOT / GOLD_FILES[name])]
    background = [doc.text for court in TRAINING_COURTS for doc in load_ler_file(SOURCES / "ler" / f"{court}.conll.xz")]
    decisions, _ = load_decisions(SOURCES)
    background += [d.text for d in decisions if d.meta.get("collection") != "bavaria"]  # bavaria: reserved
    background += [doc.text for name in ("bavaria_scratch", "bavaria_scratch_dev")
                   for doc in read_documents(ROOT / GOLD_FILES[name])]  # fmt: skip
    return sealed_passages(gold, background)


def test_no_project_text_repeats_a_sealed_passage(passages: frozenset[tuple[str, ...]]) -> None:
    assert len(passages) > 100_000  # the sealed halves are there to compare with
    files = sorted({p for pattern in SCANNED for p in ROOT.glob(pattern) if p.is_file()})
    assert len(files) > 100
    found = [f"{p.relative_to(ROOT)}:{line} ({n} passages)" for p in files for line, n in repeated_lines(p, passages)]
    assert found == [], "lines that repeat a sealed decision (write your own text): " + "; ".join(found)


def test_a_copied_sealed_sentence_is_found(passages: frozenset[tuple[str, ...]], tmp_path: Path) -> None:
    """The check can fail: one sealed document's longest line, copied into a file, is found,
    and a line of the dev half is not (its passages are the dev half's)."""
    docs = read_documents(ROOT / GOLD_FILES["bavaria"])
    from deid.evaluation.metrics import document_half

    sealed = next(d for d in docs if document_half(d) == "sealed")
    dev = next(d for d in docs if document_half(d) == "dev")
    copy = tmp_path / "copy.py"
    copy.write_text("x = 1\n" + max(sealed.text.splitlines(), key=len) + "\n" + max(dev.text.splitlines(), key=len) + "\n",
                    encoding="utf-8")  # fmt: skip
    hits = list(repeated_lines(copy, passages))
    assert [line for line, _ in hits] == [2] and hits[0][1] >= MIN_SHARED
