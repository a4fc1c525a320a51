"""The promotion gate: may a registered challenger replace the champion?

Recall first: an anonymizer that misses names leaks them, one that over-anonymizes only
costs readability. So the floors are on recall (overall and per type, e.g. PERSON) before
precision, and a challenger must not be worse than the current champion beyond a tolerance on
the compared metrics. ``decide`` is pure; ``run_gate`` records the decision on the model
version and moves the ``champion`` alias only when it passed, keeping the old champion as
``previous-champion`` so ``rollback`` is one call. Reviewers use ``promote``/``rollback``
with a required reason; who/when/why become tags.

Trust: the gate decides on evaluations only, never on a file a user hands it (metrics on a
run count only with the keyed signature the product's evaluation logged beside them,
``deid.ops.vetting``). It promotes only on the committed settings: the ``gate:`` section of
``params.yaml`` at git HEAD of the project and, for each set it names in ``gold_files``, an
evaluation of exactly the committed documents of that file (the first ``max_documents``),
of the content the version registered. Loosened params, another gold file or an edited one
record an evaluation and a decision, never a champion. A promotion is signed on the version
(``vetted.*`` tags), and production refuses a champion whose signature does not verify.
Promoting a version the gate did not pass needs an explicit override with a reason, which
is signed and recorded as an override; every alias move is appended to the version's alias
history (``alias_history.NNNN`` tags, never rewritten); a champion that fails a re-gating is
demoted (back to the previous champion if that one still passes the floors, else no
champion).

Metric names are those ``deid.ops.mlflow_registry.headline_metrics`` logs: ``eval.<set>.recall``,
``eval.<set>.precision``, ``eval.<set>.f2``, ``eval.<set>.recall.PERSON`` …
"""

from __future__ import annotations

import getpass
import json
import logging
import math
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from deid.ops import mlflow_registry as registry
from deid.ops import vetting
from deid.schema import REVIEWER
from deid.sources.errors import UserError
from deid.sources.params import check_keys, field_names, section

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
    # Per gold set, the documents it needs before it counts (``eval.<set>.documents``): a
    # set that grows over time (the reviewed decisions) is reported and skipped, with the
    # reason, until it says enough; a set named here is never a failure for being absent.
    min_documents: Mapping[str, int] = field(default_factory=dict)
    # The committed file of each gold set (paths in the project): the gate promotes only on
    # an evaluation of its first ``max_documents`` documents (0: all) as committed at git
    # HEAD. A set without a file here (the reviews, built by the retrain flow from their
    # pinned version) counts when the product's signed evaluation of it does.
    gold_files: Mapping[str, str] = field(default_factory=dict)
    max_documents: int = 0

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> GateConfig:
        data = section(params.get("gate"), "gate")
        check_keys("gate", data, field_names(cls))
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
        if "min_documents" in data:
            data["min_documents"] = {
                registry.check_set_name(gold): int(n) for gold, n in (data["min_documents"] or {}).items()
            }
        if "gold_files" in data:
            data["gold_files"] = {
                registry.check_set_name(gold): str(path) for gold, path in (data["gold_files"] or {}).items()
            }
        if "max_documents" in data:
            data["max_documents"] = int(data["max_documents"] or 0)
        cfg = cls(**data)
        for gold, floors in cfg.set_floors.items():
            bad = sorted(m for m in floors if not _FLOORABLE.fullmatch(m))
            if gold not in cfg.gold_sets or bad:
                raise ValueError(
                    f"gate.set_floors.{gold}: needs a counted gold set and metrics recall, "
                    f"precision, f2 or recall.<TYPE> (not {bad})"
                )
        for key in ("min_documents", "gold_files"):
            stray = sorted(set(getattr(cfg, key)) - set(cfg.gold_sets))
            if stray:
                raise ValueError(f"gate.{key}: {stray} not in gate.gold_sets")
        return cfg


def load_gate_config(path: str | Path = "params.yaml") -> GateConfig:
    from deid.sources.params import load_params

    return GateConfig.from_params(load_params(path))


PARAMS_FILE = "params.yaml"


class NotCommitted(UserError):
    """The project has no committed gate settings to promote on."""


@dataclass(frozen=True)
class Committed:
    """What the gate may promote on: the ``gate:`` section of ``params.yaml`` at git HEAD
    of the project, and per set of its ``gold_files`` the sha256 of the committed documents
    an evaluation must have scored (``deid.sources.io.documents_sha256``)."""

    cfg: GateConfig
    gold: dict[str, str]
    commit: str


