"""A saved token classifier on disk: weights, config (with its label map and word-feature
set) and fast tokenizer, in the ``transformers`` layout.

The one home of loading and saving a model: inference (``TokenClassifier.from_pretrained``,
``Pipeline.save``) and training (which saves what it trained through ``Pipeline.save``) both
use it, so serving a model never imports the training code.
"""

from __future__ import annotations

from pathlib import Path

import torch
from transformers import (
    AutoModelForTokenClassification,
    AutoTokenizer,
    PreTrainedModel,
    PreTrainedTokenizerFast,
)

from deid.anonymizer.features import FEATURE_SETS


def save_model(model: PreTrainedModel, tokenizer: PreTrainedTokenizerFast, directory: str | Path) -> None:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(directory), safe_serialization=True)
    tokenizer.save_pretrained(str(directory))


def load_model(directory: str | Path, device: str | torch.device = "cpu") -> PreTrainedModel:
    model = AutoModelForTokenClassification.from_pretrained(str(directory))
    return model.to(device).eval()


def load_tokenizer(name_or_path: str | Path) -> PreTrainedTokenizerFast:
    """Load a saved or pretrained fast tokenizer (offsets are required, so fast only)."""
    tok = AutoTokenizer.from_pretrained(str(name_or_path), use_fast=True)
    if not tok.is_fast:
        raise ValueError(f"{name_or_path}: a fast tokenizer is required for character offsets")
    return tok


def uses_features(model: PreTrainedModel) -> str | None:
    """The feature set the model was built to read in ``token_type_ids`` (None: no features,
    e.g. a pretrained checkpoint)."""
    name = getattr(model.config, "deid_features", None)
    return name if name in FEATURE_SETS else None
