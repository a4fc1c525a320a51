"""bench/firm_probe.py: the probe's sentences hold the firm and its name where they say, and its
rows differ only in the rules that the eleventh session changed."""

from __future__ import annotations

from bench.firm_probe import BEFORE, FORMS, score, sentences
from bench.street_probe import variants
from deid.anonymizer.pipeline import Pipeline, PipelineConfig
from deid.schema import MODEL_SOURCE, PERSON, Span


def test_sentences_mark_the_firm_its_name_and_town() -> None:
    probes = sentences(["Glaserei Schinagl", "Am Mühlanger"], seed=3, towns=["Erding"])
    assert len(probes) == 2
    for text, firm, name, others in probes:
        assert text[name.start : name.end] in ("Glaserei Schinagl", "Am Mühlanger")
        assert firm.start == name.start and text[name.end + 1 : firm.end] in FORMS
        assert all(text[o.start : o.end] == "Erding" for o in others)


def test_the_before_row_runs_the_older_rules_and_scores_lower() -> None:
    """A surname the model read as a person right before a legal form is the firm's name with
    its form under legal_form@3; under legal_form@2 the form stays in clear where no recognizer
    knows it ("Ltd.", "e.V.")."""
    config = PipelineConfig.rules_only()
    rows = variants(config, BEFORE)
    assert {s.name: s.version for s in rows["before"].chain if s.name in BEFORE} == BEFORE
    probes = [p for seed in range(40) for p in sentences(["Wagensonner"], seed=seed, towns=["Erding"])]
    texts = [text for text, *_ in probes]
    model = [[Span(name.start, name.end, PERSON, 0.9, MODEL_SOURCE)] for _, _, name, _ in probes]
    saved, before = (score(Pipeline(None, rows[k]).analyze_many(texts, model), probes) for k in ("saved", "before"))
    assert saved["whole"] == len(probes) > before["whole"]
    assert saved["name"] == before["name"] == len(probes) and saved["outside"] == before["outside"] == 0