def committed_gate(project_dir: str | Path = ".") -> Committed:
    """The committed gate settings of the git checkout at ``project_dir`` (its
    ``params.yaml`` and gold files as HEAD has them: an edit in the working tree does not
    count until it is committed); :class:`NotCommitted` when there are none."""
    import yaml

    from deid.schema import Document
    from deid.sources.io import documents_sha256

    root = Path(project_dir)
    commit = _git_show(root, "rev-parse", "HEAD").decode().strip()
    params = yaml.safe_load(_git_show(root, "show", f"HEAD:./{PARAMS_FILE}")) or {}
    cfg = GateConfig.from_params(params)
    gold = {}
    for name, path in cfg.gold_files.items():
        lines = _git_show(root, "show", f"HEAD:./{path}").decode("utf-8").splitlines()
        docs = [Document.from_dict(json.loads(line)) for line in lines if line.strip()]
        gold[name] = documents_sha256(docs[: cfg.max_documents] if cfg.max_documents else docs)
    return Committed(cfg, gold, commit)


def _git_show(root: Path, *args: str) -> bytes:
    import subprocess

    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60, check=False)
    if done.returncode:
        what = args[-1].removeprefix("HEAD:./")
        raise NotCommitted(f"no committed {what} in {root.resolve()} (git HEAD): the gate promotes only on "
                           "committed settings and gold sets")  # fmt: skip
    return done.stdout


