"""Token-classification models: a small BERT trained from scratch, or any checkpoint.

The label map is fixed by :mod:`deid.schema` and written into the model config, so a saved
model carries its labels (transformers' ``id2label``/``label2id``).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
from transformers import (
    AutoModelForTokenClassification,
    BertConfig,
    BertForTokenClassification,
    PreTrainedModel,
    PreTrainedTokenizerFast,
)

from deid.features import FEATURE_SET, FEATURE_SETS, num_features
from deid.schema import MODEL_LABELS, bio_labels

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelSpec:
    """Architecture of a from-scratch BERT; ignored when a ``base`` checkpoint is given."""

    hidden_size: int = 256
    num_layers: int = 4
    num_heads: int = 4
    intermediate_size: int = 1024
    max_length: int = 256
    dropout: float = 0.1


def label_maps(labels: tuple[str, ...] = MODEL_LABELS) -> tuple[dict[int, str], dict[str, int]]:
    tags = bio_labels(labels)
    return dict(enumerate(tags)), {t: i for i, t in enumerate(tags)}


def build_model(
    spec: ModelSpec, tokenizer: PreTrainedTokenizerFast, base: str | None = None
) -> PreTrainedModel:
    """A fresh token classifier: from ``base`` (local path or hub id) or from scratch."""
    id2label, label2id = label_maps()
    if base:
        logger.info("loading base checkpoint for token classification")
        return AutoModelForTokenClassification.from_pretrained(
            base,
            num_labels=len(id2label),
            id2label=id2label,
            label2id=label2id,
            ignore_mismatched_sizes=True,
        )
    config = BertConfig(
        type_vocab_size=num_features(),  # word features (deid.features) ride in token_type_ids
        vocab_size=len(tokenizer),
        hidden_size=spec.hidden_size,
        num_hidden_layers=spec.num_layers,
        num_attention_heads=spec.num_heads,
        intermediate_size=spec.intermediate_size,
        max_position_embeddings=max(512, spec.max_length),
        hidden_dropout_prob=spec.dropout,
        attention_probs_dropout_prob=spec.dropout,
        num_labels=len(id2label),
        id2label=id2label,
        label2id=label2id,
        pad_token_id=tokenizer.pad_token_id,
    )
    config.deid_features = FEATURE_SET
    return BertForTokenClassification(config)


def uses_features(model: PreTrainedModel) -> str | None:
    """The feature set the model was built to read in ``token_type_ids`` (None: no features,
    e.g. a pretrained checkpoint)."""
    name = getattr(model.config, "deid_features", None)
    return name if name in FEATURE_SETS else None


def save_model(model: PreTrainedModel, tokenizer: PreTrainedTokenizerFast, directory: str | Path) -> None:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(directory), safe_serialization=True)
    tokenizer.save_pretrained(str(directory))


def load_model(directory: str | Path, device: str | torch.device = "cpu") -> PreTrainedModel:
    model = AutoModelForTokenClassification.from_pretrained(str(directory))
    return model.to(device).eval()


def count_parameters(model: torch.nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def spec_dict(spec: ModelSpec) -> dict:
    return asdict(spec)
