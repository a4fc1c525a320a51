"""The promotion gate: pure decisions (table-driven) and their registry effects on a
temporary sqlite tracking store (versions registered from bare runs, no model needed)."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import asdict, replace

import pytest

from deid.ops import gate, vetting
from deid.ops import mlflow_registry as registry
from deid.ops.gate import GateConfig, decide, render_markdown
from tests.conftest import commit_project

pytestmark = pytest.mark.slow  # a real MLflow store with registered models: seconds per test

CFG = GateConfig(
    gold_sets=("ler", "bavaria"),
    min_recall=0.9,
    min_precision=0.5,
    min_type_recall={"PERSON": 0.9, "LOCATION": 0.85},
    tolerance=0.01,
    compare=("recall", "f2", "recall.PERSON"),
)


def metrics(recall: float = 0.95, precision: float = 0.7, f2: float = 0.88, person: float = 0.96,
            location: float | None = 0.9, **overrides: float) -> dict[str, float]:  # fmt: skip
    """Headline metrics of both gold sets (same values unless overridden by full key)."""
    out: dict[str, float] = {}
    for gold in ("ler", "bavaria"):
        out |= {f"eval.{gold}.recall": recall, f"eval.{gold}.precision": precision, f"eval.{gold}.f2": f2,
                f"eval.{gold}.f1": 0.8, f"eval.{gold}.recall.PERSON": person}  # fmt: skip
        if location is not None:
            out[f"eval.{gold}.recall.LOCATION"] = location
    return out | overrides


# --- pure decisions ----------------------------------------------------------------------------

CASES = [
    # (name, challenger, champion, promote, reason fragment)
    ("first model, no champion", metrics(), None, True, "no champion yet"),
    ("passes floors, better than champion", metrics(recall=0.96), metrics(recall=0.94), True, "not worse"),
    ("slightly worse, within tolerance", metrics(recall=0.945), metrics(recall=0.95), True, "not worse"),
    ("fails recall floor", metrics(recall=0.85), None, False, "eval.ler.recall 0.8500 below floor 0.9000"),
    ("fails recall floor on one set only", metrics(**{"eval.bavaria.recall": 0.89}), None, False, "eval.bavaria.recall 0.8900 below floor"),
    ("fails precision floor", metrics(precision=0.4), None, False, "eval.ler.precision 0.4000 below floor"),
    ("fails PERSON floor", metrics(person=0.8), None, False, "eval.ler.recall.PERSON 0.8000 below floor 0.9000"),
    ("fails LOCATION floor", metrics(location=0.5), None, False, "recall.LOCATION 0.5000 below floor 0.8500"),
    ("worse than champion beyond tolerance", metrics(recall=0.92), metrics(recall=0.95), False, "eval.ler.recall 0.9200 worse than champion 0.9500 beyond tolerance 0.01"),
    ("worse f2 than champion", metrics(f2=0.80), metrics(f2=0.88), False, "eval.ler.f2 0.8000 worse than champion"),
    ("worse PERSON recall than champion", metrics(person=0.92), metrics(person=0.99), False, "recall.PERSON 0.9200 worse than champion"),
    ("precision is not compared with the champion", metrics(precision=0.6), metrics(precision=0.9), True, "passed"),
    ("gold set not evaluated", {k: v for k, v in metrics().items() if ".bavaria." not in k}, None, False, "eval.bavaria.recall: no challenger value"),
    ("type absent from the gold set is fine", metrics(location=None), None, True, "passed"),
    ("NaN fails", metrics(recall=math.nan), None, False, "not a number"),
    ("champion lacking a metric is no obstacle", metrics(), {"eval.ler.recall": 0.9}, True, "passed"),
]  # fmt: skip


@pytest.mark.parametrize(
    "name, challenger, champion, promote, fragment", CASES, ids=[c[0] for c in CASES]
)
def test_decide(name, challenger, champion, promote, fragment) -> None:
    decision = decide(challenger, champion, CFG)
    assert decision.promote is promote, decision.reasons
    assert fragment in decision.reason
    assert all(r.ok for r in decision.rows) is promote


def test_rows_are_recall_first_per_gold_set() -> None:
    rows = decide(metrics(), metrics(), CFG).rows
    assert [r.metric for r in rows[:5]] == [
        "eval.ler.recall", "eval.ler.precision", "eval.ler.recall.PERSON", "eval.ler.recall.LOCATION", "eval.ler.f2",
    ]  # fmt: skip
    assert {r.metric.split(".")[1] for r in rows} == {"ler", "bavaria"}
    f2 = next(r for r in rows if r.metric == "eval.ler.f2")
    assert f2.floor is None and f2.champion == 0.88 and f2.challenger == 0.88


def test_config_from_params_and_unknown_keys() -> None:
    cfg = GateConfig.from_params(
        {"gate": {"gold_sets": ["ler"], "min_type_recall": {"PERSON": 1}, "compare": ["f2"]}}
    )
    assert (
        cfg.gold_sets == ("ler",)
        and cfg.min_type_recall == {"PERSON": 1.0}
        and cfg.compare == ("f2",)
    )
    assert GateConfig.from_params({}) == GateConfig()
    with pytest.raises(ValueError):
        GateConfig.from_params({"gate": {"min_recal": 0.9}})
    with pytest.raises(ValueError):
        GateConfig.from_params({"gate": {"gold_sets": ["LER test"]}})


def test_project_params_have_a_gate_section(root) -> None:
    cfg = gate.load_gate_config(root / "params.yaml")
    assert set(cfg.gold_sets) == {"ler", "bavaria", "reviews"}
    assert cfg.min_documents == {"reviews": 20}
    assert "PERSON" in cfg.min_type_recall and 0 < cfg.min_recall <= 1


def test_the_reviews_set_counts_once_it_has_enough_documents() -> None:
    """A set with ``min_documents`` (the reviewed decisions) is skipped, with the reason in
    the decision, until its evaluation says it had enough documents; then it is gated like
    the others. Without a minimum a missing set still fails."""
    cfg = GateConfig.from_params(
        {"gate": {"gold_sets": ["ler", "bavaria", "reviews"], "min_type_recall": {"PERSON": 0.9},
                  "min_documents": {"reviews": 20}}}
    )  # fmt: skip
    reviews = {"eval.reviews.recall": 0.5, "eval.reviews.precision": 0.7, "eval.reviews.f2": 0.5,
               "eval.reviews.recall.PERSON": 0.5}  # fmt: skip
    for few in ({}, {**reviews, "eval.reviews.documents": 7}):
        decision = decide(metrics() | few, None, cfg)
        assert decision.promote, decision.reasons
        n = few.get("eval.reviews.documents", 0)
        assert f"eval.reviews: not gated, {n} documents evaluated (counts from 20)" in decision.reasons
        assert not [r for r in decision.rows if r.metric.startswith("eval.reviews.")]
    enough = decide(metrics() | reviews | {"eval.reviews.documents": 20}, None, cfg)
    assert not enough.promote and "eval.reviews.recall 0.5000 below floor 0.9000" in enough.reason
    assert "not gated" not in enough.reason
    good = {k: 0.95 for k in reviews} | {"eval.reviews.documents": 31}
    assert decide(metrics() | good, None, cfg).promote
    # the reviews' metrics are compared with the champion's like any set's
    worse = decide(metrics() | good, metrics() | good | {"eval.reviews.recall": 0.99}, cfg)
    assert not worse.promote and "eval.reviews.recall 0.9500 worse than champion" in worse.reason
    assert not decide(metrics(), None, replace(cfg, min_documents={})).promote
    with pytest.raises(ValueError, match="min_documents"):
        GateConfig.from_params({"gate": {"gold_sets": ["ler"], "min_documents": {"reviews": 20}}})


def test_evaluations_log_how_many_documents_they_had() -> None:
    report = {"overall": {"documents": 23, "elements": {"recall": 0.9, "precision": 0.8}}}
    assert registry.headline_metrics({"reviews": report})["eval.reviews.documents"] == 23.0


def test_a_set_may_report_a_metric_instead_of_flooring_it() -> None:
    """``set_floors`` replaces a floor for one gold set: a number is that set's floor, None
    leaves the metric reported and compared with the champion, but without a floor."""
    cfg = GateConfig.from_params(
        {"gate": {"gold_sets": ["ler", "bavaria"], "min_type_recall": {"PERSON": 0.9, "LOCATION": 0.85},
                  "set_floors": {"bavaria": {"recall": None, "recall.LOCATION": 0.6}}}}
    )  # fmt: skip
    low = metrics(**{"eval.bavaria.recall": 0.7, "eval.bavaria.recall.LOCATION": 0.65})
    decision = decide(low, None, cfg)
    assert decision.promote, decision.reasons
    floors = {r.metric: r.floor for r in decision.rows}
    assert floors["eval.bavaria.recall"] is None and floors["eval.bavaria.recall.LOCATION"] == 0.6
    assert floors["eval.ler.recall"] == 0.9  # the other set keeps the common floors
    # a number still blocks, and the champion comparison still holds where the floor is gone
    assert not decide(metrics(**{"eval.bavaria.recall.LOCATION": 0.5}), None, cfg).promote
    worse = decide(low, metrics(**{"eval.bavaria.recall": 0.75}), cfg)
    assert not worse.promote and "eval.bavaria.recall 0.7000 worse than champion" in worse.reason
    for bad in ({"other": {"recall": None}}, {"bavaria": {"recal": None}}):
        with pytest.raises(ValueError):
            GateConfig.from_params({"gate": {"set_floors": bad}})
    # a set may floor a type the common floors leave out (and unset one they do not have)
    own = GateConfig.from_params(
        {"gate": {"min_type_recall": {"PERSON": 0.9},
                  "set_floors": {"ler": {"recall.LOCATION": 0.8}, "bavaria": {"recall.LOCATION": None}}}}
    )  # fmt: skip
    rows = {r.metric: r for r in decide(metrics(location=0.7), None, own).rows}
    assert rows["eval.ler.recall.LOCATION"].floor == 0.8 and not rows["eval.ler.recall.LOCATION"].ok
    assert rows["eval.bavaria.recall.LOCATION"].floor is None and rows["eval.bavaria.recall.LOCATION"].ok


def test_markdown_table() -> None:
    decision = decide(metrics(recall=0.85), metrics(), CFG)
    md = render_markdown(decision)
    assert "| metric | floor | champion | challenger | ok |" in md
    assert "| eval.ler.recall | ≥ 0.9000 | 0.9500 | 0.8500 | **no** |" in md
    assert "| eval.ler.f2 | — | 0.8800 | 0.8800 | yes |" in md
    assert "below floor" in md and md.startswith("### Gate: reject")


# --- registry effects --------------------------------------------------------------------------

_names = itertools.count()


CONTENT = "c0" * 32  # the registered files of every version here (they have none to hash)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("gate-mlflow")
    uri = f"sqlite:///{base / 'mlflow.db'}"
    client = registry.get_client(uri, create=True)
    experiment_id = registry.ensure_experiment(client, "gate-tests", (base / "artifacts").as_uri())
    return {"uri": uri, "client": client, "experiment_id": experiment_id}


@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    """A project whose committed params.yaml has CFG as its gate section: what the gate
    promotes on (its sets have no committed files: their signed evaluations count)."""
    project = tmp_path_factory.mktemp("gate-project")
    commit_project(project, {"gate": _section(CFG)})
    return project


def _section(cfg: GateConfig) -> dict:
    return json.loads(json.dumps(asdict(cfg)))


def sign_evaluation(client, run_id: str, values: dict[str, float], content: str = CONTENT) -> None:
    """Tag ``values`` as the product's evaluations of files ``content`` sign them (what
    ``registry.log_evaluation`` writes beside the metrics of a report)."""
    for gold in {k.split(".")[1] for k in values}:
        part = {k: v for k, v in values.items() if k.split(".")[1] == gold}
        origin = {"gold_sha256": None, "model_sha256": content, "source": "test"}
        for key, value in registry.evaluation_tags(run_id, gold, part, origin).items():
            client.set_tag(run_id, key, value)


@pytest.fixture
def model(store, committed):
    """A fresh registered model per test; ``add(metrics)`` registers a version (its files:
    CONTENT) from a run whose metrics carry the signature an evaluation logs beside them
    (``evaluated=False``: bare metrics, as a hand-written report would put them there)."""
    from mlflow.entities import Metric

    client, name = store["client"], f"gate-{next(_names)}"
    client.create_registered_model(name)

    def add(values: dict[str, float], evaluated: bool = True) -> str:
        run = client.create_run(store["experiment_id"])
        client.log_batch(run.info.run_id, metrics=[Metric(k, v, 0, 0) for k, v in values.items()])
        if evaluated:
            sign_evaluation(client, run.info.run_id, values)
        client.set_terminated(run.info.run_id)
        mv = client.create_model_version(
            name, source=f"{run.info.artifact_uri}/model", run_id=run.info.run_id,
            tags={vetting.CONTENT_TAG: CONTENT},
        )  # fmt: skip
        return str(mv.version)

    return {"name": name, "add": add, "client": client, "uri": store["uri"], "project": committed}


def _alias(model, alias: str) -> str | None:
    mv = registry.alias_version(model["client"], alias, model["name"])
    return str(mv.version) if mv is not None else None


def _gate(model, version: str, cfg: GateConfig = CFG, **kwargs) -> gate.GateDecision:
    return gate.run_gate(version, cfg=cfg, tracking_uri=model["uri"], model_name=model["name"],
                         project_dir=model["project"], **kwargs)  # fmt: skip


def test_first_passing_model_becomes_champion(model) -> None:
    v1 = model["add"](metrics())
    decision = _gate(model, v1)
    assert decision.promote and decision.version == v1 and decision.champion_version is None
    assert _alias(model, "champion") == v1 and _alias(model, "previous-champion") is None
    mv = model["client"].get_model_version(model["name"], v1)
    assert mv.tags["gate.decision"] == "promote" and "no champion yet" in mv.tags["gate.reason"]
    assert mv.tags["gate.metric.eval.ler.recall"] == "0.9500"
    assert "| eval.ler.recall |" in mv.description


def test_champion_moves_only_on_pass_and_keeps_previous(model) -> None:
    v1, v2, v3 = (
        model["add"](metrics()),
        model["add"](metrics(recall=0.85)),
        model["add"](metrics(recall=0.97)),
    )
    assert _gate(model, v1).promote
    rejected = _gate(model, v2)
    assert not rejected.promote and rejected.champion_version == v1
    assert _alias(model, "champion") == v1 and _alias(model, "previous-champion") is None
    mv2 = model["client"].get_model_version(model["name"], v2)
    assert mv2.tags["gate.decision"] == "reject" and "below floor" in mv2.tags["gate.reason"]
    assert (
        mv2.tags["gate.champion_version"] == v1
        and "| eval.ler.recall | ≥ 0.9000 | 0.9500 | 0.8500 | **no** |" in mv2.description
    )
    assert _gate(model, v3).promote
    assert _alias(model, "champion") == v3 and _alias(model, "previous-champion") == v1


def test_gate_with_fresh_evaluations_logs_them_to_the_run(model) -> None:
    v1 = model["add"]({})
    report = {"overall": {"elements": {"precision": 0.7, "recall": 0.95, "f1": 0.8, "f2": 0.9}},
              "per_type": {"PERSON": {"gold_elements": 10, "element_recall": 0.97}},
              "leakage": {"leak_free_share": 1.0}}  # fmt: skip
    decision = _gate(model, v1, evaluations={"ler": report, "bavaria": report}, model_sha256=CONTENT)
    assert decision.promote, decision.reasons
    run_id = model["client"].get_model_version(model["name"], v1).run_id
    assert model["client"].get_run(run_id).data.metrics["eval.bavaria.recall.PERSON"] == 0.97


def test_manual_promote_and_rollback_need_a_reason_and_record_who_when_why(model) -> None:
    v1, v2 = model["add"](metrics()), model["add"](metrics(recall=0.5))
    kw = {"tracking_uri": model["uri"], "model_name": model["name"]}
    assert _gate(model, v1).promote
    for empty in ("", "   ", None):
        with pytest.raises(ValueError):
            gate.promote(v2, empty, override_gate=True, **kw)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            gate.rollback(empty, **kw)  # type: ignore[arg-type]
    assert _alias(model, "champion") == v1, "a refused call changes nothing"
    reason = "reviewed errors by hand: misses are keep entities"
    assert gate.promote(v2, reason, by="reviewer-a", override_gate=True, **kw) == v1
    assert _alias(model, "champion") == v2 and _alias(model, "previous-champion") == v1
    tags = model["client"].get_model_version(model["name"], v2).tags
    assert (
        tags["promote.by"] == "reviewer-a"
        and tags["promote.from_version"] == v1
        and tags["promote.at"]
    )
    assert tags["promote.reason"] == "reviewed errors by hand: misses are keep entities"
    with pytest.raises(ValueError):
        gate.promote(v2, "again", **kw)
    assert gate.rollback("complaints about leaked names", by="reviewer-b", **kw) == v1
    assert _alias(model, "champion") == v1 and _alias(model, "previous-champion") is None
    restored = model["client"].get_model_version(model["name"], v1).tags
    assert restored["rollback.by"] == "reviewer-b" and restored["rollback.from_version"] == v2
    assert (
        model["client"].get_model_version(model["name"], v2).tags["rolled_back.reason"]
        == "complaints about leaked names"
    )
    with pytest.raises(LookupError):
        gate.rollback("nothing left to roll back to", **kw)


def test_cli_promote_and_rollback_refuse_without_reason(model, monkeypatch) -> None:
    from typer.testing import CliRunner

    from deid.app.cli import app

    monkeypatch.setenv("MLFLOW_TRACKING_URI", model["uri"])
    runner = CliRunner()
    assert runner.invoke(app, ["promote", "--version", "1"]).exit_code != 0
    assert runner.invoke(app, ["promote", "--version", "1", "--reason", " "]).exit_code != 0
    assert runner.invoke(app, ["rollback", "--reason", ""]).exit_code != 0


# --- trust: evaluations, overrides, history, re-gating (issue 18) -------------------------------


def test_gate_ignores_metrics_no_evaluation_logged(model) -> None:
    """Metrics put on a run without the evaluation's digest (a hand-written report), or
    changed after the evaluation logged them, do not count: the set is 'not evaluated'."""
    from mlflow.entities import Metric

    bare = model["add"](metrics(), evaluated=False)
    decision = _gate(model, bare)
    assert not decision.promote and _alias(model, "champion") is None
    assert "eval.ler.*: ignored, not logged by an evaluation" in decision.reason
    edited = model["add"](metrics(recall=0.5))
    run_id = model["client"].get_model_version(model["name"], edited).run_id
    model["client"].log_batch(run_id, metrics=[Metric("eval.ler.recall", 0.99, 1, 0)])
    assert not _gate(model, edited).promote and _alias(model, "champion") is None


def test_metrics_with_an_unkeyed_digest_or_another_key_never_promote(model, tmp_path, monkeypatch) -> None:
    """Issue 27, bypass 3: metrics written straight into MLflow with the digest the gate
    used to trust (sha256 of the metrics, recomputable by anyone), or signed with a key that
    is not the gate's, are ignored: no champion."""
    import hashlib

    client = model["client"]
    forged = model["add"](metrics(), evaluated=False)
    run_id = client.get_model_version(model["name"], forged).run_id
    for gold in ("ler", "bavaria"):
        part = {k: v for k, v in metrics().items() if k.split(".")[1] == gold}
        client.set_tag(run_id, f"eval.{gold}.sha256", hashlib.sha256(json.dumps(sorted(part.items())).encode()).hexdigest())
    decision = _gate(model, forged)
    assert not decision.promote and "eval.ler.*: ignored, not logged by an evaluation of this product" in decision.reason
    other = model["add"](metrics(), evaluated=False)
    monkeypatch.setenv(vetting.KEY_FILE_ENV, str(tmp_path / "their.key"))
    sign_evaluation(client, client.get_model_version(model["name"], other).run_id, metrics())
    monkeypatch.undo()
    assert not _gate(model, other).promote
    assert _alias(model, "champion") is None and "vetted.payload" not in client.get_model_version(model["name"], other).tags


