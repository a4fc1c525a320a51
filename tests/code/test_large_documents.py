"""Pathological documents in one batch, rules only and with a tiny model with word features:
a 2 MB decision on a single line, a 1 MB hyphenated word, 1 MB of one punctuation mark and
HTML nested 100,000 deep are anonymized (every layer is linear in a document's length:
bench/large_document.py), a 1 MB single token and 1 MB of one letter are refused by their
longest word, a 20 MB text by its characters, both before any work (issue 27: the token held
a worker for over ten minutes, its time growing faster than its length), court XML nested
too deep by its reader; the decision after them is processed as if alone. The budget is
counted, never timed: the outcome is the same on any machine. The audit of issue 18 saw the
line, the token and the 20 MB text each hold a worker for over ten minutes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from deid.anonymizer.ner import TokenClassifier
from deid.anonymizer.pipeline import Pipeline, PipelineConfig, build_pipeline
from deid.ops.batch import run_batch
from deid.schema import Document
from deid.sources.io import read_jsonl
from deid.training.models import ModelSpec, build_model
from deid.training.tokenizer import train_tokenizer
from tests.conftest import read_source

NEXT = "decisions/bfh/STRE202450071.txt.xz"


@pytest.fixture(scope="module")
def decisions(sources: Path) -> str:
    paths = sorted((sources / "decisions").glob("*/*.txt.xz"))
    return "\n".join(read_source(p.relative_to(sources).as_posix()) for p in paths)


@pytest.fixture(scope="module")
def batch(decisions: str) -> dict[str, str]:
    """id → text, in the batch's order."""
    line = " ".join(decisions.split())
    letters = "".join(re.findall(r"[^\W\d_]+", decisions))  # real word parts, no break
    nested = "<div>" * 100_000 + read_source(NEXT)[:3000] + "</div>" * 100_000
    return {
        "a-line.txt": (line * (2_000_000 // len(line) + 1))[:2_000_000],
        "b-token.txt": letters[:1_000_000].capitalize(),
        "c-hyphens.txt": "Gericht-" * 125_000,
        "d-huge.txt": (decisions * (20_000_000 // len(decisions) + 1))[:20_000_000],
        "e-letters.txt": "a" * 1_000_000,
        "f-marks.txt": "." * 1_000_000,
        "g-nested.html": f"<html><body>{nested}</body></html>",
        "h-nested.xml": '<?xml version="1.0"?><dokument>' + "<p>" * 100_000 + "x" + "</p>" * 100_000 + "</dokument>",
        "z-next.txt": read_source(NEXT),
    }  # fmt: skip


REFUSED_WORD = "document refused: a word of 1000000 characters > 1000 (not text)"


def _run(tmp_path: Path, batch: dict[str, str], pipeline: Pipeline) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name, text in batch.items():
        (folder / name).write_text(text, encoding="utf-8")
    out, quarantine = tmp_path / "out.jsonl", tmp_path / "quarantine.jsonl"
    run_batch(folder, out, pipeline.anonymize, quarantine=quarantine, show_progress=False)
    records = {r["id"]: r for r in read_jsonl(out)}
    assert list(records) == ["a-line", "c-hyphens", "f-marks", "g-nested", "z-next"]
    reasons = {Path(r.get("path") or r["id"]).name.split(".")[0]: r["reason"] for r in read_jsonl(quarantine)}
    assert reasons == {
        "b-token": REFUSED_WORD, "d-huge": "document too large: 20000000 characters > 5000000",
        "e-letters": REFUSED_WORD, "h-nested": "the decision is not well-formed XML (line 1)",
    }  # fmt: skip
    for doc_id, record in records.items():
        text = next(t for n, t in batch.items() if n.split(".")[0] == doc_id)
        assert all(0 <= s["start"] < s["end"] <= len(text) for s in record["spans"])
        assert len(record["text"]) <= len(text) + 20 * len(record["spans"])
    assert len(records["g-nested"]["text"]) > 2000  # the text inside the nested HTML was read
    alone = pipeline.anonymize(Document("z-next", batch["z-next.txt"]))
    assert records["z-next"] == json.loads(json.dumps(alone)), "the next decision as if alone"


@pytest.mark.timeout(600)  # linear: under a minute on two busy cores
@pytest.mark.slow
def test_rules_only(tmp_path: Path, batch: dict[str, str]) -> None:
    _run(tmp_path, batch, build_pipeline())  # the default budget


@pytest.mark.slow
@pytest.mark.timeout(900)  # linear: a few minutes on two busy cores
def test_tiny_model_with_word_features(
    tmp_path: Path, batch: dict[str, str], decisions: str
) -> None:
    tokenizer = train_tokenizer([decisions[:300_000]], vocab_size=2000, model_max_length=512)
    spec = ModelSpec(
        hidden_size=16, num_layers=1, num_heads=1, intermediate_size=16, max_length=512
    )
    classifier = TokenClassifier(build_model(spec, tokenizer), tokenizer, device="cpu")
    assert classifier.features, "the model reads word features"
    pipeline = Pipeline(classifier, PipelineConfig().override(max_length=512, stride=32, batch_size=32))
    _run(tmp_path, batch, pipeline)
