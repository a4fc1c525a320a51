"""Saved reviews as data (deid.sources.reviews.dataset): reviews of reserved evaluation documents are
refused in every form a reviewer may bring them (the decision as published, read from a
DOCX, its rewritten gold text, a part of it); one review per document; a deterministic
split that never puts a document on both sides; agreement counts; and the names reviewers
marked never reach the training text or the vocabulary. On real decisions."""

from __future__ import annotations

import io
import json
from pathlib import Path

import docx
import pytest

from deid.rewrite.surrogates import SurrogateGenerator
from deid.schema import coarse_label
from deid.sources import formats
from deid.sources.corpus import load_decisions
from deid.sources.io import read_documents, write_documents
from deid.sources.reviews import ReviewStore, new_review, read_records
from deid.sources.reviews.dataset import (
    EVALUATION,
    INVALID,
    RESERVED,
    SUPERSEDED,
    TRAIN,
    UNFINISHED,
    ReservedIndex,
    ReviewSettings,
    agreement_counts,
    agreement_metrics,
    document_key,
    prepare_reviews,
    reserved_texts,
    review_split,
    write_prepared,
)
from deid.training.data import surrogate_texts
from deid.training.job import review_documents, without_spans
from tests.code.formats_data import NAMES, decision, name_spans
from tests.conftest import ROOT, SOURCES, read_source

BAVARIAN = "decisions/bavaria/Y-300-Z-BECKRS-B-2019-N-17491.txt.xz"
BAVARIAN_ID = "dec-bavaria-Y-300-Z-BECKRS-B-2019-N-17491"
OTHER = "decisions/bag/9-azr-115-23.txt.xz"  # not reserved
INFO = {"uri": "models:/deid-ner@champion", "name": "deid-ner", "version": "4", "alias": "champion",
        "pipeline_sha256": "cd" * 32}  # fmt: skip
SETTINGS = ReviewSettings(reserved_gold=tuple(str(ROOT / g) for g in ReviewSettings().reserved_gold))


@pytest.fixture(scope="module")
def reserved(tmp_path_factory) -> ReservedIndex:
    """The index as the pipeline builds it: the corpus's test split (here: the bundled
    Bavarian decisions, reserved, as deid.sources.corpus loads them) and the rewritten gold sets."""
    corpus = tmp_path_factory.mktemp("corpus")
    docs, _ = load_decisions(SOURCES)
    write_documents(corpus / "test.jsonl", [d for d in docs if d.court == "bavaria"])
    return ReservedIndex.build(reserved_texts(corpus, SETTINGS.reserved_gold))


def _review(text: str, final: list[dict], *, created: str = "2026-11-25T10:00:00+00:00") -> dict:
    model = [{**s, "score": 0.9, "source": "model"} for s in final[:1]]
    return new_review(text, model, final, reviewer="a.richter", model_info=INFO, created=created)


def _first_word(text: str) -> list[dict]:
    start = next(i for i, c in enumerate(text) if c.isalpha())
    end = start + next(i for i, c in enumerate(text[start:]) if not c.isalnum())
    return [{"start": start, "end": end, "label": "PERSON"}]


def _docx_text(text: str) -> str:
    """The decision typed into Word, one paragraph per line, read back by deid.sources.formats."""
    document = docx.Document()
    for line in text.split("\n"):
        document.add_paragraph(line.strip())
    buffer = io.BytesIO()
    document.save(buffer)
    return formats.read(buffer.getvalue(), name="urteil.docx").text


