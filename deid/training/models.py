"""Token-classification models: a small BERT trained from scratch, or any checkpoint.

The label map is fixed by :mod:`deid.schema` and written into the model config, so a saved
model carries its labels (transformers' ``id2label``/``label2id``).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass

import torch
from transformers import (
    AutoConfig,
    AutoModelForTokenClassification,
    BertConfig,
    BertForTokenClassification,
    PreTrainedModel,
    PreTrainedTokenizerFast,
)

from deid.anonymizer.features import FEATURE_SET, num_features
from deid.schema import MODEL_LABELS, bio_labels

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelSpec:
    """Architecture of a from-scratch BERT, or which pretrained checkpoint to fine-tune.

    With ``base`` (a local directory such as the imported encoder, or a hub id) the size
    fields are the checkpoint's; ``base_layers`` keeps only its first N layers (0: all), and
    ``features`` adds the word features as extra token-type rows that start as a copy of the
    checkpoint's first one, so fine-tuning begins from the checkpoint's own behaviour."""

    hidden_size: int = 256
    num_layers: int = 4
    num_heads: int = 4
    intermediate_size: int = 1024
    max_length: int = 256
    dropout: float = 0.1
    base: str | None = None
    base_layers: int = 0
    features: bool = True


def label_maps(labels: tuple[str, ...] = MODEL_LABELS) -> tuple[dict[int, str], dict[str, int]]:
    tags = bio_labels(labels)
    return dict(enumerate(tags)), {t: i for i, t in enumerate(tags)}


def build_model(
    spec: ModelSpec, tokenizer: PreTrainedTokenizerFast, base: str | None = None
) -> PreTrainedModel:
    """A fresh token classifier: from ``base`` (local path or hub id) or from scratch."""
    id2label, label2id = label_maps()
    if base:
        return _from_checkpoint(spec, base, id2label, label2id)
    config = BertConfig(
        type_vocab_size=num_features(),  # word features (deid.anonymizer.features) ride in token_type_ids
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


def _from_checkpoint(spec: ModelSpec, base: str, id2label: dict, label2id: dict) -> PreTrainedModel:
    logger.info("loading base checkpoint for token classification")
    config = AutoConfig.from_pretrained(
        base, num_labels=len(id2label), id2label=id2label, label2id=label2id
    )
    if spec.base_layers:
        if spec.base_layers > config.num_hidden_layers:
            raise ValueError(f"base_layers {spec.base_layers} > the checkpoint's {config.num_hidden_layers} layers")
        config.num_hidden_layers = spec.base_layers
    config.hidden_dropout_prob = config.attention_probs_dropout_prob = spec.dropout
    model = AutoModelForTokenClassification.from_pretrained(base, config=config, ignore_mismatched_sizes=True)
    types = getattr(getattr(model.base_model, "embeddings", None), "token_type_embeddings", None)
    if spec.features and types is not None:
        grown = torch.nn.Embedding(num_features(), types.embedding_dim)
        with torch.no_grad():
            grown.weight.copy_(types.weight[0].expand_as(grown.weight))
        model.base_model.embeddings.token_type_embeddings = grown
        model.config.type_vocab_size = num_features()
        model.config.deid_features = FEATURE_SET
    return model


def count_parameters(model: torch.nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def spec_dict(spec: ModelSpec) -> dict:
    return asdict(spec)
