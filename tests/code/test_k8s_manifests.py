"""infra/k8s: every manifest validates against the pinned Kubernetes release's schema
(kubernetes-validate's bundled schemas, strict: an unknown or misplaced field fails; no
network), and so does the Job that prefect-kubernetes' own job configuration renders from each
work pool's base job template for each deployment of prefect.yaml. Secrets are only
referenced; every workload has resources, probes, a non-root security context and a pool's
node selector; the pools are the ones prefect.yaml deploys to; services, ports and endpoints
agree. No cluster runs here."""

from __future__ import annotations

import asyncio
import copy
import os
import re
import subprocess
import time
import uuid
from typing import Any

import kubernetes_validate
import pytest
import yaml
from prefect.client.schemas.objects import FlowRun
from prefect.server.schemas.actions import WorkPoolCreate
from prefect.settings import PREFECT_API_URL, temporary_settings
from prefect_kubernetes.worker import KubernetesWorkerJobConfiguration

from tests.conftest import ROOT
from tests.k8s import (
    K8S,
    KUBERNETES,
    POOL_LABEL,
    POOLS,
    as_submitted,
    load_yaml_documents,
    template,
)

GPU = "nvidia.com/gpu"
WORKLOADS = ("Deployment", "StatefulSet", "Job", "CronJob")
SECRET_NAME = re.compile(r"SECRET|PASSWORD|TOKEN|ACCESS_KEY", re.IGNORECASE)
FLOW_RUN = uuid.UUID(int=1)
DEPLOYMENTS = yaml.safe_load((ROOT / "prefect.yaml").read_text(encoding="utf-8"))["deployments"]


def kustomization() -> dict[str, Any]:
    return yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))


MANIFESTS = [(name, doc) for name in kustomization()["resources"]
             for doc in load_yaml_documents(K8S / name)]  # fmt: skip
EXAMPLE_SECRETS = load_yaml_documents(K8S / "secrets.example.yaml")


def by_kind(*kinds: str) -> list[dict[str, Any]]:
    return [doc for _, doc in MANIFESTS if doc["kind"] in kinds]


def render_job(pool: str, job_variables: dict[str, Any]) -> dict[str, Any]:
    """The Job a kubernetes worker of ``pool`` submits for a flow run of a deployment with
    these job variables (prefect-kubernetes' own templating and checks; no API is called)."""
    with temporary_settings({PREFECT_API_URL: "http://prefect-server:4200/api"}):
        config = asyncio.run(
            KubernetesWorkerJobConfiguration.from_template_and_values(template(pool), job_variables)
        )
        config.prepare_for_flow_run(FlowRun(id=FLOW_RUN, flow_id=FLOW_RUN, name="nightly-otter"))
    return config.job_manifest


def pod_spec(workload: dict[str, Any]) -> dict[str, Any]:
    """The pod spec of a Deployment, StatefulSet, Job or CronJob."""
    spec = workload["spec"]
    return (spec["jobTemplate"]["spec"] if workload["kind"] == "CronJob" else spec)["template"][
        "spec"
    ]


def pod_specs() -> list[tuple[str, dict[str, Any]]]:
    """Every pod spec: the workloads of the manifests and the Jobs of both work pools."""
    specs = [(f"{d['kind']}/{d['metadata']['name']}", pod_spec(d)) for d in by_kind(*WORKLOADS)]
    specs += [(f"work-pool/{pool}", render_job(pool, {})["spec"]["template"]["spec"])
              for pool in POOLS]  # fmt: skip
    return specs


def env_entries(doc: Any) -> list[dict[str, Any]]:
    """Every `env` entry anywhere below ``doc``."""
    if isinstance(doc, dict):
        found = list(doc["env"]) if isinstance(doc.get("env"), list) else []
        return found + [e for v in doc.values() for e in env_entries(v)]
    if isinstance(doc, list):
        return [e for v in doc for e in env_entries(v)]
    return []


def secret_refs(doc: Any) -> list[tuple[str, str]]:
    if isinstance(doc, dict):
        ref = doc.get("secretKeyRef")
        found = [(ref["name"], ref["key"])] if ref else []
        return found + [r for v in doc.values() for r in secret_refs(v)]
    if isinstance(doc, list):
        return [r for v in doc for r in secret_refs(v)]
    return []


# --- schema ------------------------------------------------------------------------------


def test_kustomization_lists_every_manifest_but_the_secrets_example():
    listed = set(kustomization()["resources"])
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml", "secrets.example.yaml"}
    assert listed == on_disk


