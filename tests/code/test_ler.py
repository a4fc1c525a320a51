"""deid.sources.ler: CoNLL parsing, document boundaries, detokenization, entity spans (real LER)."""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from deid.sources.ler import (
    COURTS,
    JUDGE_COURTS,
    Sentence,
    build_document,
    detokenize,
    entity_spans,
    line_breaks,
    parse_conll,
    read_conll,
    render,
    split_documents,
)

LER = Path(__file__).resolve().parents[2] / "data" / "sources" / "ler"

# Documents per court found by the boundary rules (see the module docstring). The LER paper
# reports 750 decisions in all, about 107 per court; the ranges leave room for rule changes
# but catch a rule that stops splitting or splits every few sentences.
EXPECTED_DOCS = {
    "bag": (105, 110),
    "bfh": (105, 109),
    "bgh": (105, 110),
    "bpatg": (92, 110),
    "bsg": (98, 110),
    "bverfg": (100, 110),
    "bverwg": (92, 110),
}


@cache
def court(name: str) -> tuple[list[Sentence], list]:
    sentences = read_conll(LER / f"{name}.conll.xz")
    return sentences, split_documents(sentences, name)


def _tokens(text: str) -> list[list[str]]:
    return [line.split(" ") for line in text.split("\n")]


# --- parsing ------------------------------------------------------------------------------


def test_parse_conll_sentences_tokens_and_tags():
    lines = ["Der O", "Angeklagte O", "O. B-PER", "", "", "Gallner B-RR", ""]
    sents = list(parse_conll(lines))
    assert [s.tokens for s in sents] == [("Der", "Angeklagte", "O."), ("Gallner",)]
    assert sents[0].tags == ("O", "O", "B-PER")
    assert [s.index for s in sents] == [0, 1]


def test_parse_conll_token_may_contain_spaces_tag_is_last_field():
    (sent,) = parse_conll(["4 295,25 O", "€ O"])
    assert sent.tokens == ("4 295,25", "€")


def test_parse_conll_rejects_line_without_tag():
    with pytest.raises(ValueError, match="line 2"):
        list(parse_conll(["Der O", "kaputt"]))


@pytest.mark.slow
def test_corpus_size_matches_the_published_ler_figures():
    sentences = sum(len(court(c)[0]) for c in COURTS)
    tokens = sum(len(s.tokens) for c in COURTS for s in court(c)[0])
    assert (sentences, tokens) == (66_723, 2_157_048)


# --- detokenization -----------------------------------------------------------------------

SPACING = [
    (
        "Der Angeklagte O. hat am 12. Oktober 2017 ( Az . ... ) erklärt .",
        "Der Angeklagte O. hat am 12. Oktober 2017 (Az. ...) erklärt.",
    ),
    ("nach § 8 Abs. 1 , § 9 ZPO ;", "nach § 8 Abs. 1, § 9 ZPO;"),
    ("§§ 1 , 2 BGB", "§§ 1, 2 BGB"),
    ("das „ bestreitet “ sie", "das „bestreitet“ sie"),
    (
        'das Wort " Urlaubsgeld " und " Weihnachtsgeld " .',
        'das Wort "Urlaubsgeld" und "Weihnachtsgeld".',
    ),
    ("heißt ‚ Konditionen ‘ hier", "heißt ‚Konditionen‘ hier"),
    ("BFH / NV 2016 , 1 ; Wort- / Bildmarke", "BFH/NV 2016, 1; Wort-/Bildmarke"),
    ("a ) die Klage ; ( 2 ) sonst", "a) die Klage; (2) sonst"),
    ("BVerfGE 87 , 273 < 278 f. > ;", "BVerfGE 87, 273 <278 f.>;"),
    ("mit 6 : 2 Stimmen", "mit 6:2 Stimmen"),
    ("( EU : C : 2016 : 198 , Rn. 3 )", "(EU:C:2016:198, Rn. 3)"),
    (
        "[ ECLI : DE : BVerwG : 2014 : 110314 B9B21 . 13.0 ] -",
        "[ECLI:DE:BVerwG:2014:110314B9B21.13.0] -",
    ),
    ("( im Folgenden : Beklagte )", "(im Folgenden: Beklagte)"),
    ("die S … GmbH und Rechtsanwalt …", "die S … GmbH und Rechtsanwalt …"),
    ("ist das wirklich so ? Ja !", "ist das wirklich so? Ja!"),
    ("des Pkw ' s", "des Pkw's"),
    ("bei 950 ° C", "bei 950 °C"),
    ("Gewinn- ) Rücklage - 10 Sa 33/16 -", "Gewinn-) Rücklage - 10 Sa 33/16 -"),
    ("“ GLASS TECHNOLOGY ” , 2002", "“GLASS TECHNOLOGY”, 2002"),
]


