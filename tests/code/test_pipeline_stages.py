"""The DVC pipeline: every stage's ``main()`` on six real documents (tiny profile), and
``dvc.yaml`` itself (valid for DVC, deps covering the deid modules each stage imports,
params that exist, metrics and plots outside the cache). Reviews saved through the real
service (``deid serve`` on loopback) reach the next training."""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import lzma
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from deid.ops.versioning import import_sources
from deid.sources.reviews.dataset import ReviewSettings
from deid.sources.ler import read_conll, split_documents
from pipelines import (
    dataset,
    evaluate,
    ingest,
    paragraphs,
    placeholders,
    reviews,
    train,
    validate,
    words,
    written,
)
from tests.conftest import ROOT, SOURCES, read_source

STAGES = ("ingest", "words", "paragraphs", "placeholders", "validate", "dataset", "reviews", "written", "encoder", "train",
          "evaluate")  # fmt: skip
DVC_YAML = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))
PARAMS = yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))

# six documents with placeholders (and a 392-character stub), split by a salted hash with
# validation_share 0.5: train 3, validation 1, test 2 (LER bgh and Bavaria are reserved)
LER_DOCS = {"bag": 6, "bfh": 3, "bgh": 10}  # court → the decision taken as a one-decision file
DECISIONS = ("bag/4-azb-22-23", "bag/1-azr-75-23", "bavaria/Y-300-Z-BECKRS-B-2024-N-5368")


# --- building a tiny raw corpus -----------------------------------------------------------


def _write_ler_document(court: str, number: int, target: Path) -> None:
    """Decision ``number`` of a court file alone in a CoNLL file (it becomes number 1)."""
    sentences = read_conll(SOURCES / "ler" / f"{court}.conll.xz")
    segment = split_documents(sentences, court)[number - 1]
    lines = []
    for sentence in sentences[segment.start : segment.end]:
        lines += [f"{tok} {tag}" for tok, tag in zip(sentence.tokens, sentence.tags)] + [""]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(lzma.compress("\n".join(lines).encode("utf-8")))


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace laid out like the project: tiny sources imported into data/raw, the
    Bavarian decisions of the chosen document only, params for the tiny profile."""
    ws = tmp_path_factory.mktemp("pipeline")
    sources = ws / "sources"
    for court, n in LER_DOCS.items():
        _write_ler_document(court, n, sources / "ler" / f"{court}.conll.xz")
    for rel in DECISIONS:
        target = sources / "decisions" / f"{rel}.txt.xz"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SOURCES / "decisions" / f"{rel}.txt.xz", target)
    import_sources(sources, ws / "data" / "raw")
    # the reviewed LER verdicts refer to the original numbering: none apply here
    (ws / "adjudication.jsonl").write_text("", encoding="utf-8")
    chosen = "dec-bavaria-" + DECISIONS[-1].split("/")[1]
    lines = (ROOT / "data/gold/bavaria/decisions.jsonl").read_text(encoding="utf-8").splitlines()
    (ws / "decisions.jsonl").write_text(
        "".join(line + "\n" for line in lines if json.loads(line)["doc_id"] == chosen),
        encoding="utf-8",
    )
    params = json.loads(json.dumps(PARAMS))
    params["model"]["profile"] = "tiny"
    params["corpus"]["validation_share"] = 0.5
    (ws / "holdout.json").write_text(json.dumps([chosen]), encoding="utf-8")
    shutil.copytree(ROOT / "gx", ws / "gx", ignore=shutil.ignore_patterns("uncommitted"))
    params["validate"] |= {  # six documents: a few spans, not the hundreds of the real corpus
        "min_precision": 0.5, "min_recall": 0.5, "min_gold_elements": 1, "min_label_spans": 0,
        "required_labels": ["PERSON"], "placeholder_share_min": 0.0, "placeholder_share_max": 0.1,
    }  # fmt: skip
    (ws / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    return ws


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ingested(ws: Path) -> Path:
    ingest.main(_argv(ws, raw="data/raw", params="params.yaml", output="data/corpus", metrics="reports/corpus.json"))
    return ws


@pytest.fixture(scope="module")
def with_paragraphs(ingested: Path) -> Path:
    ws = ingested
    paragraphs.main(_argv(ws, corpus="data/corpus", output="data/work/paragraphs", metrics="reports/paragraphs.json"))
    return ws


@pytest.fixture(scope="module")
def with_placeholders(ingested: Path) -> Path:
    ws = ingested
    placeholders.main(_argv(ws, corpus="data/corpus", output="data/work/placeholders.jsonl",
                            quarantine="data/work/placeholders.quarantine.jsonl",
                            metrics="reports/placeholders.json"))  # fmt: skip
    return ws


def _argv(ws: Path, *extra: str, **paths: str) -> list[str]:
    """A stage's command line: ``--name`` and the path under ``ws`` for each keyword
    (underscores become hyphens), then ``extra`` as given."""
    return [a for k, v in paths.items() for a in (f"--{k.replace('_', '-')}", f"{ws}/{v}")] + list(extra)


def _validate_argv(ws: Path, params: Path) -> list[str]:
    return _argv(ws, "--params", str(params), corpus="data/corpus", placeholders="data/work/placeholders.jsonl",
                 adjudication="adjudication.jsonl", decisions="decisions.jsonl", holdout="holdout.json", gx="gx",
                 metrics="reports/validate.json", summary="reports/validate.md")  # fmt: skip


@pytest.fixture(scope="module")
def validated(with_placeholders: Path) -> Path:
    ws = with_placeholders
    validate.main(_validate_argv(ws, ws / "params.yaml"))
    return ws


@pytest.fixture(scope="module")
def with_dataset(validated: Path) -> Path:
    ws = validated
    dataset.main(
        _argv(ws, "--ler-courts", "bgh,bverwg", "--seed", "13", corpus="data/corpus",
              placeholders="data/work/placeholders.jsonl", validation_report="reports/validate.json",
              decisions="decisions.jsonl", output="data/dataset", ler_rewritten="data/gold/ler_rewritten.jsonl",
              ler_rewritten_novel="data/gold/ler_rewritten_novel.jsonl",
              bavaria_rewritten="data/gold/bavaria/rewritten.jsonl", metrics="reports/dataset.json")
    )  # fmt: skip
    return ws


REVIEWED = "decisions/bag/9-azr-115-23.txt.xz"  # not in this workspace's corpus, not reserved


def _save_review(service, analysis: dict, text: str, added: list[dict]) -> dict:
    """What the review page sends: the analysis' spans, the reviewer's (all proposed spans but
    the first kept, ``added`` added) and the reviewer's name."""
    final = [{"start": s["start"], "end": s["end"], "label": s["type"]} for s in analysis["spans"][1:]]
    final = [s for s in final if not any(s["start"] < a["end"] and a["start"] < s["end"] for a in added)]
    body = {"text": text, "model_spans": analysis["spans"], "spans": final + added, "reviewer": "a.richter"}
    reply = httpx.post(f"{service.url}/reviews", json=body, timeout=120)
    assert reply.status_code == 200, reply.text
    return reply.json()


