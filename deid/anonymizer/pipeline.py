"""The anonymization pipeline: model → a chain of registered components (rule recognizers
merged into the model's spans, keep zones, span filters, document-level consistency;
deid.anonymizer.components) → an operator.

``build_pipeline`` is the one construction path: the CLI, the batch flows and the MLflow
pyfunc all load a saved pipeline directory (model weights, tokenizer with its label map,
and ``pipeline.json`` with the model settings and the post-processing chain, deid.anonymizer.chain)
through it. Loading checks every recorded chain component and version against the
registered ones: a pipeline is run only with the rule code it was evaluated with.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from deid.anonymizer.budget import Deadline, DocumentBudget, count_tokens
from deid.anonymizer.chain import Chain, ChainMismatch, StepConfig, chain_to_list, parse_chain, step
from deid.anonymizer.checkpoint import save_model
from deid.anonymizer.components import (
    MODEL,
    POLICY,
    MODEL_DEFAULTS_BEFORE_CHAIN,
    default_chain,
    legacy_chain,
)
from deid.anonymizer.ner import InferenceConfig, TokenClassifier
from deid.anonymizer.policy import PolicyConfig
from deid.anonymizer.profiles import ProfileError, check_profile
from deid.schema import Document, Span, spans_to_dicts
from deid.sources.io import LfView
from deid.sources.params import field_names

logger = logging.getLogger(__name__)

PIPELINE_FILE = "pipeline.json"
TRAINED_WITH = "trained_with"  # pipeline.json: what trained the model (a record, not a setting)
MODEL_DIR = "model"


@dataclass(frozen=True)
class PipelineConfig:
    """Everything besides the weights that decides what gets anonymized: the chain of
    registered components (deid.anonymizer.chain), the model first with how it runs, then
    the post-processing of its spans; the operator and the per-document budget."""

    # model → recognizers → keep zones → span filters → consistency, each a registered
    # component at a version (deid.anonymizer.components); an ablation removes entries, a
    # rules-only pipeline has no model entry
    chain: tuple[StepConfig, ...] = field(default_factory=default_chain)
    operator: str = "label"
    # per document, counted before any work (deid.anonymizer.budget; 0: no limit); a document
    # over it is quarantined with the reason
    max_characters: int = 5_000_000  # the largest bundled decision has 165,181
    max_tokens: int = 1_000_000  # the model's tokens (without a model: words and punctuation marks)
    max_word_characters: int = 1_000  # the longest word of the bundled corpora has 78
    # the review service's time limit per analysis (deid serve sets it to its request timeout);
    # a batch is never timed: its outcome must not depend on the machine's load
    max_seconds: float = 900.0
    # "flags" when read from a pipeline.json saved before the chain (legacy_chain mapped its
    # flags to version 1 of each component); recorded when saved again
    migrated_from: str | None = None

    @classmethod
    def rules_only(cls) -> PipelineConfig:
        """The default chain without the model: recognizers and filters alone."""
        return cls().without(MODEL)

    @property
    def model(self) -> InferenceConfig | None:
        """How the model runs (the ``model`` step's config); None when the chain has no model."""
        entry = self.step(MODEL)
        return entry.config if entry is not None else None

    @property
    def use_model(self) -> bool:
        return self.model is not None

    @property
    def profile(self) -> str | None:
        """The anonymization profile of the chain's ``policy`` step (None: a pipeline saved
        before profiles existed)."""
        entry = self.step(POLICY)
        return entry.config.profile if entry is not None else None

    def override(self, **settings: Any) -> PipelineConfig:
        """This config with ``settings`` changed: a model setting (threshold, engine …) on the
        chain's model step, ``profile`` on its policy step, any other on the pipeline config
        (operator, budget)."""
        model_keys = field_names(InferenceConfig)
        on_model = {k: v for k, v in settings.items() if k in model_keys}
        if on_model and not self.use_model:
            raise ValueError(f"model settings {sorted(on_model)} given to a pipeline without a model (rules only)")
        profile = settings.get("profile")
        if profile is not None and self.step(POLICY) is None:
            raise ProfileError("this pipeline was evaluated without an anonymization profile (its chain has no "
                             "'policy' step): evaluate and save it again to choose one")  # fmt: skip
        rest = {k: v for k, v in settings.items() if k not in model_keys and k != "profile"}
        config = replace(self, **rest)
        if profile is not None:
            config = config.configured(POLICY, profile=check_profile(profile))
        return config.configured(MODEL, **on_model) if on_model else config

    def budget(self) -> DocumentBudget:
        return DocumentBudget(self.max_characters, self.max_tokens, self.max_word_characters)

    # --- the chain -------------------------------------------------------------------------

    def step(self, name: str) -> StepConfig | None:
        """The chain entry of component ``name``, None when the chain does not run it."""
        return next((s for s in self.chain if s.name == name), None)

    def without(self, *names: str) -> PipelineConfig:
        """This config with the components ``names`` removed from the chain (an ablation)."""
        return replace(self, chain=tuple(s for s in self.chain if s.name not in names))

    def configured(self, name: str, **overrides: Any) -> PipelineConfig:
        """This config with ``overrides`` on the config of the chain's ``name`` step."""
        if self.step(name) is None:
            raise ValueError(f"the chain has no component '{name}'")
        return replace(self, chain=tuple(s.with_overrides(**overrides) if s.name == name else s
                                         for s in self.chain))  # fmt: skip

    # --- pipeline.json -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "migrated_from"}
        out["chain"] = chain_to_list(self.chain)
        return out | ({"migrated_from": self.migrated_from} if self.migrated_from else {})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PipelineConfig:
        """A saved config. One saved before the chain (flags, no ``chain``) gets the chain its
        flags ran (every component at version 1) and ``migrated_from="flags"``; one saved
        before the model was a chain step gets a version-1 model step from its model settings;
        a chain entry at a version this code does not have raises
        :class:`deid.anonymizer.chain.ChainMismatch`."""
        data = {k: v for k, v in data.items() if k != TRAINED_WITH}
        legacy = {k: data.pop(k) for k in sorted(LEGACY_CHAIN_KEYS | RETIRED_SWITCHES) if k in data}
        model = {k: data.pop(k) for k in sorted(MODEL_KEYS_BEFORE_CHAIN) if k in data}
        # saved before the model was a step: the model ran unless use_model was off (a chain
        # of then came with its model settings; a chain without them is rules only)
        ran_model = bool(model.pop("use_model", True)) and (bool(model) or "chain" not in data)
        if "chain" in data:
            if legacy:
                raise ValueError(f"pipeline settings {sorted(legacy)} belong to a saved config without a chain: "
                                 "give the chain alone")  # fmt: skip
            data["chain"] = parse_chain(data["chain"] or [])
        else:
            data["chain"] = _legacy_chain(legacy)
            data["migrated_from"] = "flags"
        if any(s.name == MODEL for s in data["chain"]):
            if model:
                raise ValueError(f"pipeline settings {sorted(model)} belong to the chain's model step: give them there")
        elif ran_model:
            data["chain"] = (_model_before_chain(model), *data["chain"])
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown pipeline settings {sorted(unknown)}")
        return cls(**data)


# The model settings of a pipeline.json saved before the model was a chain step.
MODEL_KEYS_BEFORE_CHAIN = frozenset(field_names(InferenceConfig) | {"use_model"})


def _model_before_chain(settings: dict[str, Any]) -> StepConfig:
    """The model step (version 1) of a pipeline.json that kept the model's settings beside the
    chain: what it gave over the defaults of then; no engine means it was saved before the
    ONNX engine, so it was evaluated on torch."""
    return step(MODEL, 1, **{**MODEL_DEFAULTS_BEFORE_CHAIN, "engine": "torch", **settings})


# The switches of a pipeline.json saved before the chain (deid.anonymizer.components.legacy_chain maps
# them onto it).
LEGACY_CHAIN_KEYS = frozenset(
    {"use_recognizers", "recognizers", "use_keep_zones", "policy", "consistency",
     "consistency_min_score", "consistency_min_share"}
)  # fmt: skip
# Rule layers removed because they no longer improved validation F2 on the encoder model
# (docs/experiments.md, "Rule layers on top of the encoder model"). A saved config that had
# them off loads unchanged; one that ran them was evaluated on a chain this code cannot run,
# so it must be evaluated (gated) again.
RETIRED_SWITCHES = frozenset({"use_context_names", "use_place_names"})
RETIRED_POLICY = frozenset({"filter_digitless", "digit_labels"})


def _legacy_chain(flags: dict[str, Any]) -> tuple[StepConfig, ...]:
    """The chain a flags-only pipeline.json ran; a retired layer that was on raises."""
    _drop_retired(flags, RETIRED_SWITCHES, "")
    policy = dict(flags.pop("policy", None) or {})
    _drop_retired(policy, RETIRED_POLICY, "policy.")
    return legacy_chain(
        recognizers=flags.get("recognizers", {"min_score": 0.5}) if flags.get("use_recognizers", True) else False,
        keep_zones=bool(flags.get("use_keep_zones", True)),
        policy=PolicyConfig.from_saved(policy),
        consistency=bool(flags.get("consistency", True)),
        consistency_min_score=float(flags.get("consistency_min_score", 0.7)),
        consistency_min_share=float(flags.get("consistency_min_share", 0.25)),
    )


def _drop_retired(data: dict[str, Any], retired: frozenset[str], prefix: str) -> None:
    for key in sorted(retired & set(data)):
        value = data.pop(key)
        if key.startswith(("use_", "filter_")) and value:
            raise ValueError(
                f"this pipeline was evaluated with the rule layer {prefix}{key}, which was removed; "
                "re-run the gate on it (deid evaluate-model) and save it again"
            )


class Pipeline:
    """Finds sensitive spans in decisions and neutralizes them."""

    def __init__(self, classifier: TokenClassifier | None, config: PipelineConfig) -> None:
        if config.use_model and classifier is None:
            raise ValueError("the pipeline is configured to use a model but none was given")
        self.classifier = classifier
        self.config = config
        self.chain = Chain(config.chain)  # checks each (name, version) against the registry
        if classifier is not None and config.model is not None:
            classifier.config = config.model

    def with_overrides(self, **overrides: Any) -> Pipeline:
        """The same pipeline with changed settings (a profile, a threshold); the classifier
        is shared, not loaded again."""
        return Pipeline(self.classifier, self.config.override(**overrides)) if overrides else self

    # --- detection -----------------------------------------------------------------------

    def model_spans(self, texts: Sequence[str], deadline: Deadline | None = None) -> list[list[Span]]:
        """The model's spans alone under this pipeline's profile (none when the model is off):
        the input of :meth:`finish`."""
        profile = self.config.profile
        return self.model_spans_under(texts, [profile], deadline)[profile]

    def model_spans_under(
        self, texts: Sequence[str], profiles: Sequence[str | None], deadline: Deadline | None = None
    ) -> dict[str | None, list[list[Span]]]:
        """The model's spans under each of ``profiles`` from one run of the model: a profile
        may have a threshold of its own (``model@4``: federal neutralizes only what the model
        is sure of), which changes the decoding, not the run."""
        if not (self.config.use_model and self.classifier is not None and texts):
            return {p: [[] for _ in texts] for p in profiles}
        model = self.config.model
        assert model is not None
        thresholds = sorted({model.threshold_for(p) for p in profiles})
        found = dict(zip(thresholds, self.classifier.predict_at(list(texts), thresholds, deadline)))
        return {p: found[model.threshold_for(p)] for p in profiles}

    def count_tokens(self, text: str) -> int:
        """The tokens a document's budget counts: the model tokenizer's (the windows the model
        will run are that many), else words and punctuation marks."""
        if self.config.use_model and self.classifier is not None:
            return len(self.classifier.tokenizer.backend_tokenizer.encode(text, add_special_tokens=False).ids)
        return count_tokens(text)

    def analyze_many(
        self, texts: Sequence[str], model_spans: Sequence[list[Span]] | None = None,
        deadline: Deadline | None = None,
    ) -> list[list[Span]]:  # fmt: skip
        """Spans per text; ``model_spans`` (from :meth:`model_spans`) skips the model run, so
        rule settings can be compared on one prediction (bench/ablation.py). A text over the
        budget (characters, longest word, tokens) raises
        :class:`deid.anonymizer.budget.OverBudget` before any work. ``deadline``: a service
        request's time limit (``Deadline(config.max_seconds)``; a batch has none)."""
        budget = self.config.budget()
        for text in texts:
            budget.check_size(text, self.count_tokens)
        if model_spans is None:
            model_spans = self.model_spans(texts, deadline)
        elif len(model_spans) != len(texts):
            raise ValueError(f"{len(model_spans)} model predictions for {len(texts)} texts")
        return [self.finish(text, spans, deadline) for text, spans in zip(texts, model_spans)]

    def analyze(self, text: str, deadline: Deadline | None = None) -> list[Span]:
        """Spans of ``text``, found on its ``"\\n"`` line-end view (what rules and model were
        validated on: a CRLF file gets the spans of its LF twin) and mapped back to ``text``."""
        view = LfView.of(text)
        return view.to_original(self.analyze_many([view.text], deadline=deadline)[0])

    def finish(self, text: str, model_spans: list[Span], deadline: Deadline | None = None) -> list[Span]:
        """The chain's components on the model's spans of ``text``, in order (``deadline``:
        checked after each component)."""
        return self.chain(text, model_spans, deadline)

    # --- neutralization ------------------------------------------------------------------

    def operator_for(self, operator: str | None) -> str:
        """The operator a caller asked for, else the one this pipeline was saved with."""
        return operator or self.config.operator

    def anonymize(
        self,
        doc: Document,
        *,
        operator: str | None = None,
        secret: bytes | None = None,
        spans: list[Span] | None = None,
    ) -> dict[str, Any]:
        """The output record: anonymized text and the spans (offsets into the input text)."""
        from deid.anonymizer.operators import anonymize_text

        spans = self.analyze(doc.text) if spans is None else spans
        result = anonymize_text(doc.text, spans, self.operator_for(operator), doc_id=doc.id, secret=secret)
        return {"id": doc.id, "text": result.text, "spans": spans_to_dicts(spans)}

    # --- persistence -----------------------------------------------------------------------

    def runtime(self) -> dict[str, str | None]:
        """What runs the model in this process (deid.anonymizer.ner.TokenClassifier.runtime);
        empty for rules only."""
        return self.classifier.runtime() if self.config.use_model and self.classifier is not None else {}

    def save(self, directory: str | Path, trained_with: dict[str, str | None] | None = None) -> None:
        """Weights, tokenizer and ``pipeline.json``; ``trained_with`` (device, precision, the
        CPU's matrix units) is recorded there beside the settings."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        if self.classifier is not None:
            save_model(self.classifier.model, self.classifier.tokenizer, directory / MODEL_DIR)
        record = self.config.to_dict() | ({TRAINED_WITH: trained_with} if trained_with else {})
        (directory / PIPELINE_FILE).write_text(json.dumps(record, indent=2), encoding="utf-8")


# pipelines loaded in this process (cached_pipeline), the most recently used last
_LOADED: dict[tuple[str, str], Pipeline] = {}
CACHED_PIPELINES = 2  # a challenger and a champion evaluated side by side


def cached_pipeline(directory: str | Path, overrides: dict[str, Any] | None = None) -> tuple[Pipeline, bool]:
    """The saved pipeline at ``directory``, loaded once per process: the chunk tasks of a
    batch (and each Dask worker's share of them) reuse it instead of loading the model per
    chunk. Keyed by the resolved directory, the sha256 of its ``pipeline.json`` and the
    ``overrides`` (a profile), so a directory saved again with other settings is loaded
    anew. Returns the pipeline and
    whether it was loaded by this call. Tasks pass the directory, never the pipeline: a
    model is not pickled between processes."""
    directory = Path(directory).resolve()
    config = directory / PIPELINE_FILE
    digest = hashlib.sha256(config.read_bytes()).hexdigest() if config.exists() else ""
    key = (str(directory), digest + json.dumps(overrides or {}, sort_keys=True))
    if key in _LOADED:
        _LOADED[key] = _LOADED.pop(key)  # most recently used last
        return _LOADED[key], False
    while len(_LOADED) >= CACHED_PIPELINES:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = pipeline = build_pipeline(directory, overrides=overrides)
    logger.info("pipeline %s loaded in process %d", digest[:12] or "(defaults)", os.getpid())
    return pipeline, True


def saved_config(directory: str | Path) -> PipelineConfig:
    """The config saved in a pipeline directory (defaults without a ``pipeline.json``), its
    chain checked against the registered components without loading the model: a chain
    component or version this code does not have raises :class:`deid.anonymizer.chain.ChainMismatch`
    naming the file, the component and both versions."""
    path = Path(directory) / PIPELINE_FILE
    if not path.exists():
        return PipelineConfig()
    try:
        return PipelineConfig.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except ChainMismatch as exc:
        raise ChainMismatch(f"{path}: {exc}") from None


def build_pipeline(
    directory: str | Path | None = None,
    config: PipelineConfig | None = None,
    *,
    device: str = "auto",
    overrides: dict[str, Any] | None = None,
) -> Pipeline:
    """Load a saved pipeline directory (or build a rules-only pipeline without one); its
    chain must be one this code has (:func:`saved_config`)."""
    if directory is not None:
        directory = Path(directory)
        if config is None:
            config = saved_config(directory)
    config = config or PipelineConfig.rules_only()
    if overrides:
        config = config.override(**overrides)
    classifier = None
    if config.use_model:
        if directory is None:
            raise ValueError("a model directory is needed when use_model is on")
        model_dir = directory / MODEL_DIR if (directory / MODEL_DIR).exists() else directory
        classifier = TokenClassifier.from_pretrained(model_dir, device=device)
    return Pipeline(classifier, config)
