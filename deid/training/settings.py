"""params.yaml → typed settings. The file only overrides the defaults that live beside the
code (``DataConfig``, ``ModelSpec``, ``TrainConfig``, ``PipelineConfig``). A key that nothing
reads raises (``EXTRA_KEYS`` lists those read outside the dataclasses): a typo must not fall
back to a default without a word."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from deid.anonymizer.chain import Chain, parse_chain, registry
from deid.anonymizer.ner import InferenceConfig
from deid.anonymizer.pipeline import PipelineConfig
from deid.sources.params import DEFAULT_PARAMS, check_keys, field_names, load_params, section
from deid.training.data import DataConfig
from deid.training.loop import TrainConfig
from deid.training.models import ModelSpec

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


# Keys of params.yaml that no config dataclass below holds but that are read all the same, by
# section ("" = the top level, "*" = any profile). Every other key that is no field is a typo
# and raises: it would otherwise fall back to the default without a word.
EXTRA_KEYS: dict[str, frozenset[str]] = {
    "": frozenset(
        {
            # settings_from_params
            "model",
            "dataset",
            "train",
            "tokenizer",
            "pretrain",
            "anonymize",
            # other readers
            "corpus",  # pipelines/ingest.py (dvc stage ingest)
            "validate",  # deid/ops/checks/config.py (dvc stage validate)
            "encoder",  # pipelines/encoder.py (dvc stage encoder)
            "gate",  # deid/ops/gate.py (GateConfig.from_params checks its own keys)
            "reviews",  # deid/sources/reviews/dataset.py (ReviewSettings.from_params checks its own keys)
            "written",  # deid/training/written.py (WrittenSettings.from_params checks its own keys)
        }
    ),
    "model": frozenset({"profile", "base", "profiles"}),  # settings_from_params (no dataclass)
    "dataset": frozenset({"validation_seed"}),  # Settings.validation_seed
    "train": frozenset({"profiles"}),  # train.profiles.<profile> override the section
    "train.profiles.*": frozenset({"max_documents"}),  # Settings.max_documents
}
# Fields that params.yaml must not set: settings_from_params overrides them.
SET_ELSEWHERE: dict[str, str] = {
    "dataset.max_length": "model.profiles.<profile>.max_length",
    "anonymize.chain.model.max_length": "model.profiles.<profile>.max_length",
    **{
        f"anonymize.{key}": f"anonymize.chain's model step ({{model: {{{key}: …}}}})"
        for key in sorted(field_names(InferenceConfig) - {"max_length"})
    },
    "anonymize.max_length": "model.profiles.<profile>.max_length",
    "anonymize.migrated_from": "deid when it reads a pipeline.json saved before the chain",
}


def _check_keys(name: str, data: dict[str, Any], allowed: set[str] | frozenset[str]) -> None:
    check_keys(name, data, allowed, set_elsewhere=SET_ELSEWHERE)


def _fields(cls: type, rule: str) -> set[str]:
    """Field names of the dataclass ``cls`` plus the EXTRA_KEYS of ``rule``."""
    return {f.name for f in fields(cls)} | EXTRA_KEYS.get(rule, frozenset())


def _pick(cls: type, data: dict[str, Any], section: str) -> dict[str, Any]:
    """``data`` as keyword arguments of the dataclass ``cls``, after checking its keys."""
    _check_keys(section, data, _fields(cls, section))
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def _profiles(data: dict[str, Any], name: str, cls: type) -> dict[str, dict[str, Any]]:
    """``name``'s profiles, every one checked (not only the one in use: a typo in ``base``
    must fail on the CPU as well) against ``cls``'s fields and the EXTRA_KEYS of a profile."""
    profiles = section(data.get("profiles"), f"{name}.profiles")
    _check_keys(f"{name}.profiles", profiles, set(PROFILES))
    allowed = _fields(cls, f"{name}.profiles.*")
    out = {}
    for profile, values in profiles.items():
        out[profile] = section(values, f"{name}.profiles.{profile}")
        _check_keys(f"{name}.profiles.{profile}", out[profile], allowed)
    return out


_DEFAULT = object()


