"""params.yaml → typed settings. The file only overrides the defaults that live beside the
code (``DataConfig``, ``ModelSpec``, ``TrainConfig``, ``PipelineConfig``)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from deid.anonymize import PipelineConfig
from deid.models import ModelSpec
from deid.trainer import TrainConfig
from deid.training import DataConfig

DEFAULT_PARAMS = Path("params.yaml")
PROFILES = ("tiny", "small", "base")


@dataclass(frozen=True)
class TokenizerConfig:
    kind: str = "wordpiece"
    vocab_size: int = 12000
    min_frequency: int = 2


@dataclass(frozen=True)
class PretrainConfig:
    enabled: bool = False
    epochs: int = 1
    mlm_probability: float = 0.15


@dataclass(frozen=True)
class Settings:
    profile: str
    data: DataConfig
    tokenizer: TokenizerConfig
    spec: ModelSpec
    train: TrainConfig
    pretrain: PretrainConfig
    pipeline: PipelineConfig
    base: str | None = None
    max_documents: int = 0  # 0 = all training documents (tiny profile uses a handful)
    validation_seed: int = 101
    raw: dict[str, Any] = field(default_factory=dict, compare=False)


def _pick(cls, data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def load_params(path: str | Path = DEFAULT_PARAMS) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}


def settings_from_params(params: dict[str, Any], profile: str | None = None) -> Settings:
    """Resolve a profile (tiny | small | base) into typed settings."""
    model_p = params.get("model", {}) or {}
    profile = profile or model_p.get("profile", "small")
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of {PROFILES}")
    data_p = dict(params.get("dataset", {}) or {})
    spec_p = dict((model_p.get("profiles", {}) or {}).get(profile, {}))
    spec = ModelSpec(**_pick(ModelSpec, spec_p))
    data = DataConfig(**_pick(DataConfig, {**data_p, "max_length": spec.max_length}))
    train_p = dict(params.get("train", {}) or {})
    train_profile = dict((train_p.pop("profiles", {}) or {}).get(profile, {}))
    max_documents = int(train_profile.pop("max_documents", 0) or 0)
    train = TrainConfig(**_pick(TrainConfig, {**train_p, **train_profile}))
    anon = dict(params.get("anonymize", {}) or {})
    pipeline = PipelineConfig.from_dict(
        {**_pick(PipelineConfig, anon), "max_length": spec.max_length, "policy": anon.get("policy", {})}
    )
    return Settings(
        profile=profile,
        data=data,
        tokenizer=TokenizerConfig(**_pick(TokenizerConfig, params.get("tokenizer", {}) or {})),
        spec=spec,
        train=train,
        pretrain=PretrainConfig(**_pick(PretrainConfig, params.get("pretrain", {}) or {})),
        pipeline=pipeline,
        base=model_p.get("base") or spec.base,
        max_documents=max_documents,
        validation_seed=int(data_p.get("validation_seed", 101)),
        raw=params,
    )


def load_settings(path: str | Path = DEFAULT_PARAMS, profile: str | None = None) -> Settings:
    return settings_from_params(load_params(path), profile)


def flatten(params: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}}`` → ``{"a.b": 1}`` (MLflow params, DVC-style keys)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out
