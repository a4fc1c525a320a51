"""The model's word features are frozen: every feature set gives each word the id it gave
when the saved models were trained (deid.anonymizer.features).

The table ``tests/data/feature_golden.json`` was written once from the code as it stood
before word knowledge moved to ``deid.words``; it holds names, common nouns, compounds,
streets, legal forms, role and institution nouns (every word of the frozen cue lists), lower
case words, abbreviations and overlong tokens, and one sentence with numbers and punctuation
(which get no word feature). A change here changes the input of every saved model: a new
feature set gets a new name and a new table, an existing one never changes.
"""

from __future__ import annotations

import json

import pytest

from deid.anonymizer.features import FEATURE_SETS, num_features, token_features, word_feature
from tests.conftest import ROOT

GOLDEN = json.loads((ROOT / "tests" / "data" / "feature_golden.json").read_text(encoding="utf-8"))


def test_every_feature_set_is_in_the_table() -> None:
    assert set(GOLDEN["words"]) == set(FEATURE_SETS)
    assert {name: num_features(name) for name in FEATURE_SETS} == GOLDEN["num_features"]


@pytest.mark.parametrize("feature_set", sorted(GOLDEN["words"]))
def test_word_ids_are_unchanged(feature_set: str) -> None:
    table: dict[str, int] = GOLDEN["words"][feature_set]
    assert len(table) > 600
    changed = {w: (old, word_feature(w, feature_set)) for w, old in table.items() if word_feature(w, feature_set) != old}
    assert not changed, f"{len(changed)} words changed their feature id: {sorted(changed)[:20]}"


@pytest.mark.parametrize("feature_set", sorted(GOLDEN["tokens"]))
def test_token_ids_of_a_sentence_are_unchanged(feature_set: str) -> None:
    offsets = [tuple(o) for o in GOLDEN["offsets"]]
    assert token_features(GOLDEN["text"], offsets, feature_set) == GOLDEN["tokens"][feature_set]
