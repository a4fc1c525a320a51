"""deid.rewrite.gold.auto: the automatically rewritten LER test set (real BGH documents)."""

from __future__ import annotations

import pytest

from deid.rewrite.gold.auto import auto_id, printed_personal_dates, rewrite_ler_document, rewrite_ler_documents
from deid.rewrite.gold.keep_labels import keep_label
from deid.rewrite.placeholders.gold import (
    LER_PLACEHOLDER_TYPES,
    is_placeholder_token,
    ler_gold_placeholders,
)
from deid.rewrite.surrogates import SurrogateGenerator
from deid.schema import DATE, KEEP_LABELS, LOCATION, ROLE_LABELS, SEAT, STREET, Document, Span
from deid.sources.io import read_documents, text_hash, write_documents
from deid.sources.ler import load_ler_file
from deid.sources.textedit import apply_replacements
from tests.conftest import SOURCES

N_DOCS = 12


@pytest.fixture(scope="module")
def bgh() -> list[Document]:
    """The first BGH documents that have LER placeholders."""
    docs = [d for d in load_ler_file(SOURCES / "ler" / "bgh.conll.xz") if ler_gold_placeholders(d)]
    return docs[:N_DOCS]


@pytest.fixture(scope="module")
def rewritten(bgh) -> list[tuple[Document, Document]]:
    generator = SurrogateGenerator(seed=13, pool="eval")
    return [(doc, rewrite_ler_document(doc, generator)) for doc in bgh]


def _entity_of(doc: Document, span: Span) -> Span:
    return next(e for e in doc.entities if e.start <= span.start and span.end <= e.end)


def test_every_gold_placeholder_becomes_one_surrogate_span(rewritten):
    for doc, out in rewritten:
        gold = ler_gold_placeholders(doc)
        assert len(out.spans) == len(gold)
        for g, s in zip(gold, out.spans):
            assert s.label == LER_PLACEHOLDER_TYPES[_entity_of(doc, g).label] == g.label
            surrogate = out.text[s.start : s.end]
            assert surrogate and surrogate == surrogate.strip()
            assert surrogate != doc.text[g.start : g.end]


def test_no_placeholder_surface_is_left_at_a_gold_span(rewritten):
    for _, out in rewritten:
        for s in out.spans:
            assert not any(
                is_placeholder_token(tok, "PER") for tok in out.text[s.start : s.end].split()
            )


def test_offsets_round_trip_to_the_source_text(rewritten):
    """Putting the placeholders back where the surrogates are gives the source exactly."""
    for doc, out in rewritten:
        gold = ler_gold_placeholders(doc)
        back, _, _ = apply_replacements(
            out.text, [(s, doc.text[g.start : g.end]) for s, g in zip(out.spans, gold)]
        )
        assert back == doc.text


def test_keep_spans_still_cover_their_entity_text(rewritten):
    """Each entity left in clear is one keep span, or the name and its seat ("Amtsgericht" +
    "Kulmbach"), together covering the entity's text."""
    judges = seats = printed = 0
    for doc, out in rewritten:
        gold = ler_gold_placeholders(doc)
        kept = [e for e in doc.entities if not any(e.overlaps(g) for g in gold)]
        spans = iter(k for k in out.keep if k.label != DATE)  # a printed date is no entity (below)
        for entity in sorted(kept):
            k = next(spans)
            if k.label == SEAT:  # a seat alone: the whole name was the place
                parts = [k]
            else:
                assert k.label == keep_label(entity.label, doc.court, printed_places=True)
                assert k.label in (*KEEP_LABELS, *ROLE_LABELS, LOCATION, STREET)
                printed += k.label in (LOCATION, STREET)
                parts = [k]
                if k.end - k.start < entity.end - entity.start:
                    parts.append(next(spans))
                    assert parts[1].label == SEAT
                    seats += 1
            text = " ".join(out.text[p.start : p.end] for p in parts)
            assert text == doc.text[entity.start : entity.end]
            judges += k.label == "JUDGE"
        assert next(spans, None) is None
        assert not any(k.overlaps(s) for k in out.keep for s in out.spans)
    assert judges > 0  # BGH decisions end with the judges' names
    assert seats > 0  # "Amtsgericht Kulmbach", "Staatsanwaltschaft Mainz"
    assert printed > 0  # towns the BGH printed keep their type in the gold set


def test_meta_records_source_seed_and_pool(rewritten):
    doc, out = rewritten[0]
    assert out.id == auto_id(doc.id, 13) != doc.id
    assert out.court == "bgh"
    assert out.meta["source_id"] == doc.id
    assert out.meta["source_hash"] == text_hash(doc.text)
    assert out.meta["seed"] == 13 and out.meta["surrogate_pool"] == "eval"
    assert set(out.meta["generators"]) == {s.label for s in out.spans}
    assert not out.entities


