"""Every rule layer of the pipeline is a registered component of its chain (deid.anonymizer.chain,
deid.anonymizer.components; bench/ablation.py removes them one by one): each, removed, changes the
output on a decision where it fires; the default chain, and a pipeline.json saved with the
flags of before the chain, give exactly the chain as it was; a saved chain runs only on the
component versions it recorded."""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import replace

import pytest

from deid.anonymizer import chain as chain_module
from deid.anonymizer.chain import ChainMismatch, parse_chain, step
from deid.anonymizer.components import apply_policy
from deid.anonymizer.consistency import propagate
from deid.anonymizer.pipeline import PIPELINE_FILE, Pipeline, PipelineConfig, build_pipeline
from deid.anonymizer.policy import (
    _attached,
    _kept_by,
    _lowercase_model_word,
    _no_name_shape,
    keep_zones,
)
from deid.anonymizer.recognizers import analyze_all, build_recognizers
from deid.schema import MODEL_SOURCE, PERSON, Document, Span, merge_spans
from deid.sources.io import read_jsonl
from deid.training.settings import load_settings
from deid.words.firms import extend_firms
from deid.words.gazetteer import ends_in_surname_head
from deid.words.lexicon import is_common_noun
from deid.words.ordinary import is_ordinary_word
from deid.words.public import public_words
from deid.words.shape_cues import is_role
from deid.words.shapes import plain_compound
from tests.conftest import ROOT

GOLD = ROOT / "data" / "gold" / "ler_rewritten.jsonl"
BAVARIA = ROOT / "data" / "gold" / "bavaria" / "rewritten.jsonl"


@pytest.fixture(scope="module")
def gold() -> list[Document]:
    return [Document.from_dict(r) for r in read_jsonl(GOLD)][:60]


@pytest.fixture(scope="module")
def bavaria() -> list[Document]:
    return [Document.from_dict(r) for r in read_jsonl(BAVARIA)]


def run(text: str, model_spans: list[Span], cfg: PipelineConfig | None = None, off: tuple[str, ...] = ()) -> list[Span]:
    """The rule chain without the components ``off`` on given model spans (no model is loaded)."""
    cfg = (cfg or PipelineConfig()).without(*off, "model")
    return Pipeline(None, cfg).analyze_many([text], model_spans=[model_spans])[0]


def chain(*entries) -> PipelineConfig:
    """A config whose chain is ``entries`` (as params.yaml lists them)."""
    return PipelineConfig(chain=parse_chain(entries))


def with_money() -> PipelineConfig:
    """The default chain with MONEY kept public (as params.yaml has it)."""
    cfg = PipelineConfig()
    after = [s.name for s in cfg.chain].index("keep_zones") + 1
    return replace(cfg, chain=(*cfg.chain[:after], step("keep_labels", labels=("MONEY",)), *cfg.chain[after:]))


def model_span(
    text: str, m: re.Match[str] | tuple[int, int], label: str = PERSON, score: float = 0.8
) -> Span:
    start, end = (m.start(), m.end()) if isinstance(m, re.Match) else m
    return Span(start, end, label, score, MODEL_SOURCE)


def free_words(doc: Document, pattern: str):
    """Matches of ``pattern`` outside keep zones and gold spans (so only the filter under test
    can drop a model span there)."""
    zones = keep_zones(doc.text)
    for m in re.finditer(pattern, doc.text):
        s = Span(m.start(), m.end(), "X")
        if not any(z.start < s.end and s.start < z.end for z in [*zones, *doc.spans]):
            yield m


# --- one switch each -----------------------------------------------------------------------


def test_recognizers_switch(bavaria):
    recognizers = build_recognizers({"min_score": 0.5})
    doc = next(d for d in bavaria if apply_policy(d.text, analyze_all(d.text, recognizers)))
    on, off = run(doc.text, []), run(doc.text, [], off=("recognizers",))
    assert on != off
    assert any(s.source != "consistency" for s in on)
    assert off == []