def test_loosened_params_record_a_decision_but_never_promote(model) -> None:
    """Issue 27, bypass 1: the gate run with other settings than the committed ones (a huge
    ``min_documents`` that skips every set, or lower floors) decides and records, but
    promotes nothing; the committed settings promote the same version."""
    low = model["add"](metrics(recall=0.5))
    lax = replace(CFG, min_documents={"ler": 10**9, "bavaria": 10**9})
    skipped = _gate(model, low, lax)
    assert not skipped.promote and "no gold set counted: nothing was gated" in skipped.reason
    looser = _gate(model, low, replace(CFG, min_recall=0.1))
    assert not looser.promote and _alias(model, "champion") is None
    assert "gate settings differ from the committed params.yaml" in looser.reason and "min_recall" in looser.reason
    tags = model["client"].get_model_version(model["name"], low).tags
    assert tags["gate.decision"] == "reject" and "vetted.payload" not in tags
    honest = model["add"](metrics())
    assert _gate(model, honest).promote and _alias(model, "champion") == honest


def test_a_promotion_is_signed_and_a_forged_one_is_refused(model) -> None:
    """The gate signs the version it promotes (floors, metrics, content); production
    (deid.ops.vetting.vetting_of) refuses a champion whose alias or gate tags were written
    by hand or whose signed vetting was changed, and a manual promote of a version with a
    hand-written ``gate.decision`` needs the override."""
    client, kw = model["client"], {"tracking_uri": model["uri"], "model_name": model["name"]}
    v1, v2 = model["add"](metrics()), model["add"](metrics())
    assert _gate(model, v1).promote
    payload = vetting.vetting_of(client.get_model_version(model["name"], v1))
    assert payload["kind"] == "gate" and payload["version"] == v1 and payload["model_sha256"] == CONTENT
    assert payload["settings"]["min_recall"] == CFG.min_recall and payload["metrics"]["eval.ler.recall"] == 0.95
    client.set_model_version_tag(model["name"], v2, "gate.decision", "promote")
    client.set_registered_model_alias(model["name"], "champion", v2)
    with pytest.raises(vetting.NotVetted, match="carries no signed vetting"):
        vetting.vetting_of(client.get_model_version(model["name"], v2))
    client.set_registered_model_alias(model["name"], "champion", v1)
    with pytest.raises(gate.MoveRefused, match="carries no gate signature that verifies"):
        gate.promote(v2, "the tag says promote", by="reviewer-a", **kw)
    copied = client.get_model_version(model["name"], v1).tags
    client.set_model_version_tag(model["name"], v2, vetting.PAYLOAD_TAG, copied[vetting.PAYLOAD_TAG])
    client.set_model_version_tag(model["name"], v2, vetting.SIGNATURE_TAG, copied[vetting.SIGNATURE_TAG])
    with pytest.raises(vetting.NotVetted, match="signed for .* version " + v1):
        vetting.vetting_of(client.get_model_version(model["name"], v2))
    client.set_model_version_tag(model["name"], v1, vetting.PAYLOAD_TAG, copied[vetting.PAYLOAD_TAG].replace("0.95", "0.99"))
    with pytest.raises(vetting.NotVetted, match="does not verify"):
        vetting.vetting_of(client.get_model_version(model["name"], v1))