@pytest.mark.parametrize("tokens,expected", SPACING)
def test_readable_spacing(tokens, expected):
    text, offsets = detokenize([tokens.split(" ")])
    assert text == expected
    for tok, (start, end) in zip(tokens.split(" "), offsets[0]):
        assert text[start:end] == tok


def test_quote_state_carries_across_sentences():
    text, _ = detokenize([['"', "I.", "Kapital"], ["25.000", "€", '"']], new_line=[False, True])
    assert text == '"I. Kapital\n25.000 €"'


def test_sentence_starting_with_punctuation_attaches_to_previous():
    text, _ = detokenize([["99.861", "€"], ["."]], new_line=[False, True])
    assert text == "99.861 €."


@pytest.mark.parametrize("name", COURTS)
@pytest.mark.slow
def test_every_token_and_entity_maps_to_its_exact_span(name):
    sentences, segments = court(name)
    for seg in segments:
        part = sentences[seg.start : seg.end]
        text, offsets = render(part)
        last_end = 0
        for sent, spans in zip(part, offsets):
            for tok, (start, end) in zip(sent.tokens, spans, strict=True):
                assert text[start:end] == tok
                assert start >= last_end
                last_end = end
            # an entity runs from its first token's start to its last token's end
            starts = {start: k for k, (start, _) in enumerate(spans)}
            for span in entity_spans(sent.tags, spans):
                first = starts[span.start]
                assert sent.tags[first][2:] == span.label
                assert text[span.start : span.end].startswith(sent.tokens[first])
        assert last_end == len(text)  # nothing after the last token
        assert "  " not in text and " \n" not in text and "\n " not in text


# --- entities -----------------------------------------------------------------------------


def test_entity_spans_from_iob2_including_orphan_inside_tag():
    offsets = [(0, 3), (4, 11), (12, 13), (14, 17), (18, 20), (21, 25)]
    tags = ["O", "B-GS", "I-GS", "I-PER", "B-RR", "I-RR"]
    spans = entity_spans(tags, offsets)
    assert [(s.start, s.end, s.label) for s in spans] == [
        (4, 13, "GS"),
        (14, 17, "PER"),
        (18, 25, "RR"),
    ]
    assert all(s.source == "ler" for s in spans)


@pytest.mark.parametrize("name", ["bag", "bverwg"])
def test_document_entities_are_the_rendered_tag_spans(name):
    sentences, segments = court(name)
    for k, seg in enumerate(segments[::10], 1):
        part = sentences[seg.start : seg.end]
        doc = build_document(part, name, k, "x")
        text, offsets = render(part)
        assert doc.text == text
        expected = [sp for sent, offs in zip(part, offsets) for sp in entity_spans(sent.tags, offs)]
        assert doc.entities == expected
        b_tags = sum(t.startswith("B-") for s in part for t in s.tags)
        assert len(doc.entities) >= b_tags


def test_total_entities_match_the_published_count():
    total = 0
    for name in COURTS:
        for sent in court(name)[0]:
            total += len(entity_spans(sent.tags, [(i, i + 1) for i in range(len(sent.tags))]))
    assert total == 53_632


# --- documents ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", COURTS)
def test_document_counts_per_court(name):
    low, high = EXPECTED_DOCS[name]
    assert low <= len(court(name)[1]) <= high


