"""Public words (deid.words.public): capitalized words the training decisions print again and
again in clear text, never a person's name, a place or an acronym, never built from reserved
evaluation documents."""

from __future__ import annotations

import json

import pytest

from deid.training.word_lists import main
from deid.words.gazetteer import read_lines
from deid.words.ordinary import is_ordinary_word
from deid.words.public import build as build_public
from deid.words.public import public_words
from tests.conftest import ROOT, read_source

DECISIONS = ["decisions/bag/9-azr-115-23.txt.xz", "decisions/bfh/STRE202450071.txt.xz"]


@pytest.fixture(scope="module")
def names() -> set[str]:
    return set(read_lines("surnames.txt.xz")) | set(read_lines("cities.txt.xz"))


def test_public_words_repeat_and_hold_no_names(names) -> None:
    texts = [read_source(rel) for rel in DECISIONS]
    words = build_public(texts)
    joined = "\n".join(texts)
    assert "Revision" in words and "Urteil" in words
    assert all(joined.count(w) >= 3 for w in words)
    assert not set(words) & names
    # a word the decisions print once or twice is not public
    once = [w for w in {w for t in texts for w in t.split()} if w.istitle() and w.isalpha() and joined.count(w) == 1]
    assert once and not set(once) & set(words)


def test_bundled_public_words(names) -> None:
    words = public_words()
    assert len(words) > 5000
    assert not words & names
    assert not [w for w in words if w.isupper()], "acronyms are company names elsewhere"
    assert "Revision" in words
    assert is_ordinary_word("Revision") and not is_ordinary_word("Schliessleder")


def test_refuses_reserved_documents(tmp_path) -> None:
    gold = ROOT / "data" / "gold" / "ler_rewritten.jsonl"
    record = json.loads(gold.open(encoding="utf-8").readline())
    record.setdefault("court", "bgh")
    path = tmp_path / "reserved.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="reserved"):
        main(["public", str(path)])