def test_keep_zones_switch(gold):
    doc, zone = next((d, z) for d in gold for z in keep_zones(d.text) if z.label == "JUDGE")
    judge = model_span(doc.text, (zone.start, zone.end), PERSON, 0.99)
    off = ("recognizers", "consistency")
    assert run(doc.text, [judge], off=off) == []
    assert run(doc.text, [judge], off=(*off, "keep_zones")) == [judge]


def test_keep_labels_switch(bavaria):
    doc = next(d for d in bavaria if any(s.label == "MONEY" for s in d.spans))
    g = next(s for s in doc.spans if s.label == "MONEY")
    money = model_span(doc.text, (g.start, g.end), "MONEY", 0.99)
    off = ("recognizers", "keep_zones", "policy")  # the policy keeps amounts under every profile too
    assert run(doc.text, [money], with_money(), off) == []
    assert run(doc.text, [money], with_money(), (*off, "keep_labels")) == [money]


def test_common_noun_switch(gold):
    """A lexicon noun no public word list holds and no compound: only the lexicon filter drops it."""
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]{5,}\b")
        if is_common_noun(m.group()) and m.group() not in public_words() and not plain_compound(m.group())
    )  # fmt: skip
    unsure = model_span(doc.text, m)
    off = ("recognizers", "consistency")
    assert run(doc.text, [unsure], off=off) == []
    assert run(doc.text, [unsure], off=(*off, "common_nouns")) == [unsure]
    assert run(doc.text, [unsure], off=(*off, "public_words")) == []
    assert run(doc.text, [unsure], PipelineConfig().configured("common_nouns", min_score=0.5), off) == [unsure]


def test_plain_compound_switch(gold):
    """A lone compound of ordinary words that is no lexicon noun and no public word: only the
    plain-compound filter drops it (a made-up surname has this shape)."""
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]{8,}\b")
        if plain_compound(m.group()) and not is_common_noun(m.group()) and m.group() not in public_words()
        and not ends_in_surname_head(m.group()) and not is_role((d.text[: m.start()].split() or [""])[-1])
    )  # fmt: skip
    unsure = model_span(doc.text, m)
    off = ("recognizers", "consistency")
    federal = PipelineConfig().configured("policy", profile="federal")  # strict keeps what it doubts
    assert run(doc.text, [unsure], federal, off=off) == []
    assert run(doc.text, [unsure], federal, off=(*off, "plain_compounds")) == [unsure]
    assert run(doc.text, [unsure], federal, off=(*off, "common_nouns")) == []
    assert run(doc.text, [unsure], off=off) == [unsure]


def test_public_words_switch(gold):
    """A public word that is neither a lexicon noun nor a plain compound: only the public
    words filter drops it."""
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]{5,}\b")
        if m.group() in public_words() and not is_common_noun(m.group()) and not plain_compound(m.group())
    )  # fmt: skip
    unsure = model_span(doc.text, m)
    off = ("recognizers", "consistency")
    assert run(doc.text, [unsure], off=off) == []
    assert run(doc.text, [unsure], off=(*off, "public_words")) == [unsure]
    assert run(doc.text, [unsure], off=(*off, "common_nouns")) == []


def test_lowercase_switch(gold):
    doc, m = next(
        (d, m) for d in gold for m in free_words(d, r"(?<=\s)(?:erfuhr|nicht|wurde)(?=\s)")
    )
    word = model_span(doc.text, m, "ORGANIZATION", 0.99)
    off = ("recognizers", "consistency")
    assert run(doc.text, [word], off=off) == []
    assert run(doc.text, [word], off=(*off, "lowercase")) == [word]


def test_no_name_shape_switch(gold):
    doc, m = next((d, m) for d in gold for m in free_words(d, r"\b[A-ZÄÖÜ][a-zäöüß]+(?=- und )"))
    part = model_span(doc.text, m, PERSON, 0.99)
    # the lexicon filters are off: a shortened compound's first part is often a noun too
    off = ("recognizers", "consistency", "common_nouns", "plain_compounds", "public_words")
    assert run(doc.text, [part], off=off) == []
    assert run(doc.text, [part], off=(*off, "no_name_shape")) == [part]