def test_deterministic_for_a_seed_and_different_across_seeds(bgh):
    first = [d.to_dict() for d in rewrite_ler_documents(bgh, seed=13)]
    again = [d.to_dict() for d in rewrite_ler_documents(bgh, seed=13)]
    other = [d.to_dict() for d in rewrite_ler_documents(bgh, seed=14)]
    assert first == again
    assert [d["text"] for d in first] != [d["text"] for d in other]


def test_same_placeholder_same_surrogate_within_a_document(rewritten):
    for doc, out in rewritten:
        seen: dict[tuple[str, str], str] = {}
        for g, s in zip(ler_gold_placeholders(doc), out.spans):
            key = (g.label, " ".join(doc.text[g.start : g.end].split()))
            surrogate = out.text[s.start : s.end]
            assert seen.setdefault(key, surrogate) == surrogate


def test_only_reserved_courts_with_entities_are_rewritten(bgh):
    other = Document(
        id="x", text="Der Kläger K. klagt.", court="bag", entities=[Span(10, 12, "PER")]
    )
    bare = Document(id="y", text="Kein Eintrag.", court="bgh")
    out = list(rewrite_ler_documents([other, bare, bgh[0]], courts=["bgh"]))
    assert [d.meta["source_id"] for d in out] == [bgh[0].id]


def test_written_and_read_back_unchanged(rewritten, tmp_path):
    outs = [out for _, out in rewritten]
    write_documents(tmp_path / "auto.jsonl", outs)
    assert [d.to_dict() for d in read_documents(tmp_path / "auto.jsonl")] == [
        d.to_dict() for d in outs
    ]


@pytest.mark.parametrize(
    ("tag", "label"),
    [
        ("RR", "JUDGE"),
        ("GRT", "COURT"),
        ("GS", "LAW"),
        ("VO", "LAW"),
        ("EUN", "LAW"),
        ("VS", "LAW"),
        ("VT", "LAW"),
        ("RS", "CASE_REFERENCE"),
        ("LIT", "LITERATURE"),
        ("LD", "PUBLIC_ENTITY"),
        ("PER", "PUBLIC_ENTITY"),
        ("INN", "PUBLIC_ENTITY"),
    ],
)
def test_keep_labels(tag, label):
    assert keep_label(tag) == label


@pytest.mark.parametrize(("tag", "label"), [("ST", "LOCATION"), ("STR", "STREET"), ("LD", "PUBLIC_ENTITY")])
def test_a_printed_town_or_street_keeps_its_type_in_the_gold_set_only(tag, label):
    """Training reads what the court printed as public; the gold set lets the profile decide."""
    assert keep_label(tag) == "PUBLIC_ENTITY"
    assert keep_label(tag, printed_places=True) == label


def test_a_printed_date_of_birth_or_death_is_a_keep_span_of_the_gold_set():
    """LER annotates no dates; the dates of birth and death the BGH printed (documents of the
    reserved set) become DATE keep spans, which scoring sets aside under federal as the court's
    disagreement with its profile. A statute's cut-off date, a letter's date and a trip's date
    in a clause about a birthday stay unmarked."""
    text = ("I. Der am 14. Februar 1951 geborene Kläger ist seit 1981 als Steuerberater bestellt. "
            "Die Beklagte ist Vorerbin ihres am 2. Oktober 2011 verstorbenen Vaters. Dem Kläger stehe "
            "als nichtehelichem, vor dem 1. Juli 1949 geborenem Kind kein Pflichtteil zu. Nach dem Schreiben "
            "vom 11. Januar 2017, wonach jede Nachforderung entfalle, und der für den "
            "8. Juni 2016 geplanten Geburtstagsfeier. War die Erblasserin am 30. April 1995 "
            "bereits verstorben, so gilt anderes.")
    found = [text[d.start : d.end] for d in printed_personal_dates(text)]
    assert found == ["14. Februar 1951", "2. Oktober 2011"]


def test_the_gold_set_keeps_the_printed_dates_apart_from_its_spans(bgh):
    """In the rewritten BGH documents every DATE keep span is such a date and touches no
    placeholder's surrogate."""
    generator = SurrogateGenerator(seed=13, pool="eval")
    dates = 0
    for doc in (d for d in load_ler_file(SOURCES / "ler" / "bgh.conll.xz") if ler_gold_placeholders(d)):
        out = rewrite_ler_document(doc, generator)
        kept = [k for k in out.keep if k.label == DATE]
        assert kept == [d for d in printed_personal_dates(out.text) if not any(d.overlaps(s) for s in out.spans)]
        dates += len(kept)
    assert dates >= 6  # "am … geborene", "am … verstorbenen", …
