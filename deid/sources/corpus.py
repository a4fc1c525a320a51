"""One document model for all bundled sources, and the document-level split.

Sources under ``data/sources``: the LER corpus (``ler/<court>.conll.xz``, rebuilt into
decisions by :mod:`deid.sources.ler`) and the raw decisions (``decisions/<collection>/*.txt.xz``,
read with :func:`deid.sources.inputs.iter_input` so a broken file is rejected, not fatal).

Split: the reserved evaluation parts (LER ``bgh`` and ``bverwg``, ``decisions/bavaria``) go
to ``test`` and only there; every other document goes to ``train`` or ``validation`` by a
salted hash of its id, so the split is deterministic, independent of file order and stable
when documents are added. Splitting is by document, never by sentence or paragraph.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from deid.schema import Document
from deid.sources.inputs import iter_input
from deid.sources.io import Rejected, sha256_bytes, write_documents, write_text_atomic
from deid.sources.ler import load_ler

logger = logging.getLogger(__name__)

SPLITS: tuple[str, ...] = ("train", "validation", "test")
RESERVED_LER: frozenset[str] = frozenset({"bgh", "bverwg"})
RESERVED_DECISIONS: frozenset[str] = frozenset({"bavaria"})
DEFAULT_VALIDATION_SHARE = 0.1
DEFAULT_SALT = "deid"


# --- loading ------------------------------------------------------------------------------


def load_ler_sources(
    root: str | Path, progress: Callable[[str], None] | None = None
) -> list[Document]:
    """LER decisions of every court file found under ``root/ler``."""
    return load_ler(Path(root) / "ler", progress=progress)


def load_decisions(
    root: str | Path, progress: Callable[[str], None] | None = None
) -> tuple[list[Document], list[Rejected]]:
    """Raw decisions under ``root/decisions/<collection>/``; unreadable files come back as
    :class:`~deid.sources.io.Rejected` instead of stopping the load."""
    base = Path(root) / "decisions"
    docs: list[Document] = []
    rejected: list[Rejected] = []
    if not base.is_dir():
        logger.warning("no decisions folder: %s", base)
        return docs, rejected
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        collection = folder.name
        for item in iter_input(folder):
            if isinstance(item, Rejected):
                logger.warning("rejected %s: %s", item.path, item.reason)
                rejected.append(item)
                continue
            docs.append(_decision_document(item, collection))
        if progress:
            progress(f"decisions/{collection}")
    return docs, rejected


def _decision_document(doc: Document, collection: str) -> Document:
    stem = doc.id.split("/")[-1]
    meta: dict[str, Any] = {"corpus": "decisions", "collection": collection}
    meta.update(doc.meta)
    meta.update(parse_header(doc.text, collection, stem))
    return Document(
        id=f"dec-{collection}-{stem}",
        text=doc.text,
        court=collection,
        source=doc.source,
        meta=meta,
    )


def load_sources(root: str | Path, progress: Callable[[str], None] | None = None) -> list[Document]:
    """Every bundled document: LER decisions, then raw decisions (rejected files skipped)."""
    docs = load_ler_sources(root, progress)
    decisions, _ = load_decisions(root, progress)
    return docs + decisions


# --- header fields ------------------------------------------------------------------------

# An ECLI ends in ".<number>"; in the BFH export the court name follows without a space.
_ECLI = re.compile(r"ECLI:[A-Z]{2}:[A-Za-z]+:\d{4}:[A-Za-z0-9.]*?\.\d+(?![0-9.])")
_KIND = re.compile(r"\b(Urteil|Beschluss|Gerichtsbescheid|Endurteil|Versäumnisurteil)\b")
_BVERWG_CITE = re.compile(
    r"BVerwG, (\w+) vom (\d{2}\.\d{2}\.\d{4}) - ([^-\]]+?) - \[(ECLI:[^\]]+)\]"
)
_BFH_HEAD = re.compile(r"^(Urteil|Beschluss)\s*\nvom ([^,\n]+), ([^\n(]+)", re.MULTILINE)
_BAG_STEM = re.compile(r"^(\d+)-([a-z]+)-(\d+)-(\d{2})(?:-[a-z])?$")


def parse_header(text: str, collection: str, stem: str = "") -> dict[str, Any]:
    """Cheap header fields (title, decision type, date, file number, ECLI) where the layout
    of the collection shows them; absent fields are left out. Only the first 3,000
    characters are looked at, so a huge file costs nothing extra."""
    head = text[:3000]
    out: dict[str, Any] = {}
    if collection == "bavaria":
        m = re.search(r"^Titel:[ \t]*\n(.+)$", head, re.MULTILINE)
        if m:
            out["title"] = m.group(1).strip()
        m = re.search(r"^BeckRS (\d{4}, \d+)$", head, re.MULTILINE)
        if m:
            out["beckrs"] = m.group(1)
    elif collection == "bverwg":
        m = _BVERWG_CITE.search(head)
        if m:
            out.update(kind=m.group(1), date=m.group(2), file_number=m.group(3).strip())
            out["ecli"] = m.group(4)
    elif collection == "bfh":
        m = _BFH_HEAD.search(head)
        if m:
            out.update(kind=m.group(1), date=m.group(2).strip(), file_number=m.group(3).strip())
    elif collection == "bag":
        m = _BAG_STEM.match(stem)
        if m:
            out["file_number"] = f"{m.group(1)} {m.group(2).upper()} {m.group(3)}/{m.group(4)}"
    if "ecli" not in out:
        m = _ECLI.search(head)
        if m:
            out["ecli"] = m.group(0)
    if "kind" not in out:
        m = _KIND.search(head[:600])
        if m:
            out["kind"] = m.group(1)
    return out


# --- split --------------------------------------------------------------------------------


def is_reserved(doc: Document) -> bool:
    """Whether ``doc`` belongs to a part reserved for evaluation (test only)."""
    corpus = doc.meta.get("corpus")
    if corpus == "ler":
        return doc.court in RESERVED_LER
    if corpus == "decisions":
        return doc.court in RESERVED_DECISIONS
    return False


def is_reserved_court(doc: Document) -> bool:
    """Wider than :func:`is_reserved`: a reserved court's document whatever its corpus tag
    (only a decision tagged ``decisions`` escapes the LER courts), for builders that must
    refuse evaluation data in any file they are given."""
    if doc.court in RESERVED_DECISIONS:
        return True
    return doc.court in RESERVED_LER and doc.meta.get("corpus") != "decisions"


def assign_split(
    doc: Document,
    validation_share: float = DEFAULT_VALIDATION_SHARE,
    salt: str = DEFAULT_SALT,
) -> str:
    """``test`` for reserved documents, else ``validation`` for a ``validation_share`` of ids
    (by a salted SHA-256 of the id) and ``train`` for the rest."""
    if not 0.0 <= validation_share <= 1.0:
        raise ValueError(f"validation_share must be within [0, 1], got {validation_share}")
    if is_reserved(doc):
        return "test"
    digest = hashlib.sha256(f"{salt}\x00{doc.id}".encode()).digest()
    bucket = int.from_bytes(digest[:8], "big") / 2**64
    return "validation" if bucket < validation_share else "train"


def split_corpus(
    docs: Iterable[Document],
    validation_share: float = DEFAULT_VALIDATION_SHARE,
    salt: str = DEFAULT_SALT,
) -> dict[str, list[Document]]:
    """Documents per split, in input order; duplicate ids are an error (a leak risk)."""
    out: dict[str, list[Document]] = {name: [] for name in SPLITS}
    seen: set[str] = set()
    for doc in docs:
        if doc.id in seen:
            raise ValueError(f"duplicate document id {doc.id}")
        seen.add(doc.id)
        out[assign_split(doc, validation_share, salt)].append(doc)
    return out


# --- build --------------------------------------------------------------------------------


def court_key(doc: Document) -> str:
    """``ler:bag`` / ``decisions:bag``: LER and raw decisions share court names."""
    return f"{doc.meta.get('corpus', 'other')}:{doc.court}"


def split_stats(docs: Iterable[Document]) -> dict[str, dict[str, int]]:
    """Documents, characters and entities per court key (no text)."""
    stats: dict[str, dict[str, int]] = defaultdict(
        lambda: {"documents": 0, "characters": 0, "entities": 0}
    )
    for doc in docs:
        row = stats[court_key(doc)]
        row["documents"] += 1
        row["characters"] += len(doc.text)
        row["entities"] += len(doc.entities)
    return {key: stats[key] for key in sorted(stats)}


def build_corpus(
    sources_root: str | Path,
    out_dir: str | Path,
    validation_share: float = DEFAULT_VALIDATION_SHARE,
    salt: str = DEFAULT_SALT,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write ``out_dir/{train,validation,test}.jsonl`` and ``manifest.json``; return the
    manifest. All files are written atomically; the manifest is written last, so its
    presence means a complete corpus."""
    out_dir = Path(out_dir)
    docs = load_ler_sources(sources_root, progress)
    decisions, rejected = load_decisions(sources_root, progress)
    docs += decisions
    splits = split_corpus(docs, validation_share, salt)
    manifest: dict[str, Any] = {
        "parameters": {
            "sources": str(sources_root),
            "validation_share": validation_share,
            "salt": salt,
            "reserved": {
                "ler": sorted(RESERVED_LER),
                "decisions": sorted(RESERVED_DECISIONS),
            },
        },
        "splits": {},
        "rejected": [r.to_dict() for r in rejected],
    }
    for name in SPLITS:
        path = out_dir / f"{name}.jsonl"
        count = write_documents(path, splits[name])
        stats = split_stats(splits[name])
        manifest["splits"][name] = {
            "file": path.name,
            "documents": count,
            "characters": sum(row["characters"] for row in stats.values()),
            "entities": sum(row["entities"] for row in stats.values()),
            "sha256": sha256_bytes(path.read_bytes()),
            "courts": stats,
        }
        logger.info("split %s: %d documents", name, count)
        if progress:
            progress(f"wrote {name}")
    write_text_atomic(
        out_dir / "manifest.json", json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    )
    return manifest
