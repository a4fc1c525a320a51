"""Every rule layer of the pipeline has a config switch (for bench/ablation.py): each switch,
turned off, changes the output on a decision where its layer fires, and the defaults give
exactly the chain as it was before the switches existed."""

from __future__ import annotations

import bisect
import re
from dataclasses import replace

import pytest

from deid.anonymize import Pipeline, PipelineConfig
from deid.consistency import propagate
from deid.features import plain_compound
from deid.io import read_jsonl
from deid.lexicon import is_common_noun, is_ordinary_word
from deid.policy import (
    PolicyConfig,
    _attached,
    _kept_by,
    _lowercase_model_word,
    _no_name_shape,
    apply_policy,
    keep_zones,
)
from deid.public_words import public_words
from deid.recognizers import analyze_all, build_recognizers
from deid.schema import MODEL_SOURCE, PERSON, Document, Span, merge_spans
from tests.conftest import ROOT

GOLD = ROOT / "data" / "gold" / "ler_rewritten.jsonl"
BAVARIA = ROOT / "data" / "gold" / "bavaria" / "rewritten.jsonl"


@pytest.fixture(scope="module")
def gold() -> list[Document]:
    return [Document.from_dict(r) for r in read_jsonl(GOLD)][:60]


@pytest.fixture(scope="module")
def bavaria() -> list[Document]:
    return [Document.from_dict(r) for r in read_jsonl(BAVARIA)]


def run(
    text: str, model_spans: list[Span], cfg: PipelineConfig | None = None, **switches
) -> list[Span]:
    """The rule chain on given model spans (no model is loaded)."""
    cfg = replace(cfg or PipelineConfig(), use_model=False, **switches)
    return Pipeline(None, cfg).analyze_many([text], model_spans=[model_spans])[0]


def policy(**fields) -> PipelineConfig:
    return PipelineConfig(policy=PolicyConfig(**fields))


def model_span(
    text: str, m: re.Match[str] | tuple[int, int], label: str = PERSON, score: float = 0.8
) -> Span:
    start, end = (m.start(), m.end()) if isinstance(m, re.Match) else m
    return Span(start, end, label, score, MODEL_SOURCE)


def free_words(doc: Document, pattern: str, keep: PolicyConfig | None = None):
    """Matches of ``pattern`` outside keep zones and gold spans (so only the filter under test
    can drop a model span there)."""
    zones = keep_zones(doc.text, keep or PolicyConfig())
    for m in re.finditer(pattern, doc.text):
        s = Span(m.start(), m.end(), "X")
        if not any(z.start < s.end and s.start < z.end for z in [*zones, *doc.spans]):
            yield m


# --- one switch each -----------------------------------------------------------------------


def test_recognizers_switch(bavaria):
    recognizers = build_recognizers(PipelineConfig().recognizers)
    doc = next(d for d in bavaria if apply_policy(d.text, analyze_all(d.text, recognizers)))
    on, off = run(doc.text, []), run(doc.text, [], use_recognizers=False)
    assert on != off
    assert any(s.source != "consistency" for s in on)
    assert off == []


def test_keep_zones_switch(gold):
    doc, zone = next((d, z) for d in gold for z in keep_zones(d.text) if z.label == "JUDGE")
    judge = model_span(doc.text, (zone.start, zone.end), PERSON, 0.99)
    switches = {"use_recognizers": False, "consistency": False}
    assert run(doc.text, [judge], **switches) == []
    assert run(doc.text, [judge], use_keep_zones=False, **switches) == [judge]


def test_keep_labels_switch(bavaria):
    doc = next(d for d in bavaria if any(s.label == "MONEY" for s in d.spans))
    g = next(s for s in doc.spans if s.label == "MONEY")
    money = model_span(doc.text, (g.start, g.end), "MONEY", 0.99)
    switches = {"use_recognizers": False, "use_keep_zones": False}
    assert run(doc.text, [money], policy(keep_labels=("MONEY",)), **switches) == []
    assert run(doc.text, [money], policy(keep_labels=()), **switches) == [money]


def test_common_noun_switch(gold):
    """A lexicon noun no public word list holds and no compound: only the lexicon filter drops it."""
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]{5,}\b")
        if is_common_noun(m.group()) and m.group() not in public_words() and not plain_compound(m.group())
    )  # fmt: skip
    unsure = model_span(doc.text, m)
    switches = {"use_recognizers": False, "consistency": False}
    assert run(doc.text, [unsure], **switches) == []
    assert run(doc.text, [unsure], policy(filter_common_nouns=False), **switches) == [unsure]
    assert run(doc.text, [unsure], policy(filter_public_words=False), **switches) == []
    assert run(doc.text, [unsure], policy(common_noun_min_score=0.5), **switches) == [unsure]


