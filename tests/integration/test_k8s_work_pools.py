"""The Prefect side of infra/k8s against a real Prefect server on loopback. The prefect-setup
Job's own script (prefect-workers.yaml) creates both kubernetes work pools from
work-pools/*.json, the server checking each template and its defaults, and deploys
prefect.yaml onto them, the server checking every deployment's job variables against its
pool's schema. Then, for a flow run of every deployment, the kubernetes worker's own
resolution (deployment + pool + run → Job) gives a Job that validates against the Kubernetes
schema, on the pool's nodes, with the Secrets referenced. No cluster: the Job is built, not
submitted."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from prefect.client.orchestration import get_client
from prefect.settings import PREFECT_API_URL, temporary_settings
from prefect_kubernetes.worker import KubernetesWorkerJobConfiguration

from infra.stack import READY, StackConfig, launch, stop, wait_until
from tests import k8s
from tests.integration.project import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

DEPLOYMENTS = yaml.safe_load((ROOT / "prefect.yaml").read_text(encoding="utf-8"))["deployments"]


def setup_command() -> list[str]:
    """The command line of the prefect-setup Job."""
    documents = k8s.load_yaml_documents(k8s.K8S / "prefect-workers.yaml")
    (job,) = [d for d in documents if d["kind"] == "Job"]
    (container,) = job["spec"]["template"]["spec"]["containers"]
    return [*container["command"], *container["args"]]


@pytest.fixture(scope="module")
def prefect_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Prefect server of its own (no deployment or schedule reaches the other tests')."""
    cfg = StackConfig.with_free_ports(tmp_path_factory.mktemp("k8s-prefect"))
    cfg.save()
    try:
        pid = launch(cfg, "prefect")
        wait_until(lambda: READY["prefect"](cfg), "prefect", 300, pid)  # a busy machine is slow
        yield cfg.prefect_api
    finally:
        stop(cfg)


@pytest.fixture(scope="module")
def set_up(prefect_api: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The setup Job's script run in a directory laid out like the image's /opt/deid."""
    image = tmp_path_factory.mktemp("opt-deid")
    (image / "prefect.yaml").write_bytes((ROOT / "prefect.yaml").read_bytes())
    (image / "flows").symlink_to(ROOT / "flows")
    (image / "infra" / "k8s").mkdir(parents=True)
    (image / "infra" / "k8s" / "work-pools").symlink_to(k8s.K8S / "work-pools")
    env = os.environ | {
        "PREFECT_API_URL": prefect_api,
        "PREFECT_HOME": str(tmp_path_factory.mktemp("prefect-home")),
        "PYTHONPATH": str(ROOT),
        "DEID_PROJECT_DIR": str(image),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    done = subprocess.run(
        setup_command(),
        cwd=image,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return prefect_api


def required_parameters(schema: dict[str, Any]) -> dict[str, str]:
    """A value for each parameter a run must be given (promote: version and reason); every
    such parameter of these flows is a string."""
    assert all(
        schema["properties"][name]["type"] == "string" for name in schema.get("required", [])
    )
    return {name: "1" for name in schema.get("required", [])}


async def _pools_deployments_and_jobs(api: str) -> dict[str, Any]:
    """What the server holds after the setup, and the Job a kubernetes worker builds for a new
    flow run of each deployment."""
    async with get_client() as client:
        assert str(client.api_url).rstrip("/") == api
        pools = {name: await client.read_work_pool(name) for name in k8s.POOLS}
        deployments = {d.name: d for d in await client.read_deployments()}
        jobs = {}
        for name, deployment in deployments.items():
            run = await client.create_flow_run_from_deployment(
                deployment.id, parameters=required_parameters(deployment.parameter_openapi_schema)
            )
            config = await KubernetesWorkerJobConfiguration.resolve_for_flow_run(
                run, client=client, work_pool=pools[deployment.work_pool_name],
                worker_name="test", deployment=deployment,
            )  # fmt: skip
            jobs[name] = config.job_manifest
    return {"pools": pools, "deployments": deployments, "jobs": jobs}


@pytest.fixture(scope="module")
def server(set_up: str) -> dict[str, Any]:
    with temporary_settings({PREFECT_API_URL: set_up}):
        return asyncio.run(_pools_deployments_and_jobs(set_up))


def test_the_setup_job_creates_kubernetes_pools_from_the_templates(server):
    for pool in k8s.POOLS:
        assert server["pools"][pool].type == "kubernetes"
        assert server["pools"][pool].base_job_template == k8s.template(pool)


def test_every_deployment_of_prefect_yaml_is_on_its_pool(server):
    expected = {d["name"]: d["work_pool"]["name"] for d in DEPLOYMENTS}
    deployed = {n: d.work_pool_name for n, d in server["deployments"].items()}
    assert deployed == expected


@pytest.mark.parametrize("name", [d["name"] for d in DEPLOYMENTS])
def test_the_worker_builds_a_valid_job_for_a_run_of_each_deployment(server, name):
    job, pool = server["jobs"][name], server["deployments"][name].work_pool_name
    submitted = k8s.as_submitted(job)
    assert kubernetes_validate.validate(submitted, k8s.KUBERNETES, strict=True) == k8s.KUBERNETES
    pod = job["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == {k8s.POOL_LABEL: pool}
    (container,) = pod["containers"]
    assert container["image"] == k8s.template(pool)["variables"]["properties"]["image"]["default"]
    env = {e["name"]: e for e in container["env"]}
    assert env["PREFECT_LOGGING_EXTRA_LOGGERS"]["value"] == "deid"  # prefect.yaml's job env
    assert env["AWS_SECRET_ACCESS_KEY"]["valueFrom"]["secretKeyRef"]["name"] == "deid-s3"
    assert ("DEID_SECRET" in env) == (pool == "cpu")
    labels = job["metadata"]["labels"]
    assert labels["prefect.io/deployment-name"] == name