@pytest.mark.parametrize(
    "doc", [doc for _, doc in MANIFESTS] + EXAMPLE_SECRETS,
    ids=[f"{name}:{doc['kind']}/{doc['metadata']['name']}" for name, doc in MANIFESTS]
    + [f"secrets.example.yaml:Secret/{d['metadata']['name']}" for d in EXAMPLE_SECRETS],
)  # fmt: skip
def test_manifest_validates_against_the_kubernetes_schema(doc):
    assert kubernetes_validate.validate(doc, KUBERNETES, strict=True) == KUBERNETES


def test_the_validator_catches_a_misspelled_field_and_a_bad_quantity():
    deployment = copy.deepcopy(by_kind("Deployment")[0])
    misspelled = copy.deepcopy(deployment)
    misspelled["spec"]["replica"] = misspelled["spec"].pop("replicas")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(misspelled, KUBERNETES, strict=True)
    wrong_type = copy.deepcopy(deployment)
    wrong_type["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = "80"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(wrong_type, KUBERNETES, strict=True)


@pytest.mark.parametrize("pool", POOLS)
def test_the_prefect_server_accepts_the_base_job_template(pool):
    # the API's check of `prefect work-pool create --base-job-template`: every placeholder of
    # the job configuration is a declared variable (a server on loopback: tests/integration)
    WorkPoolCreate(name=pool, type="kubernetes", base_job_template=template(pool))
    undeclared = template(pool)
    undeclared["job_configuration"]["job_manifest"]["spec"]["suspend"] = "{{ suspended }}"
    with pytest.raises(ValueError, match="undeclared"):
        WorkPoolCreate(name=pool, type="kubernetes", base_job_template=undeclared)


@pytest.mark.parametrize(
    "deployment", DEPLOYMENTS, ids=[d["name"] for d in DEPLOYMENTS]
)  # fmt: skip
def test_flow_run_job_of_each_deployment_validates(deployment):
    pool = deployment["work_pool"]["name"]
    job = render_job(pool, deployment["work_pool"].get("job_variables") or {})
    assert kubernetes_validate.validate(as_submitted(job), KUBERNETES, strict=True) == KUBERNETES
    pod = job["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == {POOL_LABEL: pool}
    (container,) = pod["containers"]
    env = {e["name"]: e for e in container["env"]}
    # the deployment's own env (prefect.yaml) reaches the pod beside the template's
    assert env["PREFECT_LOGGING_EXTRA_LOGGERS"]["value"] == "deid"
    assert env["OMP_NUM_THREADS"]["value"] == container["resources"]["limits"]["cpu"]
    assert ("DEID_SECRET" in env) == (pool == "cpu")  # the key only where anonymize runs
    assert (GPU in container["resources"]["limits"]) == (pool == "gpu")


def test_a_deployment_can_override_the_pool_defaults():
    job = render_job("cpu", {"cpu_limit": "4", "memory_limit": "8Gi", "image": "deid:0.2.0"})
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert container["image"] == "deid:0.2.0"
    assert container["resources"]["limits"] == {"cpu": "4", "memory": "8Gi"}
    assert {"name": "OMP_NUM_THREADS", "value": "4"} in container["env"]
    kubernetes_validate.validate(as_submitted(job), KUBERNETES, strict=True)


def test_pools_differ_only_where_the_pool_does():
    cpu, gpu = (render_job(pool, {}) for pool in POOLS)
    for job in (cpu, gpu):
        pod = job["spec"]["template"]["spec"]
        for key in ("nodeSelector", "tolerations", "volumes"):
            pod.pop(key, None)
        (container,) = pod["containers"]
        container["env"] = [e for e in container["env"]
                            if e["name"] not in {"DEID_SECRET", "TMPDIR", "OMP_NUM_THREADS"}]  # fmt: skip
        for key in ("resources", "volumeMounts"):
            container.pop(key, None)
        job["spec"].pop("activeDeadlineSeconds")
    assert cpu == gpu


# --- secrets -----------------------------------------------------------------------------


def test_no_secret_is_inlined():
    assert not by_kind("Secret"), "Secrets are created apart (secrets.example.yaml)"
    pool_templates = [template(pool) for pool in POOLS]
    for entry in env_entries([doc for _, doc in MANIFESTS] + pool_templates):
        if SECRET_NAME.search(entry["name"]):
            assert "secretKeyRef" in entry.get("valueFrom", {}), entry["name"]
        # a password inside a URL comes from a secret variable, $(NAME)
        value = entry.get("value", "")
        assert not re.search(r"://[^/@\s]*:(?!\$\()[^/@\s]*@", value), entry["name"]
    for config in by_kind("ConfigMap"):
        assert not any(SECRET_NAME.search(key) for key in config["data"]), config["metadata"]
    texts = [(K8S / name).read_text(encoding="utf-8") for name in kustomization()["resources"]]
    assert not any("CHANGE-ME" in text for text in texts)


def test_every_referenced_secret_is_in_the_example_and_the_example_holds_placeholders():
    example = {(s["metadata"]["name"], key) for s in EXAMPLE_SECRETS for key in s["stringData"]}
    referenced = set(secret_refs([doc for _, doc in MANIFESTS] + [template(p) for p in POOLS]))
    assert referenced == example
    for secret in EXAMPLE_SECRETS:
        assert set(secret["stringData"].values()) == {"CHANGE-ME"}
        assert "data" not in secret


def test_the_pseudonymization_key_goes_only_where_documents_are_anonymized():
    holders = {name for name, spec in pod_specs()
               if ("deid-pseudonymization", "secret") in secret_refs(spec)}  # fmt: skip
    assert holders == {"Deployment/dask-worker", "work-pool/cpu"}


# --- workloads ---------------------------------------------------------------------------


@pytest.mark.parametrize("name_spec", pod_specs(), ids=lambda ns: ns[0])
def test_pods_run_as_non_root_without_privileges(name_spec):
    _, spec = name_spec
    pod = spec["securityContext"]
    assert pod["runAsNonRoot"] is True and pod["runAsUser"] > 0
    assert pod["seccompProfile"] == {"type": "RuntimeDefault"}
    for container in spec["containers"] + spec.get("initContainers", []):
        context = container["securityContext"]
        assert context["allowPrivilegeEscalation"] is False
        assert context["capabilities"]["drop"] == ["ALL"]


@pytest.mark.parametrize("name_spec", pod_specs(), ids=lambda ns: ns[0])
def test_pods_have_resources_and_a_pool(name_spec):
    name, spec = name_spec
    pool = spec["nodeSelector"][POOL_LABEL]
    assert pool in POOLS
    for container in spec["containers"]:
        resources = container["resources"]
        for part in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(resources[part]), (name, part)
        assert (GPU in resources["limits"]) == (pool == "gpu"), name
    tolerates_gpu = any(t.get("key") == GPU for t in spec.get("tolerations", []))
    assert tolerates_gpu == (pool == "gpu"), name


@pytest.mark.parametrize(
    "doc", by_kind("Deployment", "StatefulSet"), ids=lambda d: d["metadata"]["name"]
)  # fmt: skip
def test_long_running_containers_have_probes(doc):
    for container in doc["spec"]["template"]["spec"]["containers"]:
        assert {"readinessProbe", "livenessProbe"} <= set(container), container["name"]


def test_every_workload_runs_in_the_deid_namespace():
    for _, doc in MANIFESTS:
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == "deid", doc["metadata"]["name"]
    for pool in POOLS:
        assert render_job(pool, {})["metadata"]["namespace"] == "deid"


# --- pools, services, endpoints ------------------------------------------------------------


def test_work_pools_are_the_ones_prefect_yaml_deploys_to():
    deployed = {d["work_pool"]["name"] for d in DEPLOYMENTS}
    templates = {p.stem for p in (K8S / "work-pools").glob("*.json")}
    worker_args = [d["spec"]["template"]["spec"]["containers"][0]["args"] for d in by_kind("Deployment")
                   if d["metadata"]["name"].startswith("prefect-worker")]  # fmt: skip
    workers = {args[args.index("--pool") + 1] for args in worker_args}
    (setup,) = [d for d in by_kind("Job") if d["metadata"]["name"] == "prefect-setup"]
    script = " ".join(setup["spec"]["template"]["spec"]["containers"][0]["args"])
    assert deployed == templates == workers == set(POOLS)
    assert f"for pool in {' '.join(POOLS)}; do" in script
    assert "infra/k8s/work-pools/$pool.json" in script and "deploy --all" in script
    retrain = next(d for d in DEPLOYMENTS if d["name"] == "retrain")
    assert retrain["work_pool"]["name"] == "gpu"


def _pod_labels_and_ports() -> list[tuple[dict[str, str], dict[str, int]]]:
    out = []
    for doc in by_kind("Deployment", "StatefulSet"):
        ports = {p["name"]: p["containerPort"] for c in doc["spec"]["template"]["spec"]["containers"]
                 for p in c.get("ports", [])}  # fmt: skip
        out.append((doc["spec"]["template"]["metadata"]["labels"], ports))
    return out


def services() -> dict[str, set[int]]:
    """Service name → ports, for services whose selector finds pods with the named ports."""
    found: dict[str, set[int]] = {}
    pods = _pod_labels_and_ports()
    for service in by_kind("Service"):
        selector = service["spec"]["selector"]
        (ports,) = [p for labels, p in pods if selector.items() <= labels.items()]
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ports, (service["metadata"]["name"], port)
        found[service["metadata"]["name"]] = {p["port"] for p in service["spec"]["ports"]}
    return found


def test_every_service_selects_one_workload_with_its_ports_and_every_endpoint_is_a_service():
    known = services()
    (config,) = [c for c in by_kind("ConfigMap") if c["metadata"]["name"] == "deid-config"]
    urls = [v for v in config["data"].values() if "://" in v and not v.startswith("s3://")]
    dask_worker = next(d for d in by_kind("Deployment") if d["metadata"]["name"] == "dask-worker")
    urls += [
        a for a in dask_worker["spec"]["template"]["spec"]["containers"][0]["args"] if "://" in a
    ]
    assert urls
    for url in urls:
        host, port = re.match(r"\w+://([\w.-]+):(\d+)", url).groups()
        assert int(port) in known[host], url


def test_postgres_creates_the_databases_that_compose_creates():
    (init,) = [c for c in by_kind("ConfigMap") if c["metadata"]["name"] == "postgres-init"]
    assert init["data"]["init.sql"] == (ROOT / "infra" / "postgres" / "init.sql").read_text()


def test_the_image_is_one_tag_everywhere_and_its_dockerfile_installs_the_worker():
    images = {c["image"] for spec in (pod_spec(d) for d in by_kind(*WORKLOADS))
              for c in spec["containers"] if c["image"].startswith("deid:")}  # fmt: skip
    images |= {template(pool)["variables"]["properties"]["image"]["default"] for pool in POOLS}
    assert len(images) == 1
    dockerfile = (ROOT / "infra" / "deid.Dockerfile").read_text(encoding="utf-8")
    assert "-e '.[k8s]'" in dockerfile
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^k8s = \[\n  "prefect-kubernetes==', pyproject, re.MULTILINE)
    entrypoint = re.search(r'ENTRYPOINT \["(/opt/deid/)([^"]+)"\]', dockerfile).group(2)
    assert (ROOT / entrypoint).stat().st_mode & 0o111
    user = re.search(r"^USER (\d+):(\d+)$", dockerfile, re.MULTILINE).groups()
    for name, spec in pod_specs():
        if any(c["image"] in images for c in spec["containers"]):
            context = spec["securityContext"]
            assert (str(context["runAsUser"]), str(context["runAsGroup"])) == user, name


def test_work_cleanup_removes_only_what_is_old(tmp_path):
    """The CronJob's own script on a real folder: a run folder untouched for 8 days goes, one
    with a result written yesterday stays (a re-run resumes from it), so do fresh downloads."""
    (cron,) = by_kind("CronJob")
    (container,) = pod_spec(cron)["containers"]
    script = container["args"][0].replace("/opt/deid/data/work", str(tmp_path))
    day = 86400
    now = time.time()
    old_run, active_run = tmp_path / "anonymize" / "aaa", tmp_path / "anonymize" / "bbb"
    old_model, new_model = tmp_path / "tmp" / "tmpold", tmp_path / "tmp" / "tmpnew"
    for folder in (old_run / "results", active_run / "results", old_model, new_model):
        folder.mkdir(parents=True)
        (folder / "file.jsonl").write_text("{}\n")
    for path in [*old_run.rglob("*"), old_run, *active_run.rglob("*"), active_run]:
        os.utime(path, (now - 8 * day, now - 8 * day))
    os.utime(active_run / "results" / "file.jsonl", (now - day, now - day))
    for path in (old_model / "file.jsonl", old_model):
        os.utime(path, (now - 3 * day, now - 3 * day))
    subprocess.run([*container["command"], script], check=True, timeout=30)
    assert not old_run.exists() and active_run.exists()
    assert not old_model.exists() and new_model.exists()
