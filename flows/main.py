"""The README's main job (``make main`` → ``python -m pipelines.main``) on embedded defaults.

* Prefect without a server: each flow runs against a temporary local API whose database
  (``~/.prefect/prefect.db``) a later ``prefect server start`` shows with all runs and artifacts.
  With ``PREFECT_API_URL`` set (``infra/local-stack.sh env``) the runs go to that server.
* MLflow on ``sqlite:///mlflow.db`` in the project, artifacts in ``./mlartifacts`` (or
  ``$MLFLOW_TRACKING_URI``).
* DVC with the committed local remote (``.dvc-storage/``).

Steps: ``publish-corpus`` (a fresh clone rebuilds data/raw from the bundled sources, the
version is pushed to the remote) → ``retrain`` (``--profile``, default ``small``) →
``anonymize`` the bundled decisions (data/raw/decisions, as the corpus builder reads them) with
the champion into ``out/anonymized/`` → where to look.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DECISIONS = "data/raw/decisions"  # deid.sources.corpus.load_decisions reads <raw>/decisions/<collection>/
OUTPUT = "out/anonymized"


def embedded_defaults(root: Path) -> dict[str, str]:
    """Environment defaults of the main job; anything already set wins."""
    defaults = {
        "MLFLOW_TRACKING_URI": f"sqlite:///{root / 'mlflow.db'}",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_LOGGING_EXTRA_LOGGERS": "deid",
        "DVC_NO_ANALYTICS": "1",
    }
    return {k: v for k, v in defaults.items() if not os.environ.get(k)}


def _run(flow: Any, **params: Any) -> Any:
    """Run a flow; a failed run ends the job with its message (counts and paths only)."""
    state = flow(**params, return_state=True)
    if not state.is_completed():
        sys.exit(f"\n{flow.name} did not complete: {state.message}")
    return state.result()


def where_to_look(
    root: Path, trained: dict[str, Any], anonymized: dict[str, Any], model_uri: str
) -> str:
    champion = "champion" in trained["aliases"]
    outcome = (
        f"version {trained['version']} is the champion ({'; '.join(trained['reasons'])})"
        if champion
        else f"NO CHAMPION: version {trained['version']} did not pass the gate: "
        f"{'; '.join(trained['reasons'])}. It stays the challenger; the floors are in "
        f"params.yaml (gate:). The decisions below were anonymized with it anyway, for review"
    )
    uri = os.environ["MLFLOW_TRACKING_URI"]
    out = root / OUTPUT
    dvc = anonymized["dvc"]["version"]["md5"] if anonymized["dvc"] else "not tracked"
    counts = f"{anonymized['quarantined']} quarantined, {anonymized['spans']} spans"
    lines = [
        "",
        "=== deid main job done ===",
        f"model gate: {outcome}",
        f"anonymized: {anonymized['documents']} documents with {model_uri}, {counts}",
        f"  results      {out / 'anonymized.jsonl'}",
        f"  span report  {out / 'spans.jsonl'}   (ids, offsets, labels, counts)",
        f"  quarantine   {out / 'quarantine.jsonl'}",
        f"  DVC version  {dvc} (out/anonymized.dvc, pushed to the DVC remote)",
        "where to look:",
        f"  MLflow runs and registry:  .venv/bin/mlflow ui --backend-store-uri {uri}",
        f"    → {trained['links']['run']}",
        "  Prefect runs and artifacts:  .venv/bin/prefect server start  → http://127.0.0.1:4200",
        "  registry from the shell:  .venv/bin/deid models",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="deid main job: retrain, then anonymize the bundled decisions."
    )
    parser.add_argument("--profile", default="small", help="tiny | small | base (default small)")
    parser.add_argument(
        "--eval-max-documents", type=int, default=None,
        help="limit each test set (0 = all; default gate.max_documents); only the committed limit can promote",
    )
    parser.add_argument("--operator", default=None, help="remove | label | pseudonymize | mask")
    args = parser.parse_args(argv)
    os.environ.update(embedded_defaults(ROOT))

    from flows._common import console_logging, prefect_session
    from flows.anonymize import anonymize
    from flows.corpus import publish_corpus
    from flows.retrain import retrain

    console_logging()
    project = str(ROOT)
    with prefect_session():  # the temporary Prefect server stops with this job, even on kill -9
        _run(publish_corpus, project_dir=project, sources="data/sources", message=None)
        trained = _run(
            retrain, profile=args.profile, project_dir=project, eval_max_documents=args.eval_max_documents,
            artifact_location=(ROOT / "mlartifacts").as_uri(),
        )  # fmt: skip
        champion = "champion" in trained["aliases"]
        model_uri = (
            "models:/deid-ner@champion" if champion else f"models:/deid-ner/{trained['version']}"
        )
        anonymized = _run(
            anonymize, input=str(ROOT / DECISIONS), output=str(ROOT / OUTPUT), model_uri=model_uri,
            operator=args.operator, project_dir=project,
        )  # fmt: skip
    print(where_to_look(ROOT, trained, anonymized, model_uri))


if __name__ == "__main__":
    main()
