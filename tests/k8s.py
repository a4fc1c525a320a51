"""What the tests of infra/k8s share: the Kubernetes release the manifests are validated
against, where they are, and the Job as the API server would keep it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import ROOT

KUBERNETES = "1.35"  # the release the manifests are written for (and validated against)
K8S = ROOT / "infra" / "k8s"
POOLS = ("cpu", "gpu")
POOL_LABEL = "deid/pool"


def load_yaml_documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def template(pool: str) -> dict[str, Any]:
    """The base job template of a work pool (infra/k8s/work-pools/<pool>.json)."""
    return json.loads((K8S / "work-pools" / f"{pool}.json").read_text(encoding="utf-8"))


def as_submitted(job: dict[str, Any]) -> dict[str, Any]:
    """The Job as the API server keeps it: prefect-kubernetes insists on `parallelism` and
    `completions` inside the pod spec (its shape check), where they are no pod field, so the
    server drops them with a warning; they are the Job's own defaults (1) anyway."""
    job = copy.deepcopy(job)
    pod = job["spec"]["template"]["spec"]
    assert pod.pop("parallelism") == 1 and pod.pop("completions") == 1
    return job
