"""Chunked, resumable anonymization runs: split an input into chunk files, process each with
:func:`deid.ops.batch.run_batch`, then merge the chunk results into the run's outputs.

An orchestrator (the Prefect ``anonymize`` flow) runs one task per chunk, so a crash or retry
costs one chunk, and a re-run skips every document already in a chunk result. Only file paths
travel between steps; document text stays in files.

Outputs of a run (all JSONL but the summary):

* ``anonymized.jsonl``: ``{"id", "text", "lineage"}``: the anonymized text and what made it
  (``deid.ops.lineage``: model version and alias, pipeline config hash, component versions, git
  commit, the input's sha256);
* ``spans.jsonl``: the span report ``{"id", "sha256", "characters", "spans", "counts"}``:
  offsets into the input text, labels, per-label counts; never text;
* ``quarantine.jsonl``: rejected inputs and failed documents (path or id, reason, size, hash);
* ``summary.json``: counts;
* ``documents/<id><suffix>``: each document read from a DOCX, PDF, HTML or court XML file,
  anonymized in that file's own format (``deid.anonymizer.writer``); plain text and JSONL
  records are in ``anonymized.jsonl`` only.
"""

from __future__ import annotations

import base64
import hashlib
import json
import lzma
import shutil
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deid.ops.batch import DUPLICATE_ID, BatchSummary, completed_ids, run_batch, settings_conflict
from deid.ops.sealed import Seal
from deid.schema import Document
from deid.sources.formats import format_of, load, strip_suffix
from deid.sources.inputs import iter_input
from deid.sources.io import (
    DEFAULT_MAX_BYTES,
    InputError,
    Rejected,
    sha256_bytes,
    text_hash,
    write_bytes_atomic,
    write_jsonl,
    write_text_atomic,
)

RESULTS, SPANS, QUARANTINE, SUMMARY = (
    "anonymized.jsonl",
    "spans.jsonl",
    "quarantine.jsonl",
    "summary.json",
)
CHUNK_DIR, RESULT_DIR = "chunks", "results"
DOCUMENT_DIR = "documents"  # files in their own format: below RESULT_DIR while running, then out
SETTINGS = "settings.json"  # what the chunk results were made with (forget_other_results)
INPUT_DIR = "input"  # an S3 input staged below the work dir


@dataclass(frozen=True)
class Plan:
    """Chunk files still to process, inputs rejected on reading, and counts."""

    chunks: list[str]
    rejected: list[dict[str, Any]]
    documents: int
    already_done: int

    def to_dict(self) -> dict[str, Any]:
        return {"chunks": self.chunks, "rejected": self.rejected, "documents": self.documents,
                "already_done": self.already_done}  # fmt: skip


@dataclass
class RunOutputs:
    """What a finished run wrote, as counts (the flow's summary)."""

    documents: int = 0
    quarantined: int = 0
    spans: int = 0
    labels: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"documents": self.documents, "quarantined": self.quarantined, "spans": self.spans,
                "labels": self.labels, "reasons": self.reasons, "files": self.files}  # fmt: skip


def result_files(work_dir: str | Path) -> list[Path]:
    """Chunk results, finished (``.jsonl``) or interrupted (``.jsonl.partial``)."""
    base = Path(work_dir) / RESULT_DIR
    return sorted(p for p in base.glob("chunk-*.jsonl*") if p.name.endswith((".jsonl", ".partial"))
                  and ".quarantine." not in p.name)  # fmt: skip


def done_ids(work_dir: str | Path) -> set[str]:
    """Ids of every document some chunk already finished."""
    out: set[str] = set()
    for path in result_files(work_dir):
        out |= completed_ids(path)
    return out