def test_consistency_switch(gold):
    doc, span = next(
        (d, s) for d in gold for s in d.spans
        if s.label == PERSON and len(d.text[s.start : s.end].split()) >= 2
        and len(d.text[s.start : s.end].split()[-1]) >= 4
        and len(re.findall(rf"\b{re.escape(d.text[s.start : s.end].split()[-1])}\b", d.text)) >= 3
    )  # fmt: skip
    full = model_span(doc.text, (span.start, span.end), PERSON, 0.95)
    on, off = (
        run(doc.text, [full], off=("recognizers",)),
        run(doc.text, [full], off=("recognizers", "consistency")),
    )
    assert any(s.source == "consistency" for s in on)
    assert not any(s.source == "consistency" for s in off) and len(off) < len(on)


def test_model_only_leaves_the_model_spans_alone(gold):
    doc = gold[0]
    spans = [model_span(doc.text, m, PERSON, 0.5) for m in re.finditer(r"\S+", doc.text)][::7]
    assert run(doc.text, spans, chain()) == spans


# A pipeline.json as saved before the chain (flags; /tmp/exp-style, params.yaml of then)
LEGACY = {
    "threshold": 0.2, "max_length": 128, "stride": 32, "batch_size": 16, "engine": "onnx",
    "quantize": "none", "use_model": True, "use_recognizers": True, "use_keep_zones": True,
    "recognizers": {"min_score": 0.5, "recognizers": {"deid.recognizers.date_of_birth.v1": {"min_score": 0.55}}},
    "consistency": True, "consistency_min_score": 0.7, "consistency_min_share": 0.25,
    "policy": {"keep_courts": True, "keep_judges": True, "keep_statutes": True, "keep_case_numbers": True,
               "keep_citations": True, "keep_states": True, "keep_labels": ["MONEY"],
               "common_noun_min_score": 0.95, "filter_common_nouns": True, "filter_public_words": True,
               "filter_lowercase": True, "filter_no_name_shape": True, "filter_plain_compounds": False},
    "operator": "label", "max_characters": 5000000, "max_tokens": 1000000, "max_seconds": 900,
}  # fmt: skip


def test_a_pipeline_saved_with_flags_loads_as_the_equivalent_chain_at_version_1():
    cfg = PipelineConfig.from_dict(LEGACY)
    assert cfg.migrated_from == "flags"
    assert [(s.name, s.version) for s in cfg.chain] == [
        ("model", 1), ("recognizers", 1), ("keep_zones", 1), ("keep_labels", 1), ("public_words", 1),
        ("common_nouns", 1), ("lowercase", 1), ("no_name_shape", 1), ("consistency", 1),
    ]  # fmt: skip
    # the model's settings of then, on the model step
    assert cfg.step("model").overrides() == {"threshold": 0.2, "max_length": 128, "stride": 32, "engine": "onnx"}
    # the rest is params.yaml's chain but for the model, at version 4 since (2: precision by
    # hardware, version 1 runs fp32; 3: a bf16 copy of the weights; 4: a profile's own threshold), the recognizers (version 2: a larger set), keep_zones
    # (version 2: signature lines; 3: every layout), common_nouns (version 2: a place the text
    # names), no_name_shape (version 2: a plot's label word, a police rank), consistency (version
    # 2: every mention of a name) and legal_form, added last since
    shipped = load_settings(ROOT / "params.yaml").pipeline.chain
    # ... and the policy, extent and regions steps, which came later (a pipeline saved before has
    # none), plain_compounds, off then (filter_plain_compounds: False) and on again at version 2,
    # and frequent_words, vehicles, animals, public_figures and terms, new since
    later = ("policy", "extent", "regions", "plain_compounds", "frequent_words", "vehicles", "animals",
             "public_figures", "terms")
    shipped = tuple(s for s in shipped if s.name not in later)
    assert shipped[-1].name == "legal_form"
    # the same settings, but that params.yaml names version 2 of the birth-date recognizer,
    # which recognizers@4 runs instead of version 1
    assert [(s.name, s.config) for s in cfg.chain[2:]] == [(s.name, s.config) for s in shipped[2:-1]]
    assert shipped[1].config.recognizers == {"deid.recognizers.date_of_birth.v2": {"min_score": 0.55}}
    assert [s.name for s in cfg.chain if s.version != shipped[cfg.chain.index(s)].version] == [
        "model", "recognizers", "keep_zones", "common_nouns", "lowercase", "no_name_shape", "consistency",
    ]  # fmt: skip
    assert cfg.model.precision == "fp32" and shipped[0].config.precision == "auto"
    assert cfg.step("recognizers").overrides() == {"recognizers": LEGACY["recognizers"]["recognizers"]}
    saved = cfg.to_dict()  # saved again: the chain, and where it came from
    assert "policy" not in saved and saved["migrated_from"] == "flags"
    assert PipelineConfig.from_dict(saved) == cfg
    off = PipelineConfig.from_dict({**LEGACY, "use_keep_zones": False, "consistency": False, "use_recognizers": False})
    assert [s.name for s in off.chain] == ["model", "keep_labels", "public_words", "common_nouns", "lowercase", "no_name_shape"]


