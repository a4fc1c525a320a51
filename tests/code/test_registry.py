"""MLflow tracking and registry of deid pipelines: a tiny untrained pipeline (built in
seconds from one bundled decision) is logged against a temporary sqlite tracking store, then
loaded back as a pyfunc, through ``resolve_model`` and through ``deid anonymize``."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd
import pytest

from deid.anonymizer.ner import TokenClassifier
from deid.anonymizer.pipeline import Pipeline, PipelineConfig
from deid.ops import mlflow_registry as registry
from deid.ops import vetting
from deid.schema import Document
from deid.sources.io import read_jsonl, tree_sha256
from deid.training.job import REPORT_FILE, TrainingOutput
from deid.training.loop import EpochStats, TrainResult
from deid.training.models import ModelSpec, build_model
from deid.training.tokenizer import train_tokenizer
from tests.conftest import ROOT, read_source

pytestmark = pytest.mark.slow  # a real MLflow store and a trained tiny pipeline: seconds per test

DECISION = "decisions/bag/9-azr-115-23.txt.xz"
GOLD_IDS = ("ler-bgh-0030.auto-s13", "ler-bgh-0053.auto-s13")  # short, with PERSON gold spans
ALIAS_URI = f"models:/{registry.MODEL_NAME}@{registry.CHALLENGER}"
PARAMS = {
    "model": {
        "profile": "tiny",
        "base": None,
        "profiles": {"tiny": {"hidden_size": 32, "num_layers": 1}},
    },
    "anonymize": {"chain": [{"model": {"threshold": 0.35}}, "keep_zones", {"keep_labels": {"labels": []}}]},
    "notes": {"pasted": "x" * 2000, "multi": "eins\nzwei"},  # too long / multi-line: hashed
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A temporary tracking store (sqlite + artifact dir); MLFLOW_TRACKING_URI points at it."""
    base = tmp_path_factory.mktemp("mlflow")
    uri = f"sqlite:///{base / 'mlflow.db'}"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLFLOW_TRACKING_URI", uri)
        mp.delenv("MLFLOW_REGISTRY_URI", raising=False)
        client = registry.get_client(uri, create=True)
        registry.ensure_experiment(client, "deid", (base / "artifacts").as_uri())
        yield {"uri": uri, "artifacts": base / "artifacts"}


@pytest.fixture(scope="module")
def gold() -> list[Document]:
    docs = [
        Document.from_dict(r)
        for r in read_jsonl(ROOT / "data/gold/ler_rewritten.jsonl")
        if r["id"] in GOLD_IDS
    ]
    assert len(docs) == 2 and all(d.spans for d in docs)
    return docs


@pytest.fixture(scope="module")
def pipeline_dir(tmp_path_factory) -> Path:
    """An untrained 1-layer, 32-dim pipeline: enough to exercise packaging, not quality."""
    text = read_source(DECISION)
    tokenizer = train_tokenizer([text], vocab_size=600, model_max_length=64)
    spec = ModelSpec(hidden_size=32, num_layers=1, num_heads=2, intermediate_size=64, max_length=64)
    model = build_model(spec, tokenizer)
    out = tmp_path_factory.mktemp("pipeline") / "latest"
    Pipeline(
        TokenClassifier(model, tokenizer, device="cpu"), PipelineConfig().override(max_length=64, stride=16)
    ).save(out)
    return out


@pytest.fixture(scope="module")
def output(pipeline_dir) -> TrainingOutput:
    history = [
        EpochStats(
            1, 1.25, 900.0, 3.0, {"precision": 0.4, "recall": 0.7, "f1": 0.51, "f2": 0.61}, 0.005
        ),
        EpochStats(
            2, 0.75, 950.0, 2.9, {"precision": 0.5, "recall": 0.8, "f1": 0.62, "f2": 0.71}, 0.0025
        ),
    ]
    result = TrainResult(history, 2, history[1].val, "cpu", "fp32", False)
    report = {
        "profile": "tiny",
        "base": None,
        "parameters": 12345,
        "seconds": 5.9,
        "result": result.to_dict(),
    }
    (pipeline_dir / REPORT_FILE).write_text(json.dumps(report), encoding="utf-8")
    return TrainingOutput(pipeline_dir, result, report)


@pytest.fixture(scope="module")
def evaluations(pipeline_dir, gold) -> dict[str, dict]:
    from deid.anonymizer.pipeline import build_pipeline
    from deid.evaluation.gold_sets import evaluate_pipeline

    return {"ler": evaluate_pipeline(build_pipeline(pipeline_dir, device="cpu"), gold, ["all"])}