def forget_other_results(work_dir: str | Path, settings: dict[str, Any]) -> str | None:
    """Chunk results made with other ``settings`` (:func:`deid.ops.batch.run_settings`: operator,
    model) are removed so this run redoes them instead of keeping them; returns what
    differed (setting names), None when nothing did. Records this run's settings."""
    work_dir = Path(work_dir)
    record = work_dir / SETTINGS
    conflict = settings_conflict(record, settings) if result_files(work_dir) else None
    if conflict:
        shutil.rmtree(work_dir / RESULT_DIR)
    write_text_atomic(record, json.dumps(settings, sort_keys=True, indent=2) + "\n")
    return conflict


def plan_chunks(
    source: str | Path, work_dir: str | Path, chunk_size: int, *, location: str | None = None,
    seal: Seal, staged: bool = False,
) -> Plan:  # fmt: skip
    """Read ``source`` (JSONL, .txt or a folder; ``staged``: a folder :func:`stage` sealed),
    skip documents already done, and write the rest as chunk files of ``chunk_size``
    documents, sealed with the run's key (``deid.ops.sealed``): a document read from a file
    its format writes back (DOCX, PDF …) carries that file's bytes, so the chunk needs no
    other copy. A chunk's name is the hash of its ids, so a re-run with the same remaining
    documents finds its earlier partial result. Rejected inputs are reported by their path
    relative to ``source`` (prefixed with ``location``, the input as the caller named it,
    e.g. an S3 URL). Chunk files an earlier run left (sealed with its key) are removed."""
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    source, work_dir = Path(source), Path(work_dir)
    shutil.rmtree(work_dir / CHUNK_DIR, ignore_errors=True)
    done = done_ids(work_dir)
    pending: list[Document] = []
    rejected: list[dict[str, Any]] = []
    seen: set[str] = set()
    already = 0
    read_bytes = _sealed_reader(seal) if staged else None
    for item in iter_input(source, read_bytes=read_bytes):
        if isinstance(item, Rejected):
            rejected.append(_rejected(item, source, location))
            continue
        if item.id in seen:  # the first record with an id wins; a re-run decides the same
            rejected.append(_rejected_record(item, DUPLICATE_ID, source, location))
            continue
        seen.add(item.id)
        if item.id in done:
            already += 1
        else:
            pending.append(item)
    chunks = []
    for i in range(0, len(pending), chunk_size):
        docs = pending[i : i + chunk_size]
        name = hashlib.sha256("\n".join(d.id for d in docs).encode()).hexdigest()[:12]
        path = work_dir / CHUNK_DIR / f"chunk-{name}.jsonl"
        lines = (json.dumps(_input_record(d, read_bytes), ensure_ascii=False) + "\n" for d in docs)
        seal.write(path, "".join(lines).encode("utf-8"))
        chunks.append(str(path))
    return Plan(chunks, rejected, len(pending) + already, already)


def stage(url: str, work_dir: str | Path, seal: Seal) -> Path:
    """The objects below an S3 prefix, sealed below the work dir (never in clear on disk):
    the folder :func:`plan_chunks` reads with ``staged=True``. An earlier run's staged copy
    (sealed with its key) is removed first."""
    from deid.ops import s3

    target = Path(work_dir) / INPUT_DIR
    shutil.rmtree(target, ignore_errors=True)
    s3.download_prefix(url, target, write=seal.write)
    return target


def _sealed_reader(seal: Seal, max_bytes: int = DEFAULT_MAX_BYTES) -> Callable[[Path], bytes]:
    """A staged file's bytes as the object held them (opened; ``.xz`` unpacked, refused
    beyond ``max_bytes`` like a file on disk)."""

    def read(path: Path) -> bytes:
        data = seal.read(path)
        if not path.name.lower().endswith(".xz"):
            return data
        try:
            data = lzma.LZMADecompressor().decompress(data, max_length=max_bytes + 1)
        except lzma.LZMAError:
            raise InputError(f"{path}: not valid xz data") from None
        if len(data) > max_bytes:
            raise InputError(f"{path}: unpacks beyond the limit of {max_bytes} bytes")
        return data

    return read


