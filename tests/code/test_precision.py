"""Precision by hardware (deid.anonymizer.precision): bf16 on a CPU with bf16 matrix units,
fp32 on any other, chosen at run time for training and inference alike, and recorded where a
model was trained (pipeline.json) and where a record was made (lineage)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import torch

from deid.anonymizer import precision
from deid.anonymizer.ner import InferenceConfig, TokenClassifier
from deid.anonymizer.pipeline import Pipeline, PipelineConfig, build_pipeline, saved_config
from deid.ops.lineage import run_lineage
from deid.training.models import ModelSpec, build_model
from deid.training.tokenizer import train_tokenizer
from tests.conftest import read_source

CPU = torch.device("cpu")
TEXT = read_source("decisions/bag/9-azr-115-23.txt.xz")[:3000]


def _cpuinfo_flags() -> set[str]:
    """The CPU's flags read independently of the code under test."""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def test_auto_is_bf16_exactly_where_the_cpu_has_bf16_matrix_units() -> None:
    """On this machine kind (AMX, AVX512-BF16) auto gives bf16; on a CPU without them fp32."""
    flags = _cpuinfo_flags()
    if not flags:
        pytest.skip("no /proc/cpuinfo to compare with")
    has_units = bool({"amx_bf16", "avx512_bf16"} & flags)
    assert (precision.cpu_matrix_units() is not None) == has_units
    assert precision.choose_precision("auto", CPU) == ("bf16" if has_units else "fp32")
    if "amx_bf16" in flags:
        assert precision.cpu_matrix_units() == "amx_bf16"


def test_a_cpu_without_matrix_units_runs_fp32_and_a_forced_precision_is_kept(monkeypatch) -> None:
    monkeypatch.setattr(precision, "cpu_matrix_units", lambda: None)
    assert precision.choose_precision("auto", CPU) == "fp32"
    assert precision.choose_precision("bf16", CPU) == "bf16"  # asked for: emulated, but as asked
    assert precision.choose_precision("fp32", CPU) == "fp32"
    with pytest.raises(ValueError, match="fp16 needs a GPU"):
        precision.choose_precision("fp16", CPU)
    with pytest.raises(ValueError, match="unknown precision 'bf17'"):
        precision.choose_precision("bf17", CPU)


@pytest.fixture(scope="module")
def classifier_parts():
    tokenizer = train_tokenizer([TEXT], vocab_size=800, model_max_length=64)
    torch.manual_seed(0)
    model = build_model(ModelSpec(hidden_size=32, num_layers=1, num_heads=2, intermediate_size=64, max_length=64), tokenizer)
    return model, tokenizer


