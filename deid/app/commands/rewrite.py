"""``deid rewrite auto | interactive | apply``: building the rewritten test sets."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import typer
from rich.console import Console

from deid.rewrite.surrogates.novel import DEFAULT_SOURCES, DEFAULT_TRAINING_TEXT
from deid.sources.corpus import RESERVED_LER

logger = logging.getLogger(__name__)
console = Console(stderr=True, highlight=False)

DEFAULT_INPUT = Path("data/corpus/test.jsonl")
DEFAULT_DECISIONS = Path("data/gold/bavaria/decisions.jsonl")
DEFAULT_REWRITTEN = Path("data/gold/bavaria/rewritten.jsonl")

rewrite_app = typer.Typer(
    name="rewrite",
    help="Rewritten test sets: placeholders of reserved decisions replaced by surrogates.",
    no_args_is_help=True,
)


def _split(value: str) -> list[str]:
    from deid.rewrite.gold.build import split_courts

    return split_courts(value)


def _select(input: Path, courts: str):
    """Documents of ``input`` of the given courts ('' = all)."""
    from deid.rewrite.gold.inputs import load_documents

    try:
        docs = load_documents(input)
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(str(exc)) from None
    wanted = set(_split(courts))
    return [d for d in docs if not wanted or (d.court or "") in wanted]


@rewrite_app.command("auto")
def auto(
    input: Path = typer.Option(
        DEFAULT_INPUT, "--input", "-i", help="LER documents: corpus JSONL, or the LER CoNLL folder."
    ),
    output: Path = typer.Option(
        ..., "--output", "-o", help="Rewritten documents (JSONL, data contract)."
    ),
    courts: str = typer.Option(",".join(sorted(RESERVED_LER)), help="Comma-separated LER courts to rewrite."),
    seed: int = typer.Option(13, help="Surrogate seed; the same seed gives the same test set."),
    surrogates: str = typer.Option(
        "eval",
        help="'eval': eval-pool gazetteer entries; 'novel': made-up names that no list, "
        "lexicon, wordfreq or training text knows (deid.rewrite.surrogates.novel).",
    ),
    train: list[Path] = typer.Option(
        list(DEFAULT_TRAINING_TEXT),
        "--train",
        help="novel: training documents (JSONL) whose words surrogates must avoid; repeatable. "
        "When one is missing, the training and validation splits are rebuilt from --sources.",
    ),
    sources: Path = typer.Option(
        DEFAULT_SOURCES, help="novel: bundled sources to rebuild the training splits from."
    ),
) -> None:
    """Replace every LER placeholder of the reserved courts by an eval-pool (or novel)
    surrogate."""
    from deid.rewrite.gold.build import RewriteError, rewrite_auto

    try:
        counts = rewrite_auto(
            input, output, courts=courts, seed=seed, surrogates=surrogates, train=train, sources=sources
        )
    except RewriteError as exc:
        raise typer.BadParameter(str(exc)) from None
    console.print(
        f"{counts.documents} documents, {counts.spans} surrogate spans, {counts.keep} keep spans -> {output}"
    )


def _script_lines(script: Path | None) -> Iterator[str] | None:
    if script is None:
        return None if sys.stdin.isatty() else iter(sys.stdin)
    if str(script) == "-":
        return iter(sys.stdin)
    return iter(script.read_text(encoding="utf-8").splitlines())


@rewrite_app.command("interactive")
def interactive(
    input: Path = typer.Option(
        DEFAULT_INPUT, "--input", "-i", help="Documents to rewrite (JSONL, .txt or folder)."
    ),
    ids: str = typer.Option(
        "", help="Comma-separated document ids to walk, in this order (default: all)."
    ),
    courts: str = typer.Option("bavaria", help="Courts to take from --input ('' = all)."),
    decisions: Path = typer.Option(
        DEFAULT_DECISIONS,
        "--decisions",
        "-d",
        help="Placeholder-decisions file (created or resumed).",
    ),
    output: Path = typer.Option(
        DEFAULT_REWRITTEN, "--output", "-o", help="Rewritten documents of every finished document."
    ),
    script: Path | None = typer.Option(
        None, help="Read commands from this file ('-': stdin) instead of the keyboard."
    ),
    seed: int = typer.Option(13, help="Seed of the proposed surrogates."),
    clear: bool = typer.Option(True, help="Clear the screen before each element."),
    quiet: bool = typer.Option(False, help="Print nothing but errors (for scripts)."),
) -> None:
    """Decide placeholder by placeholder; saves after every decision, resumes where you left."""
    from deid.rewrite.gold.session import Session, SessionError
    from deid.rewrite.gold.store import DecisionStore
    from deid.rewrite.gold.tui import ScriptError, run

    docs = _select(input, courts)
    walk = _split(ids) if ids else [d.id for d in docs]
    store = DecisionStore(decisions)
    try:
        book = store.load()
        session = Session(docs, book, ids=walk, seed=seed, store=store, output=output)
    except (SessionError, ValueError) as exc:
        raise typer.BadParameter(str(exc)) from None
    logger.info("interactive rewrite: %d documents, decisions in %s", len(walk), decisions)
    try:
        status = run(session, script=_script_lines(script), clear=clear, quiet=quiet)
    except ScriptError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from None
    raise typer.Exit(status)


@rewrite_app.command("apply")
def apply(
    input: Path = typer.Option(
        DEFAULT_INPUT, "--input", "-i", help="Original documents the decisions refer to."
    ),
    decisions: Path = typer.Option(
        DEFAULT_DECISIONS, "--decisions", "-d", help="Placeholder-decisions file."
    ),
    output: Path = typer.Option(
        DEFAULT_REWRITTEN, "--output", "-o", help="Rewritten documents (JSONL)."
    ),
    include_open: bool = typer.Option(False, help="Also write documents not yet finished."),
) -> None:
    """Rebuild the rewritten documents from the decisions file, without interaction."""
    from deid.rewrite.gold.build import RewriteError, rewrite_apply

    try:
        counts = rewrite_apply(input, decisions, output, include_open=include_open)
    except RewriteError as exc:
        raise typer.BadParameter(str(exc)) from None
    console.print(f"{counts.documents} rewritten documents -> {output}")


def register(app: typer.Typer) -> None:
    app.add_typer(rewrite_app, name="rewrite")
