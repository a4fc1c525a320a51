"""Per-document budgets (deid.anonymizer.budget): a document over its size budget (characters,
longest word, tokens; counted before any work, never timed) is refused with a reason made of
counts and limits, quarantined by the batch, and the batch goes on. A service request's time
limit (Deadline) is the service's."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from deid.anonymizer import components as components_module
from deid.anonymizer.budget import Deadline, DocumentBudget, OverBudget, count_tokens
from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
from deid.ops.batch import run_batch
from deid.sources.io import read_jsonl
from deid.training.settings import settings_from_params
from deid.training.tokenizer import train_tokenizer
from tests.conftest import read_source

# three real decisions: a short one, the longest of a collection, a short one
SHORT = "decisions/bag/1-azr-62-23.txt.xz"
LONG_FROM = "decisions/bverwg"
OTHER = "decisions/bfh/STRE202450071.txt.xz"


def _longest(sources: Path, collection: str) -> str:
    texts = [
        read_source(p.relative_to(sources).as_posix())
        for p in (sources / collection).glob("*.txt.xz")
    ]
    return max(texts, key=len)


@pytest.fixture(scope="module")
def texts(sources: Path) -> dict[str, str]:
    """id → text of the three decisions, the long one in the middle of the batch."""
    return {
        "a-short": read_source(SHORT),
        "b-long": _longest(sources, LONG_FROM),
        "c-other": read_source(OTHER),
    }


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]{4,}", text))


def test_the_size_budget_counts_characters_then_tokens(texts: dict[str, str]) -> None:
    text = texts["b-long"]
    chars, tokens = len(text), count_tokens(text)
    DocumentBudget(chars, tokens, 100).check_size(text)  # at the limits
    DocumentBudget(0, 0, 0).check_size(text)  # 0: no limit
    with pytest.raises(OverBudget) as too_long:
        DocumentBudget(chars - 1, tokens, 0).check_size(text)
    assert str(too_long.value) == f"document too large: {chars} characters > {chars - 1}"
    with pytest.raises(OverBudget) as too_many:
        DocumentBudget(chars, tokens - 1, 0).check_size(text)
    assert str(too_many.value) == f"document too large: {tokens} tokens > {tokens - 1}"
    assert not _words(str(too_long.value) + str(too_many.value)) & _words(text)  # no text


def test_tokens_are_no_more_than_a_tokenizer_makes(texts: dict[str, str]) -> None:
    """The token limit bounds a model's windows: what it counts (words and punctuation
    marks) is a lower bound of the model tokenizer's tokens."""
    tokenizer = train_tokenizer([texts["a-short"]], vocab_size=800, model_max_length=128)
    for text in texts.values():
        model_tokens = len(tokenizer(text, add_special_tokens=False)["input_ids"])
        assert count_tokens(text) <= model_tokens
        assert len(text) / count_tokens(text) > 4  # decisions: about six characters each


def test_a_service_deadline_runs_out_after_its_seconds() -> None:
    ticks = iter([100.0, 105.0, 110.0, 110.5])
    deadline = Deadline(10, clock=lambda: next(ticks))
    deadline.check("the model")  # 5 s
    deadline.check("the recognizers")  # 10 s: not over
    with pytest.raises(
        OverBudget, match=r"^request over its time limit: 10 s > 10 s after the policy$"
    ):
        deadline.check("the policy")
    endless = Deadline(0, clock=iter([0.0, 1e9]).__next__)
    endless.check("the model")


def test_params_set_the_budget() -> None:
    params = {"anonymize": {"max_characters": 1000, "max_tokens": 200, "max_word_characters": 50, "max_seconds": 5}}
    config = settings_from_params(params).pipeline
    assert config.budget() == DocumentBudget(1000, 200, 50) and config.max_seconds == 5
    assert PipelineConfig.from_dict(config.to_dict()).budget() == config.budget()
    with pytest.raises(
        ValueError, match="unknown key 'anonymize.max_charactres'.*'max_characters'"
    ):
        settings_from_params({"anonymize": {"max_charactres": 1000}})
    old = PipelineConfig().to_dict()  # a pipeline saved before there were budgets
    for key in ("max_characters", "max_tokens", "max_word_characters"):
        del old[key]
    assert PipelineConfig.from_dict(old).budget() == PipelineConfig().budget()


