"""Tests of deid.evaluation.metrics: every expected number is worked out by hand in the test."""

from __future__ import annotations

import json
import re

import pytest
from seqeval.metrics import classification_report
from seqeval.scheme import IOB2
from typer.testing import CliRunner

from deid.evaluation.metrics import (
    HALVES,
    aktenzeichen_slice,
    all_candidates,
    candidate_confusion,
    document_half,
    element_bio,
    entity_candidates,
    evaluate,
    evaluate_document,
    gold_half,
    length_slice,
    load_predictions,
    random_candidates,
    restricted_confusion,
    slice_metrics,
)
from deid.schema import KEEP_LABELS, LABELS, Document, Span
from deid.sources.elements import Confusion, text_elements
from deid.sources.io import read_documents
from tests.conftest import ROOT, read_source

GOLD_SETS = {
    "ler": ROOT / "data/gold/ler_rewritten.jsonl",
    "bavaria": ROOT / "data/gold/bavaria/rewritten.jsonl",
}

# Elements: Kläger(0) Max(1) Müller(2) wohnt(3) in(4) Berlin(5) und(6) klagt(7) vor(8)
# dem(9) Arbeitsgericht(10) Köln(11) .(12)  -> 13 elements
TEXT = "Kläger Max Müller wohnt in Berlin und klagt vor dem Arbeitsgericht Köln ."