def _chain(entries: Any) -> list[dict[str, Any]]:
    """``anonymize.chain`` checked like every other key (an unknown component or config key
    raises naming the closest valid one, never a value), then parsed (deid.anonymizer.chain)."""
    if entries is _DEFAULT:  # no chain in params.yaml: the code's default chain
        return [s.to_dict() for s in PipelineConfig().chain]
    if not isinstance(entries, list):
        raise TypeError("params.yaml: 'anonymize.chain' must be a list of components")
    components = registry()
    names = [e if isinstance(e, str) else next(iter(e), None) if isinstance(e, dict) and len(e) == 1 else None
             for e in entries]  # fmt: skip
    if None in names:
        raise TypeError("params.yaml: an 'anonymize.chain' entry is a component name or {name: {overrides}}")
    _check_keys("anonymize.chain", dict.fromkeys(map(str, names)), set(components))
    for name, entry in zip(names, entries):
        if isinstance(entry, dict):
            config = section(entry[name], f"anonymize.chain.{name}")
            versions = components[str(name)]
            _check_keys(f"anonymize.chain.{name}", config, {f.name for f in fields(versions[max(versions)].config)})
    return [s.to_dict() for s in parse_chain(entries)]


def settings_from_params(params: dict[str, Any], profile: str | None = None) -> Settings:
    """Resolve a profile (tiny | small | base) into typed settings; unknown keys raise."""
    _check_keys("", params, EXTRA_KEYS[""])
    model_p = section(params.get("model"), "model")
    _check_keys("model", model_p, EXTRA_KEYS["model"])
    profile = profile or model_p.get("profile", "small")
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of {PROFILES}")
    data_p = section(params.get("dataset"), "dataset")
    spec = ModelSpec(**_profiles(model_p, "model", ModelSpec).get(profile, {}))
    data = DataConfig(**_pick(DataConfig, data_p, "dataset"), max_length=spec.max_length)
    train_p = section(params.get("train"), "train")
    train_profile = _profiles(train_p, "train", TrainConfig).get(profile, {})
    max_documents = int(train_profile.pop("max_documents", 0) or 0)
    train = TrainConfig(**{**_pick(TrainConfig, train_p, "train"), **train_profile})
    anon = section(params.get("anonymize"), "anonymize")
    pipeline = PipelineConfig.from_dict(
        {**_pick(PipelineConfig, anon, "anonymize"), "chain": _chain(anon.get("chain", _DEFAULT))}
    )
    if pipeline.use_model:  # the windows the profile's model was trained on
        pipeline = pipeline.override(max_length=spec.max_length)
    try:  # its consumer builds it only after training: build it now (recognizer names …)
        Chain(pipeline.chain)
    except (TypeError, ValueError) as exc:
        exc.add_note("in params.yaml: anonymize.chain")
        raise
    return Settings(
        profile=profile,
        data=data,
        tokenizer=TokenizerConfig(
            **_pick(TokenizerConfig, section(params.get("tokenizer"), "tokenizer"), "tokenizer")
        ),
        spec=spec,
        train=train,
        pretrain=PretrainConfig(
            **_pick(PretrainConfig, section(params.get("pretrain"), "pretrain"), "pretrain")
        ),
        pipeline=pipeline,
        base=model_p.get("base") or spec.base,
        max_documents=max_documents,
        validation_seed=int(data_p.get("validation_seed", 101)),
        raw=params,
    )


def load_settings(path: str | Path = DEFAULT_PARAMS, profile: str | None = None) -> Settings:
    return settings_from_params(load_params(path), profile)


def flatten(params: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}}`` → ``{"a.b": 1}`` (MLflow params, DVC-style keys). A list of named
    entries (the analyzer chain: ``name`` or ``{name: {overrides}}``) gives its names in
    order under its own key and each override under ``<key>.<name>.<setting>``, so a chain
    setting reads in the MLflow UI like any other."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        elif _named_entries(value):
            entries = [e if isinstance(e, dict) else {e: None} for e in value]
            out[name] = ",".join(str(next(iter(e))) for e in entries)
            for entry in entries:
                ((step, overrides),) = entry.items()
                if isinstance(overrides, dict):
                    out.update(flatten(overrides, f"{name}.{step}."))
        else:
            out[name] = value
    return out


def _named_entries(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(e, str) or (isinstance(e, dict) and len(e) == 1 and isinstance(next(iter(e)), str))
        for e in value
    )
