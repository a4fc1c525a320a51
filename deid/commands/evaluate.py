"""``deid evaluate``: score predicted spans against a gold test set (see ``deid.evaluation``)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

logger = logging.getLogger(__name__)
console = Console(stderr=True)


def evaluate(
    gold: Path = typer.Option(
        ..., "--gold", help="Gold documents (JSONL with 'spans' and 'keep')."
    ),
    pred: Path = typer.Option(..., "--pred", help='Predictions: JSONL of {"id", "spans": [...]}.'),
    report: Path | None = typer.Option(
        None, "--report", help="Write the full report (with errors) as JSON."
    ),
    errors: Path | None = typer.Option(
        None, "--errors", help="Write the error list as JSONL (ids, offsets)."
    ),
    candidates: str = typer.Option(
        "",
        help="Comma-separated candidate methods (random, entity, all) for candidate-restricted "
        "element metrics; the predictions must come from a run that masked those candidates.",
    ),
    rate: float = typer.Option(
        0.025, help="Share of negative elements drawn as random candidates."
    ),
    seed: int = typer.Option(0, help="Seed of the random candidates."),
) -> None:
    """Element-, entity- and document-level metrics, leakage, keep hits, slices, error list.

    Prints the report without the error list as JSON to stdout and a summary table to stderr.
    """
    from deid import evaluation
    from deid.io import InputError, read_documents, write_jsonl, write_text_atomic

    try:
        docs = read_documents(gold)
        preds = evaluation.load_predictions(pred)
    except (OSError, InputError, ValueError) as exc:
        raise typer.BadParameter(f"cannot read input: {type(exc).__name__}: {exc}") from None
    selectors = _candidate_selectors(candidates, rate, seed)
    out = evaluation.evaluate(docs, preds.spans, candidates=selectors or None)
    out["inputs"]["prediction_file"] = preds.issues()
    if report:
        write_text_atomic(report, json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    error_list = out.pop("errors")
    if errors:
        write_jsonl(errors, error_list)
    sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    _print_summary(out)


def _candidate_selectors(names: str, rate: float, seed: int) -> dict[str, Any]:
    """Named candidate selectors from ``--candidates``; unknown names are a usage error."""
    from functools import partial

    from deid.evaluation import CANDIDATE_METHODS, random_candidates

    selectors: dict[str, Any] = {}
    for name in (n.strip() for n in names.split(",") if n.strip()):
        if name not in CANDIDATE_METHODS:
            raise typer.BadParameter(
                f"unknown candidate method {name!r}, use {sorted(CANDIDATE_METHODS)}"
            )
        selectors[name] = (
            partial(random_candidates, rate=rate, seed=seed)
            if name == "random"
            else CANDIDATE_METHODS[name]
        )
    return selectors


def _print_summary(out: dict[str, Any]) -> None:
    """Headline numbers and the per-type recall table, for a person at a terminal."""
    overall = out["overall"]
    table = Table(title=f"Evaluation ({out['inputs']['documents']} documents)")
    for col in ("metric", "precision", "recall", "f1", "f2"):
        table.add_column(col)
    el = overall["elements"]
    table.add_row("elements", *(str(el[k]) for k in ("precision", "recall", "f1", "f2")))
    for scheme, scores in overall["entities"].items():
        micro = scores["micro"]
        table.add_row(
            f"entities {scheme}", *(str(micro[k]) for k in ("precision", "recall", "f1", "f2"))
        )
    console.print(table)
    types = Table(title="Recall per type")
    for col in ("type", "gold", "strict", "overlap", "covered", "elements", "leaked"):
        types.add_column(col)
    for label, row in out["per_type"].items():
        has_gold = row["gold_spans"] > 0  # a type only predicted has no recall to show
        recalls = [row[s]["recall"] for s in ("strict", "overlap", "covered")]
        types.add_row(
            label,
            str(row["gold_spans"]),
            *(str(r) if has_gold else "-" for r in [*recalls, row["element_recall"]]),
            str(row["leaked_spans"]),
        )
    console.print(types)
    leak, keep, inputs = out["leakage"], out["keep"], out["inputs"]
    console.print(
        f"leak-free documents {leak['leak_free_documents']}/{leak['documents']} "
        f"({leak['leak_free_share']}), leaked spans {leak['leaked_spans']}/{leak['gold_spans']}; "
        f"keep entities hit {keep['hit']}/{keep['total']}; "
        f"errors {sum(out['error_counts'].values())}"
    )
    if inputs["missing_predictions"]["count"] or inputs["extra_predictions"]["count"]:
        console.print(
            f"[yellow]{inputs['missing_predictions']['count']} document(s) without predictions, "
            f"{inputs['extra_predictions']['count']} predicted id(s) not in gold"
        )


def register(app: typer.Typer) -> None:
    app.command("evaluate")(evaluate)
