"""``deid evaluate``: score predicted spans against a gold test set (see ``deid.evaluation.metrics``)."""

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
    overlap: Path | None = typer.Option(
        None,
        "--overlap",
        help="A surrogate overlap report (deid evaluate-overlap): also score the documents "
        "whose surrogates are unseen (report 'subsets').",
    ),
) -> None:
    """Element-, entity- and document-level metrics, leakage, keep hits, dev and sealed
    halves, slices, error list.

    Prints the report without the error list as JSON to stdout and a summary table to stderr.
    """
    from deid.evaluation import metrics as evaluation
    from deid.sources.io import InputError, read_documents, write_jsonl, write_text_atomic

    try:
        docs = read_documents(gold)
        preds = evaluation.load_predictions(pred)
        subsets = read_subsets(overlap)
    except (OSError, InputError, ValueError, KeyError) as exc:
        raise typer.BadParameter(f"cannot read input: {type(exc).__name__}: {exc}") from None
    selectors = _candidate_selectors(candidates, rate, seed)
    out = evaluation.evaluate(docs, preds.spans, candidates=selectors or None, subsets=subsets)
    out["inputs"]["prediction_file"] = preds.issues()
    if report:
        write_text_atomic(report, json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    error_list = out.pop("errors")
    if errors:
        write_jsonl(errors, error_list)
    sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    _print_summary(out)


def read_subsets(overlap: Path | None) -> dict[str, list[str]] | None:
    """The unseen-surrogate id subsets of an overlap report, if one is given."""
    if overlap is None:
        return None
    from deid.evaluation.surrogate_overlap import read_unseen_subsets

    return read_unseen_subsets(overlap)


def _candidate_selectors(names: str, rate: float, seed: int) -> dict[str, Any]:
    """Named candidate selectors from ``--candidates``; unknown names are a usage error."""
    from functools import partial

    from deid.evaluation.metrics import CANDIDATE_METHODS, random_candidates

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
    _print_halves(out)
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


def _print_halves(out: dict[str, Any]) -> None:
    """Whole set, halves and subsets side by side: sealed is the number to report."""
    table = Table(title="Halves (error analysis on dev only) and subsets")
    for col in ("part", "documents", "precision", "recall", "f2", "leak-free"):
        table.add_column(col)
    parts = {"all": out, **out.get("halves", {}), **out.get("subsets", {})}
    for name, part in parts.items():
        el = part["overall"]["elements"]
        table.add_row(
            name,
            str(part["overall"]["documents"]),
            *(str(el[k]) for k in ("precision", "recall", "f2")),
            str(part["leakage"]["leak_free_share"]),
        )
    console.print(table)


def evaluate_overlap(
    gold: list[str] = typer.Option(
        ..., "--gold", help="Gold set as NAME=PATH or PATH (name: the file's stem); repeatable."
    ),
    train: list[Path] = typer.Option(
        [Path("data/corpus/train.jsonl")],
        "--train",
        help="Training documents (JSONL) whose text counts as seen; repeatable; a missing "
        "file is skipped and noted.",
    ),
    report: Path = typer.Option(
        Path("reports/surrogate_overlap.json"), "--report", help="Where the JSON report goes."
    ),
) -> None:
    """Which gold surrogate words the train pool, the gazetteers, the lexicon or the training
    text know, per type, and the documents whose surrogates none knows (counts and ids)."""
    from deid.evaluation import surrogate_overlap as so
    from deid.sources.io import InputError, read_documents, write_text_atomic

    named = _named_paths(gold)
    try:
        sets = {name: (str(path), read_documents(path)) for name, path in named.items()}
        words, read = so.text_words(train)
    except (OSError, InputError, ValueError) as exc:
        raise typer.BadParameter(f"cannot read input: {type(exc).__name__}: {exc}") from None
    out = so.overlap_report(sets, so.default_sources(words), read)
    write_text_atomic(report, json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    _print_overlap(out)


def _named_paths(values: list[str]) -> dict[str, Path]:
    """``NAME=PATH`` or ``PATH`` (named by its stem); a name given twice is a usage error."""
    named: dict[str, Path] = {}
    for value in values:
        name, sep, path = value.partition("=")
        name, path = (name, path) if sep else (Path(value).stem, value)
        if name in named:
            raise typer.BadParameter(f"gold set {name!r} given twice; use NAME=PATH")
        named[name] = Path(path)
    return named


def _print_overlap(out: dict[str, Any]) -> None:
    """Per set: documents unseen, and per type spans known by each source."""
    for name, result in out["sets"].items():
        docs = result["documents"]
        table = Table(
            title=f"{name}: {docs['unseen']['count']} of {docs['with_name_words']} documents "
            f"unseen, {docs['unseen_in_training']['count']} unseen in training"
        )
        sources = list(out["parameters"]["sources"])
        for col in ("type", "spans", *sources, "unseen", "unseen in training"):
            table.add_column(col)
        for label, row in result["per_type"].items():
            table.add_row(
                label,
                str(row["spans"]),
                *(str(row["spans_known_by"][s]) for s in sources),
                str(row["spans_unseen"]),
                str(row["spans_unseen_in_training"]),
            )
        console.print(table)


def register(app: typer.Typer) -> None:
    app.command("evaluate")(evaluate)
    app.command("evaluate-overlap")(evaluate_overlap)