def _input_record(doc: Document, read_bytes: Callable[[Path], bytes] | None) -> dict[str, Any]:
    """A chunk line: the document and, when its format writes files back, its file's bytes
    (base64), so the chunk writes it back without reading the input again."""
    out = {"id": doc.id, "text": doc.text, "meta": doc.meta, **({"source": doc.source} if doc.source else {})}
    fmt = format_of(doc)
    if doc.source and fmt.writes and fmt.name != "text":
        data = read_bytes(Path(doc.source)) if read_bytes else load(doc.source)
        out["file"] = base64.b64encode(data).decode("ascii")
    return out


def read_chunk(chunk: str | Path, seal: Seal) -> tuple[list[Document], dict[str, bytes]]:
    """A chunk's documents and the file bytes of those that carry them (by id)."""
    docs, files = [], {}
    for line in seal.read(chunk).decode("utf-8").splitlines():
        rec = json.loads(line)
        if "file" in rec:
            files[str(rec["id"])] = base64.b64decode(rec.pop("file"))
        docs.append(Document.from_dict(rec))
    return docs, files


def _rejected_record(
    doc: Document, reason: str, source: Path, location: str | None
) -> dict[str, Any]:
    """A quarantine row for one readable record: its input, its id (outputs keep the id the
    user gave) and a hash of its text, never the text."""
    data = doc.text.encode("utf-8")
    return {"input": location or source.name, "id": doc.id, "reason": reason, "size": len(data),
            "sha256": sha256_bytes(data)}  # fmt: skip


def _rejected(item: Rejected, source: Path, location: str | None) -> dict[str, Any]:
    path = Path(item.path)
    rel = (
        path.relative_to(source).as_posix()
        if source.is_dir() and path.is_relative_to(source)
        else path.name
    )
    where = f"{location.rstrip('/')}/{rel}" if location and source.is_dir() else (location or rel)
    row = {k: v for k, v in item.to_dict().items() if k != "path"}  # line and id of a record
    return {"input": where, **row}


def chunk_paths(chunk: str | Path, work_dir: str | Path) -> tuple[Path, Path]:
    """Where a chunk's results and its quarantine list go."""
    stem = Path(chunk).name.removesuffix(".jsonl")
    base = Path(work_dir) / RESULT_DIR
    return base / f"{stem}.jsonl", base / f"{stem}.quarantine.jsonl"