@pytest.fixture(scope="module")
def logged(store, output, evaluations) -> registry.RunInfo:
    return registry.log_training_run(
        output, PARAMS, evaluations, tracking_uri=store["uri"], root=ROOT
    )


@pytest.fixture
def restore_sys_path():
    """Loading a pyfunc prepends its code directory to sys.path; keep the session clean."""
    saved = list(sys.path)
    yield
    sys.path[:] = saved


# --- pure helpers ----------------------------------------------------------------------------


def test_param_values_flatten_stringify_and_hash_what_cannot_be_a_setting() -> None:
    values = registry.param_values(PARAMS)
    assert values["model.profiles.tiny.hidden_size"] == "32"
    assert values["model.base"] == "null"
    # the chain: its components in order, each override as a setting of its own
    assert values["anonymize.chain"] == "model,keep_zones,keep_labels"
    assert values["anonymize.chain.model.threshold"] == "0.35"
    assert values["anonymize.chain.keep_labels.labels"] == "[]"
    assert values["notes.pasted"].startswith("sha256:") and "2000 chars" in values["notes.pasted"]
    assert values["notes.multi"].startswith("sha256:")
    assert all(len(v) <= registry.PARAM_VALUE_LIMIT for v in values.values())


def test_headline_metrics_from_a_real_report(evaluations) -> None:
    metrics = registry.headline_metrics(evaluations)
    elements = evaluations["ler"]["overall"]["elements"]
    for key in ("recall", "precision", "f1", "f2"):
        assert metrics[f"eval.ler.{key}"] == pytest.approx(elements[key])
    assert 0.0 <= metrics["eval.ler.leak_free_docs"] <= 1.0
    per_type = {k: v for k, v in evaluations["ler"]["per_type"].items() if v["gold_elements"]}
    assert per_type, "the gold documents have sensitive spans"
    assert {f"eval.ler.recall.{t}" for t in per_type} <= set(metrics)
    with pytest.raises(ValueError):
        registry.headline_metrics({"Bad Set": evaluations["ler"]})


def test_epoch_metrics_skip_nan() -> None:
    stats = [EpochStats(1, float("nan"), 10.0, 1.0, {"recall": 0.5}, 0.1)]
    keys = {k for k, _, _ in registry.epoch_metrics(stats)}
    assert keys == {"tokens_per_second", "epoch_seconds", "learning_rate", "val_recall"}


def test_pip_requirements_are_pinned_without_local_build_tags() -> None:
    reqs = registry.pip_requirements()
    names = [r.split("==")[0] for r in reqs]
    assert names == list(registry.REQUIREMENTS)
    assert not any("+" in r for r in reqs)


def test_data_version_prefers_dvc_then_manifest(tmp_path) -> None:
    assert registry.data_version_of(tmp_path) == ("unknown", "none")
    (tmp_path / "data" / "corpus").mkdir(parents=True)
    (tmp_path / "data" / "corpus" / "manifest.json").write_text("{}", encoding="utf-8")
    version, source = registry.data_version_of(tmp_path)
    assert version.startswith("sha256:") and source == "data/corpus/manifest.json"
    (tmp_path / "data" / "raw.dvc").write_text(
        "outs:\n- md5: abc123.dir\n  path: raw\n", encoding="utf-8"
    )
    assert registry.data_version_of(tmp_path) == ("md5:abc123.dir", "data/raw.dvc")


# --- a logged run ----------------------------------------------------------------------------


def test_local_store_gets_an_explicit_artifact_location(store) -> None:
    client = registry.get_client(store["uri"])
    experiment_id = registry.ensure_experiment(client, "location-check")
    location = client.get_experiment(experiment_id).artifact_location
    assert location == (Path.cwd() / "mlruns" / "location-check").as_uri()
    assert registry.ensure_experiment(client, "location-check") == experiment_id