def test_an_override_is_signed_and_recorded_as_an_override(model) -> None:
    client, kw = model["client"], {"tracking_uri": model["uri"], "model_name": model["name"]}
    rejected = model["add"](metrics(recall=0.5))
    assert not _gate(model, rejected).promote
    gate.promote(rejected, "misses are keep entities, checked by hand", by="reviewer-a", override_gate=True, **kw)
    mv = client.get_model_version(model["name"], rejected)
    payload = vetting.vetting_of(mv)
    assert (payload["kind"], payload["by"], payload["gate_decision"]) == ("override", "reviewer-a", "reject")
    assert payload["reason"] == "misses are keep entities, checked by hand"
    assert vetting.summary(payload) == {"kind": "override", "at": payload["at"], "by": "reviewer-a"}
    assert mv.tags["promote.override_gate"] == "true" and gate.alias_history(rejected, **kw)[-1]["override_gate"]


def test_cli_gate_takes_no_evaluation_from_a_file(store, monkeypatch, tmp_path, root) -> None:
    """``deid gate --eval-report ler=hand.json`` used to promote on whatever the file said;
    now there is no such option, and the gate decides on what an evaluation logged (here:
    nothing, so it rejects)."""
    from typer.testing import CliRunner

    from deid.app.cli import app

    client = store["client"]
    if not client.search_registered_models(f"name = '{registry.MODEL_NAME}'"):
        client.create_registered_model(registry.MODEL_NAME)
    run = client.create_run(store["experiment_id"])
    version = str(client.create_model_version(registry.MODEL_NAME, "x", run_id=run.info.run_id).version)
    report = {"overall": {"elements": {"precision": 1.0, "recall": 1.0, "f1": 1.0, "f2": 1.0}},
              "per_type": {}, "leakage": {"leak_free_share": 1.0}}  # fmt: skip
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", store["uri"])
    args = ["gate", "--version", version, "--params", str(root / "params.yaml")]
    runner = CliRunner()
    forged = runner.invoke(app, [*args, "--eval-report", f"ler={hand}", "--eval-report", f"bavaria={hand}"])
    assert forged.exit_code == 2, forged.output  # no such option
    assert registry.alias_version(client, "champion") is None
    gated = runner.invoke(app, args)
    assert gated.exit_code == 0, gated.output
    assert '"decision": "reject"' in gated.stdout and registry.alias_version(client, "champion") is None


