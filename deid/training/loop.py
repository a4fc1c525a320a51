"""The training loop: CPU or CUDA, mixed precision by hardware (bf16 on a CPU with bf16
matrix units or a GPU, deid.anonymizer.precision), gradient accumulation, linear warm-up and
decay, class-weighted loss, early stopping on the validation split.

Nothing is computed that is not trained: the optimizer holds the trainable parameters only
(fused AdamW), frozen parameters get no gradient, batches are bucketed by length, and the
next epoch's windows are made in a background thread while this one trains (they depend on
the epoch number alone, so the schedule, and the weights, do not depend on timing).

Validation scores whole documents the way the product is used (windows → spans →
element-level recall/precision), not token accuracy, so early stopping follows recall.
"""

from __future__ import annotations

import contextvars
import copy
import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Self

import numpy as np
import torch
from torch.nn import functional as F
from tqdm.auto import tqdm
from transformers import PreTrainedModel, PreTrainedTokenizerFast

from deid.anonymizer.ner import InferenceConfig, TokenClassifier, pick_device
from deid.anonymizer.precision import AMP_DTYPES, choose_precision, describe
from deid.sources.elements import Confusion, element_confusion, text_elements
from deid.training.data import IGNORE_INDEX, NOT_SENSITIVE_INDEX, LabelledText, Window

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrainConfig:
    epochs: int = 3
    batch_size: int = 16
    learning_rate: float = 5e-4
    weight_decay: float = 0.01
    warmup_ratio: float = 0.05
    grad_accum: int = 1
    max_grad_norm: float = 1.0
    o_weight: float = 0.3  # class weight of "O" (the rest weigh 1): most tokens are O
    patience: int = 2  # epochs without validation improvement before stopping
    monitor: str = "f2"  # element-level validation metric: f1 | f2 | recall
    seed: int = 13
    device: str = "auto"
    precision: str = "auto"  # auto (by hardware, deid.anonymizer.precision) | fp32 | bf16 | fp16 (GPU only)
    gpu_batch_multiplier: int = 4  # a larger batch on GPU
    num_threads: int = 0  # CPU threads for torch (0 = torch's default)
    # the schedule is fixed in windows and epochs, never by the clock: an epoch is this many
    # windows drawn (seeded) from that epoch's surrogate text (0 = all of them)
    windows_per_epoch: int = 0
    freeze_word_embeddings: bool = False  # keep a pretrained vocabulary's embeddings as they are
    val_threshold: float = 0.5
    # after training, the pipeline threshold is chosen on validation: the best F-beta among the
    # grid's thresholds that reach calibration_min_recall (else the one with the most recall)
    calibrate_threshold: bool = True
    calibration_beta: float = 2.0  # recall first
    calibration_min_recall: float = 0.0  # model-level validation recall the threshold must keep
    calibration_grid: tuple[float, ...] = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
    progress: bool = True


@dataclass
class EpochStats:
    epoch: int
    train_loss: float
    tokens_per_second: float
    seconds: float
    val: dict[str, float] = field(default_factory=dict)
    learning_rate: float = 0.0
    data_wait_seconds: float = 0.0  # the loop waited this long for the epoch's windows
    validation_seconds: float = 0.0


@dataclass
class TrainResult:
    history: list[EpochStats]
    best_epoch: int
    best_val: dict[str, float]
    device: str
    precision: str
    stopped_early: bool
    cpu_matrix_units: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    def runtime(self) -> dict[str, str | None]:
        """What trained the model: device, precision, the CPU's matrix units."""
        return {"device": self.device.split(":")[0], "precision": self.precision, "cpu_matrix_units": self.cpu_matrix_units}


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def _batches(windows: Sequence[Window], batch_size: int, rng: random.Random) -> list[list[Window]]:
    """Length-bucketed batches in random order: little padding, still shuffled."""
    order = list(range(len(windows)))
    rng.shuffle(order)
    chunk = batch_size * 50
    batches: list[list[Window]] = []
    for i in range(0, len(order), chunk):
        part = sorted(order[i : i + chunk], key=lambda j: len(windows[j]))
        batches += [[windows[j] for j in part[k : k + batch_size]] for k in range(0, len(part), batch_size)]
    rng.shuffle(batches)
    return batches


