"""The rewritten test sets built from files, without interaction: the automatic rewrite of
the reserved LER courts and the rebuild of the hand-rewritten set from its decisions file.

Both ``deid rewrite auto | apply`` and the DVC stage ``dataset`` call these, so the stage
depends on library code only (not on the command line) and the two always write the same
bytes. Errors a user can fix are ``RewriteError`` with paths, ids and counts, never text.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from deid.rewrite.surrogates import SurrogateGenerator
from deid.rewrite.surrogates.novel import DEFAULT_SOURCES
from deid.sources.errors import UserError

logger = logging.getLogger(__name__)

EVAL = "eval"  # the eval-pool gazetteer entries


class RewriteError(UserError, ValueError):
    """Input the rewrite cannot use (unknown surrogates, no matching documents, decisions
    for documents the input lacks); the command line reports it as a bad parameter."""


@dataclass(frozen=True)
class RewriteCounts:
    """What a rewrite wrote: enough for a log line or a metric."""

    documents: int
    spans: int
    keep: int


def split_courts(value: str) -> list[str]:
    """``"bgh, bverwg"`` → ``["bgh", "bverwg"]`` (empty parts dropped)."""
    return [v.strip() for v in value.split(",") if v.strip()]


def surrogate_generator(
    surrogates: str, seed: int, train: Sequence[Path] = (), sources: Path = DEFAULT_SOURCES
) -> SurrogateGenerator:
    """The generator of a surrogate pool: ``eval`` gazetteer entries, or ``novel`` names that
    no list, lexicon or the training text (``train``, rebuilt from ``sources`` when a file is
    missing) knows."""
    from deid.rewrite.surrogates.novel import NOVEL, novel_gazetteers, training_text_words

    if surrogates == EVAL:
        return SurrogateGenerator(seed=seed, pool="eval")
    if surrogates != NOVEL:
        raise RewriteError(f"unknown surrogates {surrogates!r}; use '{EVAL}' or '{NOVEL}'")
    words, read = training_text_words(list(train), sources)
    source = novel_gazetteers(words)
    logger.info("novel names %s (%s), training text %s", source.names.digest(),
                source.names.counts(), read)  # fmt: skip
    return SurrogateGenerator(seed=seed, source=source)


def rewrite_auto(
    input: Path,
    output: Path,
    *,
    courts: str,
    seed: int,
    surrogates: str = EVAL,
    train: Sequence[Path] = (),
    sources: Path = DEFAULT_SOURCES,
) -> RewriteCounts:
    """Replace every LER placeholder of the comma-separated ``courts`` in ``input`` (corpus
    JSONL or the LER CoNLL folder) by a surrogate of ``surrogates``, seeded; write the
    rewritten documents to ``output``."""
    from deid.rewrite.gold.auto import rewrite_ler_documents
    from deid.rewrite.gold.inputs import load_documents
    from deid.sources.io import write_documents

    docs = load_documents(input)
    generator = surrogate_generator(surrogates, seed, train, sources)
    out = list(rewrite_ler_documents(docs, split_courts(courts), seed, generator))
    if not out:
        raise RewriteError(f"no LER documents of courts {courts} in {input}")
    write_documents(output, out)
    return RewriteCounts(len(out), sum(len(d.spans) for d in out), sum(len(d.keep) for d in out))


def rewrite_apply(input: Path, decisions: Path, output: Path, *, include_open: bool = False) -> RewriteCounts:
    """Rebuild the rewritten documents of ``input`` from the ``decisions`` file (finished
    documents only unless ``include_open``) into ``output``."""
    from deid.rewrite.gold.decisions import apply_decisions
    from deid.rewrite.gold.inputs import load_documents
    from deid.rewrite.gold.store import DecisionStore
    from deid.sources.io import write_documents

    if not decisions.exists():
        raise RewriteError(f"no decisions file at {decisions}")
    book = DecisionStore(decisions).load()
    docs = load_documents(input)
    known = {d.id for d in docs}
    missing = [i for i in book.docs if i not in known]
    if missing:
        raise RewriteError(f"{len(missing)} decided documents not in {input}: {', '.join(missing[:5])}")
    chosen = [d for d in docs if d.id in book.docs and (include_open or book.get(d.id).done)]
    try:
        out = [apply_decisions(d, book.get(d.id)) for d in chosen]
    except ValueError as exc:
        raise RewriteError(str(exc)) from None
    write_documents(output, out)
    return RewriteCounts(len(out), sum(len(d.spans) for d in out), sum(len(d.keep) for d in out))
