"""A subword tokenizer trained on the training corpus with the ``tokenizers`` library.

From-scratch models need a vocabulary of German court language; any pretrained checkpoint
brings its own tokenizer instead (``model.base`` in params.yaml).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import AutoTokenizer, PreTrainedTokenizerFast

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[PH]"]
PLACEHOLDER_TOKEN = "[PH]"  # the thesis' "placeholder-only" symbol (masking scheme M1)


def train_tokenizer(
    texts: Iterable[str],
    *,
    vocab_size: int = 16000,
    kind: str = "wordpiece",
    min_frequency: int = 2,
    model_max_length: int = 512,  # the model's trained window length; inference never exceeds it
) -> PreTrainedTokenizerFast:
    """Train a cased WordPiece (BERT-style) or Unigram tokenizer on ``texts``."""
    if kind == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        trainer = trainers.WordPieceTrainer(
            vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, min_frequency=min_frequency
        )
        tok.decoder = decoders.WordPiece()
    elif kind == "unigram":
        tok = Tokenizer(models.Unigram())
        trainer = trainers.UnigramTrainer(
            vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, unk_token="[UNK]"
        )
        tok.decoder = decoders.Metaspace()
    else:
        raise ValueError(f"unknown tokenizer kind {kind!r} (wordpiece | unigram)")
    tok.normalizer = normalizers.NFC()  # NFC keeps character offsets stable for German text
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainer)
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        additional_special_tokens=[PLACEHOLDER_TOKEN],
        model_max_length=model_max_length,
    )


def save_tokenizer(tokenizer: PreTrainedTokenizerFast, directory: str | Path) -> None:
    tokenizer.save_pretrained(str(directory))


def load_tokenizer(name_or_path: str | Path) -> PreTrainedTokenizerFast:
    """Load a saved or pretrained fast tokenizer (offsets are required, so fast only)."""
    tok = AutoTokenizer.from_pretrained(str(name_or_path), use_fast=True)
    if not tok.is_fast:
        raise ValueError(f"{name_or_path}: a fast tokenizer is required for character offsets")
    return tok
