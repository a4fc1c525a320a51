"""Inference: a token classifier over whole documents, predictions as character spans.

Long texts are cut into overlapping windows by the fast tokenizer; a token seen in several
windows takes the prediction of the window where it sits most centrally; a token counts as sensitive when its
probability of not being ``O`` reaches the threshold (set low to favour recall). Spans are
widened to whole words (the thesis: one sensitive token makes the element sensitive).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from transformers import PreTrainedModel, PreTrainedTokenizerFast

from deid.features import token_features, word_bounds
from deid.schema import MODEL_SOURCE, Span

logger = logging.getLogger(__name__)


def pick_device(device: str = "auto") -> torch.device:
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(device)


@dataclass
class InferenceConfig:
    threshold: float = 0.5
    max_length: int = 256
    stride: int = 64
    batch_size: int = 16
    quantize: str = "none"  # none | int8 (CPU: torch dynamic quantization, see int8_layers)


def int8_layers(model: torch.nn.Module) -> set[str]:
    """The linear layers that run in int8: all but the feed-forward output projections and the
    classifier head. Dynamic quantization gives each input one scale per tensor; the inputs of
    those layers (GELU outputs, the last hidden states) carry a few outlier values that would
    take that whole range, so in int8 the main job's model flagged twice as many tokens as in
    fp32. Without them it keeps 99.75 % of token decisions and most of the speed."""
    names = {n for n, m in model.named_modules() if isinstance(m, torch.nn.Linear)}
    return {
        n for n in names
        if not n.startswith("classifier") and not (n.endswith("output.dense") and ".attention." not in n)
    }  # fmt: skip


class TokenClassifier:
    """A trained model + tokenizer that predicts typed spans for texts."""

    def __init__(
        self,
        model: PreTrainedModel,
        tokenizer: PreTrainedTokenizerFast,
        config: InferenceConfig | None = None,
        device: str | torch.device = "auto",
    ) -> None:
        self.device = pick_device(device) if isinstance(device, str) else device
        self.model = model.to(self.device).eval()
        self.tokenizer = tokenizer
        self.config = config or InferenceConfig()
        id2label = {int(k): v for k, v in model.config.id2label.items()}
        self.tags = [id2label[i] for i in range(len(id2label))]
        self.o_index = self.tags.index("O")
        from deid.schema import LABELS

        # only sensitive types are predicted as spans; keep types (judge, court, law …) count
        # as "not sensitive" together with O
        types = sorted({t[2:] for t in self.tags if t != "O" and t[2:] in LABELS})
        self.types = types
        self._sensitive_cols = [i for i, t in enumerate(self.tags) if t != "O" and t[2:] in LABELS]
        # columns of B-X and I-X per type, to sum their probabilities
        self._type_cols = [
            [i for i, t in enumerate(self.tags) if t != "O" and t[2:] == typ] for typ in types
        ]
        self._b_cols = {i for i, t in enumerate(self.tags) if t.startswith("B-")}
        from deid.models import uses_features

        self.features = uses_features(model)
        self._int8: torch.nn.Module | None = None

    def runner(self) -> torch.nn.Module:
        """The module that runs inference: the model, or its int8 copy when the config asks
        for one on the CPU (``self.model`` stays fp32: it is what gets saved and trained)."""
        if self.config.quantize == "none" or self.device.type != "cpu":
            return self.model
        if self.config.quantize != "int8":
            raise ValueError(f"unknown quantization {self.config.quantize!r} (none | int8)")
        if self._int8 is None:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # torch marks its quantized tensors deprecated
                self._int8 = torch.ao.quantization.quantize_dynamic(
                    self.model, int8_layers(self.model), dtype=torch.qint8
                ).eval()
        return self._int8

    @classmethod
    def from_pretrained(
        cls, path: str | Path, config: InferenceConfig | None = None, device: str = "auto"
    ) -> TokenClassifier:
        from deid.models import load_model
        from deid.tokenizer import load_tokenizer

        dev = pick_device(device)
        return cls(load_model(path, dev), load_tokenizer(path), config, dev)

    @torch.inference_mode()
    def token_probabilities(self, texts: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per text: unique token offsets (n, 2) and averaged label probabilities (n, tags)."""
        cfg = self.config
        # never longer windows than the model was trained on (its tokenizer records that)
        max_length = min(cfg.max_length, int(getattr(self.tokenizer, "model_max_length", cfg.max_length) or cfg.max_length))
        stride = min(cfg.stride, max(1, (max_length - 2) // 2))  # tokenizers requires < length
        enc = self.tokenizer(
            list(texts),
            truncation=True,
            max_length=max_length,
            stride=stride,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
            return_special_tokens_mask=True,
        )
        n_windows = len(enc["input_ids"])
        # per text: token offsets -> (centrality, probabilities) of the best-placed occurrence;
        # a token near a window edge lacks context, so the window where it sits most
        # centrally decides
        per_text: list[dict[tuple[int, int], tuple[int, np.ndarray]]] = [dict() for _ in texts]
        # windows sorted by length: batches of like length need almost no padding
        order = sorted(range(n_windows), key=lambda i: len(enc["input_ids"][i]))
        autocast = self.device.type == "cuda"
        model = self.runner()
        bounds: dict[int, list[tuple[int, int]]] = {}
        for b in range(0, n_windows, cfg.batch_size):
            idx = order[b : b + cfg.batch_size]
            width = max(len(enc["input_ids"][i]) for i in idx)
            ids = torch.full((len(idx), width), self.tokenizer.pad_token_id, dtype=torch.long)
            mask = torch.zeros((len(idx), width), dtype=torch.long)
            types = torch.zeros((len(idx), width), dtype=torch.long)
            for r, i in enumerate(idx):
                row = enc["input_ids"][i]
                ids[r, : len(row)] = torch.tensor(row)
                mask[r, : len(row)] = 1
                if self.features:
                    sample = enc["overflow_to_sample_mapping"][i]
                    if sample not in bounds:
                        bounds[sample] = word_bounds(texts[sample])
                    types[r, : len(row)] = torch.tensor(
                        token_features(texts[sample], enc["offset_mapping"][i], self.features, bounds[sample])
                    )
            ids, mask, types = ids.to(self.device), mask.to(self.device), types.to(self.device)
            with torch.autocast(self.device.type, enabled=autocast, dtype=torch.bfloat16 if autocast else None):
                logits = model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits
            probs = torch.softmax(logits.float(), dim=-1).cpu().numpy()
            for r, i in enumerate(idx):
                sample = enc["overflow_to_sample_mapping"][i]
                n = len(enc["input_ids"][i])
                table = per_text[sample]
                for t, (off, special) in enumerate(zip(enc["offset_mapping"][i], enc["special_tokens_mask"][i])):
                    if special or off[1] <= off[0]:
                        continue
                    centrality = min(t, n - 1 - t)
                    key = tuple(off)
                    if key not in table or table[key][0] < centrality:
                        table[key] = (centrality, probs[r, t])
        out = []
        for table in per_text:
            if not table:
                out.append((np.zeros((0, 2), dtype=int), np.zeros((0, len(self.tags)))))
                continue
            keys = sorted(table)
            offsets = np.array(keys, dtype=int)
            probs = np.stack([table[k][1] for k in keys])
            out.append((offsets, probs))
        return out

    def predict(self, texts: Sequence[str], threshold: float | None = None) -> list[list[Span]]:
        thr = self.config.threshold if threshold is None else threshold
        return [
            decode_spans(text, offsets, probs, self._sensitive_cols, self._type_cols, self.types, self._b_cols, thr)
            for text, (offsets, probs) in zip(texts, self.token_probabilities(texts))
        ]


def decode_spans(
    text: str,
    offsets: np.ndarray,
    probs: np.ndarray,
    sensitive_cols: list[int],
    type_cols: list[list[int]],
    types: list[str],
    b_cols: set[int],
    threshold: float,
) -> list[Span]:
    """Group sensitive tokens into typed, word-aligned character spans."""
    if len(offsets) == 0:
        return []
    sensitive = probs[:, sensitive_cols].sum(axis=1)
    type_scores = np.stack([probs[:, cols].sum(axis=1) for cols in type_cols], axis=1)
    best_type = type_scores.argmax(axis=1)
    best_tag = probs.argmax(axis=1)
    spans: list[list] = []  # [start, end, type, [scores]]
    for (start, end), p, typ, tag in zip(offsets, sensitive, best_type, best_tag):
        if p < threshold:
            continue
        label = types[typ]
        if spans:
            last = spans[-1]
            gap = text[last[1] : start]
            begins_new = tag in b_cols and start > last[1]
            if label == last[2] and gap.strip() == "" and "\n" not in gap and not (begins_new and gap):
                last[1] = int(end)
                last[3].append(float(p))
                continue
            if start < last[1]:  # overlapping window tokens
                continue
        spans.append([int(start), int(end), label, [float(p)]])
    out: list[Span] = []
    for start, end, label, scores in spans:
        start, end = _widen_to_word(text, start, end)
        if out and start < out[-1].end:
            prev = out[-1]
            out[-1] = Span(prev.start, max(prev.end, end), prev.label, prev.score, MODEL_SOURCE)
            continue
        out.append(Span(start, end, label, float(np.mean(scores)), MODEL_SOURCE))
    return out


def _widen_to_word(text: str, start: int, end: int) -> tuple[int, int]:
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return start, end