def test_the_default_budget_refuses_a_20_mb_text_before_any_work(
    texts: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit's 20 MB text held a worker for 10 minutes and 5.4 GB and wrote nothing."""
    pipeline = build_pipeline()  # rules only, default settings
    work: list[int] = []
    monkeypatch.setattr(
        components_module, "analyze_all", lambda text, *_: work.append(len(text)) or []
    )
    text = "\n".join([texts["b-long"]] * (20_000_000 // len(texts["b-long"]) + 1))[:20_000_000]
    with pytest.raises(OverBudget, match=r"^document too large: 20000000 characters > 5000000$"):
        pipeline.analyze(text)
    assert work == []


def _run(
    tmp_path: Path, texts: dict[str, str], config: PipelineConfig
) -> tuple[list[dict], list[dict]]:
    """A batch over the texts as .txt files: (output records, quarantine rows)."""
    folder = tmp_path / "in"
    folder.mkdir()
    for doc_id, text in texts.items():
        (folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    pipeline = build_pipeline(config=config)
    out, quarantine = tmp_path / "out.jsonl", tmp_path / "quarantine.jsonl"
    summary = run_batch(folder, out, pipeline.anonymize, quarantine=quarantine, show_progress=False)
    records = list(read_jsonl(out))
    rows = list(read_jsonl(quarantine)) if quarantine.exists() else []
    assert summary.processed == len(records) and summary.failed == len(rows)
    return records, rows


def test_a_document_over_the_size_budget_is_quarantined_and_the_batch_goes_on(
    tmp_path: Path, texts: dict[str, str]
) -> None:
    long = texts["b-long"]
    limit = max(len(texts["a-short"]), len(texts["c-other"]))
    assert limit < len(long)
    records, rows = _run(tmp_path, texts, replace(PipelineConfig.rules_only(), max_characters=limit))
    assert [r["id"] for r in records] == ["a-short", "c-other"]
    assert [(r["id"], r["reason"]) for r in rows] == [
        ("b-long", f"document too large: {len(long)} characters > {limit}")
    ]


# --- issue 27, item 4: the tokens a model will run are counted (pathological inputs: test_large_documents.py)


@pytest.mark.slow
def test_a_pipeline_with_a_model_counts_the_model_tokens(tmp_path: Path, texts: dict[str, str]) -> None:
    """Words a model cuts into many pieces: few words, many windows. The budget of a
    pipeline with a model counts its tokenizer's tokens, so such a text is refused before the
    model runs; without a model the same text is cheap and done."""
    import random

    from deid.anonymizer.ner import TokenClassifier
    from deid.anonymizer.pipeline import Pipeline
    from deid.training.models import ModelSpec, build_model

    rng = random.Random(27)
    letters = "enirstadhulgmocbfkw"  # all in the decision the tokenizer learns from: no word is one [UNK]
    text = " ".join("".join(rng.choice(letters) for _ in range(90)) for _ in range(1000))
    tokenizer = train_tokenizer([texts["a-short"]], vocab_size=600, model_max_length=64)
    model = build_model(ModelSpec(hidden_size=32, num_layers=1, num_heads=2, intermediate_size=64, max_length=64), tokenizer)
    config = replace(PipelineConfig(), max_tokens=10_000)
    with_model = Pipeline(TokenClassifier(model, tokenizer, device="cpu"), config)
    counted = with_model.count_tokens(text)
    assert count_tokens(text) == 1000 and counted > config.max_tokens
    with pytest.raises(OverBudget, match=rf"^document too large: {counted} tokens > 10000$"):
        with_model.analyze(text)
    assert build_pipeline(config=replace(config.without("model"))).analyze(text) == []