def test_run_has_params_metrics_tags_and_reports(store, logged, evaluations) -> None:
    client = registry.get_client(store["uri"])
    run = client.get_run(logged.run_id)
    assert run.info.status == "FINISHED"
    assert run.data.params["model.profile"] == "tiny"
    assert run.data.params["anonymize.chain.model.threshold"] == "0.35"
    assert run.data.params["anonymize.chain"] == "model,keep_zones,keep_labels"
    history = client.get_metric_history(logged.run_id, "val_recall")
    assert [(m.step, m.value) for m in history] == [(1, 0.7), (2, 0.8)]
    assert {m.step for m in client.get_metric_history(logged.run_id, "train_loss")} == {1, 2}
    for key in ("tokens_per_second", "learning_rate", "val_precision", "val_f1", "val_f2"):
        assert key in run.data.metrics
    headline = registry.headline_metrics(evaluations)
    assert {k: run.data.metrics[k] for k in headline} == pytest.approx(headline)
    tags = run.data.tags
    assert len(tags["git.commit"]) == 40 and tags["git.dirty"] in {"true", "false"}
    assert tags["data.version"].startswith(("md5:", "sha256:"))
    assert (tags["profile"], tags["device"], tags["base"]) == ("tiny", "cpu", "none")
    artifacts = {a.path for a in client.list_artifacts(logged.run_id, "reports")}
    assert artifacts == {"reports/training_report.json", "reports/eval"}
    assert [a.path for a in client.list_artifacts(logged.run_id, "reports/eval")] == [
        "reports/eval/ler.json"
    ]
    stored = json.loads(
        Path(client.download_artifacts(logged.run_id, "reports/eval/ler.json")).read_text()
    )
    assert "errors" not in stored and stored["overall"] == evaluations["ler"]["overall"]


def test_artifacts_live_in_the_experiment_location(store, logged) -> None:
    client = registry.get_client(store["uri"])
    assert client.get_run(logged.run_id).info.artifact_uri.startswith(store["artifacts"].as_uri())
    assert list(store["artifacts"].glob(f"models/{logged.model_id}/artifacts/MLmodel"))


def test_version_registered_with_challenger_alias(store, logged) -> None:
    client = registry.get_client(store["uri"])
    mv = client.get_model_version_by_alias(registry.MODEL_NAME, registry.CHALLENGER)
    assert str(mv.version) == logged.version and mv.run_id == logged.run_id
    assert (
        mv.tags["profile"] == "tiny"
        and mv.tags["git.commit"] == client.get_run(logged.run_id).data.tags["git.commit"]
    )
    # the rule code it was evaluated with: chain components and versions, and the commit
    assert mv.tags["git.dirty"] in {"true", "false"}
    assert mv.tags["pipeline.chain"] == ",".join(f"{s.name}@{s.version}" for s in PipelineConfig().chain)
    assert mv.tags["pipeline.chain"].startswith("model@4,recognizers@23,keep_zones@14,regions@2,")
    assert registry.version_tag(registry.MODEL_NAME, logged.version, "pipeline.chain", store["uri"]) == mv.tags["pipeline.chain"]
    listed = registry.list_versions(store["uri"])
    assert logged.version in [v.version for v in listed]
    assert registry.CHALLENGER in {a for v in listed for a in v.aliases}


