"""params.yaml: reading it and checking the keys of its sections. Every reader of a section
checks that section's keys here, so a misspelt key is an error naming the closest valid one
instead of a silent fall back to a default. Imports only PyYAML: stages that must not reach
the model stack (validate, reviews, ingest) use it too."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

import yaml

DEFAULT_PARAMS = Path("params.yaml")


def load_params(path: str | Path = DEFAULT_PARAMS) -> dict[str, Any]:
    """The whole params file as a mapping (empty file: empty mapping)."""
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    if not isinstance(data, dict):
        raise TypeError(f"{path}: the params file must be a mapping")
    return data


def section(data: Any, name: str) -> dict[str, Any]:
    """A mapping of params.yaml (empty when absent), checked to be one."""
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise TypeError(f"params.yaml: '{name}' must be a mapping")
    return dict(data)


def field_names(cls: type) -> set[str]:
    """The keys a config dataclass accepts."""
    return {f.name for f in fields(cls)}


def check_keys(
    name: str,
    data: Mapping[str, Any],
    allowed: Iterable[str],
    *,
    set_elsewhere: Mapping[str, str] | None = None,
    where: str = "params.yaml",
) -> None:
    """Raise on keys of section ``name`` that nothing reads, naming each with the closest
    allowed key (never a value: values may be sensitive). ``set_elsewhere`` maps a full key
    to the key that sets it instead; ``where`` names the source of the keys in the message
    (a chain may come from a pipeline.json as well)."""
    allowed = set(allowed)
    set_elsewhere = set_elsewhere or {}
    prefix = f"{name}." if name else ""
    moved = {k[len(prefix):] for k in set_elsewhere if k.startswith(prefix) and "." not in k[len(prefix):]}
    choices = sorted((allowed - moved) | moved)
    problems = []
    for key in sorted(map(str, data)):
        full = f"{prefix}{key}"
        if full in set_elsewhere:
            problems.append(f"key '{full}' is set by {set_elsewhere[full]}")
        elif key not in allowed:
            close = difflib.get_close_matches(key, choices, n=1)
            where_set = set_elsewhere.get(f"{prefix}{close[0]}") if close else None
            hint = f" (did you mean '{close[0]}'?" + (f" it is set by {where_set})" if where_set else ")") if close else ""
            problems.append(f"unknown key '{full}'{hint}")
    if problems:
        raise ValueError(f"{where}: " + "; ".join(problems))
