"""The registry: building recognizers from config, and merging their spans."""

from __future__ import annotations

import pytest

from deid.anonymizer.recognizers import RECOGNIZER_SETS, RECOGNIZERS, analyze_all, build_recognizers

PHONE = "deid.recognizers.phone.v1"
URL = "deid.recognizers.url.v1"


def test_all_on_by_default() -> None:
    built = build_recognizers()
    assert [r.name for r in built] == list(RECOGNIZER_SETS[max(RECOGNIZER_SETS)])
    assert all(r.min_score == 0.0 for r in built)
    assert build_recognizers({}) and build_recognizers(None)


def test_sets_keep_their_meaning() -> None:
    """A pipeline gated with the first set runs it, whatever was registered since; the newest
    set runs each recognizer at one version only."""
    first = [r.name for r in build_recognizers(version=1)]
    assert len(first) == 17 and "deid.recognizers.patent_number.v1" not in first
    assert "deid.recognizers.permit_number.v1" in first
    newest = RECOGNIZER_SETS[max(RECOGNIZER_SETS)]
    assert {"deid.recognizers.permit_number.v8", "deid.recognizers.commercial_register.v1"} <= set(newest)
    assert "deid.recognizers.permit_number.v7" in RECOGNIZER_SETS[19]
    assert "deid.recognizers.permit_number.v6" in RECOGNIZER_SETS[17]
    assert "deid.recognizers.permit_number.v5" in RECOGNIZER_SETS[15]
    assert "deid.recognizers.permit_number.v4" in RECOGNIZER_SETS[10]
    assert "deid.recognizers.permit_number.v3" in RECOGNIZER_SETS[5]
    assert len({name.split(".")[2] for name in newest}) == len(newest)
    assert set(RECOGNIZERS) == {name for names in RECOGNIZER_SETS.values() for name in names}


def test_a_recognizer_outside_the_set_runs_only_when_enabled() -> None:
    old = "deid.recognizers.permit_number.v1"
    assert old not in {r.name for r in build_recognizers()}
    assert old in {r.name for r in build_recognizers({"recognizers": {old: True}})}
    patent = "deid.recognizers.patent_number.v1"
    assert patent in {r.name for r in build_recognizers({"recognizers": {patent: True}}, version=1)}


@pytest.mark.parametrize(
    "config, off",
    [
        ({"recognizers": {PHONE: {"enabled": False}}}, {PHONE}),
        ({"recognizers": {PHONE: False, URL: False}}, {PHONE, URL}),
        ({"recognizers": {PHONE: True}}, set()),
    ],
)
def test_enable_disable(config: dict, off: set[str]) -> None:
    assert {r.name for r in build_recognizers(config)} == set(RECOGNIZER_SETS[max(RECOGNIZER_SETS)]) - off


def test_min_score_global_and_per_recognizer() -> None:
    built = {
        r.name: r
        for r in build_recognizers({"min_score": 0.5, "recognizers": {PHONE: {"min_score": 0.8}}})
    }
    assert built[PHONE].min_score == 0.8
    assert built[URL].min_score == 0.5
    # the global floor wins over a lower per-recognizer value
    low = build_recognizers({"min_score": 0.5, "recognizers": {URL: {"min_score": 0.1}}})
    assert {r.name: r.min_score for r in low}[URL] == 0.5
    text = "Unter 0911 654321 meldete sich niemand; Tel. 0911 123456"
    assert [(s.start, s.score) for s in analyze_all(text, [built[PHONE]])] == [(45, 0.9)]


@pytest.mark.parametrize(
    "config",
    [
        {"recognizers": {"deid.recognizers.nope.v1": True}},
        {"recognizers": {PHONE: {"enabled": False, "colour": "red"}}},
        {"recognizers": {PHONE: "off"}},
        {"minscore": 0.3},
    ],
)
def test_bad_config_is_rejected(config: dict) -> None:
    with pytest.raises((ValueError, TypeError)):
        build_recognizers(config)


@pytest.mark.parametrize(
    "text, expected",
    [
        # the checksum-confirmed social security number beats the labelled contract number
        ("Versicherungsnummer 65170839J003", [("SOCIAL_SECURITY_ID", 20, 32)]),
        # the label makes it a customer number (0.8), not a phone number (0.6)
        ("Kundennummer 0911 123456", [("CONTRACT_NUMBER", 13, 24)]),
        # an address is an e-mail, its domain no separate URL
        ("Mail: j.muster@kanzlei-muster.eu", [("EMAIL", 6, 32)]),
        # results are sorted by offset across recognizers
        (
            "www.example.org, Tel. 089/123456, IBAN DE89370400440532013000",
            [("URL", 0, 15), ("PHONE", 22, 32), ("IBAN", 39, 61)],
        ),
    ],
)
def test_analyze_all_resolves_overlaps_and_sorts(
    text: str, expected: list[tuple[str, int, int]]
) -> None:
    spans = analyze_all(text, build_recognizers())
    assert [(s.label, s.start, s.end) for s in spans] == expected
    assert all(s.source in RECOGNIZERS for s in spans)
