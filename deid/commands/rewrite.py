"""``deid rewrite auto | interactive | apply``: building the rewritten test sets."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import typer
from rich.console import Console

from deid.corpus import RESERVED_LER
from deid.surrogates import SurrogateGenerator
from deid.surrogates.novel import DEFAULT_SOURCES, DEFAULT_TRAINING_TEXT

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
    return [v.strip() for v in value.split(",") if v.strip()]


def _select(input: Path, courts: str):
    """Documents of ``input`` of the given courts ('' = all)."""
    from deid.rewrite.inputs import load_documents

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
        "lexicon, wordfreq or training text knows (deid.surrogates.novel).",
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
    from deid.io import write_documents
    from deid.rewrite.auto import rewrite_ler_documents
    from deid.rewrite.inputs import load_documents

    docs = load_documents(input)
    generator = _generator(surrogates, seed, train, sources)
    out = list(rewrite_ler_documents(docs, _split(courts), seed, generator))
    if not out:
        raise typer.BadParameter(f"no LER documents of courts {courts} in {input}")
    write_documents(output, out)
    spans = sum(len(d.spans) for d in out)
    keep = sum(len(d.keep) for d in out)
    console.print(f"{len(out)} documents, {spans} surrogate spans, {keep} keep spans -> {output}")


def _generator(
    surrogates: str, seed: int, train: list[Path], sources: Path
) -> SurrogateGenerator:
    """The surrogate generator of ``--surrogates`` (a usage error for an unknown name)."""
    from deid.surrogates.novel import NOVEL, novel_gazetteers, training_text_words

    if surrogates == "eval":
        return SurrogateGenerator(seed=seed, pool="eval")
    if surrogates != NOVEL:
        raise typer.BadParameter(f"unknown surrogates {surrogates!r}; use 'eval' or '{NOVEL}'")
    words, read = training_text_words(train, sources)
    source = novel_gazetteers(words)
    logger.info("novel names %s (%s), training text %s", source.names.digest(),
                source.names.counts(), read)  # fmt: skip
    return SurrogateGenerator(seed=seed, source=source)


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
    from deid.rewrite.session import Session, SessionError
    from deid.rewrite.store import DecisionStore
    from deid.rewrite.tui import ScriptError, run

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
    from deid.io import write_documents
    from deid.rewrite.decisions import apply_decisions
    from deid.rewrite.inputs import load_documents
    from deid.rewrite.store import DecisionStore

    if not decisions.exists():
        raise typer.BadParameter(f"no decisions file at {decisions}")
    book = DecisionStore(decisions).load()
    docs = load_documents(input)
    known = {d.id for d in docs}
    missing = [i for i in book.docs if i not in known]
    if missing:
        raise typer.BadParameter(
            f"{len(missing)} decided documents not in {input}: {', '.join(missing[:5])}"
        )
    chosen = [d for d in docs if d.id in book.docs and (include_open or book.get(d.id).done)]
    try:
        out = [apply_decisions(d, book.get(d.id)) for d in chosen]
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    write_documents(output, out)
    console.print(f"{len(out)} rewritten documents -> {output}")


def register(app: typer.Typer) -> None:
    app.add_typer(rewrite_app, name="rewrite")
