"""Where a pipeline comes from: a local directory, or an MLflow model URI
(``models:/deid-ner@champion``, ``runs:/<id>/model``) downloaded to a local cache."""

from __future__ import annotations

from pathlib import Path

PIPELINE_ARTIFACT = "pipeline"  # the artifact directory inside a logged pyfunc model


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
    # a pyfunc model keeps the pipeline under artifacts/<PIPELINE_ARTIFACT>
    for candidate in (local / "artifacts" / PIPELINE_ARTIFACT, local / PIPELINE_ARTIFACT, local):
        if (candidate / "pipeline.json").exists():
            return candidate
    raise FileNotFoundError(f"{text}: no deid pipeline inside the downloaded model")
