"""``deid check corpus|placeholders|dataset|reviews``: the Great Expectations data checks.

Prints the markdown summary (failed expectations and numbers, never text) and exits 1 when
the suite fails, so a pipeline stage stops there.
"""

from __future__ import annotations

import logging
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

logger = logging.getLogger(__name__)
console = Console(stderr=True)


class Suite(str, Enum):
    corpus = "corpus"
    placeholders = "placeholders"
    dataset = "dataset"
    reviews = "reviews"


def check(
    suite: Annotated[
        Suite,
        typer.Argument(
            help="corpus (integrity) | placeholders (quality) | dataset (training set) | "
            "reviews (the saved reviews, params reviews.folder)."
        ),
    ],
    corpus: Annotated[Path, typer.Option(help="Corpus directory (split JSONL files).")] = Path(
        "data/corpus"
    ),
    params: Annotated[Path, typer.Option(help="Parameter file (section validate).")] = Path(
        "params.yaml"
    ),
    gx_dir: Annotated[
        Path, typer.Option("--gx", help="Great Expectations project directory.")
    ] = Path("gx"),
    placeholders: Annotated[
        Path | None,
        typer.Option(help="Precomputed placeholders JSONL (corpus, dataset); else detected now."),
    ] = None,
) -> None:
    """Run one data-check suite; exit 1 with a readable summary when it fails."""
    from deid.ops.checks import CHECKS

    logging.getLogger("great_expectations").setLevel(logging.WARNING)  # INFO floods the log
    kwargs = {"placeholders": placeholders} if suite in (Suite.corpus, Suite.dataset) else {}
    result = CHECKS[suite.value](corpus, params, project_dir=gx_dir, **kwargs)
    typer.echo(result.summary)
    if not result.success:
        console.print(f"[red]data check {result.suite} failed; summary: {result.summary_path}")
        raise typer.Exit(code=1)
    console.print(f"[green]data check {result.suite} passed; Data Docs: {result.docs_path}")


def register(app: typer.Typer) -> None:
    """Attach ``deid check``."""
    app.command("check")(check)
