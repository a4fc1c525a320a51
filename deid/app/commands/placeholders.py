"""``deid placeholders`` (detect) and ``deid validate-placeholders`` (score against gold)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

logger = logging.getLogger(__name__)
console = Console(stderr=True)


def placeholders(
    input: Path = typer.Option(..., "--input", "-i", help="Documents: JSONL, a .txt file or a directory."),
    output: Path = typer.Option(..., "--output", "-o", help='JSONL of {"id", "placeholders": [spans]}.'),
    quarantine: Optional[Path] = typer.Option(None, help="Where rejected inputs are listed."),
    resume: bool = typer.Option(True, help="Skip documents already in a partial output."),
) -> None:
    """Detect the courts' placeholders and write typed character spans per document."""
    from deid.ops.batch import run_batch
    from deid.rewrite.placeholders import detect_placeholders
    from deid.schema import spans_to_dicts

    def process(doc):
        return {"id": doc.id, "placeholders": spans_to_dicts(detect_placeholders(doc.text))}

    summary = run_batch(input, output, process, quarantine=quarantine, resume=resume, description="placeholders")
    console.print_json(json.dumps(summary.to_dict()))
    if summary.quarantined or summary.failed:
        console.print(f"[yellow]{summary.quarantined + summary.failed} input(s) quarantined, see the quarantine file")


def validate_placeholders(
    ler: Optional[Path] = typer.Option(None, help="LER documents (JSONL with 'entities'), e.g. data/corpus/test.jsonl."),
    courts: str = typer.Option("", help="Comma-separated LER courts to score (default: all in the file)."),
    adjudication: Optional[Path] = typer.Option(
        Path("data/gold/ler_adjudication.jsonl"), help="Reviewed LER disagreements (also scored separately)."
    ),
    decisions: Optional[Path] = typer.Option(None, help="Placeholder-decisions file of the manual rewrite."),
    documents: Optional[Path] = typer.Option(None, help="Original documents the decisions refer to."),
    report: Path = typer.Option(Path("reports/placeholder_quality.json"), help="JSON report (metrics + error list)."),
) -> None:
    """Validate placeholder detection against the gold sets: element-level P/R/F1/accuracy."""
    from deid.evaluation.placeholders import evaluate_on_decisions, evaluate_on_ler
    from deid.rewrite.placeholders import detect_placeholders
    from deid.sources.io import read_documents, write_jsonl

    out: dict = {}
    if ler:
        wanted = {c for c in courts.split(",") if c}
        docs = [
            d for d in read_documents(ler)
            if d.meta.get("corpus") == "ler" and (not wanted or d.court in wanted)
        ]
        out["ler"] = evaluate_on_ler(docs, detect_placeholders).to_dict()
        if adjudication and adjudication.exists():
            out["ler_adjudicated"] = evaluate_on_ler(
                docs, detect_placeholders, "ler_adjudicated", adjudication
            ).to_dict()
    if decisions:
        if documents is None:
            raise typer.BadParameter("--documents is needed with --decisions")
        out["manual"] = evaluate_on_decisions(read_documents(documents), decisions, detect_placeholders).to_dict()
    if not out:
        raise typer.BadParameter("give --ler and/or --decisions")
    report.parent.mkdir(parents=True, exist_ok=True)
    errors = {name: rep.pop("errors") for name, rep in out.items()}
    report.write_text(json.dumps(out, indent=2, ensure_ascii=False), encoding="utf-8")
    write_jsonl(report.with_suffix(".errors.jsonl"), (e | {"set": n} for n, errs in errors.items() for e in errs))
    table = Table(title="Placeholder detection (element level)")
    for col in ("set", "group", "precision", "recall", "f1", "accuracy", "tp", "fp", "fn"):
        table.add_column(col)
    for name, rep in out.items():
        rows = [("all", rep["overall"])] + list(rep["groups"].items())
        for group, m in rows:
            table.add_row(name, group, *(str(m[k]) for k in ("precision", "recall", "f1", "accuracy", "tp", "fp", "fn")))
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("placeholders")(placeholders)
    app.command("validate-placeholders")(validate_placeholders)
