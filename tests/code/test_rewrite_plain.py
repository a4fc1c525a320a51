"""deid.rewrite.gold.plain: which elements the interactive tool may skip."""

from __future__ import annotations

import pytest

from deid.rewrite.gold.plain import core_bounds, is_plain, is_plain_element
from deid.rewrite.placeholders import detect_placeholders
from deid.rewrite.placeholders.gold import ler_gold_placeholders
from deid.sources.elements import text_elements
from deid.sources.ler import load_ler_file
from tests.conftest import SOURCES


@pytest.mark.parametrize(
    "surface",
    [
        "Antragsteller",
        "Land-",
        "(BtMG).",
        "Müller-Lüdenscheidt,",
        "GmbH",
        "15.",
        "8.750,-",
        "2019,",
        "18b",
        "10%",
        "§",
        "§§",
        "-",
        "z.B.",
        "i.V.m.",
        "a)",
        "f.",
        "Abs.",
        "Nr.",
        "B.v.",
        "VOB/B",
        "C-316/07,",
        "12-Monatsprävalenz",
        "„Werbeanlage“",
    ],
)
def test_plain(surface):
    assert is_plain(surface)


@pytest.mark.parametrize(
    "surface",
    [
        "S",
        "K.",
        "(S.",
        "A.)",
        "A-GbR",
        "E.-N.",
        "Sch.",
        "Kstraße",
        "…",
        "...",
        "S*",
        "F* …",
        "xx.xx.2015",
        "B1",
        "…-Straße",
        "Z-weg",
    ],
)
def test_not_plain(surface):
    assert not is_plain(surface)


@pytest.mark.parametrize(
    ("text", "word", "plain"),
    [
        ("§ 3 Abs. 1 S. 1 FeV", "S.", True),  # Satz
        ("die Zeugin S. sagte", "S.", False),
        ("Gründe\nI.\n1\nDer Kläger", "I.", True),  # heading
        ("in Ziffer I. aufgehoben", "I.", False),
        ("BGH, Urteil vom 12. Juni 2015 – V ZR 168/14, NJW", "V", True),
        ("BGH, Beschluss vom 8.2.2018 – III ZB 92/17", "III", True),
        ("VG Ansbach, Urteil vom 14.3.2018 – AN 3 K 16.2281", "K", True),
        ("zuletzt geändert (BGBl I S. 310)", "I", True),
        ("der Zeuge K 17 Jahre alt", "K", False),
        ("die Firma V 12/13 GmbH", "V", False),
    ],
)
def test_position_makes_some_shapes_harmless(text, word, plain):
    start = text.index(word)
    assert is_plain_element(text, start, start + len(word)) is plain


@pytest.mark.parametrize(
    ("surface", "core"), [("(S.", "S."), ("„K“,", "K"), ("G.", "G."), ("(…)", "…"), ("))", "))")]
)
def test_core_bounds(surface, core):
    a, b = core_bounds(surface)
    assert surface[a:b] == core


@pytest.mark.slow
def test_skipping_hides_almost_no_ler_placeholder():
    """On BGH decisions, a gold placeholder whose elements are all plain must be one the
    detector suggests (the tool shows suggested elements)."""
    docs = load_ler_file(SOURCES / "ler" / "bgh.conll.xz")
    hidden = total = 0
    for doc in docs:
        elements = text_elements(doc.text)
        suggestions = None
        for span in ler_gold_placeholders(doc):
            total += 1
            covered = [e for e in elements if e.start < span.end and span.start < e.end]
            if all(is_plain_element(doc.text, e.start, e.end) for e in covered):
                suggestions = (
                    suggestions if suggestions is not None else detect_placeholders(doc.text)
                )
                hidden += not any(s.start < span.end and span.start < s.end for s in suggestions)
    assert total > 500
    assert hidden / total < 0.005
