"""Decisions written from scratch as training documents (deid.training.written): the committed
corpus reads, keeps its distance from every reserved gold set, and a copy of an evaluation
decision or a repeated id is refused with ids and shares only."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from deid.rewrite.gold.markup import parse_file
from deid.sources.params import load_params
from deid.sources.reviews.dataset import ReservedIndex, ReviewSettings, reserved_texts
from deid.training.written import CORPUS, COURT, WrittenCorpusError, WrittenSettings, read_written
from tests.conftest import ROOT

PARAMS = load_params(ROOT / "params.yaml")
DEV = ROOT / "data/gold/bavaria_scratch_dev/decisions.txt"


@functools.cache
def _reserved() -> ReservedIndex:
    gold = [ROOT / g for g in ReviewSettings.from_params(PARAMS).reserved_gold]
    return ReservedIndex.build(reserved_texts(None, gold))


def _first(path: Path, n: int) -> str:
    """The first ``n`` decisions of a markup file, as markup."""
    raw = path.read_text(encoding="utf-8")
    heads = [m.start() for m in re.finditer(r"^=== ", raw, re.MULTILINE)]
    return raw[: heads[n]] if n < len(heads) else raw


def test_params_name_the_committed_corpus_and_refuse_unknown_keys() -> None:
    settings = WrittenSettings.from_params(PARAMS)
    assert settings.files == ("data/written/decisions.txt",) and (ROOT / settings.files[0]).exists()
    with pytest.raises(ValueError, match="max_overlap"):
        WrittenSettings.from_params({"written": {"files": [], "max_overlap": 0.2}})


TRAINED = WrittenSettings.from_params(PARAMS).files
# committed written decisions that params do not train (data/written/README.md)
UNTRAINED = ("data/written/second_batch.txt",)


# the two together: no id repeats, so a run may list both
@pytest.mark.parametrize("files", [TRAINED, (*TRAINED, *UNTRAINED)], ids=["trained", "with-untrained"])
def test_the_committed_corpus_is_far_from_every_reserved_document(files: tuple[str, ...]) -> None:
    """Every written decision reads, is tagged as written (no reserved court), and shares
    little of its word 8-grams with the evaluation documents (a review is refused from
    ``reviews.reserved_overlap``)."""
    threshold = ReviewSettings.from_params(PARAMS).reserved_overlap
    corpus = read_written([ROOT / f for f in files], _reserved(), threshold)
    assert len(corpus.documents) >= 80
    assert all(d.court == COURT and d.meta["corpus"] == CORPUS for d in corpus.documents)
    assert all(d.id.startswith("scratchtrain-") for d in corpus.documents)
    report = corpus.report()
    # what they share is court boilerplate (a cost decision's sentence), as real decisions do
    # with each other (params.yaml: <= 0.22); the median decision shares under a tenth
    shares = sorted(corpus.overlap.values())
    assert report["max_overlap"] < threshold and shares[len(shares) // 2] < 0.1
    for label in ("PERSON", "ORGANIZATION", "LOCATION", "STREET", "ID"):
        assert report["spans"][label] >= 100, label
    assert report["keep_spans"]["JUDGE"] >= len(corpus.documents)


def test_a_dev_decision_copied_into_the_corpus_is_refused(tmp_path: Path) -> None:
    copied = tmp_path / "copied.txt"
    copied.write_text(
        _first(DEV, 1).replace("=== scratchdev-", "=== scratchtrain-x-"), encoding="utf-8"
    )
    with pytest.raises(WrittenCorpusError, match=r"scratchtrain-x-\S+ shares 100%") as caught:
        read_written([copied], _reserved(), 0.5)
    (doc,) = parse_file(copied)
    assert not [s for s in doc.spans if doc.text[s.start : s.end] in str(caught.value)]


def test_a_dev_decision_with_its_names_changed_is_refused_too(tmp_path: Path) -> None:
    """Other names in the same text are still the same decision: the 8-grams outside the
    names carry it."""
    (doc,) = parse_file(_write(tmp_path / "one.txt", _first(DEV, 1)))
    text = doc.text
    for span in sorted(doc.spans, reverse=True):
        text = text[: span.start] + "[[Wiesinger|P]]" + text[span.end :]
    changed = _write(tmp_path / "changed.txt", "=== scratchtrain-y-renamed\n" + text + "\n")
    with pytest.raises(WrittenCorpusError, match="scratchtrain-y-renamed"):
        read_written([changed], _reserved(), 0.5)


def test_an_id_used_twice_is_refused(tmp_path: Path) -> None:
    one = _first(ROOT / WrittenSettings().files[0], 1)
    twice = _write(tmp_path / "twice.txt", one + one)
    with pytest.raises(WrittenCorpusError, match="used twice"):
        read_written([twice], _reserved(), 0.5)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