def test_the_default_chain_is_params_yaml_chain_at_newest_versions():
    """A pipeline built without params.yaml (PipelineConfig()) runs params.yaml's steps, in its
    order, each at the version params.yaml ships (keep_labels, which has no default label, apart)."""
    shipped = [(s.name, s.version) for s in load_settings(ROOT / "params.yaml").pipeline.chain if s.name != "keep_labels"]
    assert [(s.name, s.version) for s in PipelineConfig().chain] == shipped


def test_retired_layers_load_only_when_they_were_off():
    """A saved config that ran a removed rule layer was evaluated on a chain this code cannot
    run: it must be gated again, not silently run without that layer."""
    for key, policy_key in (("use_context_names", None), ("use_place_names", None), (None, "filter_digitless")):
        ran = {**LEGACY, "policy": dict(LEGACY["policy"])}
        off = {**LEGACY, "policy": dict(LEGACY["policy"])}
        if key:
            ran[key], off[key] = True, False
        else:
            ran["policy"][policy_key], off["policy"][policy_key] = True, False
            off["policy"]["digit_labels"] = ["DATE"]
        with pytest.raises(ValueError, match="re-run the gate"):
            PipelineConfig.from_dict(ran)
        assert PipelineConfig.from_dict(off) == PipelineConfig.from_dict(LEGACY)


def test_unknown_switches_still_raise():
    with pytest.raises(ValueError):
        PipelineConfig.from_dict({"use_placenames": False})
    with pytest.raises(TypeError):
        PipelineConfig.from_dict({"policy": {"filter_digits": False}})
    with pytest.raises(ValueError, match="belong to a saved config without a chain"):
        PipelineConfig.from_dict({"chain": [], "consistency": False})
    cfg = with_money().without("keep_zones").configured("consistency", min_share=0.5)
    assert PipelineConfig.from_dict(cfg.to_dict()) == cfg
    saved = {e["name"]: e for e in cfg.to_dict()["chain"]}
    assert saved["consistency"] == {"name": "consistency", "version": 8, "config": {"min_share": 0.5}}


def test_an_unknown_component_or_key_names_the_closest_valid_one():
    with pytest.raises(ValueError, match=r"analyzer chain: unknown key 'keep_zone' \(did you mean 'keep_zones'\?\)"):
        parse_chain(["recognizers", "keep_zone"])
    with pytest.raises(ValueError, match=r"analyzer chain: unknown key 'keep_zones.cuorts' \(did you mean 'courts'\?\)"):
        parse_chain([{"keep_zones": {"cuorts": "Erika Mustermann"}}])
    with pytest.raises(ValueError, match="listed twice"):
        parse_chain(["lowercase", "lowercase"])


