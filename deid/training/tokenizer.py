"""A subword tokenizer trained on the training corpus with the ``tokenizers`` library.

From-scratch models need a vocabulary of German court language; any pretrained checkpoint
brings its own tokenizer instead (``model.base`` in params.yaml).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from tokenizers import (
    Tokenizer,
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
    trainers,
)
from transformers import PreTrainedTokenizerFast

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
    """Train a cased WordPiece (BERT-style) or Unigram tokenizer on ``texts``; the same texts
    give the same WordPiece vocabulary in every process (see :func:`_train_wordpiece`)."""
    if kind == "wordpiece":
        tok = _train_wordpiece(list(texts), vocab_size, min_frequency)
    elif kind == "unigram":
        tok = _bert_style(Tokenizer(models.Unigram()))
        trainer = trainers.UnigramTrainer(
            vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, unk_token="[UNK]"
        )
        tok.train_from_iterator(texts, trainer)
        tok.decoder = decoders.Metaspace()
    else:
        raise ValueError(f"unknown tokenizer kind {kind!r} (wordpiece | unigram)")
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


def _bert_style(tok: Tokenizer) -> Tokenizer:
    tok.normalizer = normalizers.NFC()  # NFC keeps character offsets stable for German text
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok


def _train_wordpiece(texts: list[str], vocab_size: int, min_frequency: int) -> Tokenizer:
    """WordPiece training made deterministic (tokenizers#1794).

    The trainer numbers the "##" continuation symbols in hash-map order, which changes per
    process, and breaks ties between merges of equal count by those numbers: the same corpus
    gave a different vocabulary (and different ids for ~900 of 12,000 tokens) in each run, so
    no training run could be repeated. Registering every continuation symbol up front, sorted,
    fixes the numbers; the vocabulary is then rebuilt as a plain WordPiece model, where those
    symbols are ordinary subwords again, not special tokens."""
    chars = sorted({c for text in texts for c in unicodedata.normalize("NFC", text) if not c.isspace()})
    fixed = [f"##{c}" for c in chars]
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS + fixed, min_frequency=min_frequency
    )
    trained = _bert_style(Tokenizer(models.WordPiece(unk_token="[UNK]")))
    trained.train_from_iterator(texts, trainer)
    tok = _bert_style(Tokenizer(models.WordPiece(trained.get_vocab(), unk_token="[UNK]")))
    tok.add_special_tokens(SPECIAL_TOKENS)
    tok.decoder = decoders.WordPiece()
    return tok
