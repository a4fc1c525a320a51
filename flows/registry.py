"""Flows ``promote`` and ``rollback``: a reviewer's manual moves of the ``champion`` alias
(``deid.ops.gate.promote`` / ``deid.ops.gate.rollback``). Both need a reason; promoting a version the
gate did not pass needs ``--override-gate``. Who, when and why are stored on the model
version (appended to its alias history) and shown, with that history, as an artifact."""

from __future__ import annotations

from typing import Any

from prefect import flow, get_run_logger
from prefect.artifacts import create_markdown_artifact

from flows._common import markdown_table, run_cli
from flows.retrain import tracking_uri_for


def _aliases(uri: str) -> dict[str, str]:
    from mlflow.exceptions import MlflowException

    from deid.ops import mlflow_registry as registry

    try:
        return dict(
            registry.get_client(uri).get_registered_model(registry.MODEL_NAME).aliases or {}
        )
    except MlflowException:  # no model registered yet
        return {}


def _report(
    action: str, reason: str, before: dict[str, str], after: dict[str, str], uri: str
) -> str:
    """The move (aliases before and after) and the alias history of the versions it moved."""
    from deid.ops.gate import alias_history

    names = sorted(set(before) | set(after))
    rows = [[a, before.get(a, "—"), after.get(a, "—")] for a in names]
    moved = sorted({v for a in names for v in (before.get(a), after.get(a)) if v}, key=int)
    history = [
        [v, e["at"], e["action"], e.get("from_version") or "—", e.get("champion") or "—",
         e["by"], e["user"], "yes" if e.get("override_gate") else "", e["reason"]]
        for v in moved for e in alias_history(v, tracking_uri=uri)
    ]  # fmt: skip
    columns = ["version", "at", "action", "from", "champion after", "by", "OS user",
               "gate override", "reason"]  # fmt: skip
    return (
        f"## Registry: {action}\n\nReason: {reason}\n\n"
        + markdown_table(["alias", "before", "after"], rows)
        + "\n### Alias history of the versions moved\n\n"
        + markdown_table(columns, history)
    )


@flow(name="promote")
def promote(
    version: str,
    reason: str,
    by: str | None = None,
    tracking_uri: str | None = None,
    project_dir: str = ".",
    override_gate: bool = False,
) -> dict[str, Any]:
    """Make ``version`` the champion (the reason is required; a version the gate did not pass
    also needs ``override_gate``, which is recorded)."""
    from deid.ops.gate import promote as promote_version
    from deid.ops.gate import require_reason

    reason = require_reason(reason)
    uri = tracking_uri_for(project_dir, tracking_uri)
    before = _aliases(uri)
    previous = promote_version(
        version, reason, by=by, override_gate=override_gate, tracking_uri=uri
    )
    after = _aliases(uri)
    create_markdown_artifact(
        _report(f"promote version {version}", reason, before, after, uri), key="registry-change"
    )
    get_run_logger().info("champion: version %s (previous %s)", version, previous)
    return {"champion": str(version), "previous_champion": previous, "aliases": after}


@flow(name="rollback")
def rollback(
    reason: str, by: str | None = None, tracking_uri: str | None = None, project_dir: str = "."
) -> dict[str, Any]:
    """``champion`` ← ``previous-champion`` (the reason is required)."""
    from deid.ops.gate import require_reason
    from deid.ops.gate import rollback as rollback_champion

    reason = require_reason(reason)
    uri = tracking_uri_for(project_dir, tracking_uri)
    before = _aliases(uri)
    restored = rollback_champion(reason, by=by, tracking_uri=uri)
    after = _aliases(uri)
    create_markdown_artifact(
        _report("rollback", reason, before, after, uri), key="registry-change"
    )
    get_run_logger().info("champion restored: version %s", restored)
    return {"champion": restored, "aliases": after}


if __name__ == "__main__":
    import sys

    flows = {"promote": promote, "rollback": rollback}
    if len(sys.argv) < 2 or sys.argv[1] not in flows:
        raise SystemExit("usage: python -m flows.registry promote|rollback [options]")
    run_cli(flows[sys.argv[1]], sys.argv[2:])
