"""deid.rewrite.surrogates.novel and the LER rewrite with novel surrogates
(``data/gold/ler_rewritten_novel.jsonl``): made-up names that no list, lexicon, wordfreq or
training text knows, on real reserved LER decisions and the real training splits."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from deid.evaluation import surrogate_overlap as so
from deid.evaluation.metrics import document_half, evaluate
from deid.rewrite.gold.auto import POOL, auto_id, rewrite_ler_document, rewrite_ler_documents
from deid.rewrite.placeholders.gold import ler_gold_placeholders
from deid.rewrite.surrogates import SurrogateGenerator, novel
from deid.rewrite.surrogates.novel_elements import PLACE_HEADS, STEMS, STREET_HEADS, SURNAME_HEADS
from deid.rewrite.surrogates.organization import TRADES
from deid.schema import Document, coarse_label
from deid.sources.io import read_documents, write_documents
from deid.sources.ler import load_ler_file
from deid.sources.textedit import apply_replacements
from tests.conftest import ROOT, SOURCES

pytestmark = pytest.mark.slow  # novel-name lists built from the whole training text: seconds per test

NOVEL_GOLD = ROOT / "data/gold/ler_rewritten_novel.jsonl"
EVAL_GOLD = ROOT / "data/gold/ler_rewritten.jsonl"
SEED = 13
_GERMAN_WORD = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]+$")


@pytest.fixture(scope="module")
def training_words() -> frozenset[str]:
    """Words of the training and validation splits, rebuilt from the bundled sources."""
    words, read = novel.training_text_words((), SOURCES)
    assert read["documents"] > 500 and read["splits"] == ["train", "validation"]
    return words


@pytest.fixture(scope="module")
def sources(training_words) -> dict[str, novel.Source]:
    return novel.known_word_sources(training_words)


@pytest.fixture(scope="module")
def names(sources) -> novel.NovelNames:
    return novel.novel_names(novel.any_source(sources))


@pytest.fixture(scope="module")
def generator(names) -> SurrogateGenerator:
    return SurrogateGenerator(seed=SEED, source=novel.NovelGazetteers(names))


@pytest.fixture(scope="module")
def reserved() -> list[Document]:
    """The reserved LER courts' documents with entities, in the rewrite's order."""
    docs = []
    for court in ("bgh", "bverwg"):
        docs += [d for d in load_ler_file(SOURCES / "ler" / f"{court}.conll.xz") if d.entities]
    return docs


def _list_words(names: novel.NovelNames) -> set[str]:
    """The name words of every list: street words and trade words name nothing."""
    entries = [*names.surnames, *names.places, *names.streets, *names.companies]
    entries += [n for group in names.first_names.values() for n in group]
    generic = {h.capitalize() for h in STREET_HEADS} | set(TRADES)
    return {w for e in entries for w in so.words_of(e)} - generic


def _name_words(doc: Document) -> list[str]:
    out: list[str] = []
    for span in doc.spans:
        label = coarse_label(span.label)
        if label in so.OVERLAP_TYPES:
            out += so.name_words(doc.text[span.start : span.end], label)[0]
    return out


# --- the lists ------------------------------------------------------------------------------


def test_lists_are_a_pure_function_of_elements_and_sources(names, sources):
    again = novel.novel_names(novel.any_source(sources))
    assert again == names and again.digest() == names.digest()
    counts = names.counts()
    assert counts["surnames"] > 2000 and counts["places"] > 2000
    assert counts["first_names_f"] > 200 and counts["first_names_m"] > 200
    assert counts["streets"] > 5000 and counts["companies"] > 5000


def test_names_look_like_german_names(names):
    singles = [*names.surnames, *names.places, *names.first_names["f"], *names.first_names["m"]]
    assert all(novel.SHAPE.match(n) and _GERMAN_WORD.match(n) for n in singles)
    assert all(4 <= len(n) <= 18 for n in singles)
    assert not set(names.first_names["f"]) & set(names.first_names["m"])
    assert not set(names.surnames) & set(names.places)
    # every initial a court writes has names ("C.", "Q.", "Sch.", "St."; no German X-names)
    for sampler in (names.surnames, names.places):
        initials = {n[0] for n in sampler}
        assert set("ABCDEFGHIJKLMNOPQRSTUVWYZ") <= initials
        assert sum(n.startswith("Sch") for n in sampler) >= 20
        assert sum(n.startswith("St") for n in sampler) >= 20
    short = sum(len(n) <= novel.SHORT_SURNAME for n in names.surnames)
    assert 200 <= short < len(names.surnames) / 2  # short ones exist and are drawn more often
    assert all(s.lower().endswith(STREET_HEADS) for s in names.streets)
    assert all(c.split()[-1] in TRADES for c in names.companies)


def test_no_name_word_of_any_list_is_known_to_any_source(names, sources, training_words):
    words = _list_words(names)
    assert len(words) > 10_000
    for name, knows in sources.items():
        assert not [w for w in words if knows(w)], name
    for name, knows in so.default_sources(training_words).items():  # the overlap report's
        assert not [w for w in words if knows(w)], name


def test_the_filter_rejects_every_candidate_a_source_knows(names, sources):
    """Each source removes real compositions ("Steinhauser" is a surname, "Rosenheim" a town
    and a word): none of them reaches a list."""
    candidates = novel.compose(STEMS, SURNAME_HEADS) + novel.compose(STEMS, PLACE_HEADS)
    kept = set(names.surnames) | set(names.places)
    for name, knows in sources.items():
        rejected = [c for c in candidates if knows(c)]
        assert rejected, f"{name} rejects nothing"
        assert not kept & set(rejected), name


def test_a_novel_name_is_rejected_once_training_text_holds_it(names):
    name = names.surnames[0]
    assert novel.is_novel(name, novel.any_source(novel.known_word_sources(frozenset())))
    seen = novel.any_source(novel.known_word_sources(frozenset({name.lower()})))
    assert not novel.is_novel(name, seen)  # case-insensitive, stricter than the report
    assert novel.is_novel("Müller", lambda _w: False)  # the shape alone passes it ...
    assert not novel.is_novel("Müller", novel.any_source(novel.known_word_sources(())))
    assert not novel.is_novel("Schilllinger", lambda _w: False)  # ... a triple letter does not


# --- rewriting real reserved decisions ------------------------------------------------------


@pytest.fixture(scope="module")
def pairs(reserved, generator) -> list[tuple[Document, Document, Document]]:
    """(source, eval-pool rewrite, novel rewrite) of BGH and BVerwG documents."""
    placeholders = [d for d in reserved if ler_gold_placeholders(d)]
    chosen = [d for d in placeholders if d.court == "bgh"][:8]
    chosen += [d for d in placeholders if d.court == "bverwg"][:8]
    evaluator = SurrogateGenerator(seed=SEED, pool=POOL)
    return [
        (d, rewrite_ler_document(d, evaluator), rewrite_ler_document(d, generator)) for d in chosen
    ]


def test_same_spans_and_keep_as_the_eval_rewrite_with_unseen_names(pairs, sources):
    known = novel.any_source(sources)
    for doc, evaluated, out in pairs:
        assert out.id == auto_id(doc.id, SEED, novel.NOVEL) == f"{doc.id}.novel-s{SEED}"
        assert out.meta["source_id"] == evaluated.meta["source_id"] == doc.id
        assert out.meta["surrogate_pool"] == novel.NOVEL and out.meta["novel_names"]
        assert [s.label for s in out.spans] == [s.label for s in evaluated.spans]
        assert [out.text[k.start : k.end] for k in out.keep] == [
            evaluated.text[k.start : k.end] for k in evaluated.keep
        ]
        assert [k.label for k in out.keep] == [k.label for k in evaluated.keep]
        words = _name_words(out)
        assert all(not known(w) for w in words)
    assert sum(len(_name_words(out)) for _, _, out in pairs) > 50


def test_offsets_round_trip_to_the_source_text(pairs):
    for doc, _, out in pairs:
        gold = ler_gold_placeholders(doc)
        assert len(gold) == len(out.spans)
        for s in out.spans:
            surface = out.text[s.start : s.end]
            assert surface and surface == surface.strip()
        back, _, _ = apply_replacements(
            out.text, [(s, doc.text[g.start : g.end]) for s, g in zip(out.spans, gold)]
        )
        assert back == doc.text


def test_deterministic_per_document_and_seeded(pairs, generator, names):
    docs = [doc for doc, _, _ in pairs]
    alone = [rewrite_ler_document(d, generator).to_dict() for d in docs[::-1]][::-1]
    assert alone == [out.to_dict() for _, _, out in pairs]
    fresh = SurrogateGenerator(seed=SEED, source=novel.NovelGazetteers(names))
    assert [d.to_dict() for d in rewrite_ler_documents(docs, generator=fresh)] == alone
    other = SurrogateGenerator(seed=SEED + 1, source=novel.NovelGazetteers(names))
    assert [d.text for d in rewrite_ler_documents(docs, generator=other)] != [
        d["text"] for d in alone
    ]


# --- the committed gold set -----------------------------------------------------------------


@pytest.fixture(scope="module")
def committed() -> list[Document]:
    return read_documents(NOVEL_GOLD)


def test_committed_set_has_the_eval_sets_documents_spans_and_halves(committed):
    evaluated = read_documents(EVAL_GOLD)
    assert [d.meta["source_id"] for d in committed] == [d.meta["source_id"] for d in evaluated]
    for out, ev in zip(committed, evaluated):
        assert out.court == ev.court and document_half(out) == document_half(ev)
        assert [s.label for s in out.spans] == [s.label for s in ev.spans]
        assert [out.text[k.start : k.end] for k in out.keep] == [
            ev.text[k.start : k.end] for k in ev.keep
        ]
    assert {document_half(d) for d in committed} == {"dev", "sealed"}


def test_committed_set_shares_no_name_word_with_anything_the_system_uses(
    committed, sources, training_words
):
    """The overlap report (deid evaluate-overlap) finds every document unseen, and the
    stricter filter (case-insensitive, any lexicon form, wordfreq, laws) knows no word."""
    report = so.overlap_set(committed, so.default_sources(training_words))
    docs = report["documents"]
    assert docs["with_name_words"] > 100
    assert docs["unseen"]["count"] == docs["unseen_in_training"]["count"]
    assert docs["unseen"]["count"] == docs["with_name_words"]
    for label, row in report["per_type"].items():
        assert row["spans"] > 0, label
        assert not any(row["spans_known_by"].values()), label
        assert row["words_unseen"] == row["words"], label
    known = novel.any_source(sources)
    words = {w for d in committed for w in _name_words(d)}
    assert len(words) > 300 and not [w for w in words if known(w)]


def test_committed_names_occur_only_inside_their_spans(committed):
    for doc in committed:
        outside = doc.text
        for s in sorted(doc.spans, key=lambda s: s.start, reverse=True):
            outside = outside[: s.start] + " " + outside[s.end :]
        assert not set(_name_words(doc)) & set(so.words_of(outside)), doc.id


def test_committed_set_is_rebuilt_bit_for_bit(committed, reserved, generator):
    """``deid rewrite auto --surrogates novel`` on the corpus gives the committed file (the
    dataset stage rebuilds it; regenerate and commit it when this fails)."""
    rebuilt = [d.to_dict() for d in rewrite_ler_documents(reserved, generator=generator)]
    assert rebuilt == [d.to_dict() for d in committed]


def test_committed_set_is_a_usable_gold_set(committed):
    """Scored like any gold set: perfect predictions score 1 in both halves."""
    preds = {d.id: list(d.spans) for d in committed}
    out = evaluate(committed, preds)
    assert out["overall"]["elements"]["recall"] == out["overall"]["elements"]["precision"] == 1
    halves = out["halves"]
    assert halves["dev"]["overall"]["documents"] + halves["sealed"]["overall"]["documents"] == len(
        committed
    )


# --- command line ---------------------------------------------------------------------------


def test_cli_rewrites_with_novel_surrogates_and_refuses_an_unknown_source(reserved, tmp_path):
    from deid.app.cli import app

    source, train, out = tmp_path / "ler.jsonl", tmp_path / "train.jsonl", tmp_path / "o.jsonl"
    write_documents(source, [d for d in reserved if ler_gold_placeholders(d)][:2])
    write_documents(train, [Document("t", "Der Zeuge sagte aus.")])
    args = ["rewrite", "auto", "--input", str(source), "--output", str(out), "--train", str(train)]
    result = CliRunner().invoke(app, [*args, "--surrogates", "novel"])
    assert result.exit_code == 0, result.output
    docs = read_documents(out)
    assert len(docs) == 2 and all(d.spans for d in docs)
    assert {d.meta["surrogate_pool"] for d in docs} == {novel.NOVEL}
    assert all(d.id.endswith(f".novel-s{SEED}") for d in docs)
    bad = CliRunner().invoke(app, [*args, "--surrogates", "gazetteers"])
    assert bad.exit_code != 0 and "unknown surrogates" in bad.output
