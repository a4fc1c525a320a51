"""deid.evaluation.gold_sets: a pipeline evaluated on real rewritten LER decisions slice by slice, the
model run once per slice for both the pipeline's and the model's own report and for every
profile (each at its own threshold), and slices predicted apart (as the retrain flow's Dask
workers do) giving the same report."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from deid.anonymizer.ner import TokenClassifier
from deid.anonymizer.pipeline import Pipeline, PipelineConfig, build_pipeline
from deid.evaluation.gold_sets import (
    SLICE_DOCUMENTS,
    Predictions,
    evaluate_pipeline,
    evaluate_predictions,
    predict_slice,
    slices,
)
from deid.sources.io import read_documents
from deid.training.models import ModelSpec, build_model
from deid.training.tokenizer import train_tokenizer
from tests.conftest import ROOT, read_source

pytestmark = pytest.mark.slow  # builds and runs a tiny model: seconds per test

GOLD = ROOT / "data/gold/ler_rewritten.jsonl"
DOCUMENTS = SLICE_DOCUMENTS + 4  # two slices, the second one short


@pytest.fixture(scope="module")
def gold() -> list:
    docs = read_documents(GOLD)[:DOCUMENTS]
    assert len(docs) == DOCUMENTS and sum(bool(d.spans) for d in docs) >= 5
    return docs


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    """An untrained 1-layer model (seeded) saved and loaded as production loads it."""
    torch.manual_seed(0)
    tokenizer = train_tokenizer([read_source("decisions/bag/1-azr-62-23.txt.xz")], vocab_size=600,
                                model_max_length=64)  # fmt: skip
    spec = ModelSpec(hidden_size=32, num_layers=1, num_heads=2, intermediate_size=64, max_length=64)
    saved = tmp_path_factory.mktemp("pipeline")
    classifier = TokenClassifier(build_model(spec, tokenizer), tokenizer, device="cpu")
    Pipeline(classifier, PipelineConfig().override(max_length=64, stride=16, threshold=0.5)).save(saved)
    return build_pipeline(saved, device="cpu")


def test_slices_cover_every_document_once_in_fixed_sizes() -> None:
    assert slices(0) == []
    assert slices(20) == [(0, 16), (16, 20)]
    assert slices(32) == [(0, 16), (16, 32)]
    assert slices(5, size=2) == [(0, 2), (2, 4), (4, 5)]


def test_the_model_runs_once_per_slice_for_both_reports(
    pipeline: Pipeline, gold: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pipeline's and the model's own report, under both profiles, come from one model
    run (the model-only report used to run the model over the whole set a second time)."""
    assert pipeline.classifier is not None
    batches: list[int] = []
    run = pipeline.classifier.token_probabilities

    def counted(texts, *args, **kwargs):
        batches.append(len(texts))
        return run(texts, *args, **kwargs)

    monkeypatch.setattr(pipeline.classifier, "token_probabilities", counted)
    report = evaluate_pipeline(pipeline, gold, ("all",))
    assert batches == [SLICE_DOCUMENTS, DOCUMENTS - SLICE_DOCUMENTS]
    assert set(report) >= {"overall", "model_only", "thesis_methods"}
    assert report["thesis_methods"]["all"] == report["model_only"]["overall"]["elements"]


def test_slices_predicted_apart_give_the_same_report(pipeline: Pipeline, gold: list) -> None:
    """What the retrain flow's workers return, in whatever order they finish, combined."""
    parts = [predict_slice(pipeline, gold[a:b]) for a, b in reversed(slices(len(gold)))]
    combined = Predictions.combine(parts)
    assert combined.model is not None and set(combined.pipeline) == {d.id for d in gold}
    assert evaluate_predictions(gold, combined) == evaluate_pipeline(pipeline, gold, ("all",))
    assert combined.pipeline != combined.model, "the rule layers changed the model's spans"


def test_a_rules_only_pipeline_has_no_model_report(gold: list) -> None:
    rules = build_pipeline(config=PipelineConfig.rules_only())
    named = [d for d in gold if d.spans][:3]
    found = predict_slice(rules, named)
    assert found.model is None and Predictions.combine([found, found]).model is None
    report = evaluate_pipeline(rules, named)
    assert "model_only" not in report and report["inputs"]["documents"] == 3



def test_each_profile_decodes_the_one_model_run_at_its_own_threshold(pipeline: Pipeline, gold: list) -> None:
    """model@4: federal neutralizes a model span only at its own, higher threshold; strict
    keeps the pipeline's. The evaluation's per-profile predictions are what the pipeline run
    under that profile finds on its own (the service, a batch under ``--profile``)."""
    docs = [d for d in gold if d.spans][:4]
    texts = [d.text for d in docs]
    assert pipeline.classifier is not None and pipeline.config.profile == "strict"
    loose = [s for spans in pipeline.classifier.predict(texts, threshold=0.5) for s in spans]
    scores = sorted(s.score for s in loose if s.score is not None)
    assert len(set(scores)) > 3, "the model's span scores differ (a threshold between them matters)"
    sure = round(scores[len(scores) // 2], 6)  # a federal threshold inside the model's scores
    config = pipeline.config.configured("model", profile_thresholds={"federal": sure})
    tuned = Pipeline(pipeline.classifier, config)
    assert tuned.config.model.threshold_for("strict") == 0.5 and tuned.config.model.threshold_for("federal") == sure
    under = tuned.model_spans_under(texts, ["strict", "federal"])
    assert under["strict"] == pipeline.classifier.predict(texts, threshold=0.5)
    assert under["federal"] == pipeline.classifier.predict(texts, threshold=sure)
    covered = {p: {(i, c) for i, spans in enumerate(under[p]) for s in spans for c in range(s.start, s.end)}
               for p in under}  # fmt: skip
    assert covered["federal"] < covered["strict"], "federal flags a part of what strict flags"
    found = predict_slice(tuned, docs)
    assert found.model == dict(zip([d.id for d in docs], under["strict"]))
    federal = tuned.with_overrides(profile="federal")
    assert found.profiles["federal"] == dict(zip([d.id for d in docs], federal.analyze_many(texts)))
    assert found.profiles["strict"] == found.pipeline == dict(zip([d.id for d in docs], tuned.analyze_many(texts)))