def test_promoting_a_rejected_version_needs_a_recorded_override(model) -> None:
    v1, v2 = model["add"](metrics()), model["add"](metrics(recall=0.5))
    kw = {"tracking_uri": model["uri"], "model_name": model["name"]}
    assert _gate(model, v1).promote and not _gate(model, v2).promote
    with pytest.raises(gate.MoveRefused, match="rejected by the gate.*--override-gate"):
        gate.promote(v2, "looks fine to me", by="reviewer-a", **kw)
    never_gated = model["add"](metrics())
    with pytest.raises(gate.MoveRefused, match="has not passed the gate"):
        gate.promote(never_gated, "looks fine to me", by="reviewer-a", **kw)
    assert _alias(model, "champion") == v1, "a refused promote changes nothing"
    gate.promote(v2, "misses are keep entities, checked", by="reviewer-a", override_gate=True, **kw)
    assert _alias(model, "champion") == v2
    tags = model["client"].get_model_version(model["name"], v2).tags
    assert tags["promote.override_gate"] == "true"
    (entry,) = gate.alias_history(v2, **kw)
    assert entry["override_gate"] is True and entry["gate_decision"] == "reject"


def test_alias_history_is_append_only_with_who_and_os_user(model) -> None:
    """Each move keeps its own who/when/why: a later promote no longer overwrites an earlier
    one, and the OS user is recorded beside the reviewer name given with --by."""
    import getpass

    v1, v2 = model["add"](metrics()), model["add"](metrics(recall=0.97))
    kw = {"tracking_uri": model["uri"], "model_name": model["name"]}
    assert _gate(model, v1).promote and _gate(model, v2).promote
    gate.rollback("first complaint", by="reviewer-a", **kw)
    gate.promote(v2, "complaint was about the input", by="reviewer-b", **kw)
    gate.rollback("second complaint", by="reviewer-c", **kw)
    history = gate.alias_history(v2, **kw)
    assert [(e["action"], e["by"], e["reason"]) for e in history] == [
        ("gate-promote", "gate", history[0]["reason"]),
        ("rollback", "reviewer-a", "first complaint"),
        ("promote", "reviewer-b", "complaint was about the input"),
        ("rollback", "reviewer-c", "second complaint"),
    ]
    assert {e["user"] for e in history} == {getpass.getuser()}
    assert [e["action"] for e in gate.alias_history(v1, **kw)] == [
        "gate-promote", "gate-promote", "rollback", "promote", "rollback",
    ]  # fmt: skip
    for name in ("Max Mustermann hat", "a\nb", "x" * 65, "-flag"):
        with pytest.raises(gate.MoveRefused, match="one word"):
            gate.rollback("reason", by=name, **kw)