def _collate(batch: Sequence[Window], pad_id: int, device: torch.device) -> dict[str, torch.Tensor]:
    width = max(len(w) for w in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), IGNORE_INDEX, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    types = torch.zeros((len(batch), width), dtype=torch.long)
    for r, w in enumerate(batch):
        ids[r, : len(w)] = torch.tensor(w.input_ids)
        labels[r, : len(w)] = torch.tensor(w.labels)
        mask[r, : len(w)] = 1
        if w.token_type_ids is not None:
            types[r, : len(w)] = torch.tensor(w.token_type_ids)
    return {
        "input_ids": ids.to(device),
        "attention_mask": mask.to(device),
        "token_type_ids": types.to(device),
        "labels": labels.to(device),
    }


def not_sensitive_columns(model: PreTrainedModel) -> list[int]:
    """Tag ids a token of a document without entity annotation may have: O, every keep
    type and every role (a lawyer printed in clear by a federal court is no placeholder);
    never an always-sensitive type."""
    from deid.schema import LABELS

    return [int(i) for i, t in model.config.id2label.items() if t == "O" or t[2:] not in LABELS]


def token_loss(
    logits: torch.Tensor,
    labels: torch.Tensor,
    weights: torch.Tensor,
    not_sensitive: torch.Tensor,
    partial_weight: float,
) -> torch.Tensor:
    """Class-weighted cross-entropy; tokens with the partial label (not sensitive, keep type
    unknown) count the summed probability of all not-sensitive tags."""
    logp = F.log_softmax(logits, dim=-1)
    known = labels >= 0
    partial = labels == NOT_SENSITIVE_INDEX
    # zero still tied to the graph: a batch without any labelled token (masking mode with
    # candidates) must give a loss that backward() accepts, not a constant
    total = logits.sum() * 0.0
    norm = logits.new_zeros(())
    if known.any():
        target = labels[known]
        w = weights[target]
        total = total - (w * logp[known].gather(1, target[:, None]).squeeze(1)).sum()
        norm = norm + w.sum()
    if partial.any():
        lp = torch.logsumexp(logp[partial][:, not_sensitive], dim=-1)
        total = total - partial_weight * lp.sum()
        norm = norm + partial_weight * partial.sum()
    return total / norm.clamp(min=1e-9)


def evaluate_texts(
    classifier: TokenClassifier, items: Sequence[LabelledText], threshold: float
) -> dict[str, float]:
    """Element-level metrics of the classifier on labelled texts (validation)."""
    total = Confusion()
    preds = classifier.predict([it.text for it in items], threshold=threshold)
    for it, pred in zip(items, preds):
        conf, _, _ = element_confusion(text_elements(it.text), it.spans, pred)
        total = total + conf
    return {
        "precision": total.precision,
        "recall": total.recall,
        "f1": total.f1,
        "f2": total.f_beta(2.0),
        "accuracy": total.accuracy,
    }


def calibrate_threshold(
    classifier: TokenClassifier,
    items: Sequence[LabelledText],
    grid: Sequence[float],
    beta: float = 2.0,
    min_recall: float = 0.0,
) -> tuple[float, list[dict[str, float]]]:
    """The decision threshold with the best element-level F-beta on validation among those
    whose recall reaches ``min_recall``; if none does, the one with the most recall.

    Why a recall floor: F-beta is flat near its best (thresholds 0.3–0.5 differed by less than
    their bootstrap deviation on a 59-document split), so its argmax moved by run and the
    test-set recall with it. Recall falls monotonically with the threshold, so a floor on it
    picks a stable operating point, the way de-identification is run (recall first).

    One prediction at the lowest threshold; each higher one keeps the spans whose mean token
    probability reaches it (a span's extent is fixed by the lowest threshold, a close
    approximation that costs one pass instead of one per threshold)."""
    grid = sorted(grid)
    preds = classifier.predict([it.text for it in items], threshold=grid[0])
    rows: list[dict[str, float]] = []
    for threshold in grid:
        total = Confusion()
        for it, pred in zip(items, preds):
            kept = [s for s in pred if (s.score or 0.0) >= threshold]
            conf, _, _ = element_confusion(text_elements(it.text), it.spans, kept)
            total = total + conf
        rows.append(
            {
                "threshold": threshold,
                "precision": total.precision,
                "recall": total.recall,
                "f_beta": total.f_beta(beta),
            }
        )
    # recall never rises with the threshold, so the lowest one has the most
    eligible = [r for r in rows if r["recall"] >= min_recall] or rows[:1]
    best = max(eligible, key=lambda r: (r["f_beta"], r["recall"]))
    return best["threshold"], rows