def test_a_changed_component_version_refuses_the_saved_pipeline(tmp_path, monkeypatch):
    """A pipeline records each component's version; once the installed component is another
    version (its behaviour changed), loading the saved pipeline fails and says which
    component, the version it was evaluated with and the one installed, never any text."""
    Pipeline(None, with_money().without("model")).save(tmp_path)
    saved = json.loads((tmp_path / PIPELINE_FILE).read_text(encoding="utf-8"))
    installed = chain_module.installed_version("keep_zones")
    assert {"name": "keep_zones", "version": installed, "config": {}} in saved["chain"]
    assert build_pipeline(tmp_path).config.chain == with_money().without("model").chain
    # version 1 (the signature lines of before) stays registered: a pipeline gated with it runs it
    old = replace(with_money(), chain=tuple(step(s.name, 1) if s.name == "keep_zones" else s
                                            for s in with_money().without("model").chain))  # fmt: skip
    Pipeline(None, old).save(tmp_path / "old")
    assert build_pipeline(tmp_path / "old").config.step("keep_zones").version == 1
    versions = chain_module.registry()["keep_zones"]
    newer = installed + 1
    monkeypatch.setitem(chain_module._REGISTRY, "keep_zones", {newer: replace(versions[installed], version=newer)})
    with pytest.raises(ChainMismatch) as caught:
        build_pipeline(tmp_path)
    message = str(caught.value)
    assert str(tmp_path / PIPELINE_FILE) in message
    assert f"chain component 'keep_zones' version {installed}" in message and f"this code has version {newer}" in message
    assert "re-run the gate" in message
    assert PipelineConfig().step("keep_zones").version == newer  # a new pipeline gets the new one
    # a flags-only pipeline.json ran version 1 of every component: refused as well
    (tmp_path / PIPELINE_FILE).write_text(json.dumps(LEGACY), encoding="utf-8")
    with pytest.raises(ChainMismatch, match="'keep_zones' version 1"):
        build_pipeline(tmp_path)


def test_the_anonymize_flow_checks_the_chain_before_reading_input(tmp_path, monkeypatch):
    """The flow resolves the model first and refuses one whose chain this worker cannot run
    (a user error: no retries, no staged input; tests/integration/test_flows.py runs it)."""
    from flows.anonymize import resolve_model

    Pipeline(None, PipelineConfig().without("model")).save(tmp_path / "model")
    versions = chain_module.registry()["consistency"]
    saved = max(versions)  # the version the pipeline was saved with; this worker only has the next
    monkeypatch.setitem(chain_module._REGISTRY, "consistency", {saved + 1: replace(versions[saved], version=saved + 1)})
    with pytest.raises(ChainMismatch, match=r"registered from commit unknown\) cannot run on this worker: .*"
                       rf"'consistency' version {saved}, but this code has version {saved + 1}"):  # fmt: skip
        resolve_model.fn(str(tmp_path / "model"), f"sqlite:///{tmp_path / 'mlflow.db'}")


# --- defaults: the chain as it was ---------------------------------------------------------


def _chain_before_switches(
    text: str, model_spans: list[Span], keep_labels: tuple[str, ...], version: int = 1
) -> list[Span]:
    """Pipeline.finish and apply_policy as they were written before the switches, less the
    layers retired since (context names, place names, the digit filter), with the default
    settings but ``keep_labels``; ``version`` 3: the recognizers of set 2, keep zones version
    3 and the firms' legal forms taken in last (issue 26)."""
    rule_spans = analyze_all(text, build_recognizers({"min_score": 0.5}, 1 if version < 3 else 2))
    spans = merge_spans(model_spans, rule_spans)
    zones = keep_zones(text, version=version)
    starts = [z.start for z in zones]
    attached = _attached(text, spans)
    kept = []
    for index, span in enumerate(spans):
        i = bisect.bisect_right(starts, span.start)
        surface = text[span.start : span.end]
        unsure = (
            span.source == MODEL_SOURCE
            and (span.score or 0.0) < 0.95
            and (is_ordinary_word(surface) or (index not in attached and plain_compound(surface)))
        )
        if (
            span.label in keep_labels
            or unsure
            or _lowercase_model_word(text, span)
            or _no_name_shape(text, span, index in attached)
            or any(_kept_by(z, span) for z in zones[max(0, i - 50) : i + 1])
        ):
            continue
        kept.append(span)
    spread = propagate(text, kept, blocked=zones, min_score=0.7, min_share=0.25)
    return extend_firms(text, spread) if version >= 3 else spread


