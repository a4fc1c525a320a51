"""deid.anonymizer.operators: neutralizing detected spans without touching anything else of the text."""

from __future__ import annotations

import ast
import itertools
import logging
import re
import unicodedata
from pathlib import Path
from random import Random

import pytest
from stdnum import iban as stdnum_iban

from deid.anonymizer.operators import (
    OPERATORS,
    DocumentAnonymizer,
    LabelParams,
    MaskParams,
    OperatorConfig,
    PseudonymizeParams,
    RemoveParams,
    anonymize_text,
    merge_overlaps,
)
from deid.anonymizer.operators.label import entity_key
from deid.schema import FINE_TO_COARSE, LABELS, Span, coarse_label
from tests.conftest import read_source

PACKAGE = Path(__file__).resolve().parents[2] / "deid" / "anonymizer" / "operators"
KEY = b"test-key-1"
DOCS = ("decisions/bag/1-azr-62-23.txt.xz", "decisions/bfh/STRE202450071.txt.xz")
_MONTHS = "Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"
# Entities seen in the two decisions; a real detector would find them, here a regex does.
PATTERNS: dict[str, str] = {
    "PERSON": r"\b(?:Gallner|Ahrendt|Rinck|Ronny Schimmer|Dohna)\b",
    "LOCATION": r"\b(?:Berlin|Tegel|Brandenburg|Schleswig-Holstein)\b",
    "ORGANIZATION": r"\bBFG\b|\bSJS\b|\b[A-Z](?=-(?:GmbH|AG|Gruppe)\b)",
    "DATE": rf"\b\d{{1,2}}\. (?:{_MONTHS}) \d{{4}}\b|\b\d{{2}}\.\d{{2}}\.\d{{4}}\b",
    "ID": r"\b\d{1,2} (?:Sa|Ca|K) \d+/\d{2}\b|\b[IVX]+ R \d+/\d{2}\b",
}
IBAN = "DE89 3704 0044 0532 0130 00"
PLAIN = {"remove": "…", "label": None, "mask": None}  # expected output where it is fixed


def place_spans(text: str) -> list[Span]:
    return [
        Span(m.start(), m.end(), label)
        for label, pattern in PATTERNS.items()
        for m in re.finditer(pattern, text)
    ]


def variants(text: str) -> dict[str, str]:
    """The same decision with CRLF line ends, decomposed umlauts and a trailing newline."""
    return {
        "as-is": text,
        "crlf": text.replace("\n", "\r\n"),
        "nfd": unicodedata.normalize("NFD", text),
        "trailing-newline": text + "\n",
    }


def outside(text: str, spans: list[Span]) -> list[str]:
    """The text between (and around) sorted disjoint spans."""
    pieces, pos = [], 0
    for span in spans:
        pieces.append(text[pos : span.start])
        pos = span.end
    return [*pieces, text[pos:]]


def surfaces(text: str, spans: list[Span]) -> list[str]:
    return [text[s.start : s.end] for s in spans]


def assert_only_spans_changed(text: str, spans: list[Span], result) -> None:
    merged = merge_overlaps(spans)
    assert [(s.label, s.score) for s in result.spans] == [(s.label, s.score) for s in merged]
    assert outside(result.text, result.spans) == outside(text, merged)
    assert all(a.end <= b.start for a, b in itertools.pairwise(result.spans))


@pytest.fixture(scope="module", params=DOCS, ids=["bag", "bfh"])
def decision(request) -> str:
    return read_source(request.param)


# --- every operator: the rest of the text stays byte-identical ----------------------------


@pytest.mark.parametrize("variant", ["as-is", "crlf", "nfd", "trailing-newline"])
@pytest.mark.parametrize("operator", sorted(OPERATORS))
def test_text_outside_spans_is_identical(decision, operator, variant):
    text = variants(decision)[variant]
    spans = place_spans(text)
    assert len(spans) >= 10
    result = anonymize_text(text, spans, operator, doc_id="d1", secret=KEY)
    assert_only_spans_changed(text, spans, result)
    assert result.operators == [operator] * len(result.spans)
    assert result.text.endswith("\n") == text.endswith("\n")
    assert result.text.count("\r\n") == text.count("\r\n")


@pytest.mark.parametrize("operator", sorted(OPERATORS))
def test_no_spans_leave_the_text_as_it_is(decision, operator):
    for text in variants(decision).values():
        result = anonymize_text(text, [], operator, doc_id="d1", secret=KEY)
        assert result.text == text and result.spans == [] and result.operators == []


# --- remove / mask / label ----------------------------------------------------------------


