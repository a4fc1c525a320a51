"""deid.sources.paragraphs: de-hyphenation, line joining, structure removal, offsets (real text)."""

from __future__ import annotations

import lzma
import random
import re
import textwrap
import time
from functools import cache
from pathlib import Path

import pytest

from deid.sources.paragraphs import Paragraph, extract_paragraphs, iter_paragraph_texts

DECISIONS = Path(__file__).resolve().parents[2] / "data" / "sources" / "decisions"


@cache
def decisions() -> tuple[str, ...]:
    return tuple(
        lzma.open(p, "rt", encoding="utf-8").read() for p in sorted(DECISIONS.glob("*/*.txt.xz"))
    )


def texts(text: str) -> list[str]:
    return list(iter_paragraph_texts(text))


def assert_maps_back(original: str, para: Paragraph) -> None:
    """Every paragraph character is its original character; a joined line break reads as a
    space; spans map to covering original spans."""
    for i, ch in enumerate(para.text):
        src = original[para.to_original_offset(i)]
        assert src == ch or (ch == " " and src == "\n"), (i, ch, src)
    start, end = para.to_original(0, len(para.text))
    assert (start, end) == (para.start, para.end)
    assert original[start] == para.text[0] and original[end - 1] == para.text[-1]


# --- (a) de-hyphenation and joining -------------------------------------------------------

JOIN = [
    ("Das Verwal-\ntungsgericht hat entschieden.", "Das Verwaltungsgericht hat entschieden."),
    ("nach Bundes-\nund Landesrecht zulässig.", "nach Bundes- und Landesrecht zulässig."),
    ("nach Bundes-\noder Landesrecht zulässig.", "nach Bundes- oder Landesrecht zulässig."),
    ("nach Bundes-\nbzw. Landesrecht zulässig.", "nach Bundes- bzw. Landesrecht zulässig."),
    ("das EU-\nRecht gilt.", "das EU-Recht gilt."),
    ("am Max-\nPlanck-Institut tätig.", "am Max-Planck-Institut tätig."),
    ("in den Jahren 2019-\n2020 erzielt.", "in den Jahren 2019-2020 erzielt."),
    ("ein Satz -\nmit Gedankenstrich.", "ein Satz - mit Gedankenstrich."),
    ("Die Revi-\nsion ist begrün-\ndet.", "Die Revision ist begründet."),
    ("die Klage wurde im Jahr\n2019\nerhoben.", "die Klage wurde im Jahr 2019 erhoben."),
    ("Der Kläger hat\nim Übrigen recht.", "Der Kläger hat im Übrigen recht."),
]


@pytest.mark.parametrize("raw,expected", JOIN)
def test_dehyphenation_and_joining(raw, expected):
    (para,) = extract_paragraphs(raw)
    assert para.text == expected
    assert_maps_back(raw, para)


NO_JOIN = [
    # one paragraph per line: a full sentence ends its paragraph
    ("Die Revision ist unbegründet.\nDer Kläger trägt die Kosten.", 2),
    # a line ending in a comma does not pull an upper-case line into it
    ("StVG § 2 Abs. 9,\nFeV § 11 Abs. 8", 2),
    ("Titel:\nEntziehung der Fahrerlaubnis\nNormenketten:\nStVG § 2", 4),
    ("Die Klage ist zulässig.\n\nSie ist aber unbegründet.", 2),
]


@pytest.mark.parametrize("raw,count", NO_JOIN)
def test_lines_that_stay_separate(raw, count):
    assert len(extract_paragraphs(raw)) == count


def test_wrapped_lines_join_only_where_the_next_word_did_not_fit():
    para1 = "Die Beteiligten streiten über die Rechtmäßigkeit eines Bescheids. " * 4
    para2 = "Der Beklagte trat dem Antrag entgegen."
    wrapped = textwrap.fill(para1.strip(), 70) + "\n" + para2 + "\n" + textwrap.fill(para1, 70)
    assert texts(wrapped) == [para1.strip(), para2, para1.strip()]


# --- (b) structure ------------------------------------------------------------------------

