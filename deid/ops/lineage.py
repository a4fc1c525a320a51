"""What made an anonymized record, written into the record itself, so any published decision
can be traced back: the model (URI, registered name, version and the alias it was asked by),
the pipeline's settings (sha256 of its ``pipeline.json``), the versions of deid and of the
libraries that decide the output, the git commit of the code that ran, what ran the model
(device, engine and precision: bf16 or fp32 is chosen by the machine's hardware, so it is
recorded where the record was made), and the sha256 of the input text. Hashes and versions
only: a lineage never holds text.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from deid.ops.model_store import ModelSource

CODE_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Lineage:
    """The part of a record's lineage shared by a whole run (everything but the input)."""

    model: dict[str, str | None]
    pipeline_sha256: str
    components: dict[str, str] = field(default_factory=dict)
    git_commit: str = "unknown"
    overrides: dict[str, Any] = field(default_factory=dict)  # settings changed for this run
    runtime: dict[str, Any] = field(default_factory=dict)  # what ran the model (Pipeline.runtime)

    def to_dict(self) -> dict[str, Any]:
        out = {"model": dict(self.model), "pipeline_sha256": self.pipeline_sha256,
               "components": dict(self.components), "git_commit": self.git_commit}  # fmt: skip
        out |= {"overrides": dict(self.overrides)} if self.overrides else {}
        return with_runtime(out, self.runtime)


def run_lineage(
    source: ModelSource | None,
    pipeline_config: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
    runtime: dict[str, Any] | None = None,
) -> Lineage:
    """The lineage of a run with the pipeline at ``source`` (None: rules only, described by
    ``pipeline_config``, the settings it runs with), the settings ``overrides`` the run
    applied on top of its ``pipeline.json`` (e.g. a threshold) and, where the model runs in
    this process, its ``runtime`` (``Pipeline.runtime``)."""
    if source is not None and (source.dir / "pipeline.json").exists():
        digest = hashlib.sha256((source.dir / "pipeline.json").read_bytes()).hexdigest()
    else:
        text = json.dumps(pipeline_config or {}, sort_keys=True, default=str)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    model = source.to_dict() if source is not None else {"uri": None, "name": None,
                                                         "version": None, "alias": None}  # fmt: skip
    return Lineage(model, digest, components(), code_commit(), dict(overrides or {}), dict(runtime or {}))


def with_runtime(lineage: dict[str, Any], runtime: dict[str, Any]) -> dict[str, Any]:
    """A run's lineage with what ran the model in the process that made the records (a Dask
    worker may have other hardware than the flow that planned the run); rules only: as it is."""
    return {**lineage, "runtime": dict(runtime)} if runtime else dict(lineage)


def for_input(lineage: Lineage | dict[str, Any], text: str) -> dict[str, Any]:
    """The record's lineage: the run's plus the sha256 of the input text (UTF-8)."""
    shared = lineage.to_dict() if isinstance(lineage, Lineage) else dict(lineage)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return {**shared, "input_sha256": digest}


@lru_cache(maxsize=1)
def components() -> dict[str, str]:
    """deid's version and those of the libraries the served model pins
    (``registry.REQUIREMENTS``): what else decides the output besides weights and settings."""
    from deid.ops.mlflow_registry import REQUIREMENTS

    out = {}
    for name in ("deid", *REQUIREMENTS):
        try:
            out[name] = package_version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


@lru_cache(maxsize=1)
def code_commit() -> str:
    """The git commit of the running deid code, with ``-dirty`` when tracked files differ
    from it; ``unknown`` outside a git checkout (an installed package)."""
    from deid.ops.mlflow_registry import git_state

    commit, dirty = git_state(CODE_ROOT)
    return f"{commit}-dirty" if dirty is True else commit
