"""Word features for from-scratch models: frequency buckets, case and shape (deid.features)."""

from __future__ import annotations

import pytest
from transformers import BertConfig, BertForTokenClassification

from deid.features import (
    FEATURE_SET,
    FEATURE_SETS,
    SHAPE_COMPOUND,
    SHAPE_NONE,
    SHAPE_ROLE,
    SHAPE_SUFFIX,
    num_features,
    token_features,
    word_feature,
    noun_compound,
    word_shape,
)
from deid.lexicon import LEX_NAME, LEX_NOUN, LEX_PROPER, LEX_UNKNOWN, is_common_noun, lexical_class
from deid.models import uses_features

V1 = "wordfreq-zipf-case.v1"
V2 = "wordfreq-zipf-case-shape.v2"
V3 = "wordfreq-zipf-case-shape-lex.v3"
V4 = "wordfreq-zipf-case-shape-lex-compound.v4"


_COMPOUNDS = [
    "Schwurgerichtskammer",
    "Waisengeld",
    "Betriebsstätten",
    "Siedlungsmüll",
    "Brecheisen",
    "Biertisch",
    "Gesamtstrafenausspruchs",  # inflected heads
    "Verordnungsgebers",
    "Rauschgifts",
]
_ROLES = ["Angeklagten", "Zeugin", "Mitangeklagte", "Landratsamt", "Firma"]
_DERIVED = ["Zuverlässigkeit", "Begnadigungen", "Terrorismusbekämpfung"]
# surnames and places of the rewritten test sets: name heads ("-berg", "-heim") and short
# fragments ("Ver" + "sen") do not make a compound
_NAMES = [
    "Felsenberg",
    "Felsenbergs",
    "Muschenheim",
    "Obereisenheim",
    "Versen",
    "Trautner",
    "Tinley",
    "Chintoan",
    "Deininger",
]


@pytest.mark.parametrize(
    "word, shape",
    [(w, SHAPE_COMPOUND) for w in _COMPOUNDS]
    + [(w, SHAPE_ROLE) for w in _ROLES]
    + [(w, SHAPE_SUFFIX) for w in _DERIVED]
    + [(w, SHAPE_NONE) for w in _NAMES],
)
def test_word_shape(word: str, shape: int) -> None:
    """Compounds and derivations are the legal terms a court-corpus model never saw
    (BGH/BVerwG false positives); names keep the neutral shape."""
    assert word_shape(word) == shape


def test_v2_ids_fit_the_type_vocabulary_and_separate_shape() -> None:
    words = ["Schwurgerichtskammer", "Angeklagten", "Felsenberg", "müssen", "Zuverlässigkeit"]
    ids = [word_feature(w, V2) for w in words]
    assert all(1 <= i < num_features(V2) for i in ids)
    assert len(set(ids)) == len(ids)
    # v1 ignores shape: a rare compound and a rare surname of the same bucket collide
    assert word_feature("Waisengeld", V1) == word_feature("Tinley", V1)
    assert word_feature("Waisengeld", V2) != word_feature("Tinley", V2)


def test_token_features_follow_the_feature_set() -> None:
    text = "Die Schwurgerichtskammer hat den Angeklagten Deininger verurteilt."
    offsets = [(0, 3), (4, 24), (25, 28), (0, 0), (60, 66)]
    v1 = token_features(text, offsets, V1)
    v2 = token_features(text, offsets)
    assert v1[3] == v2[3] == 0  # a special token
    assert max(v1) < num_features(V1) and max(v2) < num_features()
    assert v1 != v2


def _bert(**config: int) -> BertForTokenClassification:
    return BertForTokenClassification(
        BertConfig(
            vocab_size=10,
            hidden_size=8,
            num_hidden_layers=1,
            num_attention_heads=1,
            intermediate_size=8,
            **config,
        )
    )


def test_saved_models_keep_their_feature_set() -> None:
    """A model trained with v1 is fed v1 after v2 became the default; checkpoints without
    deid features get none."""
    old = _bert(type_vocab_size=num_features(V1))
    old.config.deid_features = V1
    assert uses_features(old) == V1
    assert uses_features(_bert()) is None
    assert FEATURE_SET in FEATURE_SETS and V1 in FEATURE_SETS


# --- the Wiktionary lexicon (v3) ----------------------------------------------------------


@pytest.mark.parametrize(
    "word, cls",
    [
        # nouns the small model flagged as names in the BGH/BVerwG test set, inflected too
        ("Deponie", LEX_NOUN),
        ("Anliegern", LEX_NOUN),
        ("Angeklagten", LEX_NOUN),  # adjectival declension
        # a surname that is also a word is a name; places and proper names are their own class
        ("Müller", LEX_NAME),
        ("Koch", LEX_NAME),
        ("Celle", LEX_PROPER),
        ("Dagestan", LEX_PROPER),
        # surrogate surnames of the rewritten sets that Wiktionary does not know
        ("Chintoan", LEX_UNKNOWN),
        ("Heilbock", LEX_UNKNOWN),
        ("deponie", LEX_UNKNOWN),  # only capitalized forms are nouns
    ],
)
def test_lexical_class(word: str, cls: int) -> None:
    assert lexical_class(word) == cls
    assert is_common_noun(word) == (cls == LEX_NOUN)


def test_v3_adds_the_lexical_class_to_v2() -> None:
    """v3 keeps the v2 id (frequency, case, shape) and adds one of four lexical classes."""
    ids = [word_feature(w, V3) for w in ("Deponie", "Müller", "Celle", "Chintoan", "müssen")]
    assert all(1 <= i < num_features(V3) for i in ids)
    assert len(set(ids)) == len(ids)
    assert num_features(V3) == (num_features(V2) - 1) * 4 + 1
    for word in ("Deponie", "Müller", "Chintoan"):  # v3 refines v2: same v2 part
        assert (word_feature(word, V3) - 1) // 4 == word_feature(word, V2) - 1


@pytest.mark.parametrize(
    "word, compound",
    [
        # compounds of the BGH/BVerwG test courts that Wiktionary does not list
        ("Tatopfer", True),
        ("Freienstatut", True),
        ("Erstbeurteiler", True),
        ("Siedlungsmülldeponie", True),
        # known forms are their own class; name heads and surnames ending in a surname stay out
        ("Deponie", False),
        ("Felsenberg", False),
        ("Heilbock", False),
        ("Chintoan", False),
        ("Land-Rover", False),
    ],
)
def test_noun_compound(word: str, compound: bool) -> None:
    assert noun_compound(word) == compound


def test_v4_adds_the_compound_bit_to_v3() -> None:
    assert FEATURE_SET == V4
    assert num_features() == (num_features(V3) - 1) * 2 + 1
    for word in ("Tatopfer", "Chintoan", "Deponie"):
        assert (word_feature(word) - 1) // 2 == word_feature(word, V3) - 1
    assert word_feature("Tatopfer") % 2 == 0 and word_feature("Chintoan") % 2 == 1  # the bit
