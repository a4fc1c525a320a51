"""The promotion gate: may a registered challenger replace the champion?

Recall first: an anonymizer that misses names leaks them, one that over-anonymizes only
costs readability. So the floors are on recall (overall and per type, e.g. PERSON) before
precision, and a challenger must not be worse than the current champion beyond a tolerance on
the compared metrics. ``decide`` is pure; ``run_gate`` records the decision on the model
version and moves the ``champion`` alias only when it passed, keeping the old champion as
``previous-champion`` so ``rollback`` is one call. Reviewers use ``promote``/``rollback``
with a required reason; who/when/why become tags.

Metric names are those ``deid.registry.headline_metrics`` logs: ``eval.<set>.recall``,
``eval.<set>.precision``, ``eval.<set>.f2``, ``eval.<set>.recall.PERSON`` …
"""

from __future__ import annotations

import getpass
import logging
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from deid import registry

logger = logging.getLogger(__name__)

REASON_LIMIT = 500  # a reason is a sentence, not a document
_FLOORABLE = re.compile(r"recall|precision|f2|recall\.[A-Z_]+")


@dataclass(frozen=True)
class GateConfig:
    """Floors and comparison rules (``params.yaml`` → ``gate:``)."""

    gold_sets: tuple[str, ...] = ("ler", "bavaria")
    min_recall: float = 0.9
    min_precision: float = 0.5
    min_type_recall: Mapping[str, float] = field(
        default_factory=lambda: {"PERSON": 0.9, "LOCATION": 0.85}
    )
    tolerance: float = 0.01
    compare: tuple[str, ...] = ("recall", "f2", "recall.PERSON")
    # Per gold set, floors that differ from the ones above: metric ("recall", "precision",
    # "recall.LOCATION") → floor, or None to report the metric (and compare it with the
    # champion) without a floor. For a set annotated by other conventions than the training
    # decisions follow, where a floor measures the conventions rather than the model.
    set_floors: Mapping[str, Mapping[str, float | None]] = field(default_factory=dict)

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> GateConfig:
        data = dict(params.get("gate") or {})
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown gate settings {sorted(unknown)}")
        if "gold_sets" in data:
            data["gold_sets"] = tuple(registry.check_set_name(s) for s in data["gold_sets"])
        if "compare" in data:
            data["compare"] = tuple(data["compare"])
        if "min_type_recall" in data:
            data["min_type_recall"] = {
                str(k): float(v) for k, v in (data["min_type_recall"] or {}).items()
            }
        if "set_floors" in data:
            data["set_floors"] = {
                registry.check_set_name(gold): {
                    str(m): None if v is None else float(v) for m, v in (floors or {}).items()
                }
                for gold, floors in (data["set_floors"] or {}).items()
            }
        cfg = cls(**data)
        for gold, floors in cfg.set_floors.items():
            bad = sorted(m for m in floors if not _FLOORABLE.fullmatch(m))
            if gold not in cfg.gold_sets or bad:
                raise ValueError(
                    f"gate.set_floors.{gold}: needs a counted gold set and metrics recall, "
                    f"precision, f2 or recall.<TYPE> (not {bad})"
                )
        return cfg


def load_gate_config(path: str | Path = "params.yaml") -> GateConfig:
    from deid.settings import load_params

    return GateConfig.from_params(load_params(path))


@dataclass(frozen=True)
class GateRow:
    """One checked metric: challenger against its floor and against the champion."""

    metric: str
    floor: float | None
    champion: float | None
    challenger: float | None
    ok: bool
    note: str = ""


@dataclass(frozen=True)
class GateDecision:
    promote: bool
    reasons: tuple[str, ...]
    rows: tuple[GateRow, ...]
    version: str | None = None  # set by run_gate: the gated version and the champion it faced
    champion_version: str | None = None

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)

    @property
    def label(self) -> str:
        return "promote" if self.promote else "reject"


def decide(
    challenger: Mapping[str, float], champion: Mapping[str, float] | None, cfg: GateConfig
) -> GateDecision:
    """Check every counted gold set: overall recall and precision and each type's recall
    against their floors (the set's own where ``set_floors`` names one), the ``compare``
    metrics against the champion (if there is one).
    A missing overall metric fails (the set was not evaluated); a missing type recall is
    fine (that type has no gold span in the set); a NaN always fails."""
    rows: list[GateRow] = []
    common = dict(_checks(cfg))  # metric → floor, in report order
    for gold in cfg.gold_sets:
        floors = common | cfg.set_floors.get(gold, {})
        for metric, floor in floors.items():
            rows.append(_row(f"eval.{gold}.{metric}", metric, floor, challenger, champion, cfg))
    failures = tuple(r.note for r in rows if not r.ok)
    if failures:
        return GateDecision(False, failures, tuple(rows))
    if champion is None:
        why = "passed all floors; no champion yet (first model)"
    else:
        why = (
            f"passed all floors and not worse than the champion beyond tolerance {cfg.tolerance:g}"
        )
    return GateDecision(True, (why,), tuple(rows))