def at(text: str, surface: str, label: str, nth: int = 0) -> Span:
    """The span of the ``nth`` occurrence of ``surface`` in ``text``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(surface, start + 1)
    return Span(start, start + len(surface), label)


PERSON = at(TEXT, "Max Müller", "PERSON")
BERLIN = at(TEXT, "Berlin", "LOCATION")
COURT = at(TEXT, "Arbeitsgericht Köln", "COURT")


def doc(doc_id: str = "d1", court: str | None = "BAG") -> Document:
    return Document(doc_id, TEXT, court=court, spans=[PERSON, BERLIN], keep=[COURT])


def run(preds: list[Span], **kwargs) -> dict:
    return evaluate([doc()], {"d1": preds}, **kwargs)


def micro(report: dict, scheme: str) -> dict:
    return report["overall"]["entities"][scheme]["micro"]


def counts(report: dict, scheme: str) -> tuple[int, int, int, int]:
    m = micro(report, scheme)
    return m["gold"], m["found"], m["pred"], m["correct"]


def elements(report: dict) -> tuple[int, int, int, int]:
    e = report["overall"]["elements"]
    return e["tp"], e["fp"], e["fn"], e["tn"]


# --- element BIO ------------------------------------------------------------------------


def test_element_bio_tags_runs_of_elements():
    tags = element_bio(text_elements(TEXT), [PERSON, BERLIN])
    assert tags[:7] == ["O", "B-PERSON", "I-PERSON", "O", "O", "B-LOCATION", "O"]
    assert tags.count("O") == 10


def test_element_bio_adjacent_spans_start_new_entities_and_subelement_spans_tag_element():
    text = "Max Müller und die A-GbR"
    spans = [at(text, "Max", "PERSON"), at(text, "Müller", "PERSON")]
    spans.append(at(text, "A", "ORGANIZATION"))
    assert element_bio(text_elements(text), spans) == [
        "B-PERSON",
        "B-PERSON",
        "O",
        "O",
        "B-ORGANIZATION",
    ]


# --- hand-checked cases -----------------------------------------------------------------


def test_perfect_prediction():
    r = run([PERSON, BERLIN])
    assert elements(r) == (3, 0, 0, 10)
    for scheme in ("strict", "bio", "overlap", "covered"):
        assert counts(r, scheme) == (2, 2, 2, 2)
    assert r["leakage"]["leak_free_share"] == 1.0
    assert r["keep"]["hit"] == 0
    assert r["errors"] == []


def test_partial_overlap():
    r = run([at(TEXT, "Max", "PERSON"), BERLIN])
    # Müller is the only missed element.
    assert elements(r) == (2, 0, 1, 10)
    e = r["overall"]["elements"]
    assert e["precision"] == 1.0 and e["recall"] == round(2 / 3, 4)
    assert e["f1"] == round(2 * (2 / 3) / (1 + 2 / 3), 4)
    assert e["f2"] == round(5 * (2 / 3) / (4 + 2 / 3), 4)
    assert e["accuracy"] == round(12 / 13, 5) and e["specificity"] == 1.0
    assert counts(r, "strict") == (2, 1, 2, 1)  # only Berlin is exact
    assert counts(r, "bio") == (2, 1, 2, 1)  # Max alone is a different element run
    assert counts(r, "overlap") == (2, 2, 2, 2)
    assert counts(r, "covered") == (2, 1, 2, 2)  # Müller uncovered; "Max" lies inside gold
    assert r["leakage"]["leaked_spans"] == 1 and r["leakage"]["per_type"]["PERSON"]["leaked"] == 1
    assert r["leakage"]["leak_free_documents"] == 0
    assert r["per_type"]["PERSON"]["element_recall"] == 0.5
    [err] = r["errors"]
    assert err["kind"] == "partial" and (err["start"], err["end"]) == (PERSON.start, PERSON.end)
    assert err["gold_label"] == err["pred_label"] == "PERSON" and err["leaked"] is True


def test_wrong_type_is_relaxed_ok_and_strict_wrong():
    r = run([PERSON, BERLIN.with_label("ORGANIZATION")])
    assert elements(r) == (3, 0, 0, 10)
    assert counts(r, "strict") == (2, 1, 2, 1)
    assert counts(r, "bio") == (2, 1, 2, 1)
    assert counts(r, "overlap") == (2, 2, 2, 2)
    assert counts(r, "covered") == (2, 2, 2, 2)
    assert r["leakage"]["leaked_spans"] == 0
    # types: PERSON P1 R1; LOCATION gold only R0; ORGANIZATION pred only P0.
    assert r["overall"]["entities"]["strict"]["macro"] == {
        "precision": 0.5,
        "recall": 0.5,
        "f1": round(1 / 3, 4),
    }
    assert r["overall"]["entities"]["overlap"]["macro"] == {
        "precision": 1.0,
        "recall": 1.0,
        "f1": 1.0,
    }
    assert r["per_type"]["LOCATION"]["strict"]["recall"] == 0.0
    assert r["per_type"]["LOCATION"]["overlap"]["recall"] == 1.0
    assert r["per_type"]["ORGANIZATION"]["strict"]["precision"] == 0.0
    [err] = r["errors"]
    assert (err["kind"], err["gold_label"], err["pred_label"]) == (
        "wrong_type",
        "LOCATION",
        "ORGANIZATION",
    )


def test_keep_hit_and_false_positive():
    kläger, köln = at(TEXT, "Kläger", "PERSON"), at(TEXT, "Köln", "LOCATION")
    r = run([PERSON, BERLIN, köln, kläger])
    assert elements(r) == (3, 2, 0, 8)
    assert r["overall"]["elements"]["precision"] == 0.6
    assert r["overall"]["elements"]["specificity"] == 0.8
    assert counts(r, "strict") == (2, 2, 4, 2)
    assert counts(r, "overlap") == (2, 2, 4, 2)
    assert r["keep"] == {
        "total": 1,
        "hit": 1,
        "hit_share": 1.0,
        "per_label": {"COURT": {"total": 1, "hit": 1, "hit_share": 1.0}},
    }
    kinds = {
        (e["kind"], e["start"], e["end"], e["gold_label"], e["pred_label"]) for e in r["errors"]
    }
    # Köln is reported as a keep hit only, not also as a false positive.
    assert kinds == {
        ("false_positive", kläger.start, kläger.end, None, "PERSON"),
        ("keep_hit", COURT.start, COURT.end, "COURT", "LOCATION"),
    }


def test_keep_entity_with_a_sensitive_part_is_hit_only_outside_it():
    text = "Bescheid des Landratsamts Rosenheim vom Montag"
    gold = Document(
        "k",
        text,
        spans=[at(text, "Rosenheim", "LOCATION")],
        keep=[at(text, "Landratsamts Rosenheim", "PUBLIC_ENTITY")],
    )
    inside = evaluate([gold], {"k": [at(text, "Rosenheim", "LOCATION")]})
    over = evaluate([gold], {"k": [at(text, "Landratsamts Rosenheim", "LOCATION")]})
    assert inside["keep"]["hit"] == 0
    assert over["keep"]["hit"] == 1
    assert [e["kind"] for e in over["errors"]] == ["boundary", "keep_hit"]


def test_overlapping_and_duplicate_predictions():
    müller = at(TEXT, "Müller", "PERSON")
    r = run([PERSON, müller, BERLIN, BERLIN])  # Berlin twice: deduplicated
    assert elements(r) == (3, 0, 0, 10)  # an element counts once however many spans hit it
    assert counts(r, "strict") == (2, 2, 3, 2)
    assert micro(r, "strict")["precision"] == round(2 / 3, 4)
    assert counts(r, "overlap") == (2, 2, 3, 3)
    assert counts(r, "covered") == (2, 2, 3, 3)
    assert r["errors"] == []


def test_boundary_over_reach():
    r = run([at(TEXT, "Kläger Max Müller", "PERSON"), BERLIN])
    assert elements(r) == (3, 1, 0, 9)
    assert counts(r, "strict") == (2, 1, 2, 1)
    assert counts(r, "overlap") == (2, 2, 2, 2)
    assert counts(r, "covered") == (2, 2, 2, 1)  # "Kläger" lies outside every gold span
    [err] = r["errors"]
    assert err["kind"] == "boundary" and err["leaked"] is False


def test_fine_labels_count_as_their_coarse_type():
    text = "Konto IBAN DE91 1000 0000 0123 4567 89 bitte"
    iban = at(text, "DE91 1000 0000 0123 4567 89", "ID")
    r = evaluate([Document("i", text, spans=[iban])], {"i": [iban.with_label("IBAN")]})
    assert counts(r, "strict") == (1, 1, 1, 1)


def test_missing_and_extra_predictions():
    r = evaluate([doc()], {"other": [Span(0, 3, "PERSON")]})
    assert r["inputs"]["missing_predictions"] == {"count": 1, "ids": ["d1"]}
    assert r["inputs"]["extra_predictions"] == {"count": 1, "ids": ["other"]}
    assert elements(r) == (0, 0, 3, 10)
    assert r["overall"]["elements"]["precision"] == 1.0  # nothing predicted, nothing wrong
    assert r["overall"]["elements"]["recall"] == 0.0
    assert counts(r, "overlap") == (2, 0, 0, 0)
    assert r["leakage"]["leaked_spans"] == 2 and r["leakage"]["leak_free_share"] == 0.0
    assert r["error_counts"] == {"missed": 2}


def test_empty_document_and_gold_without_spans():
    r = evaluate([Document("e", ""), Document("n", "Ein Satz ohne Namen .")], {"n": []})
    assert r["inputs"]["empty_documents"] == 1
    assert r["inputs"]["documents_without_gold"] == 2
    assert r["inputs"]["missing_predictions"]["ids"] == ["e"]
    assert elements(r) == (0, 0, 0, 5)
    assert micro(r, "strict")["f1"] == 1.0
    assert r["leakage"]["leak_free_share"] == 1.0 and r["leakage"]["documents_with_gold"] == 0
    assert r["per_type"] == {} and r["errors"] == []
    json.dumps(r)


def test_invalid_predicted_spans_are_dropped_and_counted():
    r = run([PERSON, BERLIN, Span(len(TEXT) - 1, len(TEXT) + 5, "PERSON"), Span(3, 3, "PERSON")])
    assert r["inputs"]["dropped_pred_spans"] == {"count": 2, "ids": ["d1"]}
    assert counts(r, "strict") == (2, 2, 2, 2)


def test_duplicate_gold_ids_are_evaluated_once():
    r = evaluate([doc(), doc()], {"d1": [PERSON, BERLIN]})
    assert r["inputs"]["documents"] == 1 and r["inputs"]["duplicate_gold_ids"] == ["d1"]


def test_bio_scheme_agrees_with_seqeval_report():
    docs = [doc("a"), doc("b"), Document("c", "Frau Z. aus B. klagt", spans=[Span(5, 7, "PERSON")])]
    preds = {
        "a": [at(TEXT, "Max", "PERSON"), BERLIN],
        "b": [PERSON, BERLIN.with_label("PERSON")],
        "c": [Span(5, 7, "PERSON"), Span(12, 14, "LOCATION")],
    }
    r = evaluate(docs, preds)
    y_true = [element_bio(text_elements(d.text), d.spans) for d in docs]
    y_pred = [element_bio(text_elements(d.text), preds[d.id]) for d in docs]
    ref = classification_report(
        y_true, y_pred, mode="strict", scheme=IOB2, output_dict=True, zero_division=1
    )
    got = micro(r, "bio")
    assert got["precision"] == round(float(ref["micro avg"]["precision"]), 4)
    assert got["recall"] == round(float(ref["micro avg"]["recall"]), 4)
    # by hand: gold 5 entities; found: a Berlin, b Max Müller, c Z. -> 3; pred 6, correct 3.
    assert counts(r, "bio") == (5, 3, 6, 3)


# --- slices -----------------------------------------------------------------------------


def test_slices_by_court_and_generic_function():
    docs = [doc("a", "BAG"), doc("b", "BFH"), doc("c", None)]
    r = evaluate(
        docs,
        {"a": [PERSON, BERLIN], "b": [], "c": []},
        slices={
            "court": lambda ev: ev.doc.court or "unknown",
            "only_b": lambda ev: "b" if ev.doc.id == "b" else None,
        },
    )
    court = r["slices"]["court"]
    assert sorted(court) == ["BAG", "BFH", "unknown"]
    assert court["BAG"]["strict"]["recall"] == 1.0 and court["BFH"]["strict"]["recall"] == 0.0
    assert court["BFH"]["leaked_spans"] == 2
    assert list(r["slices"]["only_b"]) == ["b"] and r["slices"]["only_b"]["b"]["documents"] == 1


def test_length_and_aktenzeichen_slices():
    short = evaluate_document(Document("s", "wort " * 999), [])
    long = evaluate_document(Document("l", "wort " * 1000), [])
    assert (length_slice(short), length_slice(long)) == ("<1k", "1k-3k")
    dense = evaluate_document(
        Document("a", "Urteil 8 Sa 425/22 und 1 AZR 129/21 " + "wort " * 100), []
    )
    assert aktenzeichen_slice(dense) == "dense" and aktenzeichen_slice(short) == "sparse"
    assert slice_metrics([short, long], length_slice)["<1k"]["documents"] == 1


# --- candidates -------------------------------------------------------------------------


def test_entity_and_all_candidates():
    assert entity_candidates(doc()) == [1, 2, 5, 10, 11]
    assert all_candidates(doc()) == list(range(13))


def test_restricted_confusion_counts_only_candidates():
    preds = [at(TEXT, "Max", "PERSON"), at(TEXT, "Köln", "LOCATION")]
    # over elements 1,2,5,10,11: gold T,T,T,F,F; pred T,F,F,F,T
    assert restricted_confusion(doc(), preds, entity_candidates(doc())) == Confusion(1, 1, 2, 1)
    assert restricted_confusion(doc(), preds, [5, 1, 2, 2]) == Confusion(1, 0, 2, 0)
    both = candidate_confusion([doc("a"), doc("b")], {"a": preds}, entity_candidates)
    assert both == Confusion(1, 1, 2 + 3, 1 + 2)  # b: nothing predicted, 3 missed, 2 negatives


def test_random_candidates_take_all_positives_and_a_seeded_share():
    text = "Herr Max Müller " + "wort " * 997  # 1000 elements, 2 positive
    d = Document("r", text, spans=[at(text, "Max Müller", "PERSON")])
    picked = random_candidates(d, rate=0.025, seed=1)
    assert {1, 2} <= set(picked)
    assert len(picked) == 2 + round(0.025 * 998)
    assert picked == random_candidates(d, rate=0.025, seed=1)
    assert picked != random_candidates(d, rate=0.025, seed=2)
    assert len(random_candidates(d, rate=1.5)) == 1000


def test_candidates_in_report():
    r = run([PERSON], candidates={"entity": entity_candidates, "all": all_candidates})
    assert r["candidates"]["entity"]["tp"] == 2 and r["candidates"]["entity"]["fn"] == 1
    assert r["candidates"]["entity"]["tn"] == 2
    assert r["candidates"]["all"]["tn"] == 10


# --- prediction files and CLI -----------------------------------------------------------


def test_load_predictions_is_robust(tmp_path):
    path = tmp_path / "pred.jsonl"
    lines = [
        {"id": "d1", "text": "anonymized text is ignored", "spans": [PERSON.to_dict()]},
        {"spans": []},
        {
            "id": "d1",
            "spans": [BERLIN.to_dict(), {"start": 9, "end": 2, "label": "PERSON"}, {"start": 1}],
        },
        {"id": "d2"},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    preds = load_predictions(path)
    assert preds.spans == {"d1": [PERSON, BERLIN], "d2": []}
    assert preds.issues() == {"duplicate_ids": ["d1"], "invalid_records": 1, "invalid_spans": 2}


def test_cli_evaluate(tmp_path):
    from deid.app.cli import app

    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(json.dumps(doc().to_dict(), ensure_ascii=False) + "\n", encoding="utf-8")
    pred.write_text(
        json.dumps({"id": "d1", "spans": [at(TEXT, "Max", "PERSON").to_dict()]})
        + "\n"
        + json.dumps({"id": "zz", "spans": []})
        + "\n",
        encoding="utf-8",
    )
    report, errors = tmp_path / "out" / "report.json", tmp_path / "out" / "errors.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "evaluate",
            "--gold",
            str(gold),
            "--pred",
            str(pred),
            "--report",
            str(report),
            "--errors",
            str(errors),
            "--candidates",
            "all,random",
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert "errors" not in out
    assert out["error_counts"] == {"partial": 1, "missed": 1}
    assert out["inputs"]["extra_predictions"]["ids"] == ["zz"]
    assert set(out["candidates"]) == {"all", "random"}
    assert out["halves"]["dev"]["overall"]["documents"] == 1  # d1 lies in the dev half
    assert len(json.loads(report.read_text(encoding="utf-8"))["errors"]) == 2
    assert len(errors.read_text(encoding="utf-8").splitlines()) == 2
    assert "Max" not in result.stdout and "Müller" not in report.read_text(encoding="utf-8")
    bad = CliRunner().invoke(
        app, ["evaluate", "--gold", str(gold), "--pred", str(pred), "--candidates", "x"]
    )
    assert bad.exit_code != 0


# --- a real decision --------------------------------------------------------------------

MONTHS = "Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"


def spans_of(text: str, pattern: str, label: str) -> list[Span]:
    return [Span(m.start(), m.end(), label) for m in re.finditer(pattern, text)]


@pytest.fixture(scope="module")
def bag_case():
    """BAG 1 AZR 62/23 with gold dates and BFG mentions, keep courts and laws, and
    predictions with deliberate misses, a partial date, a wrong type, FPs and a keep hit."""
    text = read_source("decisions/bag/1-azr-62-23.txt.xz")
    dates = spans_of(text, rf"(?<!\S)\d{{1,2}}\. (?:{MONTHS}) \d{{4}}(?!\d)", "DATE")
    bfg = spans_of(text, r"\bBFG\b", "ORGANIZATION")
    courts = spans_of(
        text, r"\b(?:Landesarbeitsgericht|Arbeitsgericht)s? Berlin(?:-Brandenburg)?\b", "COURT"
    )
    laws = spans_of(text, r"§ \d+ Abs\. \d+(?: Satz \d+)? [A-Z][A-Za-z]*[A-Z]\b", "LAW")
    fps = spans_of(text, r"\bKläger\b", "PERSON")[:3]
    gold = Document("bag/1-azr-62-23", text, court="BAG", spans=dates + bfg, keep=courts + laws)
    assert len(dates) > 20 and len(bfg) >= 3 and courts and laws
    assert not any(a.overlaps(b) for a in gold.spans + fps for b in gold.keep)
    assert not any(a.overlaps(b) for a in fps for b in gold.spans)
    assert all(len(text[d.start : d.end].split()) == 3 for d in dates)
    missed = [d for i, d in enumerate(dates) if i % 4 == 3]
    partial = dates[1]
    exact = [d for i, d in enumerate(dates) if i % 4 != 3 and i != 1]
    law_word = re.search(r"[A-Z][A-Za-z]*[A-Z]$", text[laws[0].start : laws[0].end])
    keep_hit = Span(laws[0].start + law_word.start(), laws[0].end, "ORGANIZATION")
    preds = (
        exact
        + [Span(partial.end - 4, partial.end, "DATE"), bfg[0].with_label("LOCATION")]
        + bfg[1:]
        + fps
        + [keep_hit]
    )
    return {
        "gold": gold,
        "preds": preds,
        "dates": dates,
        "bfg": bfg,
        "missed": missed,
        "exact": exact,
        "keep": len(courts) + len(laws),
    }


def test_real_decision_counts(bag_case):
    c = bag_case
    n_dates, n_bfg, n_missed, n_exact = (
        len(c["dates"]),
        len(c["bfg"]),
        len(c["missed"]),
        len(c["exact"]),
    )
    r = evaluate([c["gold"]], {c["gold"].id: c["preds"]})
    n_gold = n_dates + n_bfg
    n_pred = (n_dates - n_missed) + n_bfg + 3 + 1
    assert counts(r, "strict") == (n_gold, n_exact + n_bfg - 1, n_pred, n_exact + n_bfg - 1)
    assert counts(r, "bio") == counts(r, "strict")
    assert counts(r, "overlap") == (
        n_gold,
        n_dates - n_missed + n_bfg,
        n_pred,
        n_dates - n_missed + n_bfg,
    )
    assert counts(r, "covered") == (n_gold, n_exact + n_bfg, n_pred, n_dates - n_missed + n_bfg)
    # elements: a date has 3, BFG 1; the partial prediction covers only the year.
    tp = 3 * n_exact + 1 + n_bfg
    fn = 3 * n_missed + 2
    fp = 3 + 1
    n_elements = len(text_elements(c["gold"].text))
    assert elements(r) == (tp, fp, fn, n_elements - tp - fp - fn)
    assert r["per_type"]["DATE"]["element_recall"] == round((3 * n_exact + 1) / (3 * n_dates), 4)
    assert r["leakage"]["per_type"] == {
        "DATE": {"gold_spans": n_dates, "leaked": n_missed + 1},
        "ORGANIZATION": {"gold_spans": n_bfg, "leaked": 0},
    }
    assert r["keep"]["total"] == c["keep"] and r["keep"]["hit"] == 1
    assert r["keep"]["per_label"]["LAW"]["hit"] == 1
    assert r["error_counts"] == {
        "missed": n_missed,
        "false_positive": 3,
        "partial": 1,
        "wrong_type": 1,
        "keep_hit": 1,
    }
    assert r["slices"]["court"]["BAG"]["elements"] == r["overall"]["elements"]
    assert r["slices"]["aktenzeichen"] == {"dense": r["slices"]["court"]["BAG"]}


def test_real_decision_errors_carry_no_text(bag_case):
    r = evaluate([bag_case["gold"]], {bag_case["gold"].id: bag_case["preds"]})
    allowed = {
        "id", "court", "half", "kind", "start", "end", "gold_label", "pred_label", "pred", "leaked",
    }  # fmt: skip
    labels = set(LABELS) | set(KEEP_LABELS) | {None}
    for err in r["errors"]:
        assert set(err) <= allowed
        assert err["gold_label"] in labels and err["pred_label"] in labels
        assert all(isinstance(x, int) for x in (err["start"], err["end"]))
    dumped = json.dumps(r, ensure_ascii=False)
    assert "Flughafen" not in dumped and "Tegel" not in dumped


# --- dev and sealed halves --------------------------------------------------------------


def test_gold_half_is_a_fixed_function_of_the_id():
    # pinned values: blake2b is the same on every machine, so these never change
    assert [gold_half(f"d{i}") for i in range(1, 7)] == [
        "dev", "sealed", "sealed", "dev", "sealed", "sealed",
    ]  # fmt: skip
    assert gold_half("ler-bgh-0001") == "sealed"
    assert all(gold_half(f"x{i}") in HALVES for i in range(50))


def test_document_half_follows_the_source_decision():
    rewrite = Document("d2", TEXT, meta={"source_id": "d1"})  # the id alone would be sealed
    assert document_half(rewrite) == gold_half("d1") == "dev" != gold_half("d2")
    assert document_half(Document("d1", TEXT)) == gold_half("d1")


@pytest.mark.parametrize("name", sorted(GOLD_SETS))
def test_halves_are_roughly_balanced_on_the_gold_sets(name):
    docs = read_documents(GOLD_SETS[name])
    counts = {half: sum(document_half(d) == half for d in docs) for half in HALVES}
    assert sum(counts.values()) == len(docs) > 30
    assert all(0.4 * len(docs) <= n <= 0.6 * len(docs) for n in counts.values()), counts
    # a second reading gives the same split
    assert [document_half(d) for d in docs] == [
        document_half(d) for d in read_documents(GOLD_SETS[name])
    ]


def _sums(parts: list[dict]) -> dict:
    """Additive counts of report parts, to compare the halves' sum with the whole."""
    out: dict = {}
    for part in parts:
        el = part["overall"]["elements"]
        for key in ("tp", "fp", "fn", "tn"):
            out[key] = out.get(key, 0) + el[key]
        for scheme, scores in part["overall"]["entities"].items():
            for key in ("gold", "found", "pred", "correct"):
                out[scheme, key] = out.get((scheme, key), 0) + scores["micro"][key]
        for label, row in part["per_type"].items():
            for key in ("gold_spans", "pred_spans", "gold_elements", "leaked_spans"):
                out[label, key] = out.get((label, key), 0) + row[key]
        for key in ("documents", "leak_free_documents", "gold_spans", "leaked_spans"):
            out["leakage", key] = out.get(("leakage", key), 0) + part["leakage"][key]
        for key in ("total", "hit"):
            out["keep", key] = out.get(("keep", key), 0) + part["keep"][key]
    return {k: v for k, v in out.items() if v}