def test_inference_runs_in_the_chosen_precision_and_a_forced_fp32_path(classifier_parts) -> None:
    model, tokenizer = classifier_parts
    ids = torch.tensor([tokenizer(TEXT[:200])["input_ids"][:64]])
    mask, types = torch.ones_like(ids), torch.zeros_like(ids)
    chosen = precision.choose_precision("auto", CPU)
    auto = TokenClassifier(model, tokenizer, InferenceConfig(max_length=64, stride=16), CPU)
    fp32 = TokenClassifier(model, tokenizer, InferenceConfig(max_length=64, stride=16, precision="fp32"), CPU)
    assert auto.precision == chosen and fp32.precision == "fp32"
    with torch.inference_mode():
        assert auto.logits(ids, mask, types).dtype == (torch.bfloat16 if chosen == "bf16" else torch.float32)
        assert fp32.logits(ids, mask, types).dtype == torch.float32
    assert auto.runtime() == {"device": "cpu", "precision": chosen, "engine": "torch",
                              "cpu_matrix_units": precision.cpu_matrix_units()}  # fmt: skip
    # both paths predict on a real decision; the spans they find are the same words mostly
    a, b = (c.predict([TEXT], threshold=0.5)[0] for c in (auto, fp32))
    assert len(a) == len(b) or abs(len(a) - len(b)) <= max(2, len(b) // 10)
    onnx = TokenClassifier(model, tokenizer, InferenceConfig(engine="onnx", precision="bf16"), CPU)
    with pytest.raises(ValueError, match="runs on the torch engine only"):
        _ = onnx.precision
    assert TokenClassifier(model, tokenizer, InferenceConfig(engine="onnx", quantize="int8"), CPU).precision == "int8"


def test_bf16_on_a_cpu_runs_a_bf16_copy_as_model_3_and_autocast_as_a_saved_model_2(classifier_parts) -> None:
    """model@3 runs a copy of the weights cast to bf16 once (no casts per batch); a pipeline
    gated with model@2 keeps the fp32 weights under autocast; the copy follows weights that
    training changed in place once told so, and the model that is trained and saved stays fp32."""
    from deid.anonymizer.components import InferenceConfigV2

    model, tokenizer = classifier_parts
    model = copy.deepcopy(model)
    ids = torch.tensor([tokenizer(TEXT[:200])["input_ids"][:64]])
    mask, types = torch.ones_like(ids), torch.zeros_like(ids)
    cast = TokenClassifier(model, tokenizer, InferenceConfig(max_length=64, stride=16, precision="bf16"), CPU)
    auto = TokenClassifier(model, tokenizer, InferenceConfigV2(max_length=64, stride=16, precision="bf16"), CPU)
    with torch.inference_mode():
        first = cast.logits(ids, mask, types)
        copied = cast._bf16
        assert next(copied.parameters()).dtype == torch.bfloat16 and copied is not model
        assert next(model.parameters()).dtype == torch.float32
        autocast = auto.logits(ids, mask, types)
        assert auto._bf16 is None  # model@2 never makes the copy
        # both are bf16 products of the same weights: close, not equal
        assert first.dtype == autocast.dtype == torch.bfloat16
        assert torch.allclose(first.float(), autocast.float(), atol=0.1)
        assert cast.logits(ids, mask, types).equal(first) and cast._bf16 is copied  # kept
    # a fused AdamW step, as training takes it, then the training loop's notice
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=0.1, fused=True)
    model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits.sum().backward()
    optimizer.step()
    with torch.inference_mode():
        assert cast.logits(ids, mask, types).equal(first)  # not told yet: the copy stays
        cast.weights_changed()
        changed = cast.logits(ids, mask, types)
        fp32 = TokenClassifier(model, tokenizer, InferenceConfig(max_length=64, stride=16, precision="fp32"), CPU)
        assert torch.allclose(changed.float(), fp32.logits(ids, mask, types), atol=0.1)
    assert not torch.allclose(changed.float(), first.float(), atol=0.1)


def test_pipeline_json_and_lineage_record_what_ran(tmp_path, classifier_parts) -> None:
    model, tokenizer = classifier_parts
    config = PipelineConfig().override(max_length=64, engine="torch", precision="auto")
    trained_with = {"device": "cpu", "precision": "bf16", "cpu_matrix_units": "amx_bf16"}
    Pipeline(TokenClassifier(model, tokenizer, device="cpu"), config).save(tmp_path / "p", trained_with=trained_with)
    saved = json.loads((tmp_path / "p" / "pipeline.json").read_text())
    assert saved["trained_with"] == trained_with
    assert saved_config(tmp_path / "p") == config  # a record, not a setting
    loaded = build_pipeline(tmp_path / "p", device="cpu")
    lineage = run_lineage(None, loaded.config.to_dict(), runtime=loaded.runtime()).to_dict()
    assert lineage["runtime"]["precision"] == precision.choose_precision("auto", CPU)
    assert lineage["runtime"]["engine"] == "torch"
    assert "runtime" not in run_lineage(None, PipelineConfig.rules_only().to_dict()).to_dict()
    # a model step saved before precision was chosen by hardware (model@1) runs fp32, as gated
    old = PipelineConfig.from_dict({"chain": [{"name": "model", "version": 1, "config": {"max_length": 64}}]})
    assert old.model.precision == "fp32"
    assert Pipeline(TokenClassifier(model, tokenizer, device="cpu"), old).runtime()["precision"] == "fp32"


def test_threads_wait_passively_unless_the_user_says_otherwise() -> None:
    """deid sets OpenMP's wait policy before torch loads it (spinning threads collapsed
    two-thread training 4-8x on a shared machine); a policy the user set is kept."""
    import os
    import subprocess
    import sys

    probe = "import deid, os; print(os.environ['OMP_WAIT_POLICY'])"
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "PASSIVE"
    out = subprocess.run([sys.executable, "-c", probe], env={**env, "OMP_WAIT_POLICY": "ACTIVE"},
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == "ACTIVE"
