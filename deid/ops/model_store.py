"""Where a pipeline comes from: a local directory, or an MLflow model URI
(``models:/deid-ner@champion``, ``runs:/<id>/model``) downloaded to a local cache."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deid.ops import mlflow_registry as registry
from deid.ops.mlflow_registry import PIPELINE_ARTIFACT
from deid.sources.errors import UserError

logger = logging.getLogger(__name__)

class ModelNotFound(UserError, FileNotFoundError):
    """No pipeline at the path, or no such model, version or alias in the tracking store."""


@dataclass(frozen=True)
class ModelSource:
    """A local pipeline directory and where it came from: the URI asked for and, for a
    registry URI, the model name, the version it resolved to and the alias it was asked by."""

    dir: Path
    uri: str
    name: str | None = None
    version: str | None = None
    alias: str | None = None
    # who vouched for a champion (deid.ops.vetting.summary: gate or override, when, who)
    vetting: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"uri": self.uri, "name": self.name, "version": self.version, "alias": self.alias}
        return out | ({"vetting": dict(self.vetting)} if self.vetting else {})


def is_model_uri(text: str) -> bool:
    return "://" in text or text.startswith(("models:/", "runs:/"))


def resolve_source(uri_or_path: str | Path) -> ModelSource:
    """Like :func:`resolve_model`, and says which registered version it is. An alias
    (``models:/deid-ner@champion``) is resolved to its version first and that version is
    downloaded, so the version recorded is the one that runs even if the alias moves. A
    champion runs only with a vetting that verifies for the downloaded files
    (``deid.ops.vetting.check_vetted``: the gate's or a recorded override's signature);
    else :class:`deid.ops.vetting.NotVetted` says why."""
    text = str(uri_or_path)
    if not text.startswith("models:/"):
        return ModelSource(resolve_model(text), text)
    name, alias, version = _parse_models_uri(text)
    mv = None
    if alias is not None:
        import mlflow
        from mlflow.exceptions import MlflowException

        client = registry.get_client(mlflow.get_tracking_uri())
        try:
            mv = client.get_model_version_by_alias(name, alias)
        except MlflowException as exc:
            raise ModelNotFound(
                f"{text}: {_first_line(exc)} (tracking store {mlflow.get_tracking_uri()})"
            ) from None
        version = str(mv.version)
    pinned = f"models:/{name}/{version}" if version is not None else text
    local = resolve_model(pinned)
    checked = None
    if alias == registry.CHAMPION and mv is not None:
        from deid.ops.vetting import check_vetted

        checked = check_vetted(mv, local)
        logger.info("%s: version %s, vetted by %s", text, version, checked["kind"])
    return ModelSource(local, text, name, version, alias, checked)


def _parse_models_uri(text: str) -> tuple[str, str | None, str | None]:
    """``models:/name@alias`` → (name, alias, None); ``models:/name/3`` → (name, None, "3")."""
    rest = text.removeprefix("models:/")
    name, at, alias = rest.partition("@")
    if at:
        return name, alias, None
    head, _, tail = rest.rpartition("/")
    return (head, None, tail) if head and tail.isdigit() else (rest, None, None)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def resolve_model(uri_or_path: str | Path) -> Path:
    """A local pipeline directory for a path or an MLflow model URI. The tracking store is
    checked first (``registry.check_tracking_uri``: a missing sqlite file or a server that is
    down is reported at once); a model, version or alias that is not there raises
    :class:`ModelNotFound`."""
    text = str(uri_or_path)
    if not is_model_uri(text):
        path = Path(text)
        if not path.exists():
            raise ModelNotFound(f"no pipeline directory at {path}")
        return path
    import mlflow
    from mlflow.exceptions import MlflowException

    registry.check_tracking_uri(mlflow.get_tracking_uri())
    try:
        local = Path(mlflow.artifacts.download_artifacts(artifact_uri=text))
    except MlflowException as exc:
        raise ModelNotFound(
            f"{text}: {_first_line(exc)} (tracking store {mlflow.get_tracking_uri()})"
        ) from None
    # MLflow stores an artifact directory under artifacts/<its source basename>, not under its
    # key: the MLmodel file says where the ``pipeline`` artifact went
    candidates = [p for p in (_pyfunc_artifact(local, PIPELINE_ARTIFACT),) if p is not None]
    candidates += [local / "artifacts" / PIPELINE_ARTIFACT, local / PIPELINE_ARTIFACT, local]
    for candidate in candidates:
        if (candidate / "pipeline.json").exists():
            return candidate
    raise ModelNotFound(f"{text}: no deid pipeline inside the downloaded model")


def _pyfunc_artifact(model_dir: Path, key: str) -> Path | None:
    """The local directory of a pyfunc artifact according to the model's MLmodel file."""
    mlmodel = model_dir / "MLmodel"
    if not mlmodel.exists():
        return None
    import yaml

    conf = yaml.safe_load(mlmodel.read_text(encoding="utf-8")) or {}
    entry = ((conf.get("flavors") or {}).get("python_function") or {}).get("artifacts", {}).get(key)
    if not isinstance(entry, dict) or not entry.get("path"):
        return None
    return model_dir / entry["path"]
