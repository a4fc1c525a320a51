"""bench/street_probe.py: the probe's sentences hold the street where they say, and its rows
differ only in the rules that the tenth session changed."""

from __future__ import annotations

from bench.street_probe import BEFORE, score, sentences, variants
from deid.anonymizer.pipeline import Pipeline, PipelineConfig


def test_sentences_mark_the_street_number_and_town() -> None:
    probes = sentences(["Alte Poststraße", "Am Hieb"], seed=3, towns=["Erding"])
    assert len(probes) == 4
    for text, street, others in probes:
        assert text[street.start : street.end] in ("Alte Poststraße", "Am Hieb")
        assert all(text[o.start : o.end] == "Erding" or text[o.start : o.end].isdigit() for o in others)


def test_the_before_row_runs_the_older_street_rules_and_scores_lower() -> None:
    config = PipelineConfig.rules_only()
    rows = variants(config)
    assert {s.name: s.version for s in rows["before"].chain if s.name in BEFORE} == BEFORE
    assert [s.name for s in rows["before"].chain] == [s.name for s in config.chain]
    probes = sentences(["Alte Poststraße", "Große Rosengasse", "Am Hieb"], seed=5, towns=["Erding"])
    texts = [text for text, _, _ in probes]
    saved, before = (score(Pipeline(None, rows[k]).analyze_many(texts), probes) for k in ("saved", "before"))
    assert saved["whole"] > before["whole"] and saved["outside"] == 0
