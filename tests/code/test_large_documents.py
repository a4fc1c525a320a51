"""Pathological documents in one batch, rules only and with a tiny model with word features:
a 2 MB decision on a single line, a 1 MB single token and a 1 MB hyphenated word are
anonymized (every layer is linear in a document's length and a word's cost is bounded), a
20 MB text is quarantined with the reason before any work, and the decision after them is
processed as if alone. The audit saw the line, the token and the 20 MB text each hold a
worker for over ten minutes."""

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
    return {
        "a-line": (line * (2_000_000 // len(line) + 1))[:2_000_000],
        "b-token": letters[:1_000_000].capitalize(),
        "c-hyphens": "Gericht-" * 125_000,
        "d-huge": (decisions * (20_000_000 // len(decisions) + 1))[:20_000_000],
        "e-next": read_source(NEXT),
    }


def _run(tmp_path: Path, batch: dict[str, str], pipeline: Pipeline) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for doc_id, text in batch.items():
        (folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    out, quarantine = tmp_path / "out.jsonl", tmp_path / "quarantine.jsonl"
    run_batch(folder, out, pipeline.anonymize, quarantine=quarantine, show_progress=False)
    records = {r["id"]: r for r in read_jsonl(out)}
    assert list(records) == ["a-line", "b-token", "c-hyphens", "e-next"]
    assert [(r["id"], r["reason"]) for r in read_jsonl(quarantine)] == [
        ("d-huge", "document too large: 20000000 characters > 5000000")
    ]
    for doc_id, record in records.items():
        text = batch[doc_id]
        assert all(0 <= s["start"] < s["end"] <= len(text) for s in record["spans"])
        assert len(record["text"]) <= len(text) + 20 * len(record["spans"])
    alone = pipeline.anonymize(Document("e-next", batch["e-next"]))
    assert records["e-next"] == json.loads(json.dumps(alone)), "the next decision as if alone"


@pytest.mark.timeout(600)  # linear: under a minute on two busy cores
@pytest.mark.slow
def test_rules_only(tmp_path: Path, batch: dict[str, str]) -> None:
    _run(tmp_path, batch, build_pipeline())  # the default budget


@pytest.mark.slow
@pytest.mark.timeout(900)  # linear: a few minutes on two busy cores; the 1 MB token took hours
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