def test_plain_compound_switch(gold):
    """A lone compound of ordinary words that is no lexicon noun and no public word: only the
    plain-compound filter drops it (a made-up surname has this shape)."""
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]{8,}\b")
        if plain_compound(m.group()) and not is_common_noun(m.group()) and m.group() not in public_words()
    )  # fmt: skip
    unsure = model_span(doc.text, m)
    switches = {"use_recognizers": False, "consistency": False}
    assert run(doc.text, [unsure], **switches) == []
    assert run(doc.text, [unsure], policy(filter_plain_compounds=False), **switches) == [unsure]
    assert run(doc.text, [unsure], policy(filter_common_nouns=False), **switches) == []


def test_public_words_switch(gold):
    """A public word that is neither a lexicon noun nor a plain compound: only the public
    words filter drops it."""
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]{5,}\b")
        if m.group() in public_words() and not is_common_noun(m.group()) and not plain_compound(m.group())
    )  # fmt: skip
    unsure = model_span(doc.text, m)
    switches = {"use_recognizers": False, "consistency": False}
    assert run(doc.text, [unsure], **switches) == []
    assert run(doc.text, [unsure], policy(filter_public_words=False), **switches) == [unsure]
    assert run(doc.text, [unsure], policy(filter_common_nouns=False), **switches) == []


def test_lowercase_switch(gold):
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"(?<=\s)(?:erfuhr|nicht|wurde)(?=\s)")
    )
    word = model_span(doc.text, m, "ORGANIZATION", 0.99)
    switches = {"use_recognizers": False, "consistency": False}
    assert run(doc.text, [word], **switches) == []
    assert run(doc.text, [word], policy(filter_lowercase=False), **switches) == [word]