STRUCTURE = [
    ("1\nDer Text.", ["Der Text."]),
    ("Der erste Absatz.\n12\nDer zweite Absatz.", ["Der erste Absatz.", "Der zweite Absatz."]),
    ("I.\nDer Text.\nII.\nMehr.", ["Der Text.", "Mehr."]),
    ("a)\nDer Text.\naa)\nMehr.\n(1)\nNoch mehr.", ["Der Text.", "Mehr.", "Noch mehr."]),
    ("Das ist so.\n-\nEin Punkt.\n•\nNoch einer.", ["Das ist so.", "Ein Punkt.", "Noch einer."]),
    (
        "1. Auf die Revision wird das Urteil aufgehoben.",
        ["Auf die Revision wird das Urteil aufgehoben."],
    ),
    ("a) Die Klage ist zulässig.", ["Die Klage ist zulässig."]),
    ("II. Die Klage ist zulässig.", ["Die Klage ist zulässig."]),
    ("(2) Die Klage ist zulässig.", ["Die Klage ist zulässig."]),
    ("- ein Punkt der Liste", ["ein Punkt der Liste"]),
    ("1.2 Der Unterpunkt.", ["Der Unterpunkt."]),
]


@pytest.mark.parametrize("raw,expected", STRUCTURE)
def test_structure_is_removed(raw, expected):
    assert texts(raw) == expected


KEPT = [
    ("Herr I. sagte, er sei nicht gefahren.", ["Herr I. sagte, er sei nicht gefahren."]),
    ("I. hat gesagt, er sei nicht gefahren.", ["I. hat gesagt, er sei nicht gefahren."]),
    ("1. Januar 2019 war ein Dienstag.", ["1. Januar 2019 war ein Dienstag."]),
    ("die Klage wurde im Jahr\n2019\nerhoben.", ["die Klage wurde im Jahr 2019 erhoben."]),
    ("Die Summe betrug\n12\nEuro.", ["Die Summe betrug 12 Euro."]),
    ("Gemäß § 1 Abs. 1 gilt das.", ["Gemäß § 1 Abs. 1 gilt das."]),
    ("S. 12 der Akte ist leer.", ["S. 12 der Akte ist leer."]),
]


@pytest.mark.parametrize("raw,expected", KEPT)
def test_text_that_looks_like_structure_is_kept(raw, expected):
    assert texts(raw) == expected


def test_wrapped_initial_at_line_start_is_not_enumeration():
    filler = "Nach den Feststellungen des Landgerichts erklärte der Zeuge am Ende. " * 6
    lines = textwrap.wrap(filler, 70)
    lines.append("Zuletzt" + " so" * 13 + " erklärte der Zeuge Herr")  # 70 columns: full
    lines.append("I. sagte dann aber, er habe den Wagen nie gesehen.")
    assert texts("\n".join(lines)) == [" ".join(lines)]


# --- (c) headings -------------------------------------------------------------------------


def test_headings_are_paragraphs_of_their_own():
    raw = "Tenor\n1. Die Klage wird abgewiesen.\nGründe\nI.\n1\nDer Kläger begehrt Geld.\nLeitsatz:\nText."
    got = [(p.kind, p.text) for p in extract_paragraphs(raw)]
    assert got == [
        ("heading", "Tenor"),
        ("text", "Die Klage wird abgewiesen."),
        ("heading", "Gründe"),
        ("text", "Der Kläger begehrt Geld."),
        ("heading", "Leitsatz:"),
        ("text", "Text."),
    ]


# --- offsets ------------------------------------------------------------------------------


