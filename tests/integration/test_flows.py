"""The flows end to end against real servers on loopback (Prefect, MLflow, SeaweedFS S3).

A temporary git + DVC project (copies of params, gold sets, GX project, bundled sources) has
its corpus pushed to an S3 DVC remote; then
(a) ``retrain`` (tiny profile) pulls that version, validates, trains, registers, evaluates,
    gates: the first model becomes champion under the test's floors;
(b) a deliberately worse pipeline (model and rules switched off: it finds nothing) is
    rejected and the champion stays;
(c) ``anonymize`` reads decisions from S3, writes results, span report and quarantine to S3,
    quarantines an empty and a binary file, versions its output on the S3 DVC remote, and a
    re-run resumes instead of redoing;
(d) none of the sensitive strings of the documents used reaches a Prefect log, artifact or
    parameter, an MLflow param, tag, description or report, or the runs' stdout/stderr;
(e) reviews saved before the retrain are versioned on the S3 DVC remote, trained on (their
    ids in the training report), the held-out ones gated as the third gold set ``reviews``,
    the review of a reserved decision refused, the agreement logged and shown.

Floors and training size come from a params file written here, so decisions are
deterministic: (a) needs recall ≥ 0.05 and gets it, (b) has recall 0. The project commits
those floors (and its first three documents per test set): the gate promotes only on the
committed settings (issue 27), and the anonymize flow refuses a champion no gate signed.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import re
import socket
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml

import deid.anonymizer.components  # noqa: F401 - registers the chain components
from deid.anonymizer import chain
from deid.ops import mlflow_registry as registry
from deid.ops import versioning, vetting
from deid.ops.gate import committed_gate
from deid.rewrite.gold.markup import parse_file
from deid.schema import Document
from deid.sources.io import read_documents, text_hash
from tests.integration.conftest import FlowRun, Stack
from tests.integration.project import ROOT, git, make_project, publish_corpus

pytestmark = [pytest.mark.integration, pytest.mark.timeout(1500)]

EVAL_DOCS = 3  # first documents of each rewritten test set
GOLD = {"ler": "data/gold/ler_rewritten.jsonl", "bavaria": "data/gold/bavaria/rewritten.jsonl"}
TRAIN_TINY = {
    "epochs": 1,
    "batch_size": 8,
    "learning_rate": 0.005,
    "max_documents": 8,
    "windows_per_epoch": 400,
}
FLOORS = {"min_recall": 0.05, "min_precision": 0.0, "min_type_recall": {}, "tolerance": 0.01,
          "min_documents": {"reviews": 2}}  # fmt: skip
# a pipeline that finds nothing: no rule, and a model whose threshold no probability reaches
# (not calibrated on validation, which would lower it)
NOTHING = {"chain": [{"model": {"threshold": 1.01}}]}
RAW_DECISION = "data/sources/decisions/bavaria/Y-300-Z-BECKRS-B-2019-N-17491.txt.xz"


def write_params(
    project: Path, name: str, *, train: dict[str, Any], anonymize: dict[str, Any] | None = None,
    reviews: dict[str, Any] | None = None, gate: dict[str, Any] | None = None,
) -> str:  # fmt: skip
    params = yaml.safe_load((project / "params.yaml").read_text(encoding="utf-8"))
    params["train"]["profiles"]["tiny"] = train
    params["gate"].update(FLOORS | (gate or {}))
    params["anonymize"].update(anonymize or {})
    params["reviews"].update(reviews or {})
    (project / name).write_text(yaml.safe_dump(params), encoding="utf-8")
    return name


@pytest.fixture(scope="module")
def project(stack_env: Stack, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary project with its corpus version pushed to an S3 DVC remote (and the
    local copy and cache removed, so the flow must pull it)."""
    root = make_project(tmp_path_factory.mktemp("project"))
    params = yaml.safe_load((root / "params.yaml").read_text(encoding="utf-8"))
    params["gate"].update(FLOORS | {"max_documents": EVAL_DOCS})  # the floors this project commits
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    git(root, "commit", "-q", "-am", "the test floors: what the gate may promote on")
    versioning.configure_s3_remote(
        f"s3://dvc/{uuid.uuid4().hex[:8]}", stack_env.cfg.s3_url, repo=root
    )
    publish_corpus(root)
    return root


def retrain(stack: Stack, project: Path, params: str, *extra: str) -> FlowRun:
    return stack.run_flow(
        "retrain", "--profile", "tiny", "--project-dir", str(project), "--params-path", params,
        "--eval-max-documents", str(EVAL_DOCS), *extra, cwd=project,
    )  # fmt: skip


REVIEWED = ("bag/9-azr-115-23", "bag/5-azr-177-23", "bag/10-azr-345-22", "bverwg/010224U2A7.23.0",
            "bfh/STRE202450071")  # fmt: skip
WITNESS, ACCOUNT = "Zeugin Sabine Kowalczyk", "DE89 3704 0044 0532 0130 00"


