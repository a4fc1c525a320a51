"""Issue 27, item 1, through the product's own commands: nothing unvetted becomes champion.

A project (a git checkout) commits its gate settings and a gold set of two real LER
decisions; a tiny untrained pipeline is registered in a temporary tracking store. Its floors
are zero, so every route below passes them: what stops a route is the vetting alone.

* ``deid gate --params lax.yaml`` (bypass 1), ``deid evaluate-model --record ler`` on ten
  made-up sentences or on an edited gold file (bypass 2): a decision is recorded, no champion;
* ``deid evaluate-model --record ler`` on the committed gold set, then ``deid gate``: the
  honest route promotes and signs;
* ``deid anonymize`` (default: the champion) refuses a champion made by hand, one whose
  signed vetting was edited and one whose files changed after the gate, and says why; a
  ``deid promote --override-gate --reason`` champion runs, its records saying "override".

(Bypass 3, metrics with the unkeyed digest: tests/code/test_gate.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deid.app.cli import app
from deid.ops import mlflow_registry as registry
from deid.ops import vetting
from deid.sources.io import read_jsonl
from tests.code.test_registry import output, pipeline_dir  # noqa: F401 - fixtures: a tiny pipeline
from tests.conftest import ROOT, commit_project, read_source

pytestmark = pytest.mark.slow  # a real MLflow store, a registered pipeline, evaluations: seconds each

GOLD_IDS = ("ler-bgh-0030.auto-s13", "ler-bgh-0053.auto-s13")
GATE = {"gold_sets": ["ler"], "gold_files": {"ler": "gold/ler.jsonl"}, "max_documents": 0,
        "min_recall": 0.0, "min_precision": 0.0, "min_type_recall": {}, "compare": ["recall"]}  # fmt: skip
MADE_UP = [f"Der Kläger überwies am {d}. März den Betrag auf das Konto DE89 3704 0044 0532 0130 00." for d in range(1, 11)]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The checkout: committed params.yaml (GATE) and gold/ler.jsonl (two LER decisions)."""
    lines = [line for line in (ROOT / "data/gold/ler_rewritten.jsonl").read_text(encoding="utf-8").splitlines()
             if json.loads(line)["id"] in GOLD_IDS]  # fmt: skip
    assert len(lines) == 2
    folder = tmp_path_factory.mktemp("vetting-project")
    commit_project(folder, {"gate": GATE}, {"gold/ler.jsonl": ("\n".join(lines) + "\n").encode()})
    return folder


@pytest.fixture(scope="module")
def cli(project, tmp_path_factory, output):  # noqa: F811 - the imported fixture
    """``deid …`` in the project against its own tracking store, and the registered version."""
    base = tmp_path_factory.mktemp("vetting-mlflow")
    uri = f"sqlite:///{base / 'mlflow.db'}"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLFLOW_TRACKING_URI", uri)
        mp.delenv("MLFLOW_REGISTRY_URI", raising=False)
        mp.chdir(project)
        client = registry.get_client(uri, create=True)
        registry.ensure_experiment(client, "deid", (base / "artifacts").as_uri())
        runner = CliRunner()

        def run(*args: str, ok: bool = True):
            result = runner.invoke(app, list(args))
            assert (result.exit_code == 0) is ok, (args, result.output)
            return result

        def register() -> str:
            info = run("register", "--pipeline", str(output.pipeline_dir), "--params", str(ROOT / "params.yaml"))
            return json.loads(info.stdout[info.stdout.index("{") :])["version"]

        yield {"run": run, "register": register, "client": client, "uri": uri, "artifacts": base / "artifacts"}


def _record(cli, version: str, gold: Path, tmp: Path) -> None:
    cli["run"]("evaluate-model", "--model", f"models:/{registry.MODEL_NAME}/{version}", "--gold", str(gold),
               "--methods", "all", "--report", str(tmp / "report.json"), "--record", "ler")  # fmt: skip


def _gate(cli, version: str, *params: str) -> dict:
    out = cli["run"]("gate", "--version", version, *params).stdout
    return json.loads(out[out.index("{") :])


def _champion(cli) -> str | None:
    mv = registry.alias_version(cli["client"], registry.CHAMPION)
    return str(mv.version) if mv is not None else None


def _anonymize(cli, tmp: Path, ok: bool):
    """``deid anonymize`` with the champion (no --model) into a new ``out.jsonl``."""
    source = tmp / "in.jsonl"
    source.write_text(json.dumps({"id": "doc-1", "text": read_source("decisions/bag/9-azr-115-23.txt.xz")[:500]}) + "\n",
                      encoding="utf-8")  # fmt: skip
    (tmp / "out.jsonl").unlink(missing_ok=True)
    return cli["run"]("anonymize", "-i", str(source), "-o", str(tmp / "out.jsonl"), "--no-resume", ok=ok)


