"""prefect.yaml: the schema `prefect deploy` validates with, entrypoints that load, parameters
the flows accept, a trigger on the event the corpus flow emits, a valid cron schedule."""

from __future__ import annotations

import inspect

import pytest
import yaml
from prefect.cli.deploy._models import PrefectYamlModel
from prefect.client.schemas.schedules import CronSchedule
from prefect.events.schemas.deployment_triggers import DeploymentEventTrigger
from prefect.events.schemas.events import Resource
from prefect.flows import load_flow_from_entrypoint

from flows.corpus import EVENT
from tests.conftest import ROOT

CONFIG = yaml.safe_load((ROOT / "prefect.yaml").read_text(encoding="utf-8"))
DEPLOYMENTS = {d["name"]: d for d in CONFIG["deployments"]}


def test_schema_of_prefect_deploy_accepts_the_file():
    model = PrefectYamlModel.model_validate(CONFIG)
    assert [d.name for d in model.deployments] == list(DEPLOYMENTS)


@pytest.mark.parametrize("name", sorted(DEPLOYMENTS))
def test_entrypoint_loads_and_parameters_exist(name):
    deployment = DEPLOYMENTS[name]
    flow = load_flow_from_entrypoint(str(ROOT / deployment["entrypoint"]))
    accepted = set(inspect.signature(flow.fn).parameters)
    given = set(deployment.get("parameters") or {})
    for trigger in deployment.get("triggers") or []:
        given |= set(trigger.get("parameters") or {})
    assert given <= accepted, f"{name}: unknown parameters {sorted(given - accepted)}"


@pytest.mark.parametrize(
    ("name", "pool"),
    [("retrain", "gpu"), ("anonymize-nightly", "cpu"), ("promote", "cpu"), ("rollback", "cpu")],
)
def test_work_pools(name, pool):
    assert DEPLOYMENTS[name]["work_pool"]["name"] == pool


def test_retrain_is_triggered_by_a_pushed_corpus_version():
    (trigger,) = DEPLOYMENTS["retrain"]["triggers"]
    parsed = DeploymentEventTrigger.model_validate(trigger)
    assert parsed.expect == {EVENT}
    pushed = Resource({"prefect.resource.id": "deid.corpus.56527a28c02a959dbfc90a5f5b8f3849.dir"})
    other = Resource({"prefect.resource.id": "deid.model.deid-ner"})
    assert parsed.match.matches(pushed) and not parsed.match.matches(other)
    assert "event.payload.rev" in trigger["parameters"]["rev"]


def test_anonymize_runs_nightly_with_the_champion():
    deployment = DEPLOYMENTS["anonymize-nightly"]
    (schedule,) = deployment["schedules"]
    cron = CronSchedule(cron=schedule["cron"], timezone=schedule["timezone"])
    assert cron.cron == "0 2 * * *"
    assert deployment["parameters"]["model_uri"].endswith("@champion")


def test_no_deployment_without_a_flow_on_the_cpu_or_gpu_pool():
    assert {d["work_pool"]["name"] for d in DEPLOYMENTS.values()} == {"cpu", "gpu"}