def _checks(cfg: GateConfig) -> list[tuple[str, float | None]]:
    """Metrics in report order, recall first; ``compare``-only metrics have no floor."""
    checks: list[tuple[str, float | None]] = [
        ("recall", cfg.min_recall),
        ("precision", cfg.min_precision),
    ]
    checks += [(f"recall.{label}", float(v)) for label, v in cfg.min_type_recall.items()]
    checks += [(m, None) for m in cfg.compare if m not in {name for name, _ in checks}]
    return checks


def _row(
    key: str,
    metric: str,
    floor: float | None,
    challenger: Mapping[str, float],
    champion: Mapping[str, float] | None,
    cfg: GateConfig,
) -> GateRow:
    value = challenger.get(key)
    best = champion.get(key) if champion is not None else None
    if value is None:
        if metric.startswith("recall."):
            return GateRow(key, floor, best, None, True, f"{key}: type not in this gold set")
        return GateRow(
            key, floor, best, None, False, f"{key}: no challenger value (gold set not evaluated)"
        )
    if not math.isfinite(value):
        return GateRow(key, floor, best, value, False, f"{key}: challenger value is not a number")
    problems = []
    if floor is not None and value < floor:
        problems.append(f"{key} {value:.4f} below floor {floor:.4f}")
    if (
        metric in cfg.compare
        and best is not None
        and math.isfinite(best)
        and value < best - cfg.tolerance
    ):
        problems.append(
            f"{key} {value:.4f} worse than champion {best:.4f} beyond tolerance {cfg.tolerance:g}"
        )
    return GateRow(key, floor, best, value, not problems, "; ".join(problems))


def render_markdown(decision: GateDecision, *, model_name: str = registry.MODEL_NAME) -> str:
    """The decision as Markdown (a Prefect artifact, the model version's description)."""
    who = f"{model_name} v{decision.version}" if decision.version is not None else model_name
    against = (
        f"champion v{decision.champion_version}" if decision.champion_version else "no champion"
    )
    lines = [
        f"### Gate: {decision.label} {who} (against {against})",
        "",
        "| metric | floor | champion | challenger | ok |",
        "|---|---|---|---|---|",
    ]
    for r in decision.rows:
        floor = f"≥ {r.floor:.4f}" if r.floor is not None else "—"
        ok = "**no**" if not r.ok else ("n/a" if r.challenger is None else "yes")
        lines.append(f"| {r.metric} | {floor} | {_num(r.champion)} | {_num(r.challenger)} | {ok} |")
    lines += ["", "**Reasons**", ""] + [f"- {reason}" for reason in decision.reasons]
    return "\n".join(lines) + "\n"


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


# --- registry effects ----------------------------------------------------------------------


def run_gate(
    version: str | int,
    evaluations: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    champion_evaluations: Mapping[str, Mapping[str, Any]] | None = None,
    cfg: GateConfig | None = None,
    params_path: str | Path = "params.yaml",
    tracking_uri: str | None = None,
    model_name: str = registry.MODEL_NAME,
) -> GateDecision:
    """Gate one registered version. Challenger metrics come from ``evaluations`` (then also
    logged to the version's run) or from its run; the champion's from ``champion_evaluations``
    or its run. Writes the decision, the side-by-side table and the reason to the version
    (description and ``gate.*`` tags) and moves ``champion`` only when it passed."""
    client = registry.get_client(tracking_uri)
    cfg = cfg or load_gate_config(params_path)
    version = str(version)
    mv = client.get_model_version(model_name, version)
    if evaluations:
        metrics = registry.headline_metrics(evaluations)
        _log_to_run(client, mv.run_id, metrics, evaluations)
    else:
        metrics = registry.version_metrics(client, mv)
    champion = registry.alias_version(client, registry.CHAMPION, model_name)
    if champion is not None and str(champion.version) == version:
        champion = None  # re-gating the champion: floors only
    champion_metrics = None
    if champion is not None:
        champion_metrics = (
            registry.headline_metrics(champion_evaluations)
            if champion_evaluations
            else registry.version_metrics(client, champion)
        )
    champion_version = str(champion.version) if champion is not None else None
    decision = replace(
        decide(metrics, champion_metrics, cfg), version=version, champion_version=champion_version
    )
    client.update_model_version(
        model_name, version, description=render_markdown(decision, model_name=model_name)
    )
    tags = {
        "gate.decision": decision.label,
        "gate.reason": decision.reason[: registry.TAG_VALUE_LIMIT],
        "gate.at": _now(),
        "gate.champion_version": champion_version or "none",
    }
    tags |= {f"gate.metric.{r.metric}": _num(r.challenger) for r in decision.rows}
    for key, value in tags.items():
        client.set_model_version_tag(model_name, version, key, value)
    if decision.promote:
        _move_champion(client, model_name, version)
    logger.info("gate %s v%s: %s", model_name, version, decision.label)
    return decision


