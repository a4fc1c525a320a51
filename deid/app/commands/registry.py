"""``deid register``, ``deid gate``, ``deid promote``, ``deid rollback`` and ``deid models``.

Tracking URI: ``$MLFLOW_TRACKING_URI``, default ``sqlite:///mlflow.db`` in the current
directory with artifacts under ``./mlruns/<experiment>``. Only ``register`` may create a new
sqlite store; the other commands refuse one that does not exist.

No command takes an evaluation from a file: the gate decides on evaluations the product
logged and signed on the version's run (the retrain flow, or ``deid evaluate-model --record
SET``), and promotes only on the committed params and gold sets (deid.ops.gate).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

logger = logging.getLogger(__name__)
console = Console(stderr=True)

BY_HELP = "Reviewer, one word (default: $DEID_REVIEWER or the OS user; the OS user is recorded)."
OVERRIDE_HELP = "Promote a version the gate rejected or never passed (recorded with the reason)."


def register_cmd(
    pipeline: Path = typer.Option(..., help="Saved pipeline directory (deid train --output)."),
    params: Path = typer.Option(Path("params.yaml"), help="Parameter file logged with the run."),
    experiment: str = typer.Option("deid", help="MLflow experiment."),
    artifact_location: str | None = typer.Option(
        None, help="Artifact location of a new experiment."
    ),
) -> None:
    """Log a trained pipeline as an MLflow run + pyfunc, register it, alias it ``challenger``.
    Evaluate it with ``deid evaluate-model --model models:/deid-ner/N --record SET``."""
    from deid.ops.mlflow_registry import log_training_run, training_output_from_dir
    from deid.sources.params import load_params

    if not (pipeline / "pipeline.json").exists():
        raise typer.BadParameter(f"{pipeline} is not a saved pipeline (no pipeline.json)")
    values = load_params(params) if params.exists() else {}
    info = log_training_run(
        training_output_from_dir(pipeline),
        values,
        experiment=experiment,
        artifact_location=artifact_location,
    )
    print(json.dumps(info.to_dict(), indent=2))


def gate_cmd(
    version: int = typer.Option(..., help="Registered version of deid-ner to gate."),
    params: Path = typer.Option(Path("params.yaml"), help="Parameter file with the gate: section."),
    markdown: Path | None = typer.Option(None, help="Also write the decision as Markdown here."),
    fail_on_reject: bool = typer.Option(False, help="Exit with status 1 when the gate rejects."),
) -> None:
    """Check a version against the floors and the champion on the evaluations logged on their
    runs; promote it only if it passes with the committed params.yaml (git HEAD of the current
    directory) on the committed gold sets: other params decide and record, never promote.
    Re-gating the champion: a reject demotes it."""
    from deid.ops.gate import load_gate_config, render_markdown, run_gate

    if not params.exists():
        raise typer.BadParameter(
            f"no parameter file at {params} (the gate: section sets the floors)"
        )
    decision = run_gate(version, cfg=load_gate_config(params), project_dir=Path.cwd())
    if markdown:
        markdown.parent.mkdir(parents=True, exist_ok=True)
        markdown.write_text(render_markdown(decision), encoding="utf-8")
    print(
        json.dumps(
            {"version": version, "decision": decision.label, "reasons": list(decision.reasons)},
            indent=2,
        )
    )
    if fail_on_reject and not decision.promote:
        raise typer.Exit(1)


def promote_cmd(
    version: int = typer.Option(..., help="Version to make the champion."),
    reason: str = typer.Option(..., help="Why (stored as a tag; required)."),
    by: str | None = typer.Option(None, help=BY_HELP),
    override_gate: bool = typer.Option(False, help=OVERRIDE_HELP),
) -> None:
    """Manually promote a version to ``champion`` (the old one becomes ``previous-champion``).
    A version the gate did not pass needs ``--override-gate``."""
    from deid.ops.gate import promote

    previous = promote(version, reason, by=by, override_gate=override_gate)
    print(json.dumps({"champion": str(version), "previous-champion": previous}))


def rollback_cmd(
    reason: str = typer.Option(..., help="Why (stored as a tag; required)."),
    by: str | None = typer.Option(None, help=BY_HELP),
) -> None:
    """Make ``previous-champion`` the ``champion`` again."""
    from deid.ops.gate import rollback

    restored = rollback(reason, by=by)
    print(json.dumps({"champion": restored}))


def models_cmd() -> None:
    """Registered versions of deid-ner with their aliases and headline metrics."""
    from deid.ops.mlflow_registry import list_versions

    versions = list_versions()
    sets = sorted({k.split(".")[1] for v in versions for k in v.metrics})
    table = Table(title="deid-ner")
    for col in ("version", "aliases", "created", "gate", *[f"{s} R/P/F2" for s in sets]):
        table.add_column(col)
    for v in versions:
        created = (
            datetime.fromtimestamp(v.created / 1000, UTC).strftime("%Y-%m-%d %H:%M")
            if v.created
            else ""
        )
        cells = [_triple(v.metrics, s) for s in sets]
        table.add_row(
            v.version, ", ".join(v.aliases), created, v.tags.get("gate.decision", ""), *cells
        )
    Console().print(table)


def _triple(metrics: dict[str, float], gold: str) -> str:
    vals = [metrics.get(f"eval.{gold}.{k}") for k in ("recall", "precision", "f2")]
    return "/".join("—" if x is None else f"{x:.3f}" for x in vals)


def register(app: typer.Typer) -> None:
    app.command("register")(register_cmd)
    app.command("gate")(gate_cmd)
    app.command("promote")(promote_cmd)
    app.command("rollback")(rollback_cmd)
    app.command("models")(models_cmd)