def test_a_champion_that_fails_its_regating_is_demoted(model) -> None:
    """Stricter floors: the champion fails its re-gating → the previous champion comes back
    if it passes them; when none does, there is no champion at all (anonymizing with
    @champion then fails instead of using a rejected model)."""
    kw = {"tracking_uri": model["uri"], "model_name": model["name"]}
    v1, v2 = model["add"](metrics(precision=0.7)), model["add"](metrics(precision=0.6))
    assert _gate(model, v1).promote and _gate(model, v2).promote
    assert (_alias(model, "champion"), _alias(model, "previous-champion")) == (v2, v1)
    decision = _gate(model, v2, replace(CFG, min_precision=0.65))
    assert not decision.promote
    assert f"version {v2} was the champion and is demoted: version {v1} (previous champion)" in decision.reason
    assert (_alias(model, "champion"), _alias(model, "previous-champion")) == (v1, None)
    decision = _gate(model, v1, replace(CFG, min_precision=0.8))
    assert not decision.promote and "demoted: no champion" in decision.reason
    assert _alias(model, "champion") is None
    assert [e["action"] for e in gate.alias_history(v1, **kw)][-2:] == ["gate-demote", "gate-demote"]
    assert model["client"].get_model_version(model["name"], v1).tags["gate.decision"] == "reject"