def authority_problems(
    cfg: GateConfig, evaluated: registry.Evaluated, counted: list[str], content: str | None,
    project_dir: str | Path,
) -> tuple[list[str], Committed | None]:  # fmt: skip
    """Why a passing decision may still not promote: settings other than the committed
    ones, a gold set evaluated on other documents than its committed file, an evaluation of
    other files than the version registered (``content``). Empty when it may."""
    try:
        committed = committed_gate(project_dir)
    except NotCommitted as exc:
        return [str(exc)], None
    problems = []
    if cfg != committed.cfg:
        changed = sorted(f for f in field_names(GateConfig) if getattr(cfg, f) != getattr(committed.cfg, f))
        problems.append(f"gate settings differ from the committed {PARAMS_FILE} (git HEAD {committed.commit[:12]}): "
                        f"{', '.join(changed)}")  # fmt: skip
    for gold in counted:
        origin = evaluated.provenance.get(gold) or {}
        want = committed.gold.get(gold)
        if want is not None and origin.get("gold_sha256") != want:
            first = f"first {committed.cfg.max_documents} documents of " if committed.cfg.max_documents else ""
            problems.append(f"eval.{gold}: evaluated on other documents than the {first}committed "
                            f"{committed.cfg.gold_files[gold]}")  # fmt: skip
        if content is None or origin.get("model_sha256") != content:
            problems.append(f"eval.{gold}: evaluated another model than the files this version registered "
                            f"(tag {vetting.CONTENT_TAG})")  # fmt: skip
    return problems, committed


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
    fine (that type has no gold span in the set); a NaN always fails. A set of
    ``min_documents`` evaluated on fewer documents is skipped, and the decision says why;
    with every set skipped nothing was gated, and that is a reject."""
    rows: list[GateRow] = []
    common = dict(_checks(cfg))  # metric → floor, in report order
    counted, skipped = _counted_sets(challenger, cfg)
    for gold in counted:
        floors = common | cfg.set_floors.get(gold, {})
        for metric, floor in floors.items():
            rows.append(_row(f"eval.{gold}.{metric}", metric, floor, challenger, champion, cfg))
    failures = tuple(r.note for r in rows if not r.ok)
    if not counted:  # every set skipped (a huge min_documents): nothing was checked
        failures = ("no gold set counted: nothing was gated",)
    if failures:
        return GateDecision(False, failures + skipped, tuple(rows))
    if champion is None:
        why = "passed all floors; no champion yet (first model)"
    else:
        why = (
            f"passed all floors and not worse than the champion beyond tolerance {cfg.tolerance:g}"
        )
    return GateDecision(True, (why, *skipped), tuple(rows))


def _counted_sets(
    challenger: Mapping[str, float], cfg: GateConfig
) -> tuple[list[str], tuple[str, ...]]:
    """The gold sets that count, and a note for each one skipped for too few documents."""
    counted, skipped = [], []
    for gold in cfg.gold_sets:
        needed = cfg.min_documents.get(gold)
        have = challenger.get(f"eval.{gold}.documents")
        if needed is not None and (have is None or not math.isfinite(have) or have < needed):
            n = 0 if have is None or not math.isfinite(have) else int(have)
            skipped.append(f"eval.{gold}: not gated, {n} documents evaluated (counts from {needed})")
        else:
            counted.append(gold)
    return counted, tuple(skipped)


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


class MoveRefused(UserError, ValueError):
    """A promote the gate or the registry does not allow, or a move without a valid reason or
    reviewer name; nothing was changed."""


class NoPreviousChampion(UserError, LookupError):
    """A rollback with no ``previous-champion`` to return to."""


def run_gate(
    version: str | int,
    evaluations: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    model_sha256: str | None = None,
    champion_evaluations: Mapping[str, Mapping[str, Any]] | None = None,
    cfg: GateConfig | None = None,
    params_path: str | Path = PARAMS_FILE,
    project_dir: str | Path = ".",
    tracking_uri: str | None = None,
    model_name: str = registry.MODEL_NAME,
) -> GateDecision:
    """Gate one registered version on evaluations, never on a file a user passes:
    ``evaluations`` are reports this process just computed of the pipeline directory whose
    ``tree_sha256`` is ``model_sha256`` (``deid.evaluation.gold_sets``; they are logged and
    signed on the version's run first); then the gate reads the run's evaluations whose
    signature verifies (``registry.evaluated_metrics``: any other set counts as not
    evaluated). The champion's metrics come from ``champion_evaluations`` or its run the
    same way. Decides with ``cfg`` (default: ``params_path``), and promotes only when that
    is the project's committed setting and the evaluations are of the committed gold sets
    and of the version's registered files (:func:`authority_problems`); a promotion is
    signed on the version (``deid.ops.vetting``). Writes the decision, the side-by-side
    table and the reason to the version (description and ``gate.*`` tags), moves
    ``champion`` only when it promoted, and appends every alias move to the alias history.

    Re-gating the current champion checks the floors only; a reject there demotes it
    (:func:`_demote`): a model the gate now rejects must not go on anonymizing."""
    client = registry.get_client(tracking_uri)
    cfg = cfg or load_gate_config(params_path)
    version = str(version)
    mv = client.get_model_version(model_name, version)
    if evaluations:
        registry.log_evaluation(client, mv.run_id, evaluations, source="gate", model_sha256=model_sha256)
    evaluated = registry.evaluated_metrics(client, mv)
    champion = registry.alias_version(client, registry.CHAMPION, model_name)
    regating = champion is not None and str(champion.version) == version
    if regating:
        champion = None  # re-gating the champion: floors only
    champion_metrics = None
    if champion is not None:
        champion_metrics = (
            registry.headline_metrics(champion_evaluations)
            if champion_evaluations
            else registry.evaluated_metrics(client, champion).metrics
        )
    champion_version = str(champion.version) if champion is not None else None
    decision = replace(
        decide(evaluated.metrics, champion_metrics, cfg), version=version, champion_version=champion_version
    )
    notes = [f"eval.{g}.*: ignored, {why}" for g, why in evaluated.ignored.items() if g in cfg.gold_sets]
    committed = None
    if decision.promote:
        counted = _counted_sets(evaluated.metrics, cfg)[0]
        content = (mv.tags or {}).get(vetting.CONTENT_TAG)
        problems, committed = authority_problems(cfg, evaluated, counted, content, project_dir)
        if problems:
            refused = "passed the floors given, but only the committed gate promotes: the evaluation is recorded, nothing promoted"
            decision = replace(decision, promote=False, reasons=(*problems, refused))
    if not decision.promote and regating:
        notes.append(_demote(client, model_name, version, cfg, decision.reason))
    decision = replace(decision, reasons=decision.reasons + tuple(notes))
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
        assert committed is not None
        vetting.vet(client, model_name, version, _gate_vetting(mv, decision, evaluated, committed, tags["gate.at"]))
        previous = _move_champion(client, model_name, version)
        if previous != version:
            _append_history(client, model_name, _entry("gate-promote", version, previous, "gate",
                                                       decision.reason))  # fmt: skip
    logger.info("gate %s v%s: %s", model_name, version, decision.label)
    return decision


def _gate_vetting(mv: Any, decision: GateDecision, evaluated: registry.Evaluated, committed: Committed,
                  at: str) -> dict[str, Any]:  # fmt: skip
    """What the gate signs for a version it promotes: the version and its content, the
    gold sets (documents' sha256 and count), the committed settings it decided with, and
    the metrics it checked."""
    gold = {name: {"sha256": origin.get("gold_sha256"), "documents": origin.get("documents")}
            for name, origin in evaluated.provenance.items() if name in committed.cfg.gold_sets}  # fmt: skip
    settings = json.loads(json.dumps(asdict(committed.cfg), default=list))
    metrics = {r.metric: r.challenger for r in decision.rows if r.challenger is not None}
    return vetting.version_payload(vetting.GATE, mv, at=at, commit=committed.commit, gold=gold,
                                   settings=settings, metrics=metrics)  # fmt: skip


def _demote(client: Any, model_name: str, version: str, cfg: GateConfig, reason: str) -> str:
    """The champion failed its re-gating. ``previous-champion`` becomes champion again when
    its own evaluation still passes the floors (then that alias is removed, as in a
    rollback); otherwise there is no champion, so ``models:/…@champion`` fails loudly instead
    of anonymizing with a rejected model, and ``previous-champion`` stays for a reviewer's
    rollback. Recorded in the alias history of both versions. Returns the note for the
    decision's reasons."""
    previous = registry.alias_version(client, registry.PREVIOUS_CHAMPION, model_name)
    restored = None
    if previous is not None and str(previous.version) != version:
        metrics = registry.evaluated_metrics(client, previous).metrics
        restored = str(previous.version) if decide(metrics, None, cfg).promote else None
    if restored is not None:
        client.set_registered_model_alias(model_name, registry.CHAMPION, restored)
        client.delete_registered_model_alias(model_name, registry.PREVIOUS_CHAMPION)
    else:
        client.delete_registered_model_alias(model_name, registry.CHAMPION)
    _append_history(client, model_name, _entry("gate-demote", restored, version, "gate", reason))
    logger.warning("gate %s: champion v%s demoted, champion now %s", model_name, version, restored)
    now = f"version {restored} (previous champion) is champion again" if restored else "no champion"
    return f"version {version} was the champion and is demoted: {now}"


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
    override_gate: bool = False,
    tracking_uri: str | None = None,
    model_name: str = registry.MODEL_NAME,
) -> str | None:
    """A reviewer's manual promotion, with a required reason. A version without a gate
    promotion that verifies (rejected, never gated, or a ``gate.decision`` tag written by
    hand) needs ``override_gate``; the override is signed on the version as its vetting
    (``deid.ops.vetting``, kind ``override``) and recorded in its tags and the alias history.
    Returns the version that became ``previous-champion`` (None if there was no champion)."""
    reason = require_reason(reason)
    by = reviewer(by)
    client = registry.get_client(tracking_uri)
    version = str(version)
    mv = client.get_model_version(model_name, version)  # raises if it does not exist
    current = registry.alias_version(client, registry.CHAMPION, model_name)
    if current is not None and str(current.version) == version:
        raise MoveRefused(f"version {version} is already the champion")
    verdict = (mv.tags or {}).get("gate.decision", "none")
    passed = verdict == "promote" and _gate_vetted(mv)
    if not passed:
        what = {"reject": "was rejected by the gate", "promote": "carries no gate signature that verifies"}.get(
            verdict, "has not passed the gate")  # fmt: skip
        if not override_gate:
            raise MoveRefused(
                f"version {version} {what}: promoting it anyway needs an explicit override "
                "(--override-gate), recorded with your reason"
            )
        logger.warning("version %s %s: promoted by %s over the gate (override)", version, what, by)
    entry = _entry("promote", version, None, by, reason) | {
        "gate_decision": verdict, "override_gate": not passed,
    }  # fmt: skip
    if not passed:
        vetting.vet(client, model_name, version, vetting.version_payload(
            vetting.OVERRIDE, mv, at=entry["at"], by=by, user=entry["user"], reason=entry["reason"],
            gate_decision=verdict))  # fmt: skip
    previous = _move_champion(client, model_name, version)
    _record(client, model_name, version, entry | {"from_version": previous})
    return previous


def _gate_vetted(mv: Any) -> bool:
    """Whether the version carries the gate's own signed promotion."""
    try:
        return vetting.vetting_of(mv).get("kind") == vetting.GATE
    except vetting.NotVetted:
        return False


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
    by = reviewer(by)
    client = registry.get_client(tracking_uri)
    previous = registry.alias_version(client, registry.PREVIOUS_CHAMPION, model_name)
    if previous is None:
        raise NoPreviousChampion(
            f"{model_name} has no {registry.PREVIOUS_CHAMPION} to roll back to"
        )
    current = registry.alias_version(client, registry.CHAMPION, model_name)
    restored = str(previous.version)
    client.set_registered_model_alias(model_name, registry.CHAMPION, restored)
    client.delete_registered_model_alias(model_name, registry.PREVIOUS_CHAMPION)
    demoted = str(current.version) if current is not None else None
    _record(client, model_name, restored, _entry("rollback", restored, demoted, by, reason))
    return restored


def require_reason(reason: str | None) -> str:
    """Manual registry moves need a reason: one line, at most ``REASON_LIMIT`` characters
    (it is stored as a tag; describe the decision, never quote a document)."""
    text = " ".join((reason or "").split())
    if not text:
        raise MoveRefused("a reason is required for a manual promote or rollback")
    return text[:REASON_LIMIT]


def reviewer(by: str | None) -> str:
    """The reviewer a move is recorded under: ``by``, else ``$DEID_REVIEWER``, else the OS
    user; one word (letters, digits, ``. _ @ -``, at most 64), so it is a name and not a
    sentence. The OS user is recorded beside it anyway (:func:`_entry`)."""
    name = by or os.environ.get("DEID_REVIEWER") or _os_user()
    if not REVIEWER.fullmatch(name):
        raise MoveRefused(
            "a reviewer name is one word of letters, digits, '.', '_', '@' or '-' "
            "(at most 64 characters)"
        )
    return name


# --- who did what: tags on the version and the append-only alias history ----------------------

HISTORY_PREFIX = "alias_history."


def _entry(
    action: str, champion: str | None, before: str | None, by: str, reason: str
) -> dict[str, Any]:
    """One alias move: which version is champion after it, which one was before, who (the
    named reviewer and the OS user who ran it), when and why."""
    return {"at": _now(), "action": action, "champion": champion, "from_version": before,
            "by": by, "user": _os_user(), "reason": reason[:REASON_LIMIT]}  # fmt: skip


def _record(client: Any, model_name: str, version: str, entry: dict[str, Any]) -> None:
    """A manual move: ``<action>.*`` tags on ``version`` (the latest move of that kind, for a
    glance) and the entry appended to the alias history of both versions involved."""
    action = entry["action"]
    tags = {f"{action}.{k}": entry[k] for k in ("by", "user", "at", "reason")}
    tags[f"{action}.from_version"] = entry["from_version"] or "none"
    if "override_gate" in entry:
        tags[f"{action}.override_gate"] = str(entry["override_gate"]).lower()
    for key, value in tags.items():
        client.set_model_version_tag(model_name, version, key, value)
    _append_history(client, model_name, entry)
    demoted = entry["from_version"]
    if action == "rollback" and demoted is not None and demoted != version:
        for key in ("by", "user", "at", "reason"):
            client.set_model_version_tag(model_name, demoted, f"rolled_back.{key}", entry[key])


def _append_history(client: Any, model_name: str, entry: dict[str, Any]) -> None:
    """Append ``entry`` as the next ``alias_history.NNNN`` tag of every version it names
    (never rewrites an earlier entry), so each move keeps its own who, when and why."""
    for version in dict.fromkeys(v for v in (entry["champion"], entry["from_version"]) if v):
        tags = client.get_model_version(model_name, version).tags or {}
        n = 1 + sum(k.startswith(HISTORY_PREFIX) for k in tags)
        value = json.dumps(entry, ensure_ascii=False)[: registry.TAG_VALUE_LIMIT]
        client.set_model_version_tag(model_name, version, f"{HISTORY_PREFIX}{n:04d}", value)


def alias_history(
    version: str | int,
    *,
    tracking_uri: str | None = None,
    model_name: str = registry.MODEL_NAME,
) -> list[dict[str, Any]]:
    """Every alias move that involved ``version``, oldest first."""
    tags = registry.get_client(tracking_uri).get_model_version(model_name, str(version)).tags
    keys = sorted(k for k in (tags or {}) if k.startswith(HISTORY_PREFIX))
    return [json.loads(tags[k]) for k in keys]


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