def test_remove_writes_the_placeholder(decision):
    spans = place_spans(decision)
    result = anonymize_text(decision, spans, "remove", doc_id="d1")
    assert set(surfaces(result.text, result.spans)) == {"…"}
    custom = anonymize_text(decision, spans, "remove", doc_id="d1", params={"placeholder": "[…]"})
    assert set(surfaces(custom.text, custom.spans)) == {"[…]"}
    deleted = anonymize_text(decision, spans, "remove", doc_id="d1", params=RemoveParams(""))
    assert all(s.length == 0 for s in deleted.spans)
    assert_only_spans_changed(decision, spans, deleted)


def test_mask_keeps_length_and_offsets(decision):
    spans = place_spans(decision)
    result = anonymize_text(decision, spans, "mask", doc_id="d1")
    assert len(result.text) == len(decision)
    merged = merge_overlaps(spans)
    assert [(s.start, s.end) for s in result.spans] == [(s.start, s.end) for s in merged]
    assert all(set(x) == {"█"} for x in surfaces(result.text, result.spans))
    hashes = anonymize_text(decision, spans, "mask", doc_id="d1", params=MaskParams("#"))
    assert hashes.text == result.text.replace("█", "#")


def test_label_plain_shows_the_type(decision):
    spans = place_spans(decision)
    result = anonymize_text(decision, spans, "label", doc_id="d1")
    assert surfaces(result.text, result.spans) == [f"[{s.label}]" for s in result.spans]


def test_label_writes_the_coarse_type_for_fine_labels():
    """One spelling for every part: a recognizer's IBAN, street address and postal town read
    [ID], [STREET] and [LOCATION], as the review page and the model write them."""
    text = "Die Klägerin wohnt in der Lindenallee 17, 80331 München, Konto IBAN " + IBAN + "."
    spans = [Span(text.index("Lindenallee"), text.index("Lindenallee") + 14, "STREET_ADDRESS"),
             Span(text.index("80331"), text.index("80331") + 13, "POSTAL_TOWN"),
             Span(text.index(IBAN), text.index(IBAN) + len(IBAN), "IBAN")]  # fmt: skip
    out = anonymize_text(text, spans, "label", doc_id="d1").text
    assert out == "Die Klägerin wohnt in der [STREET], [LOCATION], Konto IBAN [ID]."
    indexed = anonymize_text(text, spans, "label", doc_id="d1", params=LabelParams(True)).text
    assert indexed == "Die Klägerin wohnt in der [STREET_1], [LOCATION_1], Konto IBAN [ID_1]."


def test_label_indices_follow_entities_in_order_of_appearance(decision):
    spans = place_spans(decision)
    merged = merge_overlaps(spans)
    result = anonymize_text(decision, spans, "label", doc_id="d1", params=LabelParams(True))
    seen: dict[tuple[str, str], str] = {}
    highest: dict[str, int] = {}
    for old, new in zip(surfaces(decision, merged), result.spans, strict=True):
        tag = result.text[new.start : new.end]
        label, index = re.fullmatch(r"\[([A-Z_]+)_(\d+)\]", tag).groups()
        assert label == new.label
        entity = (label, old)
        if entity in seen:  # the same entity, the same index, all through the document
            assert seen[entity] == tag
        else:  # a new entity: the next number of its label
            assert int(index) == highest.get(label, 0) + 1
            highest[label] = int(index)
            seen[entity] = tag
    assert len(set(seen.values())) == len(seen)  # distinct entities, distinct tags
    assert max(highest.values()) >= 3


def test_label_entity_key_ignores_spelling_noise():
    assert entity_key("A. G.") == entity_key("a.g.") == entity_key("A.G")
    assert entity_key("Müller") == entity_key(unicodedata.normalize("NFD", "MÜLLER"))
    assert entity_key("Hans  Müller") == entity_key("Hans\nMüller")
    assert entity_key("A. G.") != entity_key("A. K.")
    text = "Herr A. G. und Herr A.G. sowie A. K."
    spans = [Span(5, 10, "PERSON"), Span(20, 24, "PERSON"), Span(31, 36, "PERSON")]
    out = anonymize_text(text, spans, "label", doc_id="d", params={"indexed": True}).text
    assert out == "Herr [PERSON_1] und Herr [PERSON_1] sowie [PERSON_2]"


def test_document_anonymizer_keeps_indices_across_parts(decision):
    anonymizer = DocumentAnonymizer("label", doc_id="d1", params=LabelParams(indexed=True))
    parts = decision.split("\n")
    whole = anonymize_text(
        decision, place_spans(decision), "label", doc_id="d1", params=LabelParams(indexed=True)
    )
    joined = "\n".join(anonymizer.anonymize(p, place_spans(p)).text for p in parts)
    assert joined == whole.text