def test_document_count_overall():
    assert 720 <= sum(len(court(c)[1]) for c in COURTS) <= 760


@pytest.mark.parametrize("name", COURTS)
def test_segments_cover_the_file_in_order(name):
    sentences, segments = court(name)
    assert segments[0].start == 0 and segments[-1].end == len(sentences)
    for a, b in pairwise(segments):
        assert a.end == b.start


def _judge_only(s: Sentence) -> bool:
    return all(t.endswith("-RR") for t in s.tags)


def _judge_line(s: Sentence) -> bool:
    """A judge's name, possibly with a title ("Dr. Bünger")."""
    return any(t.endswith("-RR") for t in s.tags) and len(s.tokens) <= 3


@pytest.mark.parametrize("name", COURTS)
def test_a_decision_does_not_start_with_a_judge_or_closing_sentence(name):
    sentences, segments = court(name)
    for seg in segments:
        first = sentences[seg.start]
        assert not _judge_only(first)
        assert not first.plain.startswith(("Die Kostenentscheidung", "Diese Entscheidung ist"))


@pytest.mark.parametrize("name", sorted(JUDGE_COURTS))
def test_judge_courts_end_every_decision_with_judges(name):
    sentences, segments = court(name)
    for seg in segments:
        assert _judge_line(sentences[seg.end - 1])


def test_bfh_decisions_open_with_a_title_after_the_previous_cost_decision():
    sentences, segments = court("bfh")
    for seg in segments[1:]:
        assert sentences[seg.start].tokens[-1] not in (".", ";", ":")
        assert seg.cue == "title"


def test_bpatg_decisions_each_hold_one_opening_sentence():
    sentences, segments = court("bpatg")
    for seg in segments:
        openings = [
            s
            for s in sentences[seg.start : seg.start + 16]
            if re.search(r"(sachen?|Sachen) betreffend", s.plain)
        ]
        assert len(openings) >= 1


def test_correction_order_stays_with_its_decision():
    sentences, segments = court("bgh")
    assert not any(sentences[s.start].plain.startswith("Berichtigungsbeschluss") for s in segments)


def test_document_fields():
    sentences, segments = court("bsg")
    seg = segments[3]
    doc = build_document(sentences[seg.start : seg.end], "bsg", 4, "data/sources/ler/bsg.conll.xz")
    assert doc.id == "ler-bsg-0004"
    assert doc.court == "bsg" and doc.source.endswith("bsg.conll.xz")
    assert doc.meta["corpus"] == "ler"
    assert doc.meta["first_sentence"] == seg.start
    assert doc.meta["sentences"] == seg.end - seg.start
    assert doc.entities and all(e.source == "ler" for e in doc.entities)


# --- layout -------------------------------------------------------------------------------


def _sent(text: str, tags: str | None = None) -> Sentence:
    toks = tuple(text.split(" "))
    return Sentence(0, toks, tuple(tags.split(" ")) if tags else ("O",) * len(toks))


def test_line_breaks_at_enumeration_headings_and_judges():
    sents = [
        _sent("Kündigung - Sozialauswahl"),
        _sent("Die Revision wird zurückgewiesen ."),
        _sent("I. Die Parteien streiten ."),
        _sent("Sie sind Nachbarn ."),
        _sent("a ) Das ist so ."),
        _sent("Linck", "B-RR"),
        _sent("Biebl", "B-RR"),
    ]
    assert line_breaks(sents) == [False, True, True, False, True, True, True]


def test_rebuilt_decision_reads_like_a_decision():
    sentences, segments = court("bgh")
    seg = segments[5]
    text, _ = render(sentences[seg.start : seg.end])
    lines = text.split("\n")
    assert 5 < len(lines) < seg.end - seg.start  # paragraphs, not one line per sentence
    assert max(len(line) for line in lines) < 9000
    assert _tokens(lines[-1]) == [["Schmidt"]] or len(lines[-1].split(" ")) <= 3
