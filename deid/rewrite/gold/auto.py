"""Automatic rewrite of the reserved LER courts into a test set with gold spans.

LER tells us where the courts' placeholders are (``deid.rewrite.placeholders.gold``); each one is
replaced by an ``eval``-pool surrogate of its type, consistent within the document and a
pure function of the seed, so the test set can be rebuilt bit for bit. Every other LER
entity stays in the text and becomes a ``keep`` span: the entities a good anonymizer must
leave alone (judges, courts, laws, …), and so does a date of birth, death or marriage the
court printed (the policy neutralizes it: scoring sets it aside as a disagreement). With the ``novel`` source
(``deid.rewrite.surrogates.novel``) the same placeholders get made-up names that no list, lexicon
or training text of the system knows: the same documents and spans, names unseen.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterable, Iterator

from deid.rewrite.gold.keep_labels import ler_keep_spans
from deid.rewrite.placeholders.gold import ler_gold_placeholders, ler_unjudged
from deid.rewrite.surrogates import (
    DocumentSurrogates,
    SurrogateGenerator,
    generator_name,
    substitute,
)
from deid.rewrite.surrogates.novel import NovelGazetteers
from deid.schema import Document, Span
from deid.sources.corpus import RESERVED_LER
from deid.sources.io import text_hash
from deid.words.roles import personal_dates

logger = logging.getLogger(__name__)

DEFAULT_COURTS: tuple[str, ...] = tuple(sorted(RESERVED_LER))  # the evaluation courts
DEFAULT_SEED = 13
POOL = "eval"  # surrogates a model never saw in training


def auto_id(source_id: str, seed: int, pool: str = POOL) -> str:
    """Id of a rewritten document: the source id plus how it was made (``auto`` for eval-pool
    surrogates, else the source's name), so a source and its rewrites can sit in one corpus
    without clashing."""
    return f"{source_id}.{'auto' if pool == POOL else pool}-s{seed}"


def rewrite_ler_document(doc: Document, generator: SurrogateGenerator) -> Document:
    """One LER document with every gold placeholder replaced by a surrogate."""
    placeholders = [Span(s.start, s.end, s.label) for s in ler_gold_placeholders(doc)]
    keep = ler_keep_spans(doc, placeholders, printed_places=True)
    surrogates = DocumentSurrogates(generator, doc.id)
    text, spans, carried = substitute(doc.text, placeholders, surrogates, carry=keep)
    # LER annotates no dates: a date of birth, death or marriage the court printed is a keep
    # span too, so that scoring lists it as the court's disagreement with its profile (both
    # profiles neutralize it; deid.evaluation.profiles) instead of counting its hit as false
    taken = [*spans, *carried]
    carried = [*carried, *(d for d in printed_personal_dates(text) if not any(d.overlaps(t) for t in taken))]
    labels = sorted({s.label for s in spans})
    meta = {
        "rewrite": "auto",
        "source_id": doc.id,
        "source_hash": text_hash(doc.text),
        "seed": generator.seed,
        "surrogate_pool": generator.pool,
        "generators": {label: generator_name(label) for label in labels},
        **_source_meta(generator),
        # placeholder-shaped LER entities of other types ("Amtsgericht P."): left as they are
        "unreplaced_placeholder_entities": len(ler_unjudged(doc)),
    }
    if "corpus" in doc.meta:
        meta["corpus"] = doc.meta["corpus"]
    return Document(
        id=auto_id(doc.id, generator.seed, generator.pool),
        text=text,
        court=doc.court,
        meta=meta,
        spans=sorted(spans),
        keep=sorted(carried),
    )


# The gold's own reading of a date of birth, death or marriage, stricter than the policy's cue
# (deid.words.roles): "am" before the date and the participle right after it ("am 26. November
# 1948 geborene", "am 24. Mai 2013 verstorbenen"), or the date right after "geb."/"geboren am"/
# "verstarb am". Not a compound of the same clause ("Geburtstagsreise", "Todesurteile") nor a
# statute's cut-off ("vor dem 1. Juli 1949 geborenem Kind", "am … bereits verstorben"), so that
# no date the product should keep is set aside
_BEFORE_PERSONAL_DATE = re.compile(r"(?:(?<!\w)geb\.|(?:geboren|verstorben|verstarb|geheiratet|heiratete\w*) am)\s$", re.IGNORECASE)
_AROUND_PERSONAL_DATE = (re.compile(r"(?<!\w)am\s$"), re.compile(r"^\s(?:geboren|verstorben|gestorben|verheiratet)\w*"))


def printed_personal_dates(text: str) -> list[Span]:
    """The dates of birth, death or marriage of ``text`` by the gold's strict reading."""
    before, after = _AROUND_PERSONAL_DATE
    return [d for d in personal_dates(text)
            if _BEFORE_PERSONAL_DATE.search(text[max(0, d.start - 20) : d.start])
            or (before.search(text[max(0, d.start - 5) : d.start]) and after.search(text[d.end : d.end + 20]))]  # fmt: skip


def _source_meta(generator: SurrogateGenerator) -> dict[str, str]:
    """Which novel names a rewrite drew from (their lists' hash), nothing for a pool."""
    source = generator.gazetteers
    return {"novel_names": source.names.digest()} if isinstance(source, NovelGazetteers) else {}


def rewrite_ler_documents(
    docs: Iterable[Document],
    courts: Iterable[str] = DEFAULT_COURTS,
    seed: int = DEFAULT_SEED,
    generator: SurrogateGenerator | None = None,
) -> Iterator[Document]:
    """Rewrite the LER documents of ``courts``; others (and documents without LER entities)
    are skipped and counted. ``generator`` (default: the eval pool with ``seed``) chooses
    the surrogate source; its own seed then applies."""
    wanted = {c.lower() for c in courts}
    generator = generator or SurrogateGenerator(seed=seed, pool=POOL)
    seed = generator.seed
    counts: Counter[str] = Counter()
    for doc in docs:
        if (doc.court or "").lower() not in wanted:
            counts["other_court"] += 1
            continue
        if not doc.entities:
            counts["no_entities"] += 1
            continue
        out = rewrite_ler_document(doc, generator)
        counts["rewritten"] += 1
        counts["spans"] += len(out.spans)
        counts["keep"] += len(out.keep)
        logger.debug("rewrote %s: %d spans, %d keep", doc.id, len(out.spans), len(out.keep))
        yield out
    logger.info("automatic rewrite (seed %d): %s", seed, dict(counts))