@pytest.fixture(scope="module")
def reviewed(with_dataset: Path) -> dict:
    """Three reviews saved through a real ``deid serve`` into data/reviews: a BVerwG decision
    uploaded as DOCX with two witnesses' names added (the training side), a BAG decision
    pasted with three of its placeholders marked (the evaluation side: the salt is chosen
    so) and the workspace's reserved Bavarian decision (refused); then the ``reviews`` stage
    with its GX suite."""
    from deid.rewrite.placeholders import detect_placeholders
    from deid.sources.reviews.dataset import EVALUATION, TRAIN, document_key, review_split
    from infra.workbench import start_service
    from tests.code.formats_data import decision, name_spans
    from tests.code.review_data import docx_bytes

    ws = with_dataset
    service = start_service(["--rules-only", "--reviews", str(ws / "data/reviews")], log=ws / "serve.log",
                            cwd=ws, env={"MLFLOW_TRACKING_URI": "", "DEID_SECRET": ""})  # fmt: skip
    try:
        upload = {"file": ("Urteil 2 A 7.23.docx", docx_bytes(decision()), "application/octet-stream")}
        analysis = httpx.post(f"{service.url}/analyze", files=upload, timeout=120).json()
        docx_text = analysis["text"]
        names = [{"start": s.start, "end": s.end, "label": "PERSON"} for s in name_spans(docx_text)
                 if s.label == "PERSON"]  # fmt: skip
        proposed = [(s["start"], s["end"]) for s in analysis["spans"]]
        saved = {"docx": _save_review(service, analysis, docx_text, names)}
        for name, text in (("pasted", read_source(REVIEWED)), ("reserved", read_source(f"decisions/{DECISIONS[-1]}.txt.xz"))):
            analysis = httpx.post(f"{service.url}/analyze", json={"text": text}, timeout=120).json()
            # the BAG decision is published anonymized: the reviewer marks three of its placeholders
            marked = [{"start": s.start, "end": s.end, "label": s.label} for s in detect_placeholders(text)[:3]]
            saved[name] = _save_review(service, analysis, text, marked)
    finally:
        service.stop()
    keys = document_key(docx_text), document_key(read_source(REVIEWED))
    salt = next(f"stage-test-{i}" for i in range(1000)
                if [review_split(k, 0.5, f"stage-test-{i}") for k in keys] == [TRAIN, EVALUATION])  # fmt: skip
    params = yaml.safe_load((ws / "params.yaml").read_text(encoding="utf-8"))
    params["reviews"] |= {"evaluation_share": 0.5, "salt": salt}
    (ws / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    reviews.main(
        ["--reviews", f"{ws}/data/reviews", "--corpus", f"{ws}/data/corpus", "--params", f"{ws}/params.yaml",
         "--gx", f"{ws}/gx", "--output", f"{ws}/data/work/reviews", "--metrics", f"{ws}/reports/reviews.json",
         *[a for g in ("ler_rewritten", "ler_rewritten_novel", "bavaria/rewritten") for a in ("--gold", f"{ws}/data/gold/{g}.jsonl")]]
    )  # fmt: skip
    # the names the rules proposed themselves (recognizers@10 reads "Zeugin Sabine Kowalczyk")
    unproposed = [n for n in names if not any(a < n["end"] and n["start"] < b for a, b in proposed)]
    return {"saved": saved, "names": [docx_text[n["start"] : n["end"]] for n in names], "log": service.logs(),
            "unproposed": len(unproposed)}  # fmt: skip


RESERVED_GOLD = ReviewSettings().reserved_gold
WRITTEN = 2  # the first decisions of data/written/decisions.txt the workspace trains on


def _written_argv(ws: Path, markup: Path) -> list[str]:
    return _argv(ws, "--file", str(markup), *[a for g in RESERVED_GOLD for a in ("--gold", str(ROOT / g))],
                 corpus="data/corpus", params="params.yaml", output="data/work/written",
                 metrics="reports/written.json")  # fmt: skip


@pytest.fixture(scope="module")
def with_written(with_dataset: Path) -> Path:
    """The ``written`` stage on the project's first written decisions, checked against the
    project's own reserved gold sets (the workspace's are six documents)."""
    ws = with_dataset
    raw = (ROOT / "data/written/decisions.txt").read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"^=== ", raw, re.MULTILINE)]
    (ws / "written.txt").write_text(raw[: starts[WRITTEN]], encoding="utf-8")
    written.main(_written_argv(ws, ws / "written.txt"))
    return ws


