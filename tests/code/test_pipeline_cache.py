"""deid.anonymizer.pipeline.cached_pipeline: a saved pipeline loaded once per process (the anonymize
flow's chunk tasks on one Dask worker share it), loaded again when its settings change."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from deid.anonymizer.pipeline import PIPELINE_FILE, Pipeline, PipelineConfig, cached_pipeline


def _save(directory: Path, **settings) -> Path:
    Pipeline(None, replace(PipelineConfig.rules_only(), **settings)).save(directory)
    return directory


def test_loaded_once_per_directory_and_again_when_its_settings_change(tmp_path: Path) -> None:
    saved = _save(tmp_path / "rules", operator="mask")
    first, loaded = cached_pipeline(saved)
    again, loaded_again = cached_pipeline(f"{saved}/../rules")  # the same directory
    assert (loaded, loaded_again) == (True, False) and again is first
    config = json.loads((saved / PIPELINE_FILE).read_text(encoding="utf-8"))
    (saved / PIPELINE_FILE).write_text(json.dumps(config | {"operator": "remove"}), encoding="utf-8")
    changed, loaded_changed = cached_pipeline(saved)
    assert loaded_changed and changed is not first and changed.config.operator == "remove"


def test_two_pipelines_stay_loaded_side_by_side(tmp_path: Path) -> None:
    """A challenger and a champion evaluated slice by slice: neither is loaded per slice."""
    a, b, c = (_save(tmp_path / name) for name in "abc")
    assert cached_pipeline(a)[1] and cached_pipeline(b)[1]
    assert not cached_pipeline(a)[1] and not cached_pipeline(b)[1]
    assert cached_pipeline(c)[1]  # a third one replaces the least recently used (a)
    assert not cached_pipeline(b)[1] and cached_pipeline(a)[1]