def test_nothing_logged_contains_document_text(store, logged, gold, pipeline_dir) -> None:
    """Params, tags, descriptions and report artifacts carry settings, metrics, ids, hashes."""
    client = registry.get_client(store["uri"])
    run = client.get_run(logged.run_id)
    mv = client.get_model_version(registry.MODEL_NAME, logged.version)
    reports = [
        Path(client.download_artifacts(logged.run_id, p)).read_text(encoding="utf-8")
        for p in ("reports/training_report.json", "reports/eval/ler.json")
    ]
    logged_text = "\n".join(
        [
            *run.data.params.values(),
            *run.data.params,
            *run.data.tags.values(),
            *mv.tags.values(),
            mv.description or "",
        ]
        + reports
    )
    texts = [d.text for d in gold] + [read_source(DECISION)]
    probes = [t[i : i + 30] for t in texts for i in range(0, len(t) - 30, max(1, len(t) // 12))]
    surfaces = [d.text[s.start : s.end] for d in gold for s in d.spans if s.end - s.start >= 6]
    assert probes and surfaces
    assert not [p for p in probes + surfaces if p in logged_text]


# --- loading it back -------------------------------------------------------------------------


def test_pyfunc_predict_keeps_text_outside_spans(logged, restore_sys_path) -> None:
    import mlflow

    model = mlflow.pyfunc.load_model(ALIAS_URI)
    text = read_source(DECISION)[:1500]
    frame = pd.DataFrame(
        {
            "id": ["a", "b"],
            "text": [text, "Die Klage wird abgewiesen."],
            "operator": ["label", None],
        }
    )
    out = model.predict(frame)
    assert list(out.columns) == ["id", "text", "spans"] and list(out["id"]) == ["a", "b"]
    spans = json.loads(out.iloc[0]["spans"])
    assert spans, "an untrained model at threshold 0.35 plus the recognizers finds something"
    previous_end = 0
    for span in spans:
        assert previous_end <= span["start"] < span["end"] <= len(text)
        previous_end = span["end"]
    _assert_outside_text_kept(text, spans, out.iloc[0]["text"])


def _assert_outside_text_kept(text: str, spans: list[dict], anonymized: str) -> None:
    """Every stretch of input text between spans appears unchanged and in order."""
    cuts = [0] + [x for s in spans for x in (s["start"], s["end"])] + [len(text)]
    gaps = [text[cuts[i] : cuts[i + 1]] for i in range(0, len(cuts), 2)]
    assert anonymized.startswith(gaps[0]) and anonymized.endswith(gaps[-1])
    pos = len(gaps[0])
    for gap in gaps[1:]:
        found = anonymized.find(gap, pos)
        assert found >= pos, "text outside the spans changed"
        pos = found + len(gap)


def test_pyfunc_rejects_input_without_text_column(logged, restore_sys_path) -> None:
    import mlflow
    from mlflow.exceptions import MlflowException

    model = mlflow.pyfunc.load_model(ALIAS_URI)
    with pytest.raises(MlflowException, match="text"):
        model.predict(pd.DataFrame({"id": ["a"]}))


def test_resolve_model_and_cli_anonymize_with_the_alias_uri(logged, tmp_path) -> None:
    from typer.testing import CliRunner

    from deid.app.cli import app
    from deid.ops.model_store import resolve_model

    local = resolve_model(ALIAS_URI)
    assert (local / "pipeline.json").exists() and (local / "model").is_dir()
    source = tmp_path / "in.jsonl"
    text = read_source(DECISION)[:800]
    source.write_text(
        json.dumps({"id": "doc-1", "text": text, "meta": {}}) + "\n", encoding="utf-8"
    )
    target = tmp_path / "out.jsonl"
    result = CliRunner().invoke(
        app, ["anonymize", "--model", ALIAS_URI, "-i", str(source), "-o", str(target)]
    )
    assert result.exit_code == 0, result.output
    (record,) = list(read_jsonl(target))
    assert record["id"] == "doc-1"
    _assert_outside_text_kept(text, record["spans"], record["text"])
    _assert_lineage(record["lineage"], text, logged.version, registry.CHALLENGER, local)


def _assert_lineage(lineage: dict, text: str, version: str, alias: str, pipeline: Path) -> None:
    """A record names the model version and alias it was made with, the pipeline's config
    hash and component versions, the git commit and the input's sha256 (issue 18, item 5)."""
    import hashlib
    import subprocess

    assert lineage["model"] == {"uri": f"models:/{registry.MODEL_NAME}@{alias}",
                                "name": registry.MODEL_NAME, "version": version, "alias": alias}  # fmt: skip
    assert lineage["input_sha256"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
    config = (pipeline / "pipeline.json").read_bytes()
    assert lineage["pipeline_sha256"] == hashlib.sha256(config).hexdigest()
    assert lineage["components"]["deid"] and lineage["components"]["torch"]
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    assert lineage["git_commit"].removesuffix("-dirty") == head


def test_cli_anonymize_without_model_uses_the_champion_and_says_so(
    store, logged, tmp_path, caplog
) -> None:
    """After ``make main`` a new user runs ``deid anonymize -i … -o …``: the champion of the
    configured tracking store, named in one log line (issue 18, item 4)."""
    from typer.testing import CliRunner

    from deid.app.cli import app
    from deid.ops.gate import promote
    from deid.ops.model_store import resolve_model

    promote(logged.version, "the untrained test pipeline, by hand", by="tests", override_gate=True,
            tracking_uri=store["uri"])  # fmt: skip
    text = read_source(DECISION)[:600]
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "doc-1", "text": text}) + "\n", encoding="utf-8")
    target = tmp_path / "out.jsonl"
    with caplog.at_level("INFO", logger="deid"):
        result = CliRunner().invoke(app, ["anonymize", "-i", str(source), "-o", str(target)])
    assert result.exit_code == 0, result.output
    said = [r.getMessage() for r in caplog.records if "no --model" in r.getMessage()]
    assert said == [f"no --model: models:/{registry.MODEL_NAME}@champion (version {logged.version}) "
                    f"of the tracking store {store['uri']}"]  # fmt: skip
    (record,) = list(read_jsonl(target))
    local = resolve_model(f"models:/{registry.MODEL_NAME}/{logged.version}")
    vetted = record["lineage"]["model"].pop("vetting")
    assert vetted["kind"] == "override" and vetted["by"] == "tests", "the override shows in every record"
    _assert_lineage(record["lineage"], text, logged.version, registry.CHAMPION, local)


def test_a_missing_sqlite_store_is_refused_in_one_line(tmp_path, monkeypatch) -> None:
    """A wrong sqlite URI (or a run outside the project folder) used to create an empty
    mlflow.db and then report that the model does not exist, with a long traceback."""
    from typer.testing import CliRunner

    from deid.app.cli import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": "a", "text": "Die Klage wird abgewiesen."}) + "\n")
    for uri in (None, f"sqlite:///{tmp_path / 'elsewhere' / 'mlflow.db'}"):
        if uri is None:
            monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
        else:
            monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
        for args in (["anonymize", "-i", "in.jsonl", "-o", "out.jsonl"], ["models"],
                     ["promote", "--version", "1", "--reason", "r"]):  # fmt: skip
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 2, (args, result.output)
            assert result.output.count("\n") == 1 and "error: no MLflow store at" in result.output
    assert not list(tmp_path.rglob("mlflow.db")), "no empty store was created"
    with pytest.raises(registry.TrackingStoreMissing):
        registry.get_client(f"sqlite:///{tmp_path / 'mlflow.db'}")
    registry.get_client(f"sqlite:///{tmp_path / 'new.db'}", create=True).search_experiments()
    assert (tmp_path / "new.db").exists(), "training and registration may start a new store"


def test_a_tracking_server_that_is_down_fails_fast_in_one_line(tmp_path, monkeypatch) -> None:
    """With the MLflow server down the CLI retried for 258 s and then printed a traceback;
    now a health probe reports it at once (connection refused on a closed loopback port)."""
    import socket

    from typer.testing import CliRunner

    from deid.app.cli import app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"http://127.0.0.1:{port}")
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": "a", "text": "Die Klage wird abgewiesen."}) + "\n")
    for args in (["models"], ["anonymize", "-i", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "o.jsonl")]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.output.count("\n") == 1
        assert f"error: MLflow server http://127.0.0.1:{port} does not answer" in result.output


