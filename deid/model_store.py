"""Where a pipeline comes from: a local directory, or an MLflow model URI
(``models:/deid-ner@champion``, ``runs:/<id>/model``) downloaded to a local cache."""

from __future__ import annotations

from pathlib import Path

PIPELINE_ARTIFACT = "pipeline"  # the artifact key of the pipeline directory in a logged pyfunc model


def resolve_model(uri_or_path: str | Path) -> Path:
    """A local pipeline directory for a path or an MLflow model URI."""
    text = str(uri_or_path)
    if "://" not in text and not text.startswith(("models:/", "runs:/")):
        path = Path(text)
        if not path.exists():
            raise FileNotFoundError(f"no pipeline directory at {path}")
        return path
    import mlflow

    local = Path(mlflow.artifacts.download_artifacts(artifact_uri=text))
    # MLflow stores an artifact directory under artifacts/<its source basename>, not under its
    # key: the MLmodel file says where the ``pipeline`` artifact went
    candidates = [p for p in (_pyfunc_artifact(local, PIPELINE_ARTIFACT),) if p is not None]
    candidates += [local / "artifacts" / PIPELINE_ARTIFACT, local / PIPELINE_ARTIFACT, local]
    for candidate in candidates:
        if (candidate / "pipeline.json").exists():
            return candidate
    raise FileNotFoundError(f"{text}: no deid pipeline inside the downloaded model")


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
