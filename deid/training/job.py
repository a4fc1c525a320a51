"""One training run: corpus + placeholders (+ reviewed and written decisions) → tokenizer →
model → saved pipeline directory.

The single training entry point the CLI, the DVC ``train`` stage and the Prefect ``retrain``
flow all call. It refuses reserved evaluation documents. Reviewed decisions (the ``reviews``
stage's ``train.jsonl``, ``deid.sources.reviews.dataset``) and decisions written from scratch
(the ``written`` stage's, ``deid.training.written``) train like placeholder documents: their gold
spans are replaced by fresh surrogates every epoch, and the vocabulary never sees them.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from deid.anonymizer.checkpoint import load_tokenizer, uses_features
from deid.anonymizer.ner import InferenceConfig, TokenClassifier
from deid.anonymizer.pipeline import Pipeline
from deid.rewrite.surrogates import SurrogateGenerator
from deid.sources.corpus import is_reserved
from deid.sources.io import read_documents, write_text_atomic
from deid.training.data import EpochData, LabelledText, pack_paragraphs, surrogate_texts
from deid.training.documents import (  # re-exported: callers import them from here too
    ReservedDataError,
    SourceDocument,
    load_placeholders,
    source_documents,
)
from deid.training.loop import EpochStats, TrainResult, calibrate_threshold, set_seed, train
from deid.training.models import build_model, count_parameters, label_maps
from deid.training.settings import Settings
from deid.training.tokenizer import train_tokenizer

logger = logging.getLogger(__name__)

REPORT_FILE = "training_report.json"


@dataclass
class TrainingOutput:
    pipeline_dir: Path
    result: TrainResult
    report: dict


def review_documents(path: str | Path | None) -> list[SourceDocument]:
    """Reviewed or written decisions (documents with gold ``spans``, written ones with
    ``keep`` spans too) as training documents: the real names in their spans take the
    placeholders' part, so every epoch replaces them by surrogates of their type and the model
    never trains on them; a keep span trains its keep label. No file, no documents."""
    if not path or not Path(path).exists():
        return []
    out = []
    for doc in read_documents(path):
        if is_reserved(doc):
            raise ReservedDataError(f"reserved evaluation document {doc.id} in {Path(path).name}")
        out.append(SourceDocument(doc.id, doc.text, tuple(sorted(doc.spans)), tuple(sorted(doc.keep))))
    return out


def without_spans(doc: SourceDocument) -> str:
    """What a tokenizer, masked-LM pre-training or a word list may learn from a reviewed
    decision: its text without the gold spans (a real name must not become a vocabulary piece,
    which the saved pipeline carries)."""
    parts, end = [], 0
    for span in doc.placeholders:
        parts += [doc.text[end : span.start], " "]
        end = span.end
    return "".join(parts) + doc.text[end:]


def validation_texts(docs: list[SourceDocument], settings: Settings, tokenizer) -> list[LabelledText]:
    """Validation documents rewritten once with fixed surrogates (same text every epoch)."""
    generator = SurrogateGenerator(seed=settings.validation_seed, pool=settings.data.surrogate_pool)
    out: list[LabelledText] = []
    for doc in docs:
        out += pack_paragraphs(surrogate_texts(doc, generator, 0), tokenizer, settings.spec.max_length - 2)
    return out


def run_training(
    corpus_dir: str | Path,
    output_dir: str | Path,
    settings: Settings,
    *,
    placeholders_path: str | Path | None = None,
    reviews_path: str | Path | None = None,
    written_path: str | Path | None = None,
    on_epoch_end: Callable[[EpochStats], None] | None = None,
) -> TrainingOutput:
    """Train on the corpus and the written decisions of ``written_path`` (``max_documents``
    limits each) and every reviewed decision of ``reviews_path``; save the pipeline and its
    report (documents, reviews' ids, written decisions' count) to ``output_dir``."""
    corpus_dir, output_dir = Path(corpus_dir), Path(output_dir)
    started = time.perf_counter()
    placeholders = load_placeholders(placeholders_path)
    train_docs = source_documents(read_documents(corpus_dir / "train.jsonl"), placeholders)
    val_docs = source_documents(read_documents(corpus_dir / "validation.jsonl"), placeholders)
    if settings.max_documents:
        ranked = sorted(train_docs, key=lambda d: -len(d.placeholders))
        train_docs = ranked[: settings.max_documents]
        val_docs = sorted(val_docs, key=lambda d: -len(d.placeholders))[: max(2, settings.max_documents // 4)]
    reviewed = review_documents(reviews_path)
    written = review_documents(written_path)
    if settings.max_documents:  # a test's tiny run: a few written decisions, every review
        written = written[: settings.max_documents]
    vocabulary = [d.text for d in train_docs] + [without_spans(d) for d in reviewed + written]
    logger.info("training on %d documents, %d reviewed and %d written decisions, validating on %d",
                len(train_docs), len(reviewed), len(written), len(val_docs))  # fmt: skip

    if settings.base:
        tokenizer = load_tokenizer(settings.base)
        tokenizer.model_max_length = settings.spec.max_length  # windows as trained, never longer
    else:
        tokenizer = train_tokenizer(
            vocabulary,
            vocab_size=settings.tokenizer.vocab_size,
            kind=settings.tokenizer.kind,
            min_frequency=settings.tokenizer.min_frequency,
            model_max_length=settings.spec.max_length,
        )
    set_seed(settings.train.seed)  # the initial weights too: a run must repeat exactly
    model = build_model(settings.spec, tokenizer, settings.base)
    pretrain_stats: dict = {}
    if settings.pretrain.enabled and not settings.base:
        from deid.training.pretrain import pretrain_mlm

        pretrain_stats = pretrain_mlm(
            model,
            tokenizer,
            vocabulary,
            epochs=settings.pretrain.epochs,
            mlm_probability=settings.pretrain.mlm_probability,
            max_length=settings.spec.max_length,
            seed=settings.train.seed,
            device=settings.train.device,
        )
    _, label2id = label_maps()
    data_cfg = settings.data
    if data_cfg.mode == "masking" and not data_cfg.vocabulary_words:
        from deid.training.data import frequent_words

        data_cfg = replace(data_cfg, vocabulary_words=frequent_words(vocabulary))

    data = EpochData(train_docs + reviewed + written, tokenizer, label2id, data_cfg, features=uses_features(model))
    validation = validation_texts(val_docs, settings, tokenizer)
    if settings.pipeline.model is None:
        raise ValueError("params.yaml: anonymize.chain has no model step: there is nothing to train")
    # validation runs the model as the pipeline will: its windows, its precision choice
    model_step = settings.pipeline.model
    inference = InferenceConfig(max_length=settings.spec.max_length, stride=model_step.stride,
                                precision=model_step.precision, bf16_weights=model_step.bf16_weights)  # fmt: skip
    result = train(
        model, tokenizer, data.windows, validation, settings.train, inference=inference, on_epoch_end=on_epoch_end
    )

    classifier = TokenClassifier(model, tokenizer, inference, device=result.device)
    pipeline_cfg, calibration = settings.pipeline, []
    if settings.train.calibrate_threshold and validation:
        threshold, calibration = calibrate_threshold(
            classifier,
            validation,
            settings.train.calibration_grid,
            settings.train.calibration_beta,
            settings.train.calibration_min_recall,
        )
        pipeline_cfg = pipeline_cfg.override(threshold=threshold)
        logger.info(
            "threshold %.2f chosen on validation (F%.0f, recall >= %.2f)",
            threshold,
            settings.train.calibration_beta,
            settings.train.calibration_min_recall,
        )
    pipeline = Pipeline(classifier, pipeline_cfg)
    pipeline.save(output_dir, trained_with=result.runtime())
    report = {
        "profile": settings.profile,
        "documents": {
            "train": len(train_docs), "validation": len(val_docs), "reviews": len(reviewed),
            "written": len(written),
        },
        "placeholders": {"train": sum(len(d.placeholders) for d in train_docs)},
        "reviews": {
            "documents": len(reviewed),
            "spans": sum(len(d.placeholders) for d in reviewed),
            "ids": [d.id for d in reviewed],
        },
        "written": {"documents": len(written), "spans": sum(len(d.placeholders) for d in written)},
        "parameters": count_parameters(model),
        "vocab_size": len(tokenizer),
        "base": settings.base,
        "data": {k: v for k, v in asdict(data_cfg).items() if k != "vocabulary_words"},
        "spec": asdict(settings.spec),
        "train": asdict(settings.train),
        "pretrain": pretrain_stats,
        "result": result.to_dict(),
        "threshold": {
            "value": pipeline_cfg.model.threshold,
            "min_recall": settings.train.calibration_min_recall,
            "calibration": calibration,
        },
        "seconds": round(time.perf_counter() - started, 1),
    }
    write_text_atomic(output_dir / REPORT_FILE, json.dumps(report, indent=2))
    return TrainingOutput(output_dir, result, report)
