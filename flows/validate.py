"""Flow ``validate``: the data gate on its own — pin the corpus version, build the corpus,
detect placeholders, run the Great Expectations suites. Fails with a readable report (artifact
``data-validation``) and the Data Docs path when a suite fails."""

from __future__ import annotations

from typing import Any

from prefect import flow

from flows._common import Durations, run_cli
from flows.data import SOURCES, build_corpus, detect_placeholders, pin_corpus, validate_data


@flow(name="validate", log_prints=False)
def validate(
    project_dir: str = ".",
    params_path: str = "params.yaml",
    rev: str | None = None,
    sources: str | None = SOURCES,
) -> dict[str, Any]:
    """Validate the corpus version at ``rev`` (default: the one the checkout records)."""
    durations = Durations()
    with durations.step("pin corpus"):
        corpus = pin_corpus(project_dir, rev, sources)
    with durations.step("build corpus"):
        splits = build_corpus(project_dir, params_path)
    with durations.step("detect placeholders"):
        detect_placeholders(project_dir)
    with durations.step("validate"):
        checks = validate_data(project_dir, params_path)
    return {"corpus": corpus, "splits": splits, "checks": checks, "seconds": durations.steps}


if __name__ == "__main__":
    run_cli(validate)