@pytest.mark.slow
def test_defaults_reproduce_the_chain_before_the_switches(gold, bavaria):
    """Model spans on every third word (all labels, scores 0.3–0.99): the default chain, the
    one with MONEY kept and the legacy flags' mapping give exactly the old chain's spans
    (the legacy flags at version 1; the defaults with the components issue 26 changed, but
    without the policy step, which tests/code/test_profiles.py tests)."""
    labels = ["PERSON", "ORGANIZATION", "LOCATION", "DATE", "MONEY", "ID", "STREET"]
    legacy = PipelineConfig.from_dict({"policy": {"keep_labels": ["MONEY"]}})

    def before_extents(cfg: PipelineConfig) -> PipelineConfig:
        """keep_zones@3, legal_form@1, recognizers@3, consistency@3, common_nouns@1,
        plain_compounds@1, no_name_shape@1 and lowercase@2, without the extent and regions steps
        (what the reference knows)."""
        pinned = {"keep_zones": 3, "legal_form": 1, "recognizers": 3, "consistency": 3, "common_nouns": 1,
                  "plain_compounds": 1, "no_name_shape": 1, "lowercase": 2}  # fmt: skip
        chain = tuple(step(s.name, pinned[s.name]) if s.name in pinned else s for s in cfg.without("extent", "regions").chain)
        return replace(cfg, chain=chain)

    configs = [(before_extents(PipelineConfig().without("policy")), (), 3),
               (before_extents(with_money().without("policy")), ("MONEY",), 3), (legacy, ("MONEY",), 1)]  # fmt: skip
    for doc in [*gold[:6], *bavaria[:6]]:
        text = doc.text[:6000]
        words = list(re.finditer(r"\S+", text))
        spans = [
            model_span(text, m, labels[i % len(labels)], round(0.3 + 0.69 * ((i * 37) % 100) / 100, 2))
            for i, m in enumerate(words) if i % 3 == 0
        ]  # fmt: skip
        for cfg, keep, version in configs:
            assert _full(run(text, spans, cfg)) == _full(_chain_before_switches(text, spans, keep, version))


def _full(spans: list[Span]) -> list[tuple]:
    """Span equality ignores score and source; these must match too."""
    return [(s.start, s.end, s.label, s.score, s.source) for s in spans]


def test_the_ablation_removes_each_component_from_the_chain():
    """bench/ablation.py: one row per component of the saved chain; "model only" removes them
    all and leaves model spans untouched."""
    from bench.ablation import is_active, layers, switched_off

    cfg = with_money()
    names = list(layers(cfg))
    assert names == [s.name for s in cfg.chain][1:] and all(is_active(cfg, n) for n in names)
    assert not is_active(PipelineConfig(), "keep_labels")
    assert not is_active(cfg.configured("common_nouns", min_score=0), "common_nouns")
    for name in names:
        off = switched_off(cfg, (name,))
        assert off != cfg.without("model") and not is_active(off, name)
    none = switched_off(cfg, tuple(names))
    assert none.chain == ()
    text = "Die Klägerin wohnt in Braunau am Inn; das Landgericht Kleve, der Zeuge Schmidtbauer und nicht."
    spans = [model_span(text, m, PERSON, 0.5) for m in re.finditer(r"\S+", text)]
    assert Pipeline(None, none).analyze_many([text], model_spans=[spans])[0] == spans


