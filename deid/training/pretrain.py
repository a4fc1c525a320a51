"""Optional masked-LM pre-training on the corpus before fine-tuning (GiusBERTo's domain
pre-training): the encoder first learns German court language, then token classification."""

from __future__ import annotations

import logging
import math
import random

import torch
from tqdm.auto import tqdm
from transformers import (
    BertForMaskedLM,
    DataCollatorForLanguageModeling,
    PreTrainedModel,
    PreTrainedTokenizerFast,
    get_linear_schedule_with_warmup,
)

from deid.anonymizer.ner import pick_device

logger = logging.getLogger(__name__)


def pretrain_mlm(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerFast,
    texts: list[str],
    *,
    epochs: int = 1,
    batch_size: int = 16,
    learning_rate: float = 5e-4,
    mlm_probability: float = 0.15,
    max_length: int = 128,
    seed: int = 13,
    device: str = "auto",
    progress: bool = True,
) -> dict[str, float]:
    """Train an MLM head on ``texts`` and copy the learned encoder into ``model`` (in place)."""
    if not hasattr(model, "bert"):
        raise ValueError("MLM pre-training supports BERT-style models built from scratch")
    dev = pick_device(device)
    mlm = BertForMaskedLM(model.config).to(dev)
    mlm.bert.load_state_dict(model.bert.state_dict(), strict=False)
    enc = tokenizer(texts, truncation=True, max_length=max_length, return_overflowing_tokens=True)
    examples = [{"input_ids": ids} for ids in enc["input_ids"]]
    collator = DataCollatorForLanguageModeling(tokenizer, mlm_probability=mlm_probability)
    rng = random.Random(seed)
    steps = max(1, math.ceil(len(examples) / batch_size) * epochs)
    opt = torch.optim.AdamW(mlm.parameters(), lr=learning_rate)
    sched = get_linear_schedule_with_warmup(opt, int(0.05 * steps), steps)
    mlm.train()
    losses: list[float] = []
    for epoch in range(epochs):
        rng.shuffle(examples)
        starts = range(0, len(examples), batch_size)
        bar = tqdm(
            starts,
            desc=f"MLM epoch {epoch + 1}/{epochs}",
            disable=None if progress else True,  # None: only on a terminal
            leave=False,
            mininterval=2.0,
        )
        for i in bar:
            batch = {k: v.to(dev) for k, v in collator(examples[i : i + batch_size]).items()}
            loss = mlm(**batch).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(mlm.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            losses.append(float(loss.detach()))
            bar.set_postfix(loss=f"{losses[-1]:.3f}", refresh=False)
        logger.info("MLM epoch %d/%d: mean loss %.3f", epoch + 1, epochs, sum(losses[-len(starts):]) / max(1, len(starts)))
    model.bert.load_state_dict(mlm.bert.state_dict(), strict=False)
    logger.info("MLM pre-training: %d windows, final loss %.3f", len(examples), losses[-1] if losses else float("nan"))
    return {"mlm_loss": float(sum(losses[-50:]) / max(1, len(losses[-50:]))), "mlm_windows": len(examples)}
