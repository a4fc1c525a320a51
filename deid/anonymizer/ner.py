"""Inference: a token classifier over whole documents, predictions as character spans.

Long texts are cut into overlapping windows by the fast tokenizer; a token seen in several
windows takes the prediction of the window where it sits most centrally; a token counts as sensitive when its
probability of not being ``O`` reaches the threshold (set low to favour recall). Spans are
widened to whole words (the thesis: one sensitive token makes the element sensitive).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from transformers import PreTrainedModel, PreTrainedTokenizerFast

from deid.anonymizer.checkpoint import load_model, load_tokenizer, uses_features
from deid.anonymizer.features import token_features, word_bounds
from deid.anonymizer.precision import autocast, choose_precision, describe
from deid.schema import MODEL_SOURCE, SPAN_LABELS, Span

if TYPE_CHECKING:
    from deid.anonymizer.budget import Deadline
    from deid.anonymizer.onnx_engine import OnnxRunner

logger = logging.getLogger(__name__)


def pick_device(device: str = "auto") -> torch.device:
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(device)


@dataclass(frozen=True)
class InferenceConfig:
    """How the model runs: the config of the chain's ``model`` step (deid.anonymizer.components),
    recorded in ``pipeline.json``, so the gate evaluates what production runs."""

    threshold: float = 0.5
    max_length: int = 256
    stride: int = 64
    batch_size: int = 16
    engine: str = "torch"  # torch | onnx (CPU: ONNX Runtime, deid.anonymizer.onnx_engine); a GPU runs torch
    quantize: str = "none"  # none | int8 (onnx engine only: per-channel dynamic quantization)
    # torch engine: auto (bf16 on a CPU with bf16 matrix units or a GPU, else fp32;
    # deid.anonymizer.precision) | fp32 | bf16. The onnx engine runs its fp32 (or int8) graph.
    precision: str = "auto"
    # bf16 on a CPU: a bf16 copy of the model, cast once (True: no casts per batch, LayerNorm
    # and softmax in bf16 too, bench/throughput.py), or fp32 weights under torch.autocast
    # (False: model@2). A GPU always runs autocast.
    bf16_weights: bool = True

    def threshold_for(self, profile: str | None) -> float:
        """The threshold under ``profile``: one for all (model@4 gives a profile its own)."""
        return self.threshold


def encode_windows(tokenizer: Any, texts: list[str], max_length: int, stride: int) -> Any:
    """``texts`` cut into overlapping windows of at most ``max_length`` tokens, with offsets
    and special-token masks: the one tokenization training and inference share, so a model
    sees at run time the windows it was trained on."""
    return tokenizer(
        texts,
        truncation=True,
        max_length=max_length,
        stride=stride,
        return_overflowing_tokens=True,
        return_offsets_mapping=True,
        return_special_tokens_mask=True,
    )


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
        # only sensitive types are predicted as spans; keep types (judge, court, law …) count
        # as "not sensitive" together with O
        types = sorted({t[2:] for t in self.tags if t != "O" and t[2:] in SPAN_LABELS})
        self.types = types
        self._sensitive_cols = [i for i, t in enumerate(self.tags) if t != "O" and t[2:] in SPAN_LABELS]
        # columns of B-X and I-X per type, to sum their probabilities
        self._type_cols = [
            [i for i, t in enumerate(self.tags) if t != "O" and t[2:] == typ] for typ in types
        ]
        self._b_cols = {i for i, t in enumerate(self.tags) if t.startswith("B-")}
        self.features = uses_features(model)
        self._onnx: OnnxRunner | None = None
        self._bf16: PreTrainedModel | None = None

    def uses_onnx(self) -> bool:
        """Whether inference runs in ONNX Runtime: the onnx engine on a CPU (a GPU runs torch)."""
        from deid.anonymizer.onnx_engine import ENGINES, QUANTIZATIONS

        cfg = self.config
        if cfg.engine not in ENGINES or cfg.quantize not in QUANTIZATIONS:
            raise ValueError(f"unknown engine {cfg.engine!r} or quantization {cfg.quantize!r}")
        if cfg.engine == "torch" and cfg.quantize != "none":
            raise ValueError("int8 runs on the onnx engine (engine: onnx)")
        return cfg.engine == "onnx" and self.device.type == "cpu"

    @property
    def precision(self) -> str:
        """The precision inference runs in on this machine: the torch engine's chosen one
        (``InferenceConfig.precision``), int8 or fp32 for the ONNX graph."""
        if self.uses_onnx():
            if self.config.precision not in ("auto", "fp32"):
                raise ValueError(f"precision {self.config.precision!r} runs on the torch engine only "
                                 "(ONNX Runtime has no bf16 kernels on the CPU)")  # fmt: skip
            return "int8" if self.config.quantize == "int8" else "fp32"
        return choose_precision(self.config.precision, self.device)

    def runtime(self) -> dict[str, str | None]:
        """What runs the model here (device, engine, precision, the CPU's matrix units): for
        lineage and run records, as the precision depends on the machine."""
        engine = "onnx" if self.uses_onnx() else "torch"
        return {**describe(self.device, self.precision), "engine": engine}

    def logits(self, ids: torch.Tensor, mask: torch.Tensor, types: torch.Tensor) -> torch.Tensor:
        """One batch of windows through the configured engine. ``self.model`` stays the torch
        fp32 model: it is what gets trained and saved; the ONNX graph is exported from it the
        first time it is needed (with the quantization asked for)."""
        if self.uses_onnx():
            if self._onnx is None or self._onnx.quantize != self.config.quantize:
                from deid.anonymizer.onnx_engine import OnnxRunner

                self._onnx = OnnxRunner(self.model, self.config.quantize)
            return torch.from_numpy(self._onnx(ids.numpy(), mask.numpy(), types.numpy()))
        ids, mask, types = ids.to(self.device), mask.to(self.device), types.to(self.device)
        if self.precision == "bf16" and self.device.type == "cpu" and self.config.bf16_weights:
            return self._bf16_model()(input_ids=ids, attention_mask=mask, token_type_ids=types).logits
        with autocast(self.device, self.precision):
            return self.model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits

    def _bf16_model(self) -> PreTrainedModel:
        """A bf16 copy of ``self.model``, made at the first batch and kept: a classifier over a
        model in training must be told when the weights change (:meth:`weights_changed`);
        tensor version counters cannot tell, the fused optimizer updates weights without them."""
        if self._bf16 is None:
            with torch.inference_mode(False), torch.no_grad():
                self._bf16 = copy.deepcopy(self.model).to(torch.bfloat16).eval()
        return self._bf16

    def weights_changed(self) -> None:
        """``self.model``'s weights were changed in place (a training step, best weights
        restored): the next batch runs a fresh bf16 copy."""
        self._bf16 = None

    @classmethod
    def from_pretrained(
        cls, path: str | Path, config: InferenceConfig | None = None, device: str = "auto"
    ) -> TokenClassifier:
        dev = pick_device(device)
        return cls(load_model(path, dev), load_tokenizer(path), config, dev)

    @torch.inference_mode()
    def token_probabilities(
        self, texts: Sequence[str], deadline: Deadline | None = None
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per text: unique token offsets (n, 2) and the label probabilities (n, tags) of the
        window where each token sits most centrally. ``deadline`` is checked after every batch
        of windows, so a text that is slow for an unforeseen reason stops within one batch."""
        cfg = self.config
        # never longer windows than the model was trained on (its tokenizer records that)
        max_length = min(cfg.max_length, int(getattr(self.tokenizer, "model_max_length", cfg.max_length) or cfg.max_length))
        stride = min(cfg.stride, max(1, (max_length - 2) // 2))  # tokenizers requires < length
        enc = encode_windows(self.tokenizer, list(texts), max_length, stride)
        n_windows = len(enc["input_ids"])
        # per text: token offsets -> (centrality, probabilities) of the best-placed occurrence;
        # a token near a window edge lacks context, so the window where it sits most
        # centrally decides
        per_text: list[dict[tuple[int, int], tuple[int, np.ndarray]]] = [{} for _ in texts]
        # windows sorted by length: batches of like length need almost no padding
        order = sorted(range(n_windows), key=lambda i: len(enc["input_ids"][i]))
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
            probs = torch.softmax(self.logits(ids, mask, types).float(), dim=-1).cpu().numpy()
            if deadline is not None:
                deadline.check("a batch of the model")
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

    def predict(
        self, texts: Sequence[str], threshold: float | None = None, deadline: Deadline | None = None
    ) -> list[list[Span]]:
        thr = self.config.threshold if threshold is None else threshold
        return self.predict_at(texts, [thr], deadline)[0]

    def predict_at(
        self, texts: Sequence[str], thresholds: Sequence[float], deadline: Deadline | None = None
    ) -> list[list[list[Span]]]:
        """Per threshold, the spans of every text, from one run of the model: thresholds
        change only the decoding (profiles with thresholds of their own cost no second run)."""
        probabilities = self.token_probabilities(texts, deadline)
        return [
            [
                decode_spans(text, offsets, probs, self._sensitive_cols, self._type_cols, self.types, self._b_cols, thr)
                for text, (offsets, probs) in zip(texts, probabilities)
            ]
            for thr in thresholds
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
    return widen_to_words(text, [(s, e, label, float(np.mean(sc))) for s, e, label, sc in spans])


def widen_to_words(text: str, pieces: Sequence[tuple[int, int, str, float]]) -> list[Span]:
    """Grouped pieces (start, end, label, score; in text order) as spans over whole words (the
    thesis: one sensitive token makes the element sensitive); a piece that reaches into the
    previous span's words joins that span."""
    out: list[Span] = []
    for start, end, label, score in pieces:
        if out and start < out[-1].end:
            # inside the word(s) the previous span was widened to: only what reaches beyond it
            # is widened, so a long word of many flagged pieces costs one pass, not one per piece
            prev = out[-1]
            if end > prev.end:
                out[-1] = Span(prev.start, _word_end(text, end), prev.label, prev.score, MODEL_SOURCE)
            continue
        start, end = _word_start(text, start), _word_end(text, end)
        if out and start < out[-1].end:
            prev = out[-1]
            out[-1] = Span(prev.start, max(prev.end, end), prev.label, prev.score, MODEL_SOURCE)
            continue
        out.append(Span(start, end, label, score, MODEL_SOURCE))
    return out


def _word_start(text: str, start: int) -> int:
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    return start


def _word_end(text: str, end: int) -> int:
    while end < len(text) and text[end].isalnum():
        end += 1
    return end