def _log_to_run(
    client: Any, run_id: str | None, metrics: dict[str, float], evaluations: Mapping[str, Any]
) -> None:
    """Fresh evaluations become part of the version's run, so its metrics stay one place."""
    if not run_id:
        return
    from mlflow.entities import Metric

    now = _millis()
    client.log_batch(run_id, metrics=[Metric(k, v, now, 0) for k, v in metrics.items()])
    for name, report in evaluations.items():
        client.log_text(run_id, registry.report_artifact(report), f"reports/eval/{name}.json")


def _move_champion(client: Any, model_name: str, version: str) -> str | None:
    """``champion`` → ``version``; the old champion (if another) → ``previous-champion``."""
    old = registry.alias_version(client, registry.CHAMPION, model_name)
    old_version = str(old.version) if old is not None else None
    if old_version == version:
        return old_version
    if old_version is not None:
        client.set_registered_model_alias(model_name, registry.PREVIOUS_CHAMPION, old_version)
    client.set_registered_model_alias(model_name, registry.CHAMPION, version)
    return old_version


def promote(
    version: str | int,
    reason: str,
    *,
    by: str | None = None,
    tracking_uri: str | None = None,
    model_name: str = registry.MODEL_NAME,
) -> str | None:
    """A reviewer's manual promotion (bypasses the gate, so the reason is required). Returns
    the version that became ``previous-champion`` (None if there was no champion)."""
    reason = require_reason(reason)
    client = registry.get_client(tracking_uri)
    version = str(version)
    client.get_model_version(model_name, version)  # raises if it does not exist
    current = registry.alias_version(client, registry.CHAMPION, model_name)
    if current is not None and str(current.version) == version:
        raise ValueError(f"version {version} is already the champion")
    previous = _move_champion(client, model_name, version)
    _record(client, model_name, version, "promote", reason, by, from_version=previous)
    return previous


def rollback(
    reason: str,
    *,
    by: str | None = None,
    tracking_uri: str | None = None,
    model_name: str = registry.MODEL_NAME,
) -> str:
    """``champion`` ← ``previous-champion`` in one call; the alias ``previous-champion`` is
    removed (a second rollback must not re-promote the demoted model). Returns the restored
    version."""
    reason = require_reason(reason)
    client = registry.get_client(tracking_uri)
    previous = registry.alias_version(client, registry.PREVIOUS_CHAMPION, model_name)
    if previous is None:
        raise LookupError(f"{model_name} has no {registry.PREVIOUS_CHAMPION} to roll back to")
    current = registry.alias_version(client, registry.CHAMPION, model_name)
    restored = str(previous.version)
    client.set_registered_model_alias(model_name, registry.CHAMPION, restored)
    client.delete_registered_model_alias(model_name, registry.PREVIOUS_CHAMPION)
    demoted = str(current.version) if current is not None else None
    _record(client, model_name, restored, "rollback", reason, by, from_version=demoted)
    if demoted is not None and demoted != restored:
        _record(client, model_name, demoted, "rolled_back", reason, by, from_version=None)
    return restored


def require_reason(reason: str | None) -> str:
    """Manual registry moves need a reason: one line, at most ``REASON_LIMIT`` characters
    (it is stored as a tag; describe the decision, never quote a document)."""
    text = " ".join((reason or "").split())
    if not text:
        raise ValueError("a reason is required for a manual promote or rollback")
    return text[:REASON_LIMIT]


def _record(
    client: Any,
    model_name: str,
    version: str,
    action: str,
    reason: str,
    by: str | None,
    from_version: str | None,
) -> None:
    tags = {
        f"{action}.by": by or _who(),
        f"{action}.at": _now(),
        f"{action}.reason": reason,
    }
    if action != "rolled_back":
        tags[f"{action}.from_version"] = from_version or "none"
    for key, value in tags.items():
        client.set_model_version_tag(model_name, version, key, value)


def _who() -> str:
    try:
        return os.environ.get("DEID_REVIEWER") or getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _millis() -> int:
    return int(datetime.now(UTC).timestamp() * 1000)
