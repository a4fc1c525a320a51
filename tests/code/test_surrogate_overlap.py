"""Tests of deid.evaluation.surrogate_overlap: made-up strings for the word rules, a small real sample of
the rewritten LER set for the sources the system uses."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from deid.evaluation import surrogate_overlap as so
from deid.schema import Document, Span
from deid.sources.io import read_documents, write_documents
from tests.conftest import ROOT

LER_GOLD = ROOT / "data/gold/ler_rewritten.jsonl"


def test_name_words_leave_out_generic_words_initials_and_numbers():
    assert so.name_words("Otto-Leutkircher-Straße 57", "STREET") == (
        ["Otto", "Leutkircher"],
        ["Straße"],
    )
    assert so.name_words("Rohrachstraße 1a", "STREET") == (["Rohrachstraße"], [])
    assert so.name_words("Weinberger Haustechnik GmbH", "ORGANIZATION") == (
        ["Weinberger"], ["Haustechnik", "GmbH"],
    )  # fmt: skip
    assert so.name_words("Dr. K. von Albers", "PERSON") == (["Albers"], ["Dr"])
    assert so.name_words("B 308", "STREET") == ([], [])
    # a street word names nothing in a street; "Hof" as a place is a name
    assert so.name_words("Hof", "LOCATION") == (["Hof"], [])


def _doc(doc_id: str, *names: tuple[str, str]) -> Document:
    text, spans = "", []
    for surface, label in names:
        text += "Der Zeuge "
        spans.append(Span(len(text), len(text) + len(surface), label))
        text += surface + " sagte aus. "
    return Document(doc_id, text, spans=spans)


def test_overlap_set_counts_spans_words_and_unseen_documents():
    sources = {
        "train_pool": {"Albers"}.__contains__,
        "gazetteers": {"Albers", "Kessler"}.__contains__,
        "training_text": set().__contains__,
    }
    docs = [
        _doc("a", ("Albers", "PERSON"), ("Zorbek Bau GmbH", "ORGANIZATION")),
        _doc("b", ("Kessler", "PERSON"), ("Kessler", "PERSON")),
        _doc("c", ("Zorbek", "PERSON"), ("B 12", "STREET")),
        _doc("d"),
    ]
    r = so.overlap_set(docs, sources)
    assert r["documents"] == {
        "total": 4,
        "with_name_words": 3,
        "unseen": {"count": 1, "ids": ["c"]},
        "unseen_in_training": {"count": 2, "ids": ["b", "c"]},
    }
    person = r["per_type"]["PERSON"]
    assert person["spans"] == 4 and person["spans_without_name_words"] == 0
    assert person["spans_known_by"] == {"train_pool": 1, "gazetteers": 3, "training_text": 0}
    assert (person["spans_unseen"], person["spans_unseen_in_training"]) == (1, 3)
    assert person["words"] == 3 and person["words_unseen"] == 1
    assert person["words_known_by"]["gazetteers"] == 2
    org = r["per_type"]["ORGANIZATION"]
    assert (org["words"], org["generic_words"], org["spans_unseen"]) == (1, 2, 1)
    assert r["per_type"]["STREET"]["spans_without_name_words"] == 1
    assert r["per_type"]["LOCATION"]["spans"] == 0


@pytest.fixture(scope="module")
def sample() -> list[Document]:
    """The first twelve rewritten LER documents with gold spans."""
    return [d for d in read_documents(LER_GOLD) if d.spans][:12]


@pytest.fixture(scope="module")
def sample_report(sample) -> dict:
    return so.overlap_set(sample, so.default_sources(frozenset()))


@pytest.mark.slow
def test_eval_pool_surrogates_are_in_the_gazetteers_the_rules_read(sample, sample_report):
    """By construction: the rewrite draws eval-pool entries of the same lists, so no sample
    document is unseen, while the training pool and (here empty) text miss most."""
    docs = sample_report["documents"]
    assert docs["total"] == docs["with_name_words"] == len(sample)
    assert docs["unseen"]["count"] == 0
    assert 0 < docs["unseen_in_training"]["count"] <= len(sample)
    person = sample_report["per_type"]["PERSON"]
    assert person["spans"] > 20 and person["spans_known_by"]["gazetteers"] == person["spans"]
    assert person["spans_known_by"]["training_text"] == 0
    assert person["spans_unseen_in_training"] > 0


@pytest.mark.slow
def test_training_text_makes_a_document_seen(sample, sample_report, tmp_path):
    unseen = sample_report["documents"]["unseen_in_training"]["ids"]
    chosen = next(d for d in sample if d.id == unseen[0])
    train = tmp_path / "train.jsonl"
    write_documents(train, [Document("t1", chosen.text)])
    words, read = so.text_words([train, tmp_path / "absent.jsonl"])
    assert read == [
        {"path": str(train), "documents": 1},
        {"path": str(tmp_path / "absent.jsonl"), "documents": None},
    ]
    again = so.overlap_set(sample, so.default_sources(words))
    assert chosen.id not in again["documents"]["unseen_in_training"]["ids"]
    assert set(again["documents"]["unseen_in_training"]["ids"]) < set(unseen)


@pytest.mark.slow
def test_report_holds_counts_and_ids_never_words(sample, sample_report):
    dumped = json.dumps(sample_report, ensure_ascii=False)
    words = {
        w
        for d in sample
        for s in d.spans
        for w in so.words_of(d.text[s.start : s.end])
        if len(w) > 3
    }
    assert words and not any(w in dumped for w in words)


@pytest.mark.slow
def test_cli_overlap_and_an_evaluation_restricted_to_unseen_documents(sample, tmp_path):
    from deid.app.cli import app

    gold, train, report = tmp_path / "gold.jsonl", tmp_path / "train.jsonl", tmp_path / "o.json"
    write_documents(gold, sample)
    train.write_text("", encoding="utf-8")
    result = CliRunner().invoke(
        app,
        [
            "evaluate-overlap",
            "--gold",
            f"ler={gold}",
            "--train",
            str(train),
            "--report",
            str(report),
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(report.read_text(encoding="utf-8"))
    assert set(out["sets"]) == {"ler"} and out["sets"]["ler"]["gold"] == str(gold)
    assert list(out["parameters"]["sources"]) == list(so.SOURCES)
    unseen = out["sets"]["ler"]["documents"]["unseen_in_training"]["ids"]
    assert so.unseen_subsets(out) == {"unseen_surrogates": [], "unseen_in_training": sorted(unseen)}
    assert [d.id for d in so.unseen_documents(sample, out, "unseen_in_training")] == unseen

    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        "".join(
            json.dumps({"id": d.id, "spans": [s.to_dict() for s in d.spans]}) + "\n" for d in sample
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        app, ["evaluate", "--gold", str(gold), "--pred", str(pred), "--overlap", str(report)]
    )
    assert result.exit_code == 0, result.output
    subsets = json.loads(result.stdout)["subsets"]
    assert subsets["unseen_in_training"]["overall"]["documents"] == len(unseen)
    assert subsets["unseen_in_training"]["overall"]["elements"]["recall"] == 1.0
    assert subsets["unseen_surrogates"]["overall"]["documents"] == 0
    twice = CliRunner().invoke(app, ["evaluate-overlap", "--gold", str(gold), "--gold", str(gold)])
    assert twice.exit_code != 0