@pytest.fixture(scope="module")
def trained(with_written: Path, reviewed: dict) -> Path:
    ws = with_written
    train.main(
        _argv(ws, dataset="data/dataset", placeholders="data/work/placeholders.jsonl",
              reviews="data/work/reviews/train.jsonl", written="data/work/written/train.jsonl", params="params.yaml",
              output="models/latest", metrics="reports/train.json", plots="reports/plots/train_history.json")
    )  # fmt: skip
    return ws


@pytest.fixture(scope="module")
def evaluated(trained: Path) -> Path:
    ws = trained
    evaluate.main(
        _argv(ws, "--gold", f"ler={ws}/data/gold/ler_rewritten.jsonl",
              "--gold", f"bavaria={ws}/data/gold/bavaria/rewritten.jsonl",
              "--plot", f"ler={ws}/reports/plots/recall_ler.json",
              "--plot", f"bavaria={ws}/reports/plots/recall_bavaria.json", "--methods", "all,entity",
              model="models/latest", reports="reports/evaluation", metrics="reports/evaluation.json")
    )  # fmt: skip
    return ws


# --- stages -------------------------------------------------------------------------------


@pytest.mark.slow
def test_import_is_idempotent_and_keeps_changed_raw_files(ws: Path, tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    first = import_sources(ws / "sources", raw)
    assert len(first.added) == len(LER_DOCS) + len(DECISIONS)
    assert (raw / "decisions/bag/4-azb-22-23.txt").read_bytes() == lzma.decompress(
        (SOURCES / "decisions/bag/4-azb-22-23.txt.xz").read_bytes()
    )
    assert import_sources(ws / "sources", raw).to_dict() == {
        "added": 0,
        "unchanged": len(first.added),
        "overwritten": 0,
        "conflicts": [],
    }
    (raw / "decisions/bag/1-azr-75-23.txt").write_text("changed in production", encoding="utf-8")
    (raw / "decisions/bag/new-decision.txt").write_text("arrived later", encoding="utf-8")
    again = import_sources(ws / "sources", raw)
    assert again.conflicts == ["decisions/bag/1-azr-75-23.txt"]
    assert (raw / "decisions/bag/1-azr-75-23.txt").read_text(
        encoding="utf-8"
    ) == "changed in production"
    assert import_sources(ws / "sources", raw, overwrite=True).overwritten == again.conflicts
    assert (raw / "decisions/bag/new-decision.txt").exists()


@pytest.mark.slow
def test_ingest_splits_the_raw_corpus(ingested: Path) -> None:
    metrics = _read(ingested / "reports/corpus.json")
    assert {s: metrics[s]["documents"] for s in ("train", "validation", "test")} == {
        "train": 3,
        "validation": 1,
        "test": 2,
    }
    assert metrics["rejected"] == 0
    assert (ingested / "data/corpus/manifest.json").exists()


@pytest.fixture
def word_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """The bundled word lists' paths moved into ``tmp_path``: a stage run here never touches
    the lists in deid/resources (nor leaves its lists in the readers' caches)."""
    from deid.words import public as public_words
    from deid.words import vocabulary

    paths = {name: tmp_path / "lists" / f"{name}.txt.xz" for name in ("lowercase_words", "nouns", "public_words")}
    paths["lowercase_words"].parent.mkdir()
    monkeypatch.setattr(vocabulary, "RESOURCE", paths["lowercase_words"])
    monkeypatch.setattr(vocabulary, "NOUN_RESOURCE", paths["nouns"])
    monkeypatch.setattr(public_words, "RESOURCE", paths["public_words"])
    yield paths
    for reader in (vocabulary.lowercase_words, vocabulary.noun_words, public_words.public_words):
        reader.cache_clear()


@pytest.mark.slow
def test_words_builds_the_lists_from_the_training_split(ingested: Path, word_lists: dict[str, Path], tmp_path: Path) -> None:
    import hashlib

    from deid.sources.io import read_word_list

    words.main(["--train", f"{ingested}/data/corpus/train.jsonl", "--metrics", f"{tmp_path}/words.json"])
    metrics = _read(tmp_path / "words.json")
    assert set(metrics) == set(word_lists)
    for name, path in word_lists.items():
        assert metrics[name]["words"] == len(read_word_list(path)) > 0, name
        assert metrics[name]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_words_refuses_reserved_documents(ingested: Path, word_lists: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="reserved evaluation documents"):
        words.main(["--train", f"{ingested}/data/corpus/test.jsonl", "--metrics", f"{tmp_path}/words.json"])
    assert not [p for p in word_lists.values() if p.exists()]


@pytest.mark.slow
def test_words_on_the_bundled_corpus_gives_the_committed_lists(word_lists: dict[str, Path], tmp_path: Path) -> None:
    """The stage on the corpus the bundled sources give (the project's params) rebuilds the
    committed lists byte for byte: making it a stage changed none of them."""
    import_sources(SOURCES, tmp_path / "raw")
    ingest.main(["--raw", f"{tmp_path}/raw", "--params", str(ROOT / "params.yaml"),
                 "--output", f"{tmp_path}/corpus", "--metrics", f"{tmp_path}/corpus.json"])  # fmt: skip
    words.main(["--train", f"{tmp_path}/corpus/train.jsonl", "--metrics", f"{tmp_path}/words.json"])
    for name, path in word_lists.items():
        assert path.read_bytes() == (ROOT / "deid/resources" / path.name).read_bytes(), name


def _committed_lists(word_lists: dict[str, Path]) -> dict[str, str]:
    """Copies of the committed lists where ``word_lists`` put the package's; their sha256."""
    for path in word_lists.values():
        shutil.copy2(ROOT / "deid/resources" / path.name, path)
    return {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in word_lists.items()}


@pytest.mark.slow
def test_retrain_flow_rebuilds_the_word_lists_into_its_project(ingested: Path, word_lists: dict[str, Path]) -> None:
    """The retrain flow's words step on a project that is not the package's checkout: the
    lists go to the project's data/work/word_lists (no deid/ folder there to shadow the
    package), the package's stay as they were, and the step says which differ from them
    (the three-document split gives other lists than the bundled corpus)."""
    from flows.data import WORD_LISTS, rebuild_word_lists
    from flows.retrain import word_lists_summary

    package = _committed_lists(word_lists)
    result = rebuild_word_lists.fn(str(ingested))
    assert not (ingested / "deid").exists()
    assert result["lists"] == words.list_metrics(ingested / WORD_LISTS) == _read(ingested / "reports/words.json")
    assert {name: hashlib.sha256(p.read_bytes()).hexdigest() for name, p in word_lists.items()} == package
    assert result["in_place"] is False and result["changed"] == sorted(word_lists)
    assert result["before"] == {name: m["words"] for name, m in words.list_metrics().items()}
    summary = word_lists_summary(result)
    assert summary.startswith("**changed**: lowercase_words ") and "this run read the package's lists" in summary


@pytest.mark.slow
def test_retrain_flow_rebuilds_the_lists_this_code_reads_in_its_own_checkout(
    ingested: Path, word_lists: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the project's deid/resources are the package's lists, they are rebuilt in place
    and this process reads the new ones (the training of the same run included)."""
    from deid.sources.io import read_word_list
    from deid.words import vocabulary
    from flows.data import rebuild_word_lists
    from flows.retrain import word_lists_summary

    project = word_lists["lowercase_words"].parent.parent
    monkeypatch.setattr("flows.data.RESOURCES", "lists")  # the package's lists, seen from the project
    shutil.copytree(ingested / "data/corpus", project / "data/corpus")
    _committed_lists(word_lists)
    assert vocabulary.lowercase_words() == read_word_list(ROOT / "deid/resources/lowercase_words.txt.xz")
    result = rebuild_word_lists.fn(str(project))
    assert result["in_place"] is True and result["changed"] == sorted(word_lists)
    assert vocabulary.lowercase_words() == read_word_list(word_lists["lowercase_words"])
    assert len(vocabulary.lowercase_words()) == result["lists"]["lowercase_words"]["words"]
    assert "this run's placeholders and model read the new lists" in word_lists_summary(result)
    again = rebuild_word_lists.fn(str(project))
    assert again["changed"] == [] and word_lists_summary(again).startswith("unchanged (lowercase_words ")


@pytest.mark.slow
def test_paragraphs_round_trip_with_their_offset_runs(with_paragraphs: Path) -> None:
    from deid.sources.io import read_documents, read_jsonl
    from deid.sources.paragraphs import Paragraph, extract_paragraphs

    ws = with_paragraphs
    docs = {d.id: d for d in read_documents(ws / "data/corpus/test.jsonl")}
    records = list(read_jsonl(ws / "data/work/paragraphs/test.jsonl"))
    assert {r["id"] for r in records} == set(docs)
    for rec in records:
        stored = [
            Paragraph(p["text"], p["kind"], tuple(map(tuple, p["runs"]))) for p in rec["paragraphs"]
        ]
        assert stored == extract_paragraphs(docs[rec["id"]].text)
    metrics = _read(ws / "reports/paragraphs.json")
    assert metrics["test"]["documents"] == 2 and metrics["test"]["paragraphs"] > 10
    assert metrics["failed"] == 0


@pytest.mark.slow
def test_placeholders_cover_every_document(with_placeholders: Path) -> None:
    from deid.sources.io import read_jsonl

    ws = with_placeholders
    records = list(read_jsonl(ws / "data/work/placeholders.jsonl"))
    assert len(records) == 6
    metrics = _read(ws / "reports/placeholders.json")
    assert sum(metrics[s]["placeholders"] for s in ("train", "validation", "test")) == sum(
        len(r["placeholders"]) for r in records
    )
    assert metrics["test"]["per_type"]["PERSON"] > 0
    assert (ws / "data/work/placeholders.quarantine.jsonl").read_text() == ""


@pytest.mark.slow
def test_validate_runs_the_data_checks(validated: Path) -> None:
    metrics = _read(validated / "reports/validate.json")
    assert metrics["passed"] is True
    suites = ("corpus_integrity", "placeholder_quality", "training_set")
    assert all(metrics[s]["success"] and metrics[s]["failed"] == 0 for s in suites)
    assert metrics["corpus_integrity"]["documents"] == 6
    assert metrics["placeholder_quality"]["bavaria.documents"] == 1
    assert metrics["training_set"]["documents"] == 4
    assert "corpus_integrity" in (validated / "reports/validate.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_validate_fails_below_the_thresholds(validated: Path, tmp_path: Path) -> None:
    ws = validated
    params = yaml.safe_load((ws / "params.yaml").read_text(encoding="utf-8"))
    params["validate"]["min_recall"] = 1.01
    strict = tmp_path / "params.yaml"
    strict.write_text(yaml.safe_dump(params), encoding="utf-8")
    argv = _validate_argv(ws, strict)
    argv[argv.index("--metrics") + 1] = str(tmp_path / "validate.json")
    argv[argv.index("--summary") + 1] = str(tmp_path / "validate.md")
    with pytest.raises(SystemExit, match="placeholder_quality"):
        validate.main(argv)
    metrics = _read(tmp_path / "validate.json")
    assert metrics["passed"] is False and metrics["placeholder_quality"]["success"] is False
    assert metrics["corpus_integrity"]["success"] is True


@pytest.mark.slow
def test_dataset_writes_training_documents_and_rewritten_test_sets(with_dataset: Path) -> None:
    from deid.sources.io import read_documents

    ws = with_dataset
    train_docs = read_documents(ws / "data/dataset/train.jsonl")
    assert len(train_docs) == 3 and all(d.spans for d in train_docs if len(d.text) > 1000)
    assert any(d.keep for d in train_docs)  # LER documents carry keep spans
    metrics = _read(ws / "reports/dataset.json")
    assert (
        metrics["ler_rewritten"]["documents"] == 1
        and metrics["bavaria_rewritten"]["documents"] == 1
    )
    assert sum(metrics["train"]["placeholders"].values()) >= 10
    ler = read_documents(ws / "data/gold/ler_rewritten.jsonl")
    assert ler[0].id == "ler-bgh-0001.auto-s13" and ler[0].spans and ler[0].keep
    (novel,) = read_documents(ws / "data/gold/ler_rewritten_novel.jsonl")
    assert novel.id == "ler-bgh-0001.novel-s13" and novel.meta["surrogate_pool"] == "novel"
    assert [s.label for s in novel.spans] == [s.label for s in ler[0].spans]
    assert metrics["ler_rewritten_novel"]["spans"] == metrics["ler_rewritten"]["spans"]
    committed = {d.id: d for d in read_documents(ROOT / "data/gold/bavaria/rewritten.jsonl")}
    (rebuilt,) = read_documents(ws / "data/gold/bavaria/rewritten.jsonl")
    assert (
        rebuilt.text == committed[rebuilt.id].text and rebuilt.spans == committed[rebuilt.id].spans
    )


@pytest.mark.slow
def test_dataset_refuses_a_corpus_that_failed_validation(validated: Path, tmp_path: Path) -> None:
    report = tmp_path / "validate.json"
    report.write_text(json.dumps({"passed": False}), encoding="utf-8")
    ws = validated
    with pytest.raises(SystemExit, match="did not pass"):
        dataset.main(
            [
                "--corpus",
                f"{ws}/data/corpus",
                "--placeholders",
                "x",
                "--validation-report",
                str(report),
                "--decisions",
                "x",
                "--ler-courts",
                "bgh",
                "--seed",
                "1",
                "--output",
                str(tmp_path),
                "--ler-rewritten",
                "x",
                "--bavaria-rewritten",
                "x",
                "--metrics",
                "x",
            ]
        )


@pytest.mark.slow
def test_train_writes_a_pipeline_metrics_and_epoch_plots(trained: Path) -> None:
    ws = trained
    assert (ws / "models/latest/training_report.json").exists()
    metrics = _read(ws / "reports/train.json")
    assert metrics["profile"] == "tiny"
    assert metrics["documents"] == {"train": 3, "validation": 1, "reviews": 1, "written": WRITTEN}
    history = _read(ws / "reports/plots/train_history.json")
    assert len(history) == metrics["epochs"] >= 1
    assert {"epoch", "train_loss", "val_precision", "val_recall"} <= set(history[0])


@pytest.mark.slow
def test_training_again_gives_the_same_model(trained: Path, tmp_path: Path) -> None:
    """Same corpus, params and seed: the same vocabulary, initial and final weights, and
    threshold, so a run (and its gate decision) can be reproduced."""
    ws = trained
    train.main(
        ["--dataset", f"{ws}/data/dataset", "--placeholders", f"{ws}/data/work/placeholders.jsonl",
         "--reviews", f"{ws}/data/work/reviews/train.jsonl", "--written", f"{ws}/data/work/written/train.jsonl",
         "--params", f"{ws}/params.yaml", "--output", f"{tmp_path}/again",
         "--metrics", f"{tmp_path}/train.json", "--plots", f"{tmp_path}/history.json"]
    )  # fmt: skip
    first, again = ws / "models/latest", tmp_path / "again"
    for name in ("model/model.safetensors", "model/tokenizer.json", "pipeline.json"):
        assert (first / name).read_bytes() == (again / name).read_bytes(), name
    learned = lambda rows: [(r["train_loss"], r["val_precision"], r["val_recall"]) for r in rows]
    assert learned(_read(ws / "reports/plots/train_history.json")) == learned(_read(tmp_path / "history.json"))


@pytest.mark.slow
def test_a_review_saved_through_the_service_is_in_the_next_training(trained: Path, reviewed: dict) -> None:
    """The issue's measure: a decision uploaded as DOCX and reviewed in the service is a
    training document of the next training run (its id in the training report), with its
    reviewed names replaced by surrogates: they never become vocabulary; the review of the
    reserved Bavarian decision is refused; the third review went to the evaluation set."""
    from deid.sources.io import read_documents

    ws = trained
    report = _read(ws / "reports/reviews.json")
    assert report["counts"] == {"records": 3, "train": 1, "evaluation": 1, "superseded": 0,
                                "reserved": 1, "invalid": 0, "unfinished": 0}  # fmt: skip
    assert report["reserved_lines"] == [3]
    (doc,) = read_documents(ws / "data/work/reviews/train.jsonl")
    assert doc.meta["review_id"] == reviewed["saved"]["docx"]["id"] and doc.meta["reviewer"] == "a.richter"
    assert {doc.text[s.start : s.end] for s in doc.spans} >= set(reviewed["names"])
    (held_out,) = read_documents(ws / "data/work/reviews/evaluation.jsonl")
    assert held_out.meta["review_id"] == reviewed["saved"]["pasted"]["id"] and held_out.spans
    training = _read(ws / "models/latest/training_report.json")
    assert training["reviews"] == {"documents": 1, "spans": len(doc.spans), "ids": [doc.id]}
    vocabulary = (ws / "models/latest/model/tokenizer.json").read_text(encoding="utf-8").lower()
    words = {w for name in reviewed["names"] for w in name.lower().split()}
    assert len(words) == 4 and not [w for w in words if f'"{w}"' in vocabulary]
    assert not [n for n in reviewed["names"] if n in reviewed["log"]]
    decisions = reviewed["saved"]["docx"]["decisions"]
    assert decisions["added"] == reviewed["unproposed"]  # a name the analysis proposed is decided, not added
    decided = len(reviewed["names"]) - reviewed["unproposed"]
    assert decisions["accepted"] + decisions["widened"] + decisions["relabelled"] >= decided


@pytest.mark.slow
def test_written_decisions_train_with_surrogates_and_keep_labels(trained: Path) -> None:
    """The written stage's documents carry the writers' gold and keep spans; training reads
    all of them, and no name a writer marked became a vocabulary piece."""
    from deid.sources.io import read_documents
    from deid.training.job import SourceDocument, without_spans

    ws = trained
    docs = read_documents(ws / "data/work/written/train.jsonl")
    assert len(docs) == WRITTEN and all(d.court == "written" and d.meta["corpus"] == "written" for d in docs)
    report = _read(ws / "reports/written.json")
    assert report["documents"] == WRITTEN and report["max_overlap"] < 0.5
    assert report["keep_spans"]["JUDGE"] >= WRITTEN  # each decision ends with its judges
    assert sum(report["spans"].values()) == sum(len(d.spans) for d in docs)
    training = _read(ws / "models/latest/training_report.json")
    assert training["written"] == {"documents": WRITTEN, "spans": sum(len(d.spans) for d in docs)}
    vocabulary = (ws / "models/latest/model/tokenizer.json").read_text(encoding="utf-8").lower()
    surnames = {d.text[s.start : s.end].split()[-1].lower() for d in docs for s in d.spans if s.label == "PERSON"}
    outside = [without_spans(SourceDocument(d.id, d.text, tuple(sorted(d.spans)))) for d in docs]
    surnames -= {w for text in outside for w in text.lower().split()}  # a surname that is a common word too
    assert len(surnames) >= 5 and not [w for w in surnames if f'"{w}"' in vocabulary]


@pytest.mark.slow
def test_deid_train_reads_the_written_decisions_too(with_written: Path, tmp_path: Path) -> None:
    """``deid train --written`` trains on what the stage wrote, as the DVC stage and the flow do."""
    from typer.testing import CliRunner

    from deid.app.cli import app

    ws = with_written
    result = CliRunner().invoke(app, [
        "train", "--corpus", f"{ws}/data/dataset", "--output", str(tmp_path / "model"), "--params", f"{ws}/params.yaml",
        "--placeholders", f"{ws}/data/work/placeholders.jsonl", "--written", f"{ws}/data/work/written/train.jsonl",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    report = _read(tmp_path / "model/training_report.json")
    assert report["documents"]["written"] == WRITTEN and report["documents"]["reviews"] == 0


@pytest.mark.slow
def test_written_stage_refuses_a_decision_of_the_dev_set(with_dataset: Path, tmp_path: Path) -> None:
    """A dev decision of the hand-written gold set, copied among the written ones, stops the
    stage: the error names its id and share, never its text."""
    from deid.rewrite.gold.markup import parse_file
    from deid.training.written import WrittenCorpusError

    ws = with_dataset
    raw = (ROOT / "data/gold/bavaria_scratch_dev/decisions.txt").read_text(encoding="utf-8")
    copied = raw[: raw.index("\n=== ", 1) + 1].replace("=== scratchdev-", "=== scratchtrain-copy-")
    (tmp_path / "copied.txt").write_text(copied, encoding="utf-8")
    with pytest.raises(WrittenCorpusError, match=r"scratchtrain-copy-\S+ shares 100%") as caught:
        written.main(_written_argv(ws, tmp_path / "copied.txt"))
    (doc,) = parse_file(tmp_path / "copied.txt")
    assert not [s for s in doc.spans if doc.text[s.start : s.end] in str(caught.value)]


@pytest.mark.slow
def test_reviews_stage_on_a_fresh_clone_gives_empty_sets(with_dataset: Path, tmp_path: Path) -> None:
    ws = with_dataset
    reviews.main(
        ["--reviews", f"{tmp_path}/missing", "--corpus", f"{ws}/data/corpus", "--params", f"{ws}/params.yaml",
         "--gx", str(tmp_path / "gx"), "--output", f"{tmp_path}/out", "--metrics", f"{tmp_path}/reviews.json"]
    )  # fmt: skip
    assert _read(tmp_path / "reviews.json")["counts"]["records"] == 0
    assert (tmp_path / "out/train.jsonl").read_text() == (tmp_path / "out/evaluation.jsonl").read_text() == ""


@pytest.mark.slow
def test_evaluate_writes_metrics_reports_and_recall_plots(evaluated: Path) -> None:
    ws = evaluated
    metrics = _read(ws / "reports/evaluation.json")
    assert set(metrics) == {"ler", "bavaria"}
    for name in ("ler", "bavaria"):
        assert metrics[name]["documents"] == 1
        assert {"precision", "recall", "f2"} <= set(metrics[name]["elements"])
        assert set(metrics[name]["thesis_methods"]) == {"all", "entity"}
        full = _read(ws / f"reports/evaluation/{name}.json")
        assert "errors" not in full and full["overall"]["documents"] == 1
        plot = _read(ws / f"reports/plots/recall_{name}.json")
        assert plot and {row["type"] for row in plot} == set(metrics[name]["recall_per_type"])


# --- dvc.yaml -----------------------------------------------------------------------------

PACKAGES = (
    "deid/rewrite/placeholders",
    "deid/rewrite/surrogates",
    "deid/anonymizer/recognizers",
    "deid/anonymizer/operators",
    "deid/rewrite/gold",
    "deid/ops/checks",
    "deid/words",
)
RESOURCE_USERS = ("deid/rewrite/placeholders", "deid/rewrite/surrogates", "deid/anonymizer/policy.py", "deid/words")


def _module_file(name: str) -> Path | None:
    path = ROOT / Path(*name.split("."))
    if (path / "__init__.py").exists():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").exists() else None


@functools.cache
def _deid_closure(start: Path) -> frozenset[str]:
    """Every deid module file ``start`` imports, directly or not (function-level imports
    included), as project-relative paths (computed once per stage)."""
    seen: set[Path] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                if name.split(".")[0] not in ("deid", "pipelines"):
                    continue
                parts = name.split(".")
                for i in range(1, len(parts) + 1):
                    found = _module_file(".".join(parts[:i]))
                    if found is not None:
                        todo.append(found)
    return frozenset(str(p.relative_to(ROOT)) for p in seen) - {"deid/__init__.py"}


def _covered(module: str, deps: list[str]) -> bool:
    return any(module == d or module.startswith(d + "/") for d in deps)


def _outs(spec: dict) -> list[str]:
    """A stage's out paths (plain, or with options)."""
    return [o if isinstance(o, str) else next(iter(o)) for o in spec.get("outs", [])]


@pytest.mark.parametrize("stage", STAGES)
def test_stage_deps_cover_the_modules_it_imports(stage: str) -> None:
    spec = DVC_YAML["stages"][stage]
    assert spec["cmd"].startswith(f"python -m pipelines.{stage} ")
    deps = spec["deps"]
    modules = _deid_closure(ROOT / "pipelines" / f"{stage}.py")
    missing = sorted(m for m in modules if not _covered(m, deps))
    assert not missing, f"{stage}: add to deps in dvc.yaml: {missing}"
    resources = [d for d in deps if _covered(d, ["deid/resources"])]
    if any(_covered(user, [m]) or _covered(m, [user]) for m in modules for user in RESOURCE_USERS):
        # the stage that writes the word lists reads only the gazetteers (no stage depends
        # on its own outs); every other stage follows all of deid/resources
        writes = any(_covered(o, ["deid/resources"]) for o in _outs(spec))
        expected = ["deid/resources/gazetteers"] if writes else ["deid/resources"]
        assert resources == expected, f"{stage} reads deid/resources: deps {expected}"
    code = [d for d in deps if d.startswith(("deid/", "pipelines/"))]
    assert all((ROOT / d).exists() for d in code), f"{stage}: a code dep does not exist"
    # a dep the stage never imports re-runs it for nothing (deid/resources is data it reads)
    stale = [d for d in code if d not in resources and not any(_covered(m, [d]) for m in modules)]
    assert not stale, f"{stage}: remove from deps in dvc.yaml: {stale}"
    assert not [d for d in code if d.startswith(PACKAGES) and d not in PACKAGES], (
        f"{stage}: name packages as folders"
    )


# what a change to the model or the anonymize policy touches; the data stages must not
# import it, or `dvc repro` re-runs validate → dataset → train after every policy edit
MODEL_STACK = ("deid/anonymizer/pipeline.py", "deid/anonymizer/policy.py", "deid/anonymizer/ner.py", "deid/training/models.py",
               "deid/training/job.py", "deid/training/data.py", "deid/training/loop.py", "deid/anonymizer/onnx_engine.py")  # fmt: skip
MODEL_PACKAGES = {"torch", "transformers", "onnx", "onnxruntime", "safetensors"}


def _third_party(modules: set[str]) -> set[str]:
    """The top-level packages the given project files import (function level included)."""
    found: set[str] = set()
    for module in modules:
        for node in ast.walk(ast.parse((ROOT / module).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("stage", ("validate", "dataset", "reviews", "written"))
def test_data_stages_do_not_depend_on_the_model_stack(stage: str) -> None:
    modules = _deid_closure(ROOT / "pipelines" / f"{stage}.py")
    assert not sorted(modules & set(MODEL_STACK)), f"{stage} imports the model stack"
    assert not sorted(_third_party(modules) & MODEL_PACKAGES), f"{stage} imports a model package"
    deps = DVC_YAML["stages"][stage]["deps"]
    assert not [d for d in deps if d in MODEL_STACK or d.startswith("deid/app/commands")]


def test_words_outs_are_the_lists_the_library_reads() -> None:
    """The stage writes where the library keeps its lists, kept in git, out of the cache."""
    from deid.words import public as public_words
    from deid.words import vocabulary

    spec = DVC_YAML["stages"]["words"]
    lists = (vocabulary.RESOURCE, vocabulary.NOUN_RESOURCE, public_words.RESOURCE)
    assert _outs(spec) == [str(p.relative_to(ROOT)) for p in lists]
    assert all(o[next(iter(o))] == {"cache": False} for o in spec["outs"])


def _keys(section: dict, prefix: str) -> set[str]:
    return {f"{prefix}.{k}" for k in section}


def test_stage_params_exist_and_train_tracks_every_training_setting() -> None:
    for name, spec in DVC_YAML["stages"].items():
        for key in spec.get("params", []):
            node = PARAMS
            for part in key.split("."):
                assert isinstance(node, dict) and part in node, f"{name}: no params key {key}"
                node = node[part]
    listed = set(DVC_YAML["stages"]["train"]["params"])
    for section in ("model", "train", "dataset", "tokenizer", "pretrain", "anonymize"):
        assert _keys(PARAMS[section], section) <= listed, f"train: untracked keys in {section}"


def test_metrics_and_plots_stay_out_of_the_cache() -> None:
    declared = []
    for spec in DVC_YAML["stages"].values():
        for entry in spec.get("metrics", []) + spec.get("plots", []):
            ((path, options),) = entry.items()
            assert options == {"cache": False} and path.endswith(".json")
            declared.append(path)
    plotted = {f for plot in DVC_YAML["plots"] for p in plot.values() for f in p["y"]}
    assert plotted <= set(declared)


@pytest.mark.slow
def test_dvc_reads_the_pipeline(tmp_path: Path) -> None:
    shutil.copy(ROOT / "dvc.yaml", tmp_path)
    shutil.copy(ROOT / "params.yaml", tmp_path)

    def dvc(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "dvc", *args],
            cwd=tmp_path,
            check=True,
            capture_output=True,
            text=True,
            env={"DVC_NO_ANALYTICS": "1", "PATH": str(Path(sys.executable).parent)},
        ).stdout

    dvc("init", "--no-scm", "-q")
    listed = [line.split()[0] for line in dvc("stage", "list").splitlines()]
    assert listed == list(STAGES)
    order = dvc("dag", "--dot")
    for upstream, downstream in [
        ("ingest", "paragraphs"),
        ("ingest", "words"),
        ("words", "placeholders"),
        ("words", "validate"),
        ("ingest", "placeholders"),
        ("placeholders", "validate"),
        ("validate", "dataset"),
        ("dataset", "reviews"),
        ("ingest", "reviews"),
        ("reviews", "train"),
        ("dataset", "written"),
        ("written", "train"),
        ("dataset", "train"),
        ("dataset", "encoder"),
        ("encoder", "train"),
        ("train", "evaluate"),
        ("dataset", "evaluate"),
    ]:
        assert f'"{upstream}" -> "{downstream}"' in order