def test_cli_register_evaluate_and_models(store, logged, pipeline_dir, evaluations, gold, tmp_path) -> None:
    golds = gold
    from typer.testing import CliRunner

    from deid.app.cli import app

    report = tmp_path / "ler.json"
    report.write_text(json.dumps(evaluations["ler"]), encoding="utf-8")
    runner = CliRunner()
    hand = runner.invoke(app, ["register", "--pipeline", str(pipeline_dir), "--eval-report", f"ler={report}"])
    assert hand.exit_code == 2, "an evaluation comes from an evaluation run, not from a file"
    result = runner.invoke(app, ["register", "--pipeline", str(pipeline_dir), "--params", str(ROOT / "params.yaml")])
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout[result.stdout.index("{") :])
    assert int(info["version"]) == int(logged.version) + 1
    client = registry.get_client(store["uri"])
    assert (
        str(client.get_model_version_by_alias(registry.MODEL_NAME, registry.CHALLENGER).version)
        == info["version"]
    )
    assert [m.step for m in client.get_metric_history(info["run_id"], "val_recall")] == [1, 2]
    assert "eval.ler.recall" not in client.get_run(info["run_id"]).data.metrics
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(d.to_dict()) + "\n" for d in golds), encoding="utf-8")
    evaluated = runner.invoke(app, ["evaluate-model", "--model", f"models:/{registry.MODEL_NAME}/{info['version']}",
                                    "--gold", str(gold), "--methods", "all", "--report", str(tmp_path / "r.json"),
                                    "--record", "ler"])  # fmt: skip
    assert evaluated.exit_code == 0, evaluated.output
    run = client.get_run(info["run_id"])
    assert not math.isnan(run.data.metrics["eval.ler.recall"])
    assert run.data.tags["eval.ler.source"] == "deid evaluate-model gold.jsonl (2 documents)"
    mv = client.get_model_version(registry.MODEL_NAME, info["version"])
    evaluated = registry.evaluated_metrics(client, mv)
    assert evaluated.metrics["eval.ler.recall"] == run.data.metrics["eval.ler.recall"] and evaluated.ignored == {}
    assert evaluated.provenance["ler"]["model_sha256"] == mv.tags[vetting.CONTENT_TAG] == tree_sha256(pipeline_dir)
    listing = runner.invoke(app, ["models"])
    assert listing.exit_code == 0 and "challenger" in listing.stdout