class LinearSchedule:
    """Linear warm-up, then linear decay to zero at ``total`` optimizer steps."""

    def __init__(self, warmup: int, total: int) -> None:
        self.warmup = max(0, warmup)
        self.total = max(1, total)

    def __call__(self, step: int) -> float:
        if step < self.warmup:
            return step / max(1, self.warmup)
        return max(0.0, (self.total - step) / max(1, self.total - self.warmup))


def epoch_sample(windows: list[Window], size: int, seed: int, epoch: int) -> list[Window]:
    """``size`` windows of the epoch, drawn with a seed of their own (all when ``size`` is 0
    or larger than the epoch): the same commit and data always train on the same windows."""
    if not size or size >= len(windows):
        return windows
    return random.Random(f"sample:{seed}:{epoch}").sample(windows, size)


def train(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerFast,
    windows_for_epoch: Callable[[int], list[Window]],
    validation: Sequence[LabelledText],
    cfg: TrainConfig,
    *,
    inference: InferenceConfig | None = None,
    on_epoch_end: Callable[[EpochStats], None] | None = None,
) -> TrainResult:
    """Train ``model`` in place; at the end it holds the best validation weights.

    ``windows_for_epoch(e)`` must depend on ``e`` alone: epoch ``e + 1``'s windows are made
    in a background thread while epoch ``e`` trains (so it must not share a tokenizer with
    the validation, which runs in this thread: ``EpochData`` holds its own copy)."""
    set_seed(cfg.seed)
    device = pick_device(cfg.device)
    if device.type == "cpu" and cfg.num_threads:
        torch.set_num_threads(cfg.num_threads)
    precision = choose_precision(cfg.precision, device)
    model.to(device)
    batch_size = cfg.batch_size * (cfg.gpu_batch_multiplier if device.type == "cuda" else 1)
    n_labels = model.config.num_labels
    o_index = int(model.config.label2id["O"])
    weights = torch.ones(n_labels, device=device)
    weights[o_index] = cfg.o_weight
    not_sensitive = torch.tensor(not_sensitive_columns(model), device=device)
    rng = random.Random(cfg.seed)

    if cfg.freeze_word_embeddings:
        model.get_input_embeddings().weight.requires_grad_(False)
    first = epoch_sample(windows_for_epoch(0), cfg.windows_per_epoch, cfg.seed, 0)
    steps_per_epoch = max(1, math.ceil(len(first) / batch_size / cfg.grad_accum))
    total_steps = steps_per_epoch * cfg.epochs
    trainable = [p for p in model.parameters() if p.requires_grad]
    # fused: one kernel for all parameters instead of a dozen small ops per tensor (CPU and GPU)
    optimizer = torch.optim.AdamW(trainable, lr=cfg.learning_rate, weight_decay=cfg.weight_decay, fused=True)
    schedule = LinearSchedule(int(cfg.warmup_ratio * total_steps), total_steps)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)
    scaler = torch.amp.GradScaler("cuda", enabled=precision == "fp16")
    amp_dtype = AMP_DTYPES.get(precision)

    # validation runs what the pipeline will run: the inference settings, same precision choice
    classifier = TokenClassifier(model, tokenizer, inference or InferenceConfig(), device)
    history: list[EpochStats] = []
    best_score, best_epoch, best_state, best_val = -1.0, -1, None, {}
    bad_epochs = 0
    stopped_early = False
    with _Prefetch(lambda e: epoch_sample(windows_for_epoch(e), cfg.windows_per_epoch, cfg.seed, e),
                   first, cfg.epochs) as epochs:  # fmt: skip
        for epoch in range(cfg.epochs):
            waited = time.perf_counter()
            windows = epochs.windows(epoch)
            waited = time.perf_counter() - waited
            model.train()
            t0 = time.perf_counter()
            tokens = 0
            losses: list[float] = []
            batches = _batches(windows, batch_size, rng)
            bar = tqdm(
                batches,
                desc=f"epoch {epoch + 1}/{cfg.epochs}",
                disable=None if cfg.progress else True,  # None: only on a terminal
                leave=False,
                mininterval=2.0,
            )
            optimizer.zero_grad(set_to_none=True)
            for step, batch in enumerate(bar, 1):
                inputs = _collate(batch, tokenizer.pad_token_id, device)
                with torch.autocast(device.type, dtype=amp_dtype, enabled=amp_dtype is not None):
                    logits = model(
                        input_ids=inputs["input_ids"],
                        attention_mask=inputs["attention_mask"],
                        token_type_ids=inputs["token_type_ids"],
                    ).logits
                loss = token_loss(logits.float().view(-1, n_labels), inputs["labels"].view(-1), weights, not_sensitive, cfg.o_weight)
                scaler.scale(loss / cfg.grad_accum).backward()
                if step % cfg.grad_accum == 0 or step == len(batches):
                    scaler.unscale_(optimizer)
                    torch.nn.utils.clip_grad_norm_(trainable, cfg.max_grad_norm)
                    scaler.step(optimizer)
                    scaler.update()
                    scheduler.step()
                    optimizer.zero_grad(set_to_none=True)
                losses.append(float(loss.detach()))
                tokens += int(inputs["attention_mask"].sum())
                elapsed = time.perf_counter() - t0
                bar.set_postfix(loss=f"{np.mean(losses[-50:]):.4f}", tok_s=f"{tokens / max(elapsed, 1e-9):.0f}")
            seconds = time.perf_counter() - t0
            model.eval()
            classifier.weights_changed()  # the optimizer changed them in place
            val = evaluate_texts(classifier, validation, cfg.val_threshold) if validation else {}
            stats = EpochStats(
                epoch=epoch + 1,
                train_loss=float(np.mean(losses)) if losses else float("nan"),
                tokens_per_second=tokens / max(seconds, 1e-9),
                seconds=seconds,
                val=val,
                learning_rate=float(scheduler.get_last_lr()[0]),
                data_wait_seconds=waited,
                validation_seconds=time.perf_counter() - t0 - seconds,
            )
            history.append(stats)
            logger.info(
                "epoch %d: loss %.4f, val recall %.4f precision %.4f, %.0f tokens/s",
                stats.epoch, stats.train_loss, val.get("recall", float("nan")), val.get("precision", float("nan")),
                stats.tokens_per_second,
            )
            if on_epoch_end:
                on_epoch_end(stats)
            score = val.get(cfg.monitor, -stats.train_loss)
            if score > best_score:
                best_score, best_epoch, best_val = score, stats.epoch, val
                best_state = copy.deepcopy({k: v.detach().cpu() for k, v in model.state_dict().items()})
                bad_epochs = 0
            else:
                bad_epochs += 1
                if bad_epochs >= cfg.patience:
                    stopped_early = True
                    break
    if best_state is not None:
        model.load_state_dict(best_state)
    model.eval()
    return TrainResult(history, best_epoch, best_val, str(device), precision, stopped_early,
                       describe(device, precision)["cpu_matrix_units"])  # fmt: skip


class _Prefetch:
    """Epoch ``e + 1``'s windows made in a background thread while epoch ``e`` trains: the
    surrogate text and its tokenization (~35 s of one core per epoch of the main job) no
    longer hold the training up. ``make(e)`` depends on ``e`` alone, so what each epoch
    trains on does not depend on timing."""

    def __init__(self, make: Callable[[int], list[Window]], first: list[Window], epochs: int) -> None:
        self.make, self.first, self.epochs = make, first, epochs
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deid-epoch-windows")
        self.upcoming: Future[list[Window]] | None = None

    def windows(self, epoch: int) -> list[Window]:
        out = self.first if epoch == 0 else self.upcoming.result()  # type: ignore[union-attr]
        if epoch + 1 < self.epochs:
            # in this thread's context (a Prefect task's run logger, say), as if it ran here
            self.upcoming = self.pool.submit(contextvars.copy_context().run, self.make, epoch + 1)
        return out

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        # after an early stop the next epoch is not needed: dropped, not waited for
        self.pool.shutdown(wait=False, cancel_futures=True)