def test_offsets_map_back_on_every_bundled_decision():
    for original in decisions():
        paragraphs = extract_paragraphs(original)
        assert paragraphs
        for para in paragraphs:
            assert para.text == para.text.strip()
            assert (
                original[para.start : para.end].replace("\n", " ") == para.text
                or len(para.runs) > 1
                or para.text in original
            )
        for para in paragraphs[:: max(1, len(paragraphs) // 10)]:
            assert_maps_back(original, para)


def test_span_mapping_inside_a_run_is_exact():
    raw = "3\nDer Angeklagte O. wurde vom Landgerichts-\nbezirk B. angeklagt."
    (para,) = extract_paragraphs(raw)
    start = para.text.index("O.")
    s, e = para.to_original(start, start + 2)
    assert raw[s:e] == "O."
    start = para.text.index("Landgerichtsbezirk")
    s, e = para.to_original(start, start + len("Landgerichtsbezirk"))
    assert raw[s:e] == "Landgerichts-\nbezirk"
    assert para.to_original(3, 3) == (para.to_original_offset(3),) * 2
    with pytest.raises(IndexError):
        para.to_original(0, len(para.text) + 1)


def test_runs_are_compact():
    line = "Das Gericht entscheidet über den Antrag ohne mündliche Verhandlung. "
    (para,) = extract_paragraphs(line * 3000)
    assert len(para.runs) == 1


# --- wrap and recover ---------------------------------------------------------------------


def wrap(paragraph: str, width: int, rng: random.Random) -> list[str]:
    """Greedy wrap at ``width`` that hyphenates some long words at the line end ("Schadens-
    ersatzanspruch"), re-flowing the rest as a typesetter would. The rest of a hyphenated
    word starts lower-case and is not a conjunction (syllable breaks never leave "und")."""
    lines: list[str] = []
    line = ""
    for word in paragraph.split(" "):
        if not line:
            line = word
            continue
        if len(line) + 1 + len(word) <= width:
            line += " " + word
            continue
        cut = min(width - len(line) - 2, len(word) - 4)
        long_word = re.fullmatch(r"[A-Za-zÄÖÜäöüß]{9,}", word)
        if long_word and cut >= 3 and word[cut].islower() and rng.random() < 0.7:
            lines.append(f"{line} {word[:cut]}-")
            line = word[cut:]
            continue
        lines.append(line)
        line = word
    lines.append(line)
    assert all(len(x) <= width for x in lines[:-1] if " " in x)
    return lines


def wrap_decision(text: str, width: int, rng: random.Random) -> str:
    """A raw decision (one paragraph per line) hard-wrapped, as a production export."""
    return "\n".join(
        "\n".join(wrap(line, width, rng)) if len(line) > width else line
        for line in text.split("\n")
    )


def sample_paragraphs() -> list[str]:
    rng = random.Random(7)
    found = [
        p
        for text in decisions()
        for p in texts(text)
        if len(p) > 120 and "  " not in p and not re.search(r"\w-$", p)
    ]
    return rng.sample(found, 400)


@pytest.mark.parametrize("separator", ["numbers", "blank"])
@pytest.mark.parametrize("width", [64, 72, 80])
def test_wrapped_and_hyphenated_paragraphs_are_recovered_exactly(separator, width):
    rng = random.Random(width)
    paragraphs = sample_paragraphs()
    blocks = []
    for k, para in enumerate(paragraphs, 1):
        wrapped = "\n".join(wrap(para, width, rng))
        blocks.append(f"{k}\n{wrapped}" if separator == "numbers" else wrapped)
    original = ("\n" if separator == "numbers" else "\n\n").join(blocks)
    assert "-\n" in original
    got = extract_paragraphs(original)
    assert [p.text for p in got] == paragraphs
    for para in got[::7]:
        assert_maps_back(original, para)


def test_wrapping_does_not_change_most_paragraphs_of_whole_decisions():
    """Without blank lines or numbers between paragraphs a full last line is ambiguous;
    whole decisions wrapped as they are still come back almost entirely."""
    rng = random.Random(3)
    same = total = 0
    for text in decisions()[::4]:
        before, after = set(texts(text)), set(texts(wrap_decision(text, 76, rng)))
        total += len(before)
        same += len(before & after)
    assert same / total > 0.97


# --- size ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_twenty_megabytes_in_reasonable_time():
    rng = random.Random(1)
    wrapped = wrap_decision("\n".join(decisions()), 76, rng)
    big = ("\n".join([wrapped] * (20_000_000 // len(wrapped) + 1)))[:20_000_000]
    start = time.perf_counter()
    paragraphs = extract_paragraphs(big)
    elapsed = time.perf_counter() - start
    assert len(paragraphs) > 10_000
    assert elapsed < 30
    last = paragraphs[-1]
    assert big[last.to_original_offset(0)] == last.text[0]