def output_record(
    doc: Document, record: dict[str, Any], lineage: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A chunk result line: the pipeline's record plus the input's hash and length (the span
    report needs them, and the input is not kept) and, given the run's ``lineage``
    (``deid.ops.lineage.Lineage.to_dict``), what made this record."""
    out = {**record, "sha256": text_hash(doc.text), "characters": len(doc.text)}
    if lineage is not None:
        from deid.ops.lineage import for_input

        out["lineage"] = for_input(lineage, doc.text)
    return out


def anonymize_chunk(
    chunk: str | Path, work_dir: str | Path, pipeline: Any, operator: str | None = None, *,
    seal: Seal, secret: bytes | None = None, lineage: dict[str, Any] | None = None,
) -> BatchSummary:  # fmt: skip
    """Anonymize one sealed chunk file with ``pipeline`` (``deid.anonymizer.pipeline.Pipeline``),
    document by document, into its result file; resumes a partial result. A document read
    from a file with a writer is also written back in its format below the work dir. A
    document that fails is quarantined with the reason, and the chunk goes on."""
    from deid.anonymizer.writer import write_document

    results, quarantine = chunk_paths(chunk, work_dir)
    folder = Path(work_dir) / RESULT_DIR / DOCUMENT_DIR
    op = pipeline.operator_for(operator)
    if lineage is not None:
        from deid.ops.lineage import with_runtime

        lineage = with_runtime(lineage, pipeline.runtime())
    docs, files = read_chunk(chunk, seal)

    def process(doc: Document) -> dict[str, Any]:
        record = pipeline.anonymize(doc, operator=op, secret=secret)
        write_document(folder, doc, record, op, secret=secret, plain_text=False, data=files.get(doc.id))
        return output_record(doc, record, lineage)

    return run_batch(docs, results, process, quarantine=quarantine, description="anonymize",
                     show_progress=False)  # fmt: skip


def discard_inputs(work_dir: str | Path) -> list[str]:
    """Remove the copies of the inputs (chunk files, a staged S3 input; sealed, see
    :func:`plan_chunks`) from the work dir: when the run's outputs are written, and when a
    run fails, crashes or is cancelled. The chunk results stay (anonymized text, ids and
    offsets): a re-run to the same output resumes from them. Returns what was removed
    (names, relative)."""
    removed = []
    for name in (CHUNK_DIR, INPUT_DIR):
        path = Path(work_dir) / name
        if path.exists():
            shutil.rmtree(path)
            removed.append(name)
    return removed


def _read_lines(path: Path) -> Iterable[dict[str, Any]]:
    """JSON lines; a torn last line of an interrupted chunk ends the file."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                return


def _result_row(rec: dict[str, Any]) -> dict[str, Any]:
    row = {"id": str(rec["id"]), "text": rec["text"]}
    if "lineage" in rec:
        row["lineage"] = rec["lineage"]
    return row


def write_outputs(
    work_dir: str | Path, out_dir: str | Path, rejected: Iterable[dict[str, Any]] = ()
) -> RunOutputs:
    """Merge every chunk result (each id once, sorted) into the run's output files."""
    work_dir, out_dir = Path(work_dir), Path(out_dir)
    records: dict[str, dict[str, Any]] = {}
    for path in result_files(work_dir):
        for rec in _read_lines(path):
            records.setdefault(str(rec["id"]), rec)
    failed: dict[str, dict[str, Any]] = {}  # failed again in a later run's chunk: listed once
    for path in sorted((work_dir / RESULT_DIR).glob("chunk-*.quarantine.jsonl")):
        failed.update(
            (str(q.get("id")), q) for q in _read_lines(path) if str(q.get("id")) not in records
        )
    quarantine = [*rejected, *failed.values()]
    summary = RunOutputs(documents=len(records), quarantined=len(quarantine))
    labels: Counter[str] = Counter()
    span_rows = []
    for doc_id in sorted(records):
        rec = records[doc_id]
        counts = Counter(s["label"] for s in rec["spans"])
        labels.update(counts)
        span_rows.append({"id": doc_id, "sha256": rec["sha256"], "characters": rec["characters"],
                          "spans": rec["spans"], "counts": dict(sorted(counts.items()))})  # fmt: skip
    documents = _copy_documents(work_dir / RESULT_DIR / DOCUMENT_DIR, out_dir, set(records))
    write_jsonl(out_dir / RESULTS, (_result_row(records[i]) for i in sorted(records)))
    write_jsonl(out_dir / SPANS, span_rows)
    write_jsonl(out_dir / QUARANTINE, quarantine)
    summary.spans = sum(labels.values())
    summary.labels = dict(sorted(labels.items()))
    summary.reasons = dict(sorted(Counter(q["reason"] for q in quarantine).items()))
    summary.files = [RESULTS, SPANS, QUARANTINE, SUMMARY, *documents]
    write_text_atomic(out_dir / SUMMARY, json.dumps(summary.to_dict(), indent=2) + "\n")
    return summary


def _copy_documents(folder: Path, out_dir: Path, ids: set[str]) -> list[str]:
    """The files written in their own format, of the documents this run's outputs hold, to
    ``out_dir/documents/`` (the same relative names); returns those names."""
    names = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):  # none before any writes
        rel = path.relative_to(folder).as_posix()
        if strip_suffix(rel) in ids:
            write_bytes_atomic(out_dir / DOCUMENT_DIR / rel, path.read_bytes())
            names.append(f"{DOCUMENT_DIR}/{rel}")
    return names
