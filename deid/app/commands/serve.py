"""``deid serve``: the REST service and the review page on uvicorn."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import typer

logger = logging.getLogger(__name__)


def serve_cmd(
    model: str | None = typer.Option(
        None, help="Pipeline directory or MLflow model URI. Default: models:/deid-ner@champion of the tracking store "
        "($MLFLOW_TRACKING_URI, else sqlite:///mlflow.db here)."
    ),
    rules_only: bool = typer.Option(False, help="No model: recognizers, policy and consistency only."),
    host: str = typer.Option("127.0.0.1", help="Address to listen on; beyond loopback a token is required."),
    port: int = typer.Option(8000, help="Port to listen on (0: any free port, printed at start)."),
    token_file: Path | None = typer.Option(
        None, help="File whose first line is the bearer token (mode 600). Else $DEID_SERVE_TOKEN; never on the "
        "command line."
    ),
    max_bytes: int = typer.Option(16 * 1024 * 1024, help="Largest request body in bytes."),
    timeout: float = typer.Option(120.0, help="Seconds a request may take, waiting for the model included."),
    reviews: Path = typer.Option(Path("data/reviews"), help="Folder of the saved reviews (reviews.jsonl)."),
    operator: str | None = typer.Option(None, help="The page's default operator (default: the pipeline's)."),
) -> None:
    """Serve the REST API (/analyze, /anonymize, /models, /health, /reviews; OpenAPI docs at
    /docs) and the review page (/) with one pipeline. ``pseudonymize`` needs $DEID_SECRET."""
    import uvicorn

    from deid.anonymizer.operators import check_operator
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
    from deid.app.commands.model import SECRET_ENV, _model_source
    from deid.app.service.app import create_app
    from deid.app.service.safety import install_log_filters
    from deid.app.service.served import ServedModel, with_overrides
    from deid.app.service.settings import ServiceSettings, check_bind, load_token

    token = load_token(token_file)
    check_bind(host, token)  # before the model loads: a refused start is quick
    try:
        check_operator(operator)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    source = None if rules_only else _model_source(model)
    pipeline = build_pipeline(source.dir) if source else build_pipeline(config=PipelineConfig.rules_only())
    overrides = ServedModel.budget_overrides(pipeline.config, timeout)
    served = ServedModel(with_overrides(pipeline, overrides), source, overrides)
    settings = ServiceSettings(host=host, port=port, token=token, max_bytes=max_bytes, timeout=timeout,
                               reviews_dir=reviews, operator=pipeline.operator_for(operator))  # fmt: skip
    secret = os.environ.get(SECRET_ENV, "").encode("utf-8") or None
    app = create_app(served, settings, secret=secret)
    install_log_filters()
    info = served.info()
    logger.info("serving %s (version %s) on %s:%s, token %s, reviews in %s", info["uri"] or "rules only",
                info["version"], host, port, "required" if token else "off (loopback)", reviews)  # fmt: skip
    uvicorn.run(app, host=host, port=port, log_config=None, access_log=True, server_header=False,
                timeout_keep_alive=5, limit_concurrency=64)  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)
