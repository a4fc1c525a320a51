"""DVC stage scripts: one module per stage of ``dvc.yaml``.

Each ``main(argv)`` parses its paths from argv (never hard-coded), reads its section of the
params file, calls ``deid`` and writes the outs, metrics and plots ``dvc.yaml`` declares.
Stage commands call ``python``: run the pipeline with the project environment first on PATH
(``deid data repro`` does that, or activate ``.venv``). Logs and metrics carry counts, ids
and scores only, never document text.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

logger = logging.getLogger("pipelines")


def parser(doc: str | None, *paths: str) -> argparse.ArgumentParser:
    """An argument parser with one required ``--<name>`` path option per name in ``paths``."""
    p = argparse.ArgumentParser(description=(doc or "").strip().splitlines()[0])
    for name in paths:
        p.add_argument(f"--{name}", required=True, type=Path)
    return p


def setup_logging() -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )


def read_params(path: Path, name: str, keys: Iterable[str]) -> dict[str, Any]:
    """One section of the params file (``dvc.yaml`` lists the keys a stage depends on); a key
    outside ``keys`` (the ones the stage reads) is an error naming the closest one."""
    from deid.sources.params import check_keys, load_params, section

    params = load_params(path)
    if name not in params:
        raise SystemExit(f"{path}: no '{name}' section")
    data = section(params[name], name)
    check_keys(name, data, keys)
    return data


def write_json(path: Path, data: Any) -> None:
    """Metrics and plots: stable key order, written atomically."""
    from deid.sources.io import write_text_atomic

    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def label_counts(labels: Iterable[str]) -> dict[str, int]:
    return dict(sorted(Counter(labels).items()))


def fail_above(what: str, count: int, limit: int) -> None:
    """End the stage (non-zero exit) when ``count`` bad documents exceed ``limit``."""
    if count > limit:
        raise SystemExit(f"{count} {what}, more than the allowed {limit}")
