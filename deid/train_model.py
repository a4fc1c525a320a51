"""One training run: corpus + placeholders → tokenizer → model → saved pipeline directory.

The single training entry point the CLI, the DVC ``train`` stage and the Prefect ``retrain``
flow all call. It refuses reserved evaluation documents.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from deid.anonymize import Pipeline
from deid.corpus import is_reserved
from deid.io import read_documents, read_jsonl, write_text_atomic
from deid.models import build_model, count_parameters, label_maps
from deid.ner import InferenceConfig, TokenClassifier
from deid.placeholders import detect_placeholders
from deid.schema import Document, Span, spans_from_dicts
from deid.settings import Settings
from deid.surrogates import SurrogateGenerator
from deid.tokenizer import load_tokenizer, train_tokenizer
from deid.trainer import EpochStats, TrainResult, calibrate_threshold, set_seed, train
from deid.training import EpochData, LabelledText, SourceDocument, pack_paragraphs, surrogate_texts

logger = logging.getLogger(__name__)

REPORT_FILE = "training_report.json"


class ReservedDataError(RuntimeError):
    """A reserved evaluation document reached training: the run must not go on."""


@dataclass
class TrainingOutput:
    pipeline_dir: Path
    result: TrainResult
    report: dict


def load_placeholders(path: str | Path | None) -> dict[str, list]:
    if not path:
        return {}
    return {str(r["id"]): spans_from_dicts(r.get("placeholders")) for r in read_jsonl(path)}


def source_documents(docs: Iterable[Document], placeholders: dict[str, list]) -> list[SourceDocument]:
    """Training documents with their placeholders (precomputed, or detected now) and, for
    LER documents, the entities that stay in clear text (judges, courts, laws …) as keep
    spans with their keep type."""
    from deid.rewrite.keep_labels import keep_label

    out: list[SourceDocument] = []
    for doc in docs:
        if is_reserved(doc):
            raise ReservedDataError(f"reserved evaluation document {doc.id} in training input")
        spans = placeholders.get(doc.id)
        if spans is None:
            spans = detect_placeholders(doc.text)
        annotated = doc.meta.get("corpus") == "ler"
        keep = tuple(
            Span(e.start, e.end, keep_label(e.label))
            for e in doc.entities
            if not any(e.overlaps(p) for p in spans)
        ) if annotated else ()
        out.append(SourceDocument(doc.id, doc.text, tuple(spans), keep, annotated))
    return out


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
    on_epoch_end: Callable[[EpochStats], None] | None = None,
) -> TrainingOutput:
    corpus_dir, output_dir = Path(corpus_dir), Path(output_dir)
    started = time.perf_counter()
    placeholders = load_placeholders(placeholders_path)
    train_docs = source_documents(read_documents(corpus_dir / "train.jsonl"), placeholders)
    val_docs = source_documents(read_documents(corpus_dir / "validation.jsonl"), placeholders)
    if settings.max_documents:
        ranked = sorted(train_docs, key=lambda d: -len(d.placeholders))
        train_docs = ranked[: settings.max_documents]
        val_docs = sorted(val_docs, key=lambda d: -len(d.placeholders))[: max(2, settings.max_documents // 4)]
    logger.info("training on %d documents, validating on %d", len(train_docs), len(val_docs))

    if settings.base:
        tokenizer = load_tokenizer(settings.base)
        tokenizer.model_max_length = settings.spec.max_length  # windows as trained, never longer
    else:
        tokenizer = train_tokenizer(
            (d.text for d in train_docs),
            vocab_size=settings.tokenizer.vocab_size,
            kind=settings.tokenizer.kind,
            min_frequency=settings.tokenizer.min_frequency,
            model_max_length=settings.spec.max_length,
        )
    set_seed(settings.train.seed)  # the initial weights too: a run must repeat exactly
    model = build_model(settings.spec, tokenizer, settings.base)
    pretrain_stats: dict = {}
    if settings.pretrain.enabled and not settings.base:
        from deid.pretrain import pretrain_mlm

        pretrain_stats = pretrain_mlm(
            model,
            tokenizer,
            [d.text for d in train_docs],
            epochs=settings.pretrain.epochs,
            mlm_probability=settings.pretrain.mlm_probability,
            max_length=settings.spec.max_length,
            seed=settings.train.seed,
            device=settings.train.device,
        )
    _, label2id = label_maps()
    data_cfg = settings.data
    if data_cfg.mode == "masking" and not data_cfg.vocabulary_words:
        from deid.training import frequent_words

        data_cfg = replace(data_cfg, vocabulary_words=frequent_words(d.text for d in train_docs))
    from deid.models import uses_features

    data = EpochData(train_docs, tokenizer, label2id, data_cfg, features=uses_features(model))
    validation = validation_texts(val_docs, settings, tokenizer)
    inference = InferenceConfig(max_length=settings.spec.max_length, stride=settings.pipeline.stride)
    result = train(
        model, tokenizer, data.windows, validation, settings.train, inference=inference, on_epoch_end=on_epoch_end
    )

    classifier = TokenClassifier(model, tokenizer, device=result.device)
    pipeline_cfg, calibration = settings.pipeline, []
    if settings.train.calibrate_threshold and validation:
        threshold, calibration = calibrate_threshold(
            classifier,
            validation,
            settings.train.calibration_grid,
            settings.train.calibration_beta,
            settings.train.calibration_min_recall,
        )
        pipeline_cfg = replace(pipeline_cfg, threshold=threshold)
        logger.info(
            "threshold %.2f chosen on validation (F%.0f, recall >= %.2f)",
            threshold,
            settings.train.calibration_beta,
            settings.train.calibration_min_recall,
        )
    pipeline = Pipeline(classifier, pipeline_cfg)
    pipeline.save(output_dir)
    report = {
        "profile": settings.profile,
        "documents": {"train": len(train_docs), "validation": len(val_docs)},
        "placeholders": {"train": sum(len(d.placeholders) for d in train_docs)},
        "parameters": count_parameters(model),
        "vocab_size": len(tokenizer),
        "base": settings.base,
        "data": {k: v for k, v in asdict(data_cfg).items() if k != "vocabulary_words"},
        "spec": asdict(settings.spec),
        "train": asdict(settings.train),
        "pretrain": pretrain_stats,
        "result": result.to_dict(),
        "threshold": {
            "value": pipeline_cfg.threshold,
            "min_recall": settings.train.calibration_min_recall,
            "calibration": calibration,
        },
        "seconds": round(time.perf_counter() - started, 1),
    }
    write_text_atomic(output_dir / REPORT_FILE, json.dumps(report, indent=2))
    return TrainingOutput(output_dir, result, report)