# --- pseudonymize -------------------------------------------------------------------------


def test_pseudonyms_are_deterministic_per_key(decision):
    spans = place_spans(decision)
    first = anonymize_text(decision, spans, "pseudonymize", doc_id="d1", secret=KEY)
    again = anonymize_text(decision, spans, "pseudonymize", doc_id="d1", secret=KEY)
    as_str = anonymize_text(decision, spans, "pseudonymize", doc_id="d1", secret=KEY.decode())
    assert first == again == as_str
    other = anonymize_text(decision, spans, "pseudonymize", doc_id="d1", secret=b"other-key")
    old = surfaces(first.text, first.spans)
    new = surfaces(other.text, other.spans)
    assert sum(a != b for a, b in zip(old, new, strict=True)) >= 0.8 * len(old)
    other_doc = anonymize_text(decision, spans, "pseudonymize", doc_id="d2", secret=KEY)
    assert other_doc.text != first.text


def test_pseudonyms_are_consistent_within_the_document(decision):
    spans = place_spans(decision)
    merged = merge_overlaps(spans)
    result = anonymize_text(decision, spans, "pseudonymize", doc_id="d1", secret=KEY)
    mapping: dict[tuple[str, str], set[str]] = {}
    for span, old, new in zip(
        merged, surfaces(decision, merged), surfaces(result.text, result.spans), strict=True
    ):
        assert new.strip() and new != old
        mapping.setdefault((span.label, old), set()).add(new)
    assert all(len(news) == 1 for news in mapping.values())  # same entity, same pseudonym
    assert any(len(spans_of) > 1 for spans_of in _occurrences(merged, decision).values())
    names = [next(iter(v)) for (label, _), v in mapping.items() if label != "DATE"]
    assert len(set(names)) == len(names)  # distinct entities, distinct pseudonyms


def _occurrences(spans: list[Span], text: str) -> dict[tuple[str, str], list[Span]]:
    out: dict[tuple[str, str], list[Span]] = {}
    for span in spans:
        out.setdefault((span.label, text[span.start : span.end]), []).append(span)
    return out


def test_pseudonyms_are_type_faithful(decision):
    text = f"{decision[:2000]}\nZahlung auf das Konto IBAN {IBAN} bei der Bank.\n"
    start = text.index(IBAN)
    spans = [*place_spans(text), Span(start, start + len(IBAN), "IBAN")]
    for key in (KEY, b"k2", b"k3"):
        result = anonymize_text(text, spans, "pseudonymize", doc_id="d1", secret=key)
        iban = next(s for s in result.spans if s.label == "IBAN")
        surrogate = result.text[iban.start : iban.end]
        assert stdnum_iban.is_valid(surrogate) and surrogate.startswith("DE")
        assert stdnum_iban.compact(surrogate) != stdnum_iban.compact(IBAN)
        for span in result.spans:
            new = result.text[span.start : span.end]
            if span.label == "DATE":
                assert re.search(r"\d{4}", new), new
            if span.label == "ID":
                assert re.search(r"\d", new), new


def test_pseudonymize_refuses_to_run_without_key(decision):
    with pytest.raises(ValueError, match="secret"):
        anonymize_text(decision, place_spans(decision), "pseudonymize", doc_id="d1")
    with pytest.raises(ValueError, match="secret"):  # also when only the per-label map needs it
        anonymize_text("x", [], "remove", doc_id="d1", per_label={"PERSON": "pseudonymize"})


# --- overlaps -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spans, merged",
    [
        ([], []),
        ([Span(5, 9, "PERSON"), Span(0, 3, "DATE")], [Span(0, 3, "DATE"), Span(5, 9, "PERSON")]),
        # touching spans stay apart
        ([Span(0, 4, "PERSON"), Span(4, 8, "ORGANIZATION")],
         [Span(0, 4, "PERSON"), Span(4, 8, "ORGANIZATION")]),
        # nested: the union, label of the longer one
        ([Span(2, 4, "LOCATION"), Span(0, 10, "ORGANIZATION")], [Span(0, 10, "ORGANIZATION")]),
        # partial overlap: the union, label of the higher score even if shorter
        ([Span(0, 6, "PERSON", 0.4), Span(4, 7, "LOCATION", 0.9)], [Span(0, 7, "LOCATION", 0.9)]),
        # a chain merges transitively
        ([Span(0, 3, "A"), Span(2, 5, "B"), Span(4, 12, "C"), Span(20, 22, "D")],
         [Span(0, 12, "C"), Span(20, 22, "D")]),
        # equal score and length: the earlier one; duplicates collapse; empty spans go
        ([Span(3, 6, "B"), Span(1, 4, "A"), Span(1, 4, "A"), Span(8, 8, "E")], [Span(1, 6, "A")]),
    ],
)  # fmt: skip
def test_merge_overlaps(spans, merged):
    assert merge_overlaps(spans) == merged
    result = merge_overlaps(spans)
    assert [s.score for s in result] == [s.score for s in merged]
    for perm in itertools.islice(itertools.permutations(spans), 24):
        assert merge_overlaps(perm) == result