@pytest.fixture(scope="module")
def saved_reviews(project: Path) -> dict[str, Any]:
    """Reviews in the project's store before any retrain, as ``deid serve`` saves them: five
    bundled decisions, each with a witness's name and an account number; the reviewer
    accepted the account number the model proposed, rejected one other span and added the
    name. And a review of a reserved Bavarian decision. The salt puts two or more on the
    evaluation side and the rest on the training side."""
    from deid.sources.reviews import ReviewStore, new_review
    from deid.sources.reviews.dataset import EVALUATION, TRAIN, document_key, review_split

    store = ReviewStore(project / "data" / "reviews")
    info = {"uri": "models:/deid-ner@champion", "name": "deid-ner", "version": "1", "alias": "champion",
            "pipeline_sha256": "ef" * 32}  # fmt: skip
    texts = []
    for rel in REVIEWED:
        source = ROOT / f"data/sources/decisions/{rel}.txt.xz"
        head, tail = lzma.decompress(source.read_bytes()).decode("utf-8").split("\n", 1)
        text = f"{head}\nDie Zahlung ging an die {WITNESS}, IBAN {ACCOUNT}.\n{tail}"
        name, iban = text.index(WITNESS) + len("Zeugin "), text.index(ACCOUNT)
        gold = [{"start": name, "end": name + len(WITNESS) - len("Zeugin "), "label": "PERSON"},
                {"start": iban, "end": iban + len(ACCOUNT), "label": "ID"}]  # fmt: skip
        model = [{**gold[1], "label": "IBAN", "score": 1.0, "source": "deid.recognizers.iban.v1"},
                 {"start": 0, "end": 4, "label": "LOCATION", "score": 0.4, "source": "model"}]  # fmt: skip
        store.save(new_review(text, model, gold, reviewer="a.richter", model_info=info,
                              effort={"seconds": 60, "actions": 4}))  # fmt: skip
        texts.append(text)
    reserved = lzma.decompress((ROOT / RAW_DECISION).read_bytes()).decode("utf-8")
    store.save(new_review(reserved, [], [{"start": 0, "end": 5, "label": "PERSON"}], reviewer="a.richter",
                          model_info=info))  # fmt: skip
    keys = [document_key(t) for t in texts]

    def sides(salt: str) -> list[str]:
        return [review_split(k, 0.5, salt) for k in keys]

    salt = next(f"it-{i}" for i in range(1000) if 2 <= sides(f"it-{i}").count(EVALUATION) <= 3)
    return {"params": {"evaluation_share": 0.5, "salt": salt}, "texts": texts,
            "train": sides(salt).count(TRAIN), "evaluation": sides(salt).count(EVALUATION)}  # fmt: skip


@pytest.fixture(scope="module")
def retrained(stack_env: Stack, project: Path, saved_reviews: dict[str, Any]) -> FlowRun:
    params = write_params(project, "params.test.yaml", train=TRAIN_TINY, reviews=saved_reviews["params"])
    return retrain(stack_env, project, params, "--rev", "HEAD")


@pytest.fixture(scope="module")
def worse(stack_env: Stack, project: Path, retrained: FlowRun, saved_reviews: dict[str, Any]) -> FlowRun:
    quick = TRAIN_TINY | {"max_documents": 4, "windows_per_epoch": 40, "calibrate_threshold": False}
    params = write_params(project, "params.worse.yaml", train=quick, anonymize=NOTHING,
                          reviews=saved_reviews["params"], gate={"min_documents": {"reviews": 99}})  # fmt: skip
    return retrain(stack_env, project, params)


def gold_docs(project: Path, limit: int) -> list[Document]:
    return [d for path in GOLD.values() for d in read_documents(project / path)[:limit]]