def test_no_name_shape_switch(gold):
    doc, m = next((d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]+(?=- und )"))
    part = model_span(doc.text, m, PERSON, 0.99)
    switches = {"use_recognizers": False, "consistency": False}
    # the lexicon filter is off: a shortened compound's first part is often a noun too
    base = {"filter_common_nouns": False, "filter_plain_compounds": False, "filter_public_words": False}
    assert run(doc.text, [part], policy(**base), **switches) == []
    assert run(doc.text, [part], policy(filter_no_name_shape=False, **base), **switches) == [part]


def test_consistency_switch(gold):
    doc, span = next(
        (d, s) for d in gold for s in d.spans
        if s.label == PERSON and len(d.text[s.start : s.end].split()) >= 2
        and len(d.text[s.start : s.end].split()[-1]) >= 4
        and len(re.findall(rf"\b{re.escape(d.text[s.start : s.end].split()[-1])}\b", d.text)) >= 3
    )  # fmt: skip
    full = model_span(doc.text, (span.start, span.end), PERSON, 0.95)
    switches = {"use_recognizers": False}
    on, off = (
        run(doc.text, [full], **switches),
        run(doc.text, [full], consistency=False, **switches),
    )
    assert any(s.source == "consistency" for s in on)
    assert not any(s.source == "consistency" for s in off) and len(off) < len(on)


def test_model_only_leaves_the_model_spans_alone(gold):
    doc = gold[0]
    spans = [model_span(doc.text, m, PERSON, 0.5) for m in re.finditer(r"\S+", doc.text)][::7]
    off = {"use_recognizers": False, "use_keep_zones": False, "consistency": False}
    cfg = policy(filter_common_nouns=False, filter_plain_compounds=False, filter_public_words=False,
                 filter_lowercase=False, filter_no_name_shape=False)  # fmt: skip
    assert run(doc.text, spans, cfg, **off) == spans


def test_retired_layers_load_only_when_they_were_off():
    """A saved config that ran a removed rule layer was evaluated on a chain this code cannot
    run: it must be gated again, not silently run without that layer."""
    saved = PipelineConfig().to_dict()
    for key, policy_key in (("use_context_names", None), ("use_place_names", None), (None, "filter_digitless")):
        ran = {**saved, "policy": dict(saved["policy"])}
        off = {**saved, "policy": dict(saved["policy"])}
        if key:
            ran[key], off[key] = True, False
        else:
            ran["policy"][policy_key], off["policy"][policy_key] = True, False
            off["policy"]["digit_labels"] = ["DATE"]
        with pytest.raises(ValueError, match="re-run the gate"):
            PipelineConfig.from_dict(ran)
        assert PipelineConfig.from_dict(off) == PipelineConfig()


def test_unknown_switches_still_raise():
    with pytest.raises(ValueError):
        PipelineConfig.from_dict({"use_placenames": False})
    with pytest.raises(TypeError):
        PipelineConfig.from_dict({"policy": {"filter_digits": False}})
    cfg = PipelineConfig(
        use_keep_zones=False, policy=PolicyConfig(filter_lowercase=False, keep_labels=("MONEY",))
    )
    assert PipelineConfig.from_dict(cfg.to_dict()) == cfg


# --- defaults: the chain as it was ---------------------------------------------------------


def _chain_before_switches(text: str, model_spans: list[Span], cfg: PipelineConfig) -> list[Span]:
    """Pipeline.finish and apply_policy as they were written before the switches, less the
    layers retired since (context names, place names, the digit filter)."""
    rule_spans = analyze_all(text, build_recognizers(cfg.recognizers))
    spans = merge_spans(model_spans, rule_spans)
    zones = keep_zones(text, cfg.policy)
    starts = [z.start for z in zones]
    attached = _attached(text, spans)
    kept = []
    for index, span in enumerate(spans):
        i = bisect.bisect_right(starts, span.start)
        surface = text[span.start : span.end]
        unsure = (
            span.source == MODEL_SOURCE
            and (span.score or 0.0) < cfg.policy.common_noun_min_score
            and (is_ordinary_word(surface) or (index not in attached and plain_compound(surface)))
        )
        if (
            span.label in cfg.policy.keep_labels
            or unsure
            or _lowercase_model_word(text, span)
            or _no_name_shape(text, span, index in attached)
            or any(_kept_by(z, span) for z in zones[max(0, i - 50) : i + 1])
        ):
            continue
        kept.append(span)
    return propagate(
        text,
        kept,
        blocked=zones,
        min_score=cfg.consistency_min_score,
        min_share=cfg.consistency_min_share,
    )


@pytest.mark.slow
def test_defaults_reproduce_the_chain_before_the_switches(gold, bavaria):
    """Model spans on every third word (all labels, scores 0.3–0.99): the default pipeline
    and the one configured like params.yaml give exactly the old chain's spans."""
    labels = ["PERSON", "ORGANIZATION", "LOCATION", "DATE", "MONEY", "ID", "STREET"]
    configs = [PipelineConfig(), policy(keep_labels=("MONEY",))]
    for doc in [*gold[:6], *bavaria[:6]]:
        text = doc.text[:6000]
        words = list(re.finditer(r"\S+", text))
        spans = [
            model_span(text, m, labels[i % len(labels)], round(0.3 + 0.69 * ((i * 37) % 100) / 100, 2))
            for i, m in enumerate(words) if i % 3 == 0
        ]  # fmt: skip
        for cfg in configs:
            assert _full(run(text, spans, cfg)) == _full(_chain_before_switches(text, spans, cfg))


def _full(spans: list[Span]) -> list[tuple]:
    """Span equality ignores score and source; these must match too."""
    return [(s.start, s.end, s.label, s.score, s.source) for s in spans]


def test_the_ablation_switches_every_layer_off():
    """bench/ablation.py: each layer row names real switches; "model only" turns all off and
    leaves model spans untouched."""
    from bench.ablation import LAYERS, is_active, switched_off

    cfg = PipelineConfig(policy=PolicyConfig(keep_labels=("MONEY",)))
    assert all(is_active(cfg, layer) for layer in LAYERS)
    assert not is_active(PipelineConfig(), next(x for x in LAYERS if x.name == "keep_labels"))
    for layer in LAYERS:
        off = switched_off(cfg, (layer,))
        assert off != replace(cfg, use_model=False) and not is_active(off, layer)
    none = switched_off(cfg, LAYERS)
    text = "Die Klägerin wohnt in Braunau am Inn; das Landgericht Kleve, der Zeuge Schmidtbauer und nicht."
    spans = [model_span(text, m, PERSON, 0.5) for m in re.finditer(r"\S+", text)]
    assert Pipeline(None, none).analyze_many([text], model_spans=[spans])[0] == spans
