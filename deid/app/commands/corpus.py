"""``deid corpus``: build the train/validation/test corpus and show its statistics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from deid.app.commands import SourcesOption
from deid.sources.corpus import (
    DEFAULT_SALT,
    DEFAULT_VALIDATION_SHARE,
    SPLITS,
    build_corpus,
    split_stats,
)
from deid.sources.io import read_documents, sha256_bytes
from deid.sources.ler import COURTS

corpus_app = typer.Typer(
    help="Build and inspect the document-level corpus split.", no_args_is_help=True
)
console = Console(stderr=True)

# steps reported by build_corpus: one per LER court, per decisions folder, per split file
_BUILD_STEPS = len(COURTS) + 4 + len(SPLITS)


@corpus_app.command("build")
def build(
    sources: SourcesOption = Path("data/sources"),
    output: Annotated[Path, typer.Option(help="Folder for the split JSONL files.")] = Path(
        "data/corpus"
    ),
    validation_share: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Share of non-reserved documents.")
    ] = DEFAULT_VALIDATION_SHARE,
    salt: Annotated[str, typer.Option(help="Salt of the id hash that picks the split.")] = (
        DEFAULT_SALT
    ),
) -> None:
    """Read all sources, split by document and write {train,validation,test}.jsonl."""
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=console
    ) as bar:
        task = bar.add_task("building corpus", total=_BUILD_STEPS)

        def step(name: str) -> None:
            bar.update(task, advance=1, description=name)

        manifest = build_corpus(sources, output, validation_share, salt, progress=step)
        bar.update(task, completed=_BUILD_STEPS)
    table = Table(title=f"corpus written to {output}")
    for column in ("split", "documents", "characters", "entities"):
        table.add_column(column, justify="left" if column == "split" else "right")
    for name in SPLITS:
        row = manifest["splits"][name]
        table.add_row(name, str(row["documents"]), f"{row['characters']:,}", str(row["entities"]))
    Console().print(table)
    if manifest["rejected"]:
        console.print(
            f"[yellow]{len(manifest['rejected'])} input file(s) rejected, see manifest.json"
        )


@corpus_app.command("stats")
def stats(
    corpus: Annotated[Path, typer.Option(help="Folder written by 'deid corpus build'.")] = Path(
        "data/corpus"
    ),
) -> None:
    """Documents, characters and entities per split and court (never document text)."""
    manifest_path = corpus / "manifest.json"
    manifest = (
        json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}
    )
    table = Table(title=f"corpus {corpus}")
    for column in ("split", "court", "documents", "characters", "entities"):
        table.add_column(column, justify="left" if column in ("split", "court") else "right")
    found = False
    for name in SPLITS:
        path = corpus / f"{name}.jsonl"
        if not path.exists():
            console.print(f"[yellow]missing {path}")
            continue
        found = True
        expected = manifest.get("splits", {}).get(name, {}).get("sha256")
        if expected and expected != sha256_bytes(path.read_bytes()):
            console.print(f"[red]{path.name} differs from manifest.json (sha256)")
        rows = split_stats(read_documents(path))
        for key, row in rows.items():
            table.add_row(
                name, key, str(row["documents"]), f"{row['characters']:,}", str(row["entities"])
            )
        table.add_row(
            name,
            "[bold]all",
            str(sum(r["documents"] for r in rows.values())),
            f"{sum(r['characters'] for r in rows.values()):,}",
            str(sum(r["entities"] for r in rows.values())),
            end_section=True,
        )
    if not found:
        console.print(f"[red]no split files in {corpus}; run 'deid corpus build' first")
        raise typer.Exit(code=1)
    Console().print(table)


def register(app: typer.Typer) -> None:
    """Attach ``deid corpus …``."""
    app.add_typer(corpus_app, name="corpus")
