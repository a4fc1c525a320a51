"""The pipeline a service runs, where it came from, and what the registry holds.

One pipeline is loaded at start (``deid.anonymizer.pipeline.build_pipeline``; the same construction
path as ``deid anonymize``) and analyses run one at a time: the CPU is shared anyway, and no
layer of the pipeline has to be safe for concurrent use. Requests wait for the lock within
their time limit; the pipeline's time limit for a service's analysis (``max_seconds``, set
to the request timeout; a batch is never timed) ends an analysis whose request gave up.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from deid.anonymizer.budget import Deadline
from deid.anonymizer.pipeline import Pipeline
from deid.app.service.limits import service_overrides
from deid.ops.lineage import Lineage, for_input, run_lineage
from deid.ops.model_store import ModelSource
from deid.schema import Span
from deid.sources.errors import UserError

logger = logging.getLogger(__name__)


class ServedModel:
    """A loaded pipeline with its lineage, analysing one text at a time."""

    def __init__(
        self, pipeline: Pipeline, source: ModelSource | None, overrides: dict[str, Any] | None = None
    ) -> None:
        self.pipeline = pipeline
        self.source = source
        self.overrides = dict(overrides or {})
        self.lineage: Lineage = run_lineage(source, pipeline.config.to_dict(), overrides, runtime=pipeline.runtime())
        self._lock = threading.Lock()
        self._profiles: dict[str, tuple[Pipeline, Lineage]] = {}

    @property
    def profile(self) -> str | None:
        """The anonymization profile the served pipeline was evaluated with (None: saved
        before profiles; a request cannot choose one then)."""
        return self.pipeline.config.profile

    def under(self, profile: str | None) -> tuple[Pipeline, Lineage]:
        """The served pipeline and lineage under ``profile`` (None: its own): the same
        classifier with another policy step, its lineage naming the profile among the
        overrides. An unknown profile, or one asked of a pipeline without a policy step,
        raises :class:`deid.anonymizer.profiles.ProfileError`."""
        if profile is None or profile == self.profile:
            return self.pipeline, self.lineage
        if profile not in self._profiles:
            pipeline = self.pipeline.with_overrides(profile=profile)
            overrides = self.overrides | {"profile": profile}
            lineage = run_lineage(self.source, pipeline.config.to_dict(), overrides, runtime=pipeline.runtime())
            self._profiles[profile] = (pipeline, lineage)
        return self._profiles[profile]

    @staticmethod
    def budget_overrides(pipeline_config: Any, timeout: float) -> dict[str, float]:
        """Settings for ``build_pipeline``: an analysis stops by itself once its request's
        time is up (checked between the pipeline's layers), and a document has at most
        ``deid.app.service.limits.SERVICE_MAX_TOKENS`` tokens (its memory)."""
        limit = pipeline_config.max_seconds
        timed = {"max_seconds": float(timeout)} if timeout and (not limit or timeout < limit) else {}
        return timed | service_overrides(pipeline_config)  # and a document's tokens capped

    def analyze(self, text: str, deadline: Deadline | None = None, profile: str | None = None) -> list[Span]:
        """The pipeline's spans (under ``profile``, default its own); ``deadline``: one that
        reports progress or stops a cancelled analysis (:class:`deid.app.service.progress.
        Progress`), else the pipeline's budget."""
        pipeline, _ = self.under(profile)
        with self._lock:
            return pipeline.analyze(text, deadline or Deadline(pipeline.config.max_seconds))

    @property
    def rules_only(self) -> bool:
        return not self.pipeline.config.use_model

    def info(self) -> dict[str, Any]:
        """The model in use: URI, name, version, alias, the pipeline's settings hash."""
        return {**self.lineage.model, "pipeline_sha256": self.lineage.pipeline_sha256,
                "rules_only": self.rules_only, "operator": self.pipeline.config.operator,
                "profile": self.profile}  # fmt: skip

    def lineage_for(self, text: str, profile: str | None = None) -> dict[str, Any]:
        return for_input(self.under(profile)[1], text)

    def registry(self) -> dict[str, Any]:
        """Registered versions and aliases of the tracking store (``$MLFLOW_TRACKING_URI``,
        else ``sqlite:///mlflow.db``); a store that is missing or down is reported, not raised."""
        from deid.ops.mlflow_registry import MODEL_NAME, list_versions

        try:
            versions = list_versions()
        except UserError as exc:
            return {"name": MODEL_NAME, "versions": [], "aliases": {}, "error": str(exc).splitlines()[0]}
        aliases = {alias: v.version for v in versions for alias in v.aliases}
        rows = [{"version": v.version, "aliases": list(v.aliases), "created": v.created,
                 "gate": v.tags.get("gate.decision")} for v in versions]  # fmt: skip
        return {"name": MODEL_NAME, "versions": rows, "aliases": aliases}