def _bavarian_variants() -> dict[str, str]:
    raw = read_source(BAVARIAN)
    gold = next(d for d in read_documents(ROOT / "data/gold/bavaria/rewritten.jsonl")
                if d.meta.get("source_id") == BAVARIAN_ID)  # fmt: skip
    return {
        "as published": raw,
        "pasted with CRLF and blanks": "  " + raw.replace("\n", " \r\n"),
        "read from a DOCX": _docx_text(raw),
        "its rewritten gold text": gold.text,
        "its second half": raw[len(raw) // 2 :],
    }


@pytest.mark.parametrize("variant", list(_bavarian_variants()))
@pytest.mark.slow
def test_a_review_of_a_bavarian_gold_decision_is_kept_out_of_training(
    variant: str, reserved: ReservedIndex, tmp_path: Path
) -> None:
    text = _bavarian_variants()[variant]
    other = read_source(OTHER)
    store = ReviewStore(tmp_path / "reviews")
    store.save(_review(other, _first_word(other)))
    store.save(_review(text, _first_word(text)))
    prepared = prepare_reviews(read_records(store.folder), reserved, SETTINGS)
    assert [r.use for r in prepared.rows][1] == RESERVED
    assert prepared.counts()[RESERVED] == 1 and prepared.report()["reserved_lines"] == [2]
    used = prepared.train + prepared.evaluation
    assert [d.meta["review_id"] for d in used] == [prepared.rows[0].id]  # the other one only
    train, evaluation = write_prepared(prepared, tmp_path / "out")
    texts = [d.text for d in read_documents(train) + read_documents(evaluation)]
    assert texts == [other] and [d.text for d in review_documents(train)] in ([other], [])


@pytest.mark.slow
def test_bundled_decisions_that_are_not_reserved_are_not_refused(reserved: ReservedIndex) -> None:
    """The 8-gram overlap of the training courts' decisions with the reserved ones stays far
    below the threshold (boilerplate shared with LER bverwg is about a fifth at most)."""
    docs, _ = load_decisions(SOURCES)
    overlaps = [reserved.overlap(d.text) for d in docs if d.court != "bavaria"]
    assert len(overlaps) == 75 and max(overlaps) < SETTINGS.reserved_overlap / 2
    assert min(reserved.overlap(d.text) for d in docs if d.court == "bavaria") == 1.0


@pytest.mark.slow
def test_one_review_per_document_and_bad_lines_are_invalid(reserved: ReservedIndex, tmp_path: Path) -> None:
    text = decision()
    store = ReviewStore(tmp_path / "reviews")
    first = _review(text, _first_word(text))
    store.save(first)
    pasted = text.replace("\n", "\r\n")  # the same document pasted: the later review wins
    later = _review(pasted, _first_word(pasted), created="2026-11-25T11:00:00+00:00")
    store.save(later)
    tampered = dict(first, spans=[], id="0" * 20)
    with open(store.path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(tampered) + "\n{not json\n")
    prepared = prepare_reviews(read_records(store.folder), reserved, SETTINGS)
    assert [(r.line, r.use) for r in prepared.rows][:1] == [(1, SUPERSEDED)]
    assert [r.use for r in prepared.rows][2:] == [INVALID, INVALID]
    assert prepared.rows[1].use in (TRAIN, EVALUATION) and prepared.rows[1].id == later["id"]
    (doc,) = prepared.train + prepared.evaluation
    assert doc.text == pasted and doc.id == f"review-{document_key(text)[:16]}"
    assert prepared.counts() == {"records": 4, TRAIN: int(doc in prepared.train),
                                 EVALUATION: int(doc in prepared.evaluation), SUPERSEDED: 1,
                                 RESERVED: 0, INVALID: 2, UNFINISHED: 0}  # fmt: skip
    assert prepared.report()["invalid_lines"] == [3, 4]


def test_the_split_is_deterministic_and_keeps_a_document_on_one_side() -> None:
    keys = [document_key(f"Entscheidung Nummer {i}") for i in range(2000)]
    sides = [review_split(k, 0.3, "reviews") for k in keys]
    assert sides == [review_split(k, 0.3, "reviews") for k in keys]
    assert 0.27 < sides.count(EVALUATION) / len(keys) < 0.33
    assert sides != [review_split(k, 0.3, "other salt") for k in keys]
    assert set(sides) == {TRAIN, EVALUATION}
    assert {review_split(k, 0.0, "s") for k in keys} == {TRAIN}
    assert {review_split(k, 1.0, "s") for k in keys} == {EVALUATION}
    # more documents later: every earlier one keeps its side (a salted hash per document)
    assert [review_split(k, 0.3, "reviews") for k in keys[:100]] == sides[:100]


def test_agreement_counts_per_type_from_the_reviewers_decisions() -> None:
    text = read_source(OTHER)
    model = [{"start": 10, "end": 15, "label": "PERSON", "score": 0.9, "source": "model"},
             {"start": 20, "end": 25, "label": "PERSON", "score": 0.5, "source": "model"},
             {"start": 40, "end": 45, "label": "LOCATION", "score": 0.7, "source": "model"},
             {"start": 50, "end": 55, "label": "IBAN", "score": 1.0, "source": "deid.iban"}]  # fmt: skip
    final = [{"start": 10, "end": 15, "label": "PERSON"}, {"start": 20, "end": 25, "label": "ORGANIZATION"},
             {"start": 38, "end": 47, "label": "LOCATION"}, {"start": 60, "end": 66, "label": "PERSON"}]  # fmt: skip
    record = new_review(text, model, final, reviewer="x", model_info=INFO)
    table = agreement_counts([record])
    assert table["PERSON"] == {"proposed": 2, "accepted": 1, "rejected": 0, "relabelled": 1,
                               "widened": 0, "added": 1, "open": 0, "gold": 2}  # fmt: skip
    assert table["LOCATION"]["widened"] == 1 and table["ID"]["rejected"] == 1
    assert table["all"]["proposed"] == 4 and table["all"]["gold"] == 4
    metrics = agreement_metrics(table)
    assert metrics["reviews.agreement.PERSON.accepted_share"] == 0.5
    assert metrics["reviews.agreement.PERSON.added_share"] == 0.5
    assert metrics["reviews.agreement.ID.rejected_share"] == 1.0
    assert "reviews.agreement.ORGANIZATION.accepted_share" not in metrics  # proposed none


def test_reviewed_names_never_reach_the_training_text_or_the_vocabulary(tmp_path: Path) -> None:
    """The reviewer's spans are the placeholders of a reviewed decision: every epoch puts
    surrogates in their place, and the tokenizer learns from the text without them."""
    from deid.training.tokenizer import train_tokenizer

    text = decision()
    final = [{"start": s.start, "end": s.end, "label": coarse_label(s.label)} for s in name_spans(text)]
    record = _review(text, final)
    prepared = prepare_reviews([(1, record)], ReservedIndex(), ReviewSettings(evaluation_share=0.0))
    train, _ = write_prepared(prepared, tmp_path)
    (doc,) = review_documents(train)
    names = [part for name in NAMES.values() for part in name.split()]
    generator = SurrogateGenerator(seed=13, pool="train")
    for epoch in range(3):
        items = surrogate_texts(doc, generator, epoch)
        assert sum(len(it.spans) for it in items) == len(final)
        assert not [n for n in names if any(n in it.text for it in items)], epoch
    assert not [n for n in names if n in without_spans(doc)]
    vocab = lambda texts: set(train_tokenizer(texts, vocab_size=3000, model_max_length=128).get_vocab())
    assert "kowalczyk" in {v.lower() for v in vocab([doc.text] * 3)}  # the names are frequent enough
    assert not {n.lower() for n in names} & {v.lower() for v in vocab([without_spans(doc)] * 3)}


def test_only_what_a_person_decided_counts() -> None:
    """A review saved with spans open: they are no one's decision, so they count in no share
    and the document trains and evaluates nothing; the decided spans count in the agreement;
    the effort is summed as counts."""
    text = read_source(OTHER)
    model = [{"start": 10, "end": 15, "label": "PERSON", "score": 0.9}, {"start": 20, "end": 25, "label": "PERSON", "score": 0.3},
             {"start": 40, "end": 45, "label": "LOCATION", "score": 0.4}]  # fmt: skip
    record = new_review(text, model, [model[0] | {"score": None}], reviewer="x", model_info=INFO,
                        open_spans=model[1:], effort={"seconds": 90, "actions": 4})  # fmt: skip
    table = agreement_counts([record])
    assert table["all"]["proposed"] == 1 and table["all"]["accepted"] == 1 and table["all"]["open"] == 2
    assert agreement_metrics(table)["reviews.agreement.PERSON.accepted_share"] == 1.0  # not 0.5
    prepared = prepare_reviews([(1, record)], ReservedIndex(), ReviewSettings(evaluation_share=0.0))
    assert prepared.counts()[UNFINISHED] == 1 and not prepared.train and not prepared.evaluation
    assert prepared.effort == {"documents": 1, "seconds": 90, "actions": 4, "spans": 3,
                               "seconds_per_document": 90.0, "actions_per_span": 1.333}  # fmt: skip


def test_the_retrain_artifacts_show_agreement_and_effort() -> None:
    """The line the retrain summary and the agreement artifact show (counts only)."""
    from flows.reviews import agreement_markdown, effort_line

    text = read_source(OTHER)
    model = [{"start": 10, "end": 15, "label": "PERSON", "score": 0.9}, {"start": 20, "end": 25, "label": "ID", "score": 0.3}]
    record = new_review(text, model, [model[0] | {"score": None}], reviewer="x", model_info=INFO,
                        effort={"seconds": 30, "actions": 3})  # fmt: skip
    prepared = prepare_reviews([(1, record)], ReservedIndex(), ReviewSettings())
    reviews = {"version": "abc", "counts": prepared.counts(), "agreement": prepared.agreement, "effort": prepared.effort}
    assert effort_line(reviews) == "accepted share 0.50; 30 s per document and 1.5 actions per span over 1 documents"
    markdown = agreement_markdown(reviews)
    assert "| unfinished | 0 |" in markdown and effort_line(reviews) in markdown and text[10:15] not in markdown
    assert effort_line(reviews | {"effort": {}}) == "accepted share 0.50; no review recorded its effort"
