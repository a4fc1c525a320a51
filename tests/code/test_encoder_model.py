"""The fine-tuned encoder as the product runs it: a short fine-tuning of the imported
encoder (2 layers, a few real decisions) through the same ``run_training`` as the main job,
then int8 inference against fp32, and names found in every later mention."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from deid.anonymize import build_pipeline
from deid.io import read_documents, write_jsonl
from deid.settings import load_settings
from tests.conftest import ROOT, read_source

pytestmark = pytest.mark.slow

@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    """A 2-layer encoder fine-tuned for two short epochs on the twelve LER labour-court
    decisions (of the first 60) with the most placeholders."""
    from deid.encoder import import_encoder
    from deid.ler import load_ler_file
    from deid.placeholders import detect_placeholders
    from deid.train_model import run_training
    from tests.conftest import SOURCES

    tmp = tmp_path_factory.mktemp("encoder_model")
    docs = load_ler_file(SOURCES / "ler" / "bag.conll.xz")[:60]
    ranked = sorted(docs, key=lambda d: (-len(detect_placeholders(d.text)), d.id))
    corpus = tmp / "corpus"
    write_jsonl(corpus / "train.jsonl", [d.to_dict() for d in ranked[:12]])
    write_jsonl(corpus / "validation.jsonl", [d.to_dict() for d in ranked[12:14]])
    encoder_dir = tmp / "encoder"
    import_encoder(encoder_dir, corpus_texts=[d.text for d in ranked[:12]], layers=2)
    settings = load_settings(ROOT / "params.yaml", "small")
    settings = replace(
        settings,
        base=str(encoder_dir),
        spec=replace(settings.spec, base_layers=2),
        data=replace(settings.data, negative_window_rate=0.1),
        train=replace(
            settings.train, epochs=2, windows_per_epoch=0, batch_size=8, learning_rate=5e-4, progress=False
        ),
    )
    run_training(corpus, tmp / "pipeline", settings)
    return tmp / "pipeline"


def test_int8_finds_the_same_gold_spans_as_fp32(trained: Path) -> None:
    """The int8 model (what production runs on a CPU) against fp32 on rewritten gold
    decisions: for at least 99 % of the gold spans both find it or both miss it, with the same
    labels. (Exact predicted offsets are compared on the main job's model in bench/.)"""
    docs = [d for d in read_documents(ROOT / "data/gold/ler_rewritten.jsonl") if d.spans][:12]
    texts = [d.text for d in docs]
    fp32 = build_pipeline(trained, overrides={"quantize": "none"}, device="cpu").classifier
    int8 = build_pipeline(trained, overrides={"quantize": "int8"}, device="cpu").classifier
    assert int8.runner() is not int8.model and fp32.runner() is fp32.model

    def outcomes(predictions) -> list[frozenset[str]]:
        return [
            frozenset(p.label for p in preds if p.start < g.end and g.start < p.end)
            for doc, preds in zip(docs, predictions)
            for g in doc.spans
        ]

    a, b = outcomes(fp32.predict(texts)), outcomes(int8.predict(texts))
    assert len(a) >= 50 and sum(map(bool, a)) >= len(a) // 2, "the model must find gold spans"
    assert sum(x == y for x, y in zip(a, b)) / len(a) >= 0.99


def test_a_surname_found_in_full_is_found_in_every_later_mention(trained: Path) -> None:
    """A made-up surname, written once with its first name, then after a title, a role or
    alone as a subject, inside a real decision: every mention is marked."""
    decision = read_source("decisions/bag/1-azr-62-23.txt.xz")
    paragraphs = [p for p in decision.split("\n") if len(p) > 300][:4]
    inserted = [
        "Die Klägerin Jana Wolkenhammer ist seit dem Jahr 2012 bei der Beklagten beschäftigt.",
        "Frau Wolkenhammer erhielt im Jahr 2020 eine Abmahnung.",
        "Der Zeuge Brandl bestätigte, dass die Zeugin Wolkenhammer anwesend war.",
        "Wolkenhammer wohnt seit 2015 in der Nähe des Betriebs.",
    ]
    text = "\n".join(p for pair in zip(paragraphs, inserted) for p in pair)
    spans = build_pipeline(trained, device="cpu").analyze(text)
    mentions = [m.span() for m in re.finditer("Wolkenhammer", text)]
    assert len(mentions) == 4
    for start, end in mentions:
        assert any(s.start <= start and end <= s.end and s.label == "PERSON" for s in spans), (start, end)