def test_halves_confusion_counts_add_up_to_the_whole():
    docs = [doc(f"d{i}") for i in range(1, 7)]  # d1, d4 dev; d2, d3, d5, d6 sealed
    preds = {"d1": [PERSON], "d2": [PERSON, BERLIN], "d3": [COURT], "d4": [], "d5": [BERLIN]}
    r = evaluate(docs, preds)
    assert set(r["halves"]) == set(HALVES)
    dev, sealed = r["halves"]["dev"], r["halves"]["sealed"]
    assert (dev["overall"]["documents"], sealed["overall"]["documents"]) == (2, 4)
    assert _sums([dev, sealed]) == _sums([r])
    # dev: d1 exact, d4 nothing -> Berlin leaks in d1, both spans in d4
    assert dev["leakage"]["leak_free_documents"] == 0 and dev["leakage"]["leaked_spans"] == 3
    assert dev["per_type"]["PERSON"]["element_recall"] == 0.5
    assert dev["per_type"]["PERSON"]["strict"]["precision"] == 1.0
    # sealed: d2 exact; d3 hits the court only; d5 Berlin only; d6 nothing
    assert sealed["leakage"]["leak_free_documents"] == 1
    assert sealed["leakage"]["leak_free_share"] == 0.25
    assert sealed["keep"]["hit"] == 1
    assert {e["half"] for e in r["errors"] if e["id"] in ("d1", "d4")} == {"dev"}


def test_halves_add_up_on_real_gold_documents():
    docs = read_documents(GOLD_SETS["bavaria"])[:12]
    preds = {d.id: d.spans[::2] for d in docs}  # every other gold span found
    r = evaluate(docs, preds)
    halves = [r["halves"][h] for h in HALVES]
    assert all(h["overall"]["documents"] for h in halves)
    assert _sums(halves) == _sums([r])


def test_subsets_score_only_their_documents():
    docs = [doc(f"d{i}") for i in range(1, 5)]
    preds = {"d1": [PERSON], "d2": [PERSON, BERLIN]}
    r = evaluate(docs, preds, subsets={"chosen": ["d1", "d2", "elsewhere"]})
    alone = evaluate(docs[:2], preds)
    chosen = r["subsets"]["chosen"]
    for key in ("overall", "per_type", "leakage", "keep", "halves"):
        assert chosen[key] == alone[key]
    assert "subsets" not in evaluate(docs, preds)