@pytest.fixture(scope="module")
def inbox(
    stack_env: Stack, project: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """Four real decisions (a raw Bavarian one, a rewritten Bavarian and a rewritten LER one
    with realistic surrogate names, and a BVerwG decision with a witness's name and an account
    number as a Word file), an empty and a binary file, uploaded to S3."""
    folder = tmp_path_factory.mktemp("inbox")
    docs = {"bavaria-raw": lzma.decompress((ROOT / RAW_DECISION).read_bytes()).decode("utf-8")}
    rewritten = [  # the last ones naming at least three persons
        next(d for d in reversed(read_documents(project / GOLD[name])) if sum(s.label == "PERSON" for s in d.spans) >= 3)
        for name in ("bavaria", "ler")
    ]
    docs |= {f"gold-{i}": d.text for i, d in enumerate(rewritten)}
    for name, text in docs.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    from deid.sources import formats
    from tests.code.test_formats_docx import build_docx

    (folder / "urteil.docx").write_bytes(build_docx())
    docs["urteil"] = formats.read((folder / "urteil.docx").read_bytes(), name="urteil.docx").text
    (folder / "empty.txt").write_bytes(b"")
    (folder / "scan.txt").write_bytes(bytes(range(256)) * 8)
    prefix = f"run-{uuid.uuid4().hex[:8]}"
    from deid.ops import s3

    s3.upload_files(sorted(folder.iterdir()), folder, f"s3://deid-inbox/{prefix}", stack_env.s3())
    return {"input": f"s3://deid-inbox/{prefix}", "output": f"s3://deid-outbox/{prefix}",
            "texts": docs, "gold": rewritten}  # fmt: skip


@pytest.fixture(scope="module")
def anonymized(
    stack_env: Stack, project: Path, retrained: FlowRun, inbox: dict[str, Any]
) -> list[FlowRun]:
    """The anonymize flow twice on the same input and output: a run and a resumed re-run."""
    args = ["--input", inbox["input"], "--output", inbox["output"], "--project-dir", str(project),
            "--chunk-size", "2", "--operator", "label"]  # fmt: skip
    return [stack_env.run_flow("anonymize", *args, cwd=project) for _ in range(2)]


def flow_run(stack: Stack, run: FlowRun) -> dict[str, Any]:
    (row,) = stack.prefect("/flow_runs/filter", {"flow_runs": {"id": {"any_": [run.id]}}})
    return row


def artifacts(stack: Stack, run: FlowRun) -> dict[str, dict[str, Any]]:
    rows = stack.prefect_all(
        "/artifacts/filter", {"artifacts": {"flow_run_id": {"any_": [run.id]}}}
    )
    return {row["key"]: row for row in rows if row.get("key")}


# --- (a) retrain ----------------------------------------------------------------------------


def test_retrain_registers_a_champion_with_provenance(
    stack_env: Stack, project: Path, retrained: FlowRun
) -> None:
    result = retrained.result
    assert result["decision"] == "promote", result["reasons"]
    assert result["champion_before"] is None
    assert set(result["eval_documents"]) == {"ler", "bavaria", "reviews"}
    assert result["eval_documents"]["ler"] == result["eval_documents"]["bavaria"] == EVAL_DOCS
    client = registry.get_client(stack_env.cfg.mlflow_url)
    mv = client.get_model_version(registry.MODEL_NAME, result["version"])
    assert set(mv.aliases) >= {registry.CHALLENGER, registry.CHAMPION}
    assert mv.tags["git.commit"] == git(project, "rev-parse", "HEAD")
    assert mv.tags["data.version"] == f"md5:{result['corpus_md5']}"
    assert mv.tags["profile"] == "tiny" and mv.tags["gate.decision"] == "promote"
    metrics = client.get_run(result["run_id"]).data.metrics
    assert {"eval.ler.recall", "eval.bavaria.recall"} <= set(metrics)
    vetted = vetting.vetting_of(mv)  # the gate signed what it evaluated, on the committed gold sets
    committed = committed_gate(project)
    assert vetted["kind"] == "gate" and vetted["commit"] == git(project, "rev-parse", "HEAD")
    assert {name: g["sha256"] for name, g in vetted["gold"].items() if name in committed.gold} == committed.gold
    assert vetted["model_sha256"] == mv.tags[vetting.CONTENT_TAG]
    # the model's artifacts went to the S3 artifact store of the MLflow server
    listed = stack_env.s3().list_objects_v2(Bucket="mlflow", Prefix="artifacts/")
    assert any(o["Key"].endswith("MLmodel") for o in listed.get("Contents", []))


def test_retrain_pinned_the_pushed_corpus_version(
    stack_env: Stack, project: Path, retrained: FlowRun
) -> None:
    version = versioning.corpus_version(repo=project)
    assert retrained.result["corpus_md5"] == version.md5
    status = versioning.status([versioning.RAW_DVC], repo=project)
    assert status.clean, status.to_dict()


def test_retrain_rebuilt_the_word_lists_into_its_project(project: Path, retrained: FlowRun) -> None:
    """The ``words`` stage ran after the corpus was built and before the placeholders and the
    training; on the bundled corpus it gives the committed lists byte for byte, written to
    the project's data/work/word_lists: the flow left this checkout's package alone."""
    steps = list(retrained.result["seconds"])
    assert steps.index("build corpus") < steps.index("rebuild word lists") < steps.index("detect placeholders")
    assert steps.index("rebuild word lists") < steps.index("train")
    lists = retrained.result["word_lists"]
    assert lists["changed"] == [] and lists["in_place"] is False and not (project / "deid").exists()
    assert set(lists["sha256"]) == {"lowercase_words", "nouns", "public_words"}
    for name, sha256 in lists["sha256"].items():
        committed = ROOT / "deid/resources" / f"{name}.txt.xz"
        built = project / "data/work/word_lists" / committed.name
        assert sha256 == hashlib.sha256(committed.read_bytes()).hexdigest(), name
        assert built.read_bytes() == committed.read_bytes(), name


def test_retrain_run_and_artifacts_in_prefect(stack_env: Stack, retrained: FlowRun) -> None:
    assert flow_run(stack_env, retrained)["state_type"] == "COMPLETED"
    found = artifacts(stack_env, retrained)
    assert {"data-validation", "retrain-gate", "retrain-summary", "mlflow-run"} <= set(found)
    gate = found["retrain-gate"]["data"]
    assert "Gate: promote" in gate and "| eval.ler.recall |" in gate
    summary = found["retrain-summary"]["data"]
    assert (
        f"version {retrained.result['version']}" in summary and stack_env.cfg.mlflow_url in summary
    )
    assert "| **total** |" in summary and "| rebuild word lists |" in summary
    # the written decisions: all read and checked, the tiny profile trains on its first max_documents
    written, limit = retrained.result["written"], TRAIN_TINY["max_documents"]
    assert written["documents"] == len(parse_file(ROOT / "data/written/decisions.txt")) and written["trained"] == limit
    assert written["max_overlap"] < 0.5 and f"{limit} written decisions" in summary
    assert "| word lists | unchanged (lowercase_words " in summary
    # every gold set under every profile, its own one marked (deid.evaluation.profiles)
    assert "| ler | federal (its own: gates) |" in summary and "| ler | strict |" in summary
    assert "| bavaria | strict (its own: gates) |" in summary and "| bavaria | federal |" in summary
    assert "passed" in found["data-validation"]["data"]
    assert retrained.result["links"]["run"] in found["mlflow-run"]["data"]  # a link artifact


def test_failed_data_check_fails_the_run_with_a_readable_report(
    stack_env: Stack, project: Path, retrained: FlowRun
) -> None:
    params = yaml.safe_load((project / "params.yaml").read_text(encoding="utf-8"))
    params["validate"]["min_label_spans"] = 10**9  # no corpus has that many PERSON spans
    (project / "params.strict.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    run = stack_env.run_flow(
        "validate", "--project-dir", str(project), "--params-path", "params.strict.yaml", cwd=project, expect_ok=False
    )  # fmt: skip
    assert run.returncode == 1 and run.report["state"] == "FAILED"
    assert "data checks failed: training_set" in run.report["message"]
    assert "Data Docs: " in run.report["message"] and "index.html" in run.report["message"]
    found = artifacts(stack_env, run)
    report = found["data-validation"]["data"]
    assert "| training_set | **FAILED** |" in report and "| corpus_integrity | passed |" in report
    assert "index.html" in found["data-docs"]["data"]


# --- (e) reviews ---------------------------------------------------------------------------


def test_retrain_trains_on_saved_reviews_and_gates_on_them(
    stack_env: Stack, project: Path, saved_reviews: dict[str, Any], retrained: FlowRun, tmp_path: Path
) -> None:
    """The issue's measure, end to end: the reviews saved before the retrain are versioned,
    the training side is in the training report, the evaluation side is the gate's third
    gold set, the reserved decision's review is refused, the agreement is on the run."""
    result = retrained.result
    reviews = result["reviews"]
    assert (reviews["records"], reviews["reserved"], reviews["invalid"]) == (len(REVIEWED) + 1, 1, 0)
    assert (reviews["train"], reviews["evaluation"]) == (saved_reviews["train"], saved_reviews["evaluation"])
    assert reviews["version"] == versioning.corpus_version("data/reviews.dvc", repo=project).md5
    assert versioning.status(["data/reviews.dvc"], repo=project).clean  # pushed to the S3 remote
    assert result["eval_documents"]["reviews"] == min(EVAL_DOCS, saved_reviews["evaluation"])
    client = registry.get_client(stack_env.cfg.mlflow_url)
    run = client.get_run(result["run_id"])
    assert run.data.tags["data.reviews_version"] == reviews["version"]
    metrics = run.data.metrics
    assert metrics["reviews.agreement.ID.accepted_share"] == 1.0
    assert metrics["reviews.agreement.LOCATION.rejected_share"] == 1.0
    assert metrics["reviews.agreement.PERSON.added"] == len(REVIEWED) + 1  # every latest review counts
    assert metrics["reviews.documents.train"] == saved_reviews["train"] and "eval.reviews.recall" in metrics
    # the reviewers' effort (counts each saved review carries): 60 s and 4 actions for 3 spans
    assert metrics["reviews.effort.documents"] == len(REVIEWED) and metrics["reviews.effort.seconds_per_document"] == 60
    assert metrics["reviews.effort.actions_per_span"] == round(4 / 3, 3)
    report = json.loads((project / "reports/reviews.json").read_text(encoding="utf-8"))
    local = client.download_artifacts(result["run_id"], "reports/training_report.json", str(tmp_path))
    training = json.loads(Path(local).read_text(encoding="utf-8"))
    assert training["reviews"]["ids"] == report["train_ids"] and len(report["train_ids"]) == saved_reviews["train"]
    assert result["decision"] == "promote"
    gate_rows = client.get_model_version(registry.MODEL_NAME, result["version"]).tags
    assert "gate.metric.eval.reviews.recall" in gate_rows  # gated: enough documents
    found = artifacts(stack_env, retrained)
    agreement = found["review-agreement"]["data"]
    assert "| PERSON |" in agreement and "| reserved | 1 |" in agreement
    assert "60 s per document and 1.333 actions per span over 5 documents" in agreement and "| reviews | accepted share 0.50;" in found["retrain-summary"]["data"]
    assert WITNESS not in agreement and ACCOUNT not in agreement


def test_a_reviews_set_below_its_minimum_is_skipped_with_the_reason(worse: FlowRun) -> None:
    n = worse.result["eval_documents"]["reviews"]
    assert f"eval.reviews: not gated, {n} documents evaluated (counts from 99)" in worse.result["reasons"]


# --- (b) a worse model ----------------------------------------------------------------------


def test_worse_model_is_rejected_and_champion_stays(
    stack_env: Stack, retrained: FlowRun, worse: FlowRun
) -> None:
    champion = retrained.result["version"]
    result = worse.result
    assert result["decision"] == "reject"
    assert result["champion_before"] == champion
    assert any("worse than champion" in r for r in result["reasons"]), result["reasons"]
    client = registry.get_client(stack_env.cfg.mlflow_url)
    assert registry.alias_version(client, registry.CHAMPION).version == champion
    rejected = client.get_model_version(registry.MODEL_NAME, result["version"])
    assert rejected.tags["gate.decision"] == "reject"
    assert registry.CHAMPION not in rejected.aliases
    # a rejection is an outcome, not a failure of the run
    assert flow_run(stack_env, worse)["state_type"] == "COMPLETED"
    assert "Gate: reject" in artifacts(stack_env, worse)["retrain-gate"]["data"]


# --- (c) anonymize S3 → S3 ------------------------------------------------------------------


def read_s3_jsonl(stack: Stack, url: str) -> list[dict[str, Any]]:
    from deid.ops.s3 import S3Location

    loc = S3Location.parse(url)
    body = stack.s3().get_object(Bucket=loc.bucket, Key=loc.prefix)["Body"].read().decode("utf-8")
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def test_anonymize_from_s3_to_s3(
    stack_env: Stack, inbox: dict[str, Any], anonymized: list[FlowRun]
) -> None:
    first, again = (run.result for run in anonymized)
    assert (first["documents"], first["processed"], first["quarantined"]) == (4, 4, 2)
    assert first["model_version"] is not None
    out = inbox["output"]
    results = read_s3_jsonl(stack_env, f"{out}/anonymized.jsonl")
    assert sorted(r["id"] for r in results) == sorted(inbox["texts"])
    spans = {r["id"]: r for r in read_s3_jsonl(stack_env, f"{out}/spans.jsonl")}
    for doc_id, text in inbox["texts"].items():
        row = spans[doc_id]
        assert set(row) == {"id", "sha256", "characters", "spans", "counts"}  # no text
        assert row["characters"] == len(text)
        assert sum(row["counts"].values()) == len(row["spans"])
        assert all(0 <= s["start"] < s["end"] <= len(text) for s in row["spans"])
    # the rewritten decisions name persons; the raw one is published anonymized and may
    # rightly have nothing left
    assert all(spans[f"gold-{i}"]["spans"] for i in range(len(inbox["gold"])))
    anonymous = {r["id"]: r["text"] for r in results}
    assert any("[" in anonymous[i] and anonymous[i] != inbox["texts"][i] for i in anonymous)
    quarantine = read_s3_jsonl(stack_env, f"{out}/quarantine.jsonl")
    reasons = {Path(q["input"]).name: q["reason"] for q in quarantine}
    assert reasons.keys() == {"empty.txt", "scan.txt"} and reasons["empty.txt"] == "empty file"
    assert all(q["input"].startswith(inbox["input"]) for q in quarantine)
    # the re-run resumes: nothing is anonymized twice, the output stays complete
    assert (again["processed"], again["already_done"], again["documents"]) == (0, 4, 4)
    # every record names what made it (issue 18, item 5)
    version = first["model_version"]
    for row in results:
        lineage = row["lineage"]
        assert (lineage["model"]["version"], lineage["model"]["alias"]) == (version, "champion")
        digest = hashlib.sha256(inbox["texts"][row["id"]].encode("utf-8")).hexdigest()
        assert lineage["input_sha256"] == digest and len(lineage["pipeline_sha256"]) == 64
        assert lineage["components"]["deid"] and lineage["git_commit"]


def test_a_word_file_comes_back_as_word_file_on_s3(
    stack_env: Stack, inbox: dict[str, Any], anonymized: list[FlowRun]
) -> None:
    """The DOCX input is in the output in its own format, beside the results file: its text
    is the anonymized text of the results file, the account number is gone from its XML."""
    import io
    import zipfile

    from deid.ops import s3
    from deid.sources import formats
    from tests.code.formats_data import IBAN

    assert f"{inbox['output']}/documents/urteil.docx" in anonymized[0].result["uploaded"]
    location = s3.S3Location.parse(inbox["output"])
    key = location.key("documents/urteil.docx")
    body = stack_env.s3().get_object(Bucket=location.bucket, Key=key)["Body"].read()
    results = {r["id"]: r["text"] for r in read_s3_jsonl(stack_env, f"{inbox['output']}/anonymized.jsonl")}
    assert formats.read(body, name="urteil.docx").text == results["urteil"]
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        xml = b"".join(archive.read(n) for n in archive.namelist())
    assert IBAN.encode() not in xml and b"[ID]" in xml


def test_a_finished_anonymize_run_keeps_no_clear_copy_of_its_inputs(
    project: Path, inbox: dict[str, Any], anonymized: list[FlowRun]
) -> None:
    """The work dir held the staged S3 input and chunk files (the decisions in clear text)
    after success; only the anonymized chunk results (for a resuming re-run) stay."""
    work = project / "data" / "work" / "anonymize"
    left = [p for p in work.rglob("*") if p.is_file()]
    assert left and not [p for p in left if {"chunks", "input"} & set(p.relative_to(work).parts)]
    assert any(p.parent.name == "results" for p in left)
    contents = [p.read_bytes() for p in left]
    assert not any(text.encode() in c for c in contents for text in inbox["texts"].values())


def test_anonymize_output_is_versioned_on_the_s3_remote(
    stack_env: Stack, project: Path, anonymized: list[FlowRun]
) -> None:
    tracked = anonymized[0].result["dvc"]
    assert tracked["pushed"] and tracked["version"]["nfiles"] == 5  # with documents/urteil.docx
    status = versioning.status(["data/anonymized.dvc"], repo=project)
    assert status.clean, status.to_dict()
    assert versioning.remotes(project)[versioning.default_remote(project)].startswith("s3://dvc/")


def test_anonymize_progress_and_summary_artifacts(
    stack_env: Stack, anonymized: list[FlowRun]
) -> None:
    found = artifacts(stack_env, anonymized[0])
    assert found["anonymize-progress"]["type"] == "progress"
    assert float(found["anonymize-progress"]["data"]) == 100.0
    summary = found["anonymize-summary"]["data"]
    assert "| in the output | 4 |" in summary and "empty file" in summary
    assert "| vetted by | the gate, at " in summary
    assert flow_run(stack_env, anonymized[1])["state_type"] == "COMPLETED"


@pytest.fixture(scope="module")
def jsonl_run(
    stack_env: Stack, project: Path, retrained: FlowRun, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """A JSONL batch with a record that repeats an id, a record with a lone surrogate and a
    record whose text is not a string, beside two good ones (real gold documents)."""
    folder = tmp_path_factory.mktemp("jsonl")
    good = gold_docs(project, 2)[-2:]
    records = [{"id": "one", "text": good[0].text}, {"id": "two", "text": good[1].text},
               {"id": "one", "text": good[1].text[:500]},
               {"id": "three", "text": good[0].text[:400] + "\ud800" + good[0].text[400:900]},
               {"id": "four", "text": ["not", "a", "string"]}]  # fmt: skip
    source = folder / "batch.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    run = stack_env.run_flow("anonymize", "--input", str(source), "--output", str(folder / "out"),
                             "--project-dir", str(project), "--no-track", "--profile", "federal", cwd=project)  # fmt: skip
    return {"run": run, "out": folder / "out", "texts": [d.text for d in good], "docs": good}


def test_bad_jsonl_records_are_quarantined_and_the_batch_completes(
    stack_env: Stack, jsonl_run: dict[str, Any]
) -> None:
    """One such record used to fail the whole flow, with the JSON line (the decision's text)
    in the exception message, the console and Prefect's log table; a duplicate id was merged."""
    result = jsonl_run["run"].result
    assert (result["documents"], result["processed"], result["quarantined"]) == (2, 2, 3)
    rows = [json.loads(line) for line in (jsonl_run["out"] / "quarantine.jsonl").read_text().splitlines()]
    assert sorted(r["id"] for r in rows) == ["four", "one", "three"]
    assert all(r["reason"] for r in rows)
    assert flow_run(stack_env, jsonl_run["run"])["state_type"] == "COMPLETED"
    # the run's anonymization profile (--profile federal) is in its result and every record's lineage
    assert result["profile"] == "federal"
    records = [json.loads(line) for line in (jsonl_run["out"] / "anonymized.jsonl").read_text().splitlines()]
    assert records and all(r["lineage"]["overrides"] == {"profile": "federal"} for r in records)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_wrong_tracking_store_fails_the_flow_at_once_in_one_line(
    stack_env: Stack, project: Path, inbox: dict[str, Any], tmp_path: Path
) -> None:
    """A missing sqlite file used to be created empty (then: model not found); a server that
    is down took 793 s of retries before the flow failed."""
    common = ["--input", inbox["input"], "--output", str(tmp_path / "out"), "--project-dir", str(project),
              "--no-track"]  # fmt: skip
    missing = tmp_path / "nowhere" / "mlflow.db"
    for uri, says in ((f"sqlite:///{missing}", "no MLflow store at"),
                      (f"http://127.0.0.1:{_closed_port()}", "does not answer")):  # fmt: skip
        run = stack_env.run_flow("anonymize", *common, "--tracking-uri", uri, cwd=project, expect_ok=False)
        assert run.returncode == 1 and run.report["state"] == "FAILED"
        assert says in run.report["message"] and "\n" not in run.report["message"]
    assert not missing.parent.exists()


# The anonymize flow on a worker whose rule code changed since the champion was gated: the
# keep_zones component is one version further (the champion's no longer registered).
CHANGED_WORKER = """
import runpy, sys
from dataclasses import replace
import deid.anonymizer.components  # registers the components, as every construction path does
from deid.anonymizer import chain
newest = chain.installed_version("keep_zones")
chain._REGISTRY["keep_zones"] = {newest + 1: replace(chain.component("keep_zones"), version=newest + 1)}
sys.argv[0] = "flows.anonymize"
runpy.run_module("flows.anonymize", run_name="__main__", alter_sys=True)
"""


def test_the_anonymize_flow_refuses_a_champion_its_worker_cannot_run(
    stack_env: Stack, project: Path, inbox: dict[str, Any], retrained: FlowRun, tmp_path: Path
) -> None:
    """Production runs the evaluated chain (issue 16, item 2): the registered champion
    recorded keep_zones at the version installed here; a worker one version further fails the
    flow before any document,
    naming the component, both versions and the commit the champion was registered from."""
    out = tmp_path / "out"
    argv = [sys.executable, "-c", CHANGED_WORKER, "--input", inbox["input"], "--output", str(out),
            "--project-dir", str(project), "--no-track"]  # fmt: skip
    done = subprocess.run(argv, cwd=project, env=stack_env.env, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip
    run = FlowRun("anonymize", done.returncode, done.stdout, done.stderr)
    stack_env.runs.append(run)  # for the privacy check
    assert run.returncode == 1 and run.report["state"] == "FAILED", done.stderr[-3000:]
    message = run.report["message"]
    gated = chain.installed_version("keep_zones")
    assert f"chain component 'keep_zones' version {gated}" in message and f"this code has version {gated + 1}" in message
    client = registry.get_client(stack_env.cfg.mlflow_url)
    champion = registry.alias_version(client, registry.CHAMPION)
    assert f"version {champion.version}, registered from commit {champion.tags['git.commit']}" in message
    assert f"keep_zones@{gated}" in champion.tags["pipeline.chain"].split(",")
    # no half-run batch: no input staged, nothing planned or written
    from flows.anonymize import work_dir_for

    assert not out.exists() and not work_dir_for(str(project), str(out)).exists()


def test_the_anonymize_flow_refuses_a_champion_made_by_hand(
    stack_env: Stack, project: Path, inbox: dict[str, Any], retrained: FlowRun, worse: FlowRun, tmp_path: Path
) -> None:
    """Issue 27: the rejected version made champion straight in MLflow (alias moved, a gate
    tag written) is refused by the nightly flow before any document, saying why."""
    client = registry.get_client(stack_env.cfg.mlflow_url)
    forged = worse.result["version"]
    client.set_model_version_tag(registry.MODEL_NAME, forged, "gate.decision", "promote")
    client.set_registered_model_alias(registry.MODEL_NAME, registry.CHAMPION, forged)
    try:
        out = tmp_path / "out"
        run = stack_env.run_flow("anonymize", "--input", inbox["input"], "--output", str(out), "--project-dir",
                                 str(project), "--no-track", cwd=project, expect_ok=False)  # fmt: skip
    finally:
        client.set_registered_model_alias(registry.MODEL_NAME, registry.CHAMPION, retrained.result["version"])
        client.set_model_version_tag(registry.MODEL_NAME, forged, "gate.decision", "reject")
    assert run.returncode == 1 and run.report["state"] == "FAILED"
    assert f"version {forged} carries no signed vetting" in run.report["message"]
    assert not out.exists()


# --- manual registry moves ------------------------------------------------------------------


@pytest.fixture(scope="module")
def moved(stack_env: Stack, project: Path, retrained: FlowRun, worse: FlowRun) -> list[FlowRun]:
    """A reviewer tries to promote the rejected version by hand, does it with the override,
    rolls back, then tries without reason."""
    run = stack_env.run_flow
    common = ("--by", "tests", "--project-dir", str(project))
    version = worse.result["version"]
    return [
        run("registry", "promote", "--version", version, "--reason", "manual path check", *common, cwd=project,
            expect_ok=False),
        run("registry", "promote", "--version", version, "--reason", "manual path check", "--override-gate", *common,
            cwd=project),
        run("registry", "rollback", "--reason", "back to the gated champion", *common, cwd=project),
        run("registry", "rollback", "--reason", " ", *common, cwd=project, expect_ok=False),
    ]  # fmt: skip


def test_promote_and_rollback_flows_need_a_reason_and_record_it(
    stack_env: Stack, retrained: FlowRun, worse: FlowRun, moved: list[FlowRun]
) -> None:
    refused, promoted, rolled_back, without_reason = moved
    champion, other = retrained.result["version"], worse.result["version"]
    assert refused.returncode == 1 and "rejected by the gate" in refused.report["message"]
    assert (promoted.result["champion"], promoted.result["previous_champion"]) == (other, champion)
    assert rolled_back.result["champion"] == champion
    client = registry.get_client(stack_env.cfg.mlflow_url)
    assert registry.alias_version(client, registry.CHAMPION).version == champion
    assert registry.alias_version(client, registry.PREVIOUS_CHAMPION) is None
    tags = client.get_model_version(registry.MODEL_NAME, other).tags
    assert (tags["promote.by"], tags["promote.reason"]) == ("tests", "manual path check")
    assert tags["promote.override_gate"] == "true"
    assert tags["rolled_back.reason"] == "back to the gated champion"
    change = artifacts(stack_env, promoted)["registry-change"]["data"]
    assert f"| champion | {champion} | {other} |" in change
    assert "| promote | " in change and "| yes | manual path check |" in change  # alias history
    history = artifacts(stack_env, rolled_back)["registry-change"]["data"]
    assert "| rollback | " in history and "| promote | " in history and "| gate-promote | " in history
    assert without_reason.returncode == 1 and without_reason.report["state"] == "FAILED"
    assert "reason is required" in without_reason.report["message"]


# --- (d) privacy ----------------------------------------------------------------------------

MIN_SURFACE = 5


def sensitive_strings(docs: list[Document], texts: list[str]) -> set[str]:
    """Gold span surfaces (surrogate names, places, streets …) and every longer line of the
    input texts: neither may appear outside the documents and the anonymized outputs."""
    found = {d.text[s.start : s.end].strip() for d in docs for s in d.spans}
    found = {s for s in found if len(s) >= MIN_SURFACE and re.search(r"[A-Za-zÄÖÜäöüß]{3}", s)}
    lines = {line.strip() for text in texts for line in text.splitlines()}
    return found | {line for line in lines if len(line) >= 40}


def prefect_haystack(stack: Stack, runs: list[FlowRun]) -> str:
    ids = [r.id for r in runs]
    logs = stack.prefect_all("/logs/filter", {"logs": {"flow_run_id": {"any_": ids}}})
    arts = stack.prefect_all("/artifacts/filter", {"artifacts": {"flow_run_id": {"any_": ids}}})
    flow_runs = stack.prefect("/flow_runs/filter", {"flow_runs": {"id": {"any_": ids}}})
    tasks = stack.prefect_all("/task_runs/filter", {"flow_runs": {"id": {"any_": ids}}})
    assert logs and arts and len(flow_runs) == len(ids) and tasks
    return json.dumps([logs, arts, flow_runs, tasks], ensure_ascii=False)


def mlflow_haystack(stack: Stack, tmp: Path) -> str:
    client = registry.get_client(stack.cfg.mlflow_url)
    experiment = client.get_experiment_by_name(registry.EXPERIMENT)
    parts: list[Any] = []
    for run in client.search_runs([experiment.experiment_id]):
        parts += [run.info.run_name, run.data.params, run.data.tags]
        local = client.download_artifacts(run.info.run_id, "reports", str(tmp / run.info.run_id))
        parts += [p.read_text(encoding="utf-8") for p in sorted(Path(local).rglob("*.json"))]
    model = client.get_registered_model(registry.MODEL_NAME)
    parts += [model.tags, model.description]
    for mv in client.search_model_versions(f"name = '{registry.MODEL_NAME}'"):
        parts += [mv.tags, mv.description]
    assert len(parts) > 10
    return json.dumps(parts, ensure_ascii=False, default=str)


def test_no_sensitive_text_outside_the_documents(
    stack_env: Stack,
    project: Path,
    retrained: FlowRun,
    worse: FlowRun,
    anonymized: list[FlowRun],
    inbox: dict[str, Any],
    jsonl_run: dict[str, Any],
    saved_reviews: dict[str, Any],
    tmp_path: Path,
) -> None:
    runs = list(stack_env.runs)  # every flow run of this session so far, failed ones too
    assert {retrained.id, worse.id, jsonl_run["run"].id, *(r.id for r in anonymized)} <= {r.id for r in runs}
    evaluated = gold_docs(project, EVAL_DOCS)
    needles = sensitive_strings(
        evaluated + inbox["gold"] + jsonl_run["docs"],
        [d.text for d in evaluated] + list(inbox["texts"].values()) + jsonl_run["texts"] + saved_reviews["texts"],
    ) | {WITNESS[len("Zeugin ") :], ACCOUNT}
    assert len(needles) > 50  # names from the gold sets and lines from every input
    haystacks = {
        "prefect": prefect_haystack(stack_env, runs),
        "mlflow": mlflow_haystack(stack_env, tmp_path),
        "stdout/stderr": "\n".join(r.stdout + r.stderr for r in runs),
    }
    for where, haystack in haystacks.items():
        leaked = sorted(text_hash(n) for n in needles if n in haystack)
        if leaked:  # pytest.fail, not assert: the report must not print the strings themselves
            pytest.fail(
                f"{len(leaked)} sensitive strings in {where} (sha256 prefixes {leaked[:10]})"
            )
