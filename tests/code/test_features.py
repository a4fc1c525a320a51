"""Word features for from-scratch models: frequency buckets, case and shape (deid.anonymizer.features, deid.words.shapes)."""

from __future__ import annotations

import hashlib
import lzma
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from transformers import BertConfig, BertForTokenClassification

from deid.anonymizer.features import (
    FEATURE_SET,
    FEATURE_SETS,
    num_features,
    token_features,
    word_bounds,
    word_feature,
)
from deid.anonymizer.checkpoint import uses_features
from deid.words.lexicon import (
    LEX_NAME,
    LEX_NOUN,
    LEX_PROPER,
    LEX_UNKNOWN,
    is_common_noun,
    lexical_class,
)
from deid.words.shapes import (
    MAX_WORD_CHARS,
    SHAPE_COMPOUND,
    SHAPE_NONE,
    SHAPE_ROLE,
    SHAPE_SUFFIX,
    noun_compound,
    plain_compound,
    word_shape,
)

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


# --- long documents and overlong words ------------------------------------------------------

_PIECES = re.compile(r"\w{1,4}|[^\w\s]")  # sub-word-like tokens: several per word, marks alone
# sha256 of the feature ids of every token of the bundled decisions, per feature set, and of
# the words plain_compound takes for compounds, computed on the code before long documents
# and overlong words were made cheap: saved models were trained on exactly these ids
_GOLDEN = {
    V1: "472b7453a6968053c64d40958398c51a4054854b4483cf68cf22b8241ca8d682",
    V2: "ab2c4bc395014a0b797f43ae66bbb30d073ed3512dd1e5054879107fe102de40",
    V3: "de13276d472199d27b85e568fa2b9343a802846597cf6db21b891cc727ca4069",
    V4: "46fddf151552b2e78906458ecb9691c1bd5f0ef9563a65115e63562a71228c8f",
    "plain_compound": "68bf17904b9ff688b6f9ec2fbba45dc05062ff70e092c785ff27cea876aac053",
}


def _decisions(sources: Path) -> list[str]:
    paths = sorted((sources / "decisions").glob("*/*.txt.xz"))
    return [lzma.open(p, "rt", encoding="utf-8").read() for p in paths]


@pytest.mark.slow
def test_features_of_real_decisions_are_unchanged(sources: Path) -> None:
    texts = _decisions(sources)
    assert len(texts) > 100
    digests = {}
    for name in (V1, V2, V3, V4):
        digest = hashlib.sha256()
        for text in texts:
            offsets = [m.span() for m in _PIECES.finditer(text)] + [(0, 0)]
            digest.update(str(token_features(text, offsets, name)).encode())
        digests[name] = digest.hexdigest()
    digest = hashlib.sha256()
    for text in texts:
        words = sorted({text[s:e] for s, e in word_bounds(text)})
        digest.update(str([w for w in words if plain_compound(w)]).encode())
    digests["plain_compound"] = digest.hexdigest()
    assert digests == _GOLDEN


class _CountingWords(Sequence):
    """Word bounds that count how often they are read."""

    def __init__(self, words: list[tuple[int, int]]) -> None:
        self.words, self.reads = words, 0

    def __len__(self) -> int:
        return len(self.words)

    def __getitem__(self, i: int) -> tuple[int, int]:
        self.reads += 1
        return self.words[i]


def test_token_features_read_the_window_not_the_whole_text(sources: Path) -> None:
    """A 2 MB decision in 128-token windows: each window's features read a few word bounds
    per token (a bisection), not all of the text's (that made long documents quadratic)."""
    text = "\n".join(_decisions(sources))[:2_000_000]
    words = _CountingWords(word_bounds(text))
    pieces = [m.span() for m in _PIECES.finditer(text)]
    middle = len(pieces) // 2
    window = pieces[middle : middle + 128]
    expected = token_features(text, window, FEATURE_SET, words.words)
    assert token_features(text, window, FEATURE_SET, words) == expected
    assert len(words) > 200_000
    assert words.reads <= len(window) * (2 + 2 * len(words).bit_length())


def test_overlong_words_are_not_taken_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shape and compound tests cost the square of a word's length: a word longer than
    any real one (a 1 MB token) is rare, shapeless and no compound without being looked at,
    and stays out of the caches."""
    from deid.words import shapes

    rare = word_feature("Chintoan")  # a rare word Wiktionary does not know, of no shape
    calls: Counter[str] = Counter()
    for name in ("_inflections", "_known", "is_common_noun"):
        real = getattr(shapes, name)
        monkeypatch.setattr(shapes, name, lambda *a, _n=name, _f=real: calls.update([_n]) or _f(*a))
    longest_real = "Grundstücksverkehrsgenehmigungszuständigkeitsübertragungsverordnung"
    assert len(longest_real) <= MAX_WORD_CHARS
    cached = word_shape.cache_info().currsize
    for length in (MAX_WORD_CHARS + 1, 5_000, 1_000_000):
        word = ("Abgasnormprüfstand" * (length // 18 + 1))[:length]
        assert word_shape(word) == SHAPE_NONE
        assert not noun_compound(word) and not plain_compound(word)
        assert word_feature(word) == rare
        assert calls == Counter() and word_shape.cache_info().currsize == cached
    assert word_shape("Abgasnormenprüfstände") == SHAPE_COMPOUND and calls["_inflections"] > 0