def test_the_model_is_the_chains_first_step_with_its_inference_settings(tmp_path, monkeypatch):
    """The model is a registered, versioned step like the rules: pipeline.json records how it
    runs, a pipeline.json that kept those settings beside the chain loads as a ``model@1``
    step, and a changed model component (its windowing or decoding) refuses the old pipeline."""
    cfg = PipelineConfig()
    assert cfg.chain[0].name == "model" and cfg.use_model and cfg.model.threshold == 0.35
    assert cfg.to_dict()["chain"][0] == {"name": "model", "version": 4, "config": {"threshold": 0.35}}
    assert "threshold" not in cfg.to_dict()
    assert cfg.override(threshold=0.2, operator="mask").model.threshold == 0.2
    assert not PipelineConfig.rules_only().use_model and PipelineConfig.rules_only().model is None
    with pytest.raises(ValueError, match=r"model settings \['threshold'\] given to a pipeline without a model"):
        PipelineConfig.rules_only().override(threshold=0.2)
    with pytest.raises(ValueError, match="'model' runs over all texts before the others: list it first"):
        parse_chain(["keep_zones", "model"])
    # saved when the model's settings were fields beside the chain (the main job's of then)
    before = {k: v for k, v in cfg.to_dict().items() if k != "chain"}
    before |= {"threshold": 0.2, "max_length": 128, "stride": 32, "batch_size": 16, "engine": "onnx",
               "quantize": "none", "use_model": True, "chain": cfg.to_dict()["chain"][1:]}  # fmt: skip
    loaded = PipelineConfig.from_dict(before)
    assert loaded.chain[1:] == cfg.chain[1:] and loaded.migrated_from is None
    assert (loaded.model.threshold, loaded.model.max_length, loaded.model.stride, loaded.model.engine) == (0.2, 128, 32, "onnx")
    assert PipelineConfig.from_dict(loaded.to_dict()) == loaded  # saved again: the model step
    assert PipelineConfig.from_dict({**before, "use_model": False}).chain == cfg.chain[1:]
    with pytest.raises(ValueError, match="belong to the chain's model step"):
        PipelineConfig.from_dict({**cfg.to_dict(), "threshold": 0.5})
    # the model's inference code changed (version 2 installed): the saved pipeline is refused
    Pipeline(None, cfg.without("model")).save(tmp_path)
    (tmp_path / PIPELINE_FILE).write_text(json.dumps(loaded.to_dict()), encoding="utf-8")
    versions = chain_module.registry()["model"]
    monkeypatch.setitem(chain_module._REGISTRY, "model", {2: replace(versions[1], version=2)})
    with pytest.raises(ChainMismatch, match="chain component 'model' version 1, but this code has version 2"):
        build_pipeline(tmp_path)


def test_a_profile_may_have_a_threshold_of_its_own_from_model_4_on() -> None:
    """model@4: federal neutralizes a model span only at 0.7 (chosen on the dev halves), strict
    at the pipeline's threshold (when in doubt, neutralize); a threshold moved above it (a
    ``--threshold``, the training's calibration) applies to both. Version 3 keeps its meaning:
    one threshold, no profile's own."""
    cfg = PipelineConfig()
    model = cfg.model
    assert cfg.chain[0].version == 4 and dict(model.profile_thresholds) == {"federal": 0.7}
    assert (model.threshold_for("strict"), model.threshold_for("federal"), model.threshold_for(None)) == (0.35, 0.7, 0.35)
    moved = cfg.override(threshold=0.8).model
    assert (moved.threshold_for("strict"), moved.threshold_for("federal")) == (0.8, 0.8)
    own = cfg.configured("model", profile_thresholds={"strict": 0.6}).model
    assert (own.threshold_for("strict"), own.threshold_for("federal")) == (0.6, 0.35)
    # recorded in pipeline.json only where it differs from the version's default
    assert "profile_thresholds" not in cfg.to_dict()["chain"][0]["config"]
    saved = cfg.configured("model", profile_thresholds={"federal": 0.9}).to_dict()
    assert saved["chain"][0]["config"]["profile_thresholds"] == {"federal": 0.9}
    assert PipelineConfig.from_dict(saved).model.threshold_for("federal") == 0.9
    with pytest.raises(ValueError, match="unknown anonymization profile 'bund'"):
        step("model", profile_thresholds={"bund": 0.7})
    with pytest.raises(ValueError, match=r"must lie in \(0, 1\]"):
        step("model", profile_thresholds={"federal": 1.5})
    old = step("model", 3, threshold=0.5).config
    assert (old.threshold_for("strict"), old.threshold_for("federal")) == (0.5, 0.5)
    with pytest.raises(ValueError, match="profile_thresholds"):
        step("model", 3, profile_thresholds={"federal": 0.7})