def test_overlapping_unsorted_spans_on_real_text(decision):
    spans = place_spans(decision)
    rng = Random(3)
    noisy = list(spans)
    wide = []
    for span in rng.sample(spans, 8):  # a second detector: wider, other label, higher score
        wide.append(Span(max(0, span.start - 3), span.end + 2, "OTHER", 0.99))
        noisy.append(Span(span.start, span.end, span.label))  # a duplicate
    noisy += wide
    rng.shuffle(noisy)
    merged = merge_overlaps(noisy)
    for w in wide:  # each wide span lies in one merged span, which carries its label
        assert [m.label for m in merged if m.start <= w.start and w.end <= m.end] == ["OTHER"]
    for operator in sorted(OPERATORS):
        result = anonymize_text(decision, noisy, operator, doc_id="d1", secret=KEY)
        assert_only_spans_changed(decision, noisy, result)
        assert result == anonymize_text(decision, sorted(noisy), operator, doc_id="d1", secret=KEY)


# --- per-label operators ------------------------------------------------------------------


def test_per_label_operator_map(decision):
    text = f"{decision}\nIBAN {IBAN}"
    start = text.index(IBAN)
    spans = [*place_spans(text), Span(start, start + len(IBAN), "IBAN")]
    per_label = {
        "PERSON": "pseudonymize",
        "DATE": OperatorConfig("mask", {"char": "#"}),
        "ID": OperatorConfig("label", LabelParams(indexed=True)),  # IBAN falls back to ID
        "LOCATION": "remove",
    }
    result = anonymize_text(text, spans, "label", doc_id="d1", secret=KEY, per_label=per_label)
    assert_only_spans_changed(text, spans, result)
    expected_op = {"PERSON": "pseudonymize", "DATE": "mask", "ID": "label", "IBAN": "label",
                   "LOCATION": "remove", "ORGANIZATION": "label"}  # fmt: skip
    for span, op, new in zip(
        result.spans, result.operators, surfaces(result.text, result.spans), strict=True
    ):
        assert op == expected_op[span.label]
        if span.label == "DATE":
            assert set(new) == {"#"}
        elif span.label in ("ID", "IBAN"):
            assert re.fullmatch(r"\[ID_\d+\]", new)  # an IBAN reads as its type, ID
        elif span.label == "LOCATION":
            assert new == "…"
        elif span.label == "ORGANIZATION":
            assert new == "[ORGANIZATION]"
        else:
            assert not new.startswith("[") and new != "…"
    assert "IBAN" in FINE_TO_COARSE and result.operators.count("label") >= 2


# --- property-style: many random span sets -------------------------------------------------


def _expect(operator: str, span_len: int, label: str, new: str) -> bool:
    if operator == "remove":
        return new == "…"
    if operator == "mask":
        return new == "█" * span_len
    if operator == "label":
        return re.fullmatch(rf"\[{re.escape(coarse_label(label))}(_\d+)?\]", new) is not None
    return bool(new)


def test_random_span_sets_change_only_the_spans():
    rng = Random(20240611)
    text = read_source(DOCS[0])[:4000] + "\r\n" + unicodedata.normalize("NFD", "Müller ß ä")
    labels = [*LABELS, "IBAN", "PHONE", "EMAIL"]
    for case in range(300):
        n = rng.randint(0, 12)
        spans = []
        for _ in range(n):
            start = rng.randrange(len(text))
            end = min(len(text), start + rng.choice([0, 1, 2, 5, 12, 40]))
            score = rng.choice([None, 0.1, 0.5, 0.9])
            spans.append(Span(start, end, rng.choice(labels), score))
        operator = rng.choice(sorted(OPERATORS))
        per_label = {rng.choice(labels): rng.choice(sorted(OPERATORS))} if case % 3 == 0 else None
        params = {"indexed": rng.random() < 0.5} if operator == "label" else None
        result = anonymize_text(
            text, spans, operator, doc_id=f"r{case}", secret=KEY, params=params,
            per_label=per_label,
        )  # fmt: skip
        assert_only_spans_changed(text, spans, result)
        merged = merge_overlaps(spans)
        for old, new_span, op in zip(merged, result.spans, result.operators, strict=True):
            new = result.text[new_span.start : new_span.end]
            assert _expect(op, old.length, old.label, new), (case, op, old)
        if operator == "mask" and not per_label:  # an oracle independent of merge_overlaps
            covered = {i for s in spans for i in range(s.start, s.end)}
            assert len(result.text) == len(text)
            for i, (old_char, new_char) in enumerate(zip(text, result.text, strict=True)):
                assert new_char == ("█" if i in covered else old_char), (case, i)