def test_loosened_params_and_made_up_or_edited_gold_sets_never_promote(cli, project, tmp_path) -> None:
    version = cli["register"]()
    lax = tmp_path / "lax.yaml"
    lax.write_text(json.dumps({"gate": GATE | {"min_documents": {"ler": 10**9}}}), encoding="utf-8")
    decided = _gate(cli, version, "--params", str(lax))  # bypass 1: every set skipped
    assert decided["decision"] == "reject" and "no gold set counted: nothing was gated" in decided["reasons"]
    made_up = tmp_path / "made_up.jsonl"  # bypass 2: ten sentences whose gold spans the rules find
    made_up.write_text("".join(json.dumps({"id": f"s{i}", "text": t, "spans": [
        {"start": t.index("DE89"), "end": t.index("DE89") + 27, "label": "ID"}]}) + "\n" for i, t in enumerate(MADE_UP)),
        encoding="utf-8")  # fmt: skip
    _record(cli, version, made_up, tmp_path)
    decided = _gate(cli, version)
    assert decided["decision"] == "reject", decided
    assert "eval.ler: evaluated on other documents than the committed gold/ler.jsonl" in decided["reasons"]
    unnamed = tmp_path / "unnamed.yaml"  # params that name no gold file, so any documents would do
    unnamed.write_text(json.dumps({"gate": GATE | {"gold_files": {}}}), encoding="utf-8")
    decided = _gate(cli, version, "--params", str(unnamed))
    assert decided["decision"] == "reject"
    assert decided["reasons"][0].startswith("gate settings differ from the committed params.yaml (git HEAD")
    assert decided["reasons"][0].endswith(": gold_files"), decided["reasons"]
    gold = project / "gold/ler.jsonl"  # the committed file edited in place, not committed
    committed = gold.read_bytes()
    try:
        gold.write_bytes(committed.splitlines(keepends=True)[0])
        _record(cli, version, gold, tmp_path)
        decided = _gate(cli, version)
    finally:
        gold.write_bytes(committed)
    assert decided["decision"] == "reject" and "evaluated on other documents" in decided["reasons"][0]
    tags = cli["client"].get_model_version(registry.MODEL_NAME, version).tags
    assert _champion(cli) is None and vetting.PAYLOAD_TAG not in tags and tags["gate.decision"] == "reject"


def test_the_honest_route_promotes_and_production_checks_the_signature(cli, project, tmp_path) -> None:
    version = cli["register"]()
    _record(cli, version, project / "gold/ler.jsonl", tmp_path)
    decided = _gate(cli, version)
    assert decided["decision"] == "promote", decided["reasons"]
    assert _champion(cli) == version
    done = _anonymize(cli, tmp_path, ok=True)
    (record,) = read_jsonl(tmp_path / "out.jsonl")
    assert record["lineage"]["model"]["vetting"]["kind"] == "gate", done.output
    client, tags = cli["client"], cli["client"].get_model_version(registry.MODEL_NAME, version).tags
    payload = json.loads(tags[vetting.PAYLOAD_TAG])
    assert payload["gold"]["ler"]["documents"] == 2.0 and payload["settings"]["gold_files"] == GATE["gold_files"]
    # the signed vetting edited (a metric raised): refused, and why
    client.set_model_version_tag(registry.MODEL_NAME, version, vetting.PAYLOAD_TAG,
                                 tags[vetting.PAYLOAD_TAG].replace('"documents":2.0', '"documents":3.0'))  # fmt: skip
    refused = _anonymize(cli, tmp_path, ok=False)
    assert "its vetting signature does not verify" in refused.output and refused.exit_code == 2
    client.set_model_version_tag(registry.MODEL_NAME, version, vetting.PAYLOAD_TAG, tags[vetting.PAYLOAD_TAG])
    # the registered files changed after the gate (in the artifact store)
    stored = {p: p.read_bytes() for p in cli["artifacts"].rglob("pipeline.json")}
    assert stored
    try:
        for path, original in stored.items():
            path.write_bytes(original.replace(b'"operator"', b' "operator"', 1))
        assert "the downloaded model is not the one vetted" in _anonymize(cli, tmp_path, ok=False).output
    finally:
        for path, original in stored.items():
            path.write_bytes(original)
    # a champion set by hand (the alias moved in MLflow, a gate tag written): refused
    forged = cli["register"]()
    client.set_model_version_tag(registry.MODEL_NAME, forged, "gate.decision", "promote")
    client.set_registered_model_alias(registry.MODEL_NAME, registry.CHAMPION, forged)
    refused = _anonymize(cli, tmp_path, ok=False)
    assert f"version {forged} carries no signed vetting" in refused.output
    # without the key, production cannot verify and refuses too
    client.set_registered_model_alias(registry.MODEL_NAME, registry.CHAMPION, version)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(vetting.KEY_FILE_ENV, str(tmp_path / "missing.key"))
        assert "no gate key at" in _anonymize(cli, tmp_path, ok=False).output
    # a reviewer's override: refused without the flag, then signed and said in every record
    cli["run"]("promote", "--version", forged, "--reason", "checked by hand", ok=False)
    cli["run"]("promote", "--version", forged, "--reason", "checked by hand", "--by", "a.richter", "--override-gate")
    _anonymize(cli, tmp_path, ok=True)
    (record,) = read_jsonl(tmp_path / "out.jsonl")
    vetted = record["lineage"]["model"]["vetting"]
    assert (vetted["kind"], vetted["by"]) == ("override", "a.richter")
    tags = client.get_model_version(registry.MODEL_NAME, forged).tags
    assert tags["promote.override_gate"] == "true" and json.loads(tags[vetting.PAYLOAD_TAG])["kind"] == "override"
