"""Noun swapping (deid.training.augment): unfamiliar ordinary words in real decisions, labelled O,
while the sensitive spans and their context stay where they were."""

from __future__ import annotations

import random

import pytest

from deid.rewrite.placeholders import detect_placeholders
from deid.rewrite.surrogates import SurrogateGenerator
from deid.training.augment import noun_pool, swap_nouns
from deid.training.data import SourceDocument, surrogate_texts
from deid.words.gazetteer import read_lines
from deid.words.lexicon import LEX_NAME, LEX_NOUN, lexical_class
from tests.conftest import read_source

DECISION = "decisions/bag/9-azr-115-23.txt.xz"


@pytest.mark.slow
def test_pool_holds_no_name_and_has_unknown_compounds() -> None:
    pool = noun_pool()
    surnames = set(read_lines("surnames.txt.xz"))
    assert len(pool) > 10_000
    assert not set(pool) & surnames
    classes = [lexical_class(w) for w in pool]
    assert classes.count(LEX_NAME) == 0
    # persons and roles that end like surnames are in, as dictionary nouns ("-er", "-ist")
    agents = [w for w, c in zip(pool, classes) if c == LEX_NOUN and w.endswith(("er", "ist"))]
    assert len(agents) > 1000
    # and words no dictionary knows, so that novelty alone does not mean "name"
    assert classes.count(0) > 0.2 * len(pool)
    assert noun_pool() == pool  # the same pool in every call (fixed seed)


@pytest.mark.slow
def test_swap_keeps_spans_and_their_surfaces() -> None:
    text = read_source(DECISION)
    doc = SourceDocument(DECISION, text, tuple(detect_placeholders(text)))
    generator = SurrogateGenerator(seed=3)
    plain = surrogate_texts(doc, generator, epoch=0)
    swapped = surrogate_texts(doc, generator, epoch=0, noun_swap_rate=0.5)
    assert sum(p.spans != () for p in plain) >= 3, "the decision has placeholders"
    assert sum(a.text != b.text for a, b in zip(plain, swapped)) >= len(plain) // 2
    for a, b in zip(plain, swapped, strict=True):
        # the same surrogates, still under their spans
        assert [a.text[s.start : s.end] for s in a.spans] == [b.text[s.start : s.end] for s in b.spans]
        # the word before a name is its context ("Zeugin", "Beklagte") and stays
        for sa, sb in zip(a.spans, b.spans):
            assert a.text[max(0, sa.start - 20) : sa.start].split()[-1:] == b.text[max(0, sb.start - 20) : sb.start].split()[-1:]


def test_rate_zero_changes_nothing() -> None:
    text = read_source(DECISION)
    assert swap_nouns(text, [], [], random.Random(0), rate=0.0)[0] == text