# --- configuration, registry, privacy ------------------------------------------------------


def test_registry_is_explicit_and_named():
    assert list(OPERATORS) == ["remove", "label", "pseudonymize", "mask"]
    for name, cls in OPERATORS.items():
        assert cls.NAME == name
        cls.validate(cls.PARAMS())


@pytest.mark.parametrize(
    "operator, params, error",
    [
        ("mask", {"char": ""}, ValueError),
        ("mask", {"char": "##"}, ValueError),
        ("mask", {"char": " "}, ValueError),
        ("mask", {"width": 3}, ValueError),  # unknown key
        ("remove", {"placeholder": 3}, TypeError),
        ("label", {"indexed": "yes"}, TypeError),
        ("pseudonymize", {"pool": "nope"}, ValueError),
        ("pseudonymize", {"window": -1}, ValueError),
        ("pseudonymize", PseudonymizeParams(pool="nope"), ValueError),
        ("label", MaskParams(), TypeError),  # params of another operator
        ("shred", None, ValueError),  # unknown operator
    ],
)
def test_bad_configuration_fails_before_any_text_is_touched(operator, params, error):
    with pytest.raises(error):
        anonymize_text("Text", [], operator, doc_id="d", secret=KEY, params=params)


def test_spans_outside_the_text_are_refused():
    with pytest.raises(ValueError, match="outside"):
        anonymize_text("kurz", [Span(2, 9, "PERSON")], "mask", doc_id="d")


@pytest.mark.parametrize("secret", [b"", "", bytearray()])
def test_empty_secret_is_refused(secret):
    with pytest.raises(ValueError, match="empty"):
        anonymize_text("Herr Maier", [Span(5, 10, "PERSON")], "remove", doc_id="d", secret=secret)


def test_secret_text_and_surrogates_stay_out_of_logs_errors_and_reprs(decision, caplog):
    secret = b"very-secret-key-4711"
    spans = place_spans(decision)
    with caplog.at_level(logging.DEBUG, logger="deid"):
        result = anonymize_text(decision, spans, "pseudonymize", doc_id="d1", secret=secret)
    logged = caplog.text
    assert "d1" in logged  # ids and counts are logged ...
    news = surfaces(result.text, result.spans)
    olds = surfaces(decision, merge_overlaps(spans))
    for value in [secret.decode(), *news, *olds]:  # ... text, surrogates and the key never
        if len(value) < 3:
            continue
        assert value not in logged
    anonymizer = DocumentAnonymizer("pseudonymize", doc_id="d1", secret=secret)
    assert secret.decode() not in repr(anonymizer)
    assert secret.decode() not in repr(anonymizer.operator_for("PERSON"))
    for bad in (
        lambda: anonymizer.anonymize(decision, [Span(0, 5, "JUDGE")]),  # no generator
        lambda: anonymizer.anonymize(decision, [Span(0, len(decision) + 1, "PERSON")]),
        lambda: anonymize_text("x", [], "pseudonymize", doc_id="d", secret=12345),
    ):
        with pytest.raises((ValueError, TypeError)) as info:
            bad()
        message = str(info.value)
        assert secret.decode() not in message and "12345" not in message
        assert decision[:5] not in message


def _imported_modules(path: Path) -> set[str]:
    nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    found = {n.module for n in nodes if isinstance(n, ast.ImportFrom) and n.module}
    return found | {a.name for n in nodes if isinstance(n, ast.Import) for a in n.names}


def test_operators_import_only_what_they_may():
    """Architecture rule: schema and textedit from deid; surrogates for pseudonymize only."""
    for path in PACKAGE.glob("*.py"):
        outside_package = {
            name
            for name in _imported_modules(path)
            if name.split(".")[0] == "deid" and not name.startswith("deid.anonymizer.operators")
        }
        allowed = {"deid.schema", "deid.sources.textedit"}
        if path.name == "pseudonymize.py":
            allowed |= {"deid.rewrite.surrogates", "deid.rewrite.surrogates.substitute"}
        assert outside_package <= allowed, path.name
