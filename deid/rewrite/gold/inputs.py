"""Loading the documents a rewrite starts from.

The corpus JSONL (``deid corpus build``) is the normal input; a directory or file of LER
CoNLL (``data/sources/ler``) and the raw decision folders are accepted too, so a rewrite can
be made before or without a corpus build. Unreadable inputs are skipped with their path and
reason only.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from deid.schema import Document
from deid.sources.inputs import iter_input
from deid.sources.io import Rejected

logger = logging.getLogger(__name__)

_CONLL_SUFFIXES = (".conll", ".conll.xz")


def _is_conll(path: Path) -> bool:
    return path.name.endswith(_CONLL_SUFFIXES)


def load_documents(source: str | Path, ids: Iterable[str] | None = None) -> list[Document]:
    """Documents from JSONL/.txt/a directory, or LER CoNLL; optionally only ``ids`` (in the
    order given), which must all exist."""
    source = Path(source)
    if _is_conll(source) or (source.is_dir() and any(map(_is_conll, source.iterdir()))):
        from deid.sources.ler import load_ler_file  # imported here: parsing LER is only needed here

        files = (
            [source] if source.is_file() else sorted(p for p in source.iterdir() if _is_conll(p))
        )
        docs = [d for path in files for d in load_ler_file(path)]
    else:
        docs = []
        for item in iter_input(source):
            if isinstance(item, Rejected):
                logger.warning("skipped input %s: %s", item.path, item.reason)
            else:
                docs.append(item)
    if ids is None:
        return docs
    wanted = list(ids)
    by_id = {d.id: d for d in docs}
    missing = [i for i in wanted if i not in by_id]
    if missing:
        raise KeyError(f"{len(missing)} requested document ids not in {source}: {missing[:5]}")
    return [by_id[i] for i in wanted]
