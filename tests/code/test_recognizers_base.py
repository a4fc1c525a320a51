"""The recognizer machinery: context scoring, validation, overlaps, linear time, privacy.

Also holds the table helpers the per-recognizer test files import: cases are written with
the expected spans marked as ``[[...]]``, so each row states exact offsets readably.
"""

from __future__ import annotations

import ast
import logging
import re
import time
from pathlib import Path

import pytest

from deid.anonymizer.recognizers import RECOGNIZERS, build_recognizers
from deid.anonymizer.recognizers.base import (
    Pattern,
    PatternRecognizer,
    context_regex,
    resolve_overlaps,
)
from deid.schema import Span

_MARK = re.compile(r"\[\[(.+?)\]\]")
PACKAGE = Path(__file__).resolve().parents[2] / "deid" / "anonymizer" / "recognizers"


def unmark(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """Text without the ``[[ ]]`` markers, and the offsets of the marked parts in it."""
    text, spans, pos = "", [], 0
    for match in _MARK.finditer(marked):
        text += marked[pos : match.start()]
        spans.append((len(text), len(text) + len(match.group(1))))
        text += match.group(1)
        pos = match.end()
    return text + marked[pos:], spans


def check_table_row(recognizer: PatternRecognizer, marked: str, label: str) -> None:
    """Assert the recognizer finds exactly the marked spans, with ``label``, nothing else."""
    text, expected = unmark(marked)
    found = [(s.label, s.start, s.end) for s in recognizer.analyze(text)]
    assert found == [(label, start, end) for start, end in expected], [
        text[s:e] for _, s, e in found
    ]


# --- a toy recognizer to test the machinery -------------------------------------------
class _EvenRecognizer(PatternRecognizer):
    """Four-digit numbers; even ones are 'valid', 0000 is rejected."""

    NAME = "toy"
    LABEL = "TOY"
    PATTERNS = (
        Pattern("four", r"(?<!\d)\d{4}(?!\d)", 0.4),
        Pattern("five", r"(?<!\d)\d{5}(?!\d)", 0.3, needs_context=True),
    )
    CONTEXT = ("nummer",)
    CONTEXT_WINDOW = 15
    CONTEXT_BOOST = 0.3
    NEGATIVE_CONTEXT = ("seite",)
    NEGATIVE_WINDOW = 8
    VALIDATION_BOOST = 0.2

    def validate(self, hit: str) -> bool | None:
        if hit == "0000":
            return False
        return True if int(hit) % 2 == 0 else None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("x 1233 y", [(2, 6, 0.4)]),  # no opinion, no context
        ("x 1234 y", [(2, 6, 0.6)]),  # validated
        ("Nummer 1234", [(7, 11, 0.9)]),  # validated + context
        ("Kundennummer 1233", [(13, 17, 0.4)]),  # context must start a word ...
        ("Nummernkreis 1233", [(13, 17, 0.7)]),  # ... and matches as a prefix
        ("Nummer ist hier weit weg, 1233", [(26, 30, 0.4)]),  # outside the window
        ("x 0000 y", []),  # validate False rejects
        ("Seite 1234", []),  # negative context rejects
        ("x 12345 y", []),  # needs context
        ("Nummer 12345", [(7, 12, 0.6)]),
    ],
)
def test_scoring(text: str, expected: list[tuple[int, int, float]]) -> None:
    spans = _EvenRecognizer().analyze(text)
    assert [(s.start, s.end, s.score) for s in spans] == expected
    assert all(s.label == "TOY" and s.source == "toy" for s in spans)


def test_min_score_and_name() -> None:
    recognizer = _EvenRecognizer(name="deid.recognizers.toy.v1", min_score=0.5)
    spans = recognizer.analyze("1233 1234")
    assert [(s.start, s.source) for s in spans] == [(5, "deid.recognizers.toy.v1")]


def test_recognizer_needs_label_and_patterns() -> None:
    with pytest.raises(TypeError):
        PatternRecognizer()


def test_context_regex_escapes_and_prefers_longest() -> None:
    regex = context_regex(("st.-nr", "st"))
    assert regex is not None
    assert regex.search("Die St.-Nr lautet").group(0) == "St.-Nr"
    assert regex.search("Stxnr").group(0) == "St"
    assert context_regex(()) is None


@pytest.mark.parametrize(
    "spans, kept",
    [
        # higher score wins over longer
        ([Span(0, 10, "A", 0.5), Span(5, 8, "B", 0.9)], [Span(5, 8, "B", 0.9)]),
        # equal score: longer wins
        ([Span(0, 4, "A", 0.5), Span(2, 10, "B", 0.5)], [Span(2, 10, "B", 0.5)]),
        # touching spans do not overlap
        ([Span(0, 4, "A", 0.5), Span(4, 8, "B", 0.5)], [Span(0, 4, "A"), Span(4, 8, "B")]),
        # a chain: the middle one wins and removes both neighbours
        (
            [Span(0, 5, "A", 0.4), Span(4, 9, "B", 0.8), Span(8, 12, "C", 0.4)],
            [Span(4, 9, "B", 0.8)],
        ),
        ([], []),
    ],
)
def test_resolve_overlaps(spans: list[Span], kept: list[Span]) -> None:
    assert resolve_overlaps(spans) == kept


# --- properties every registered recognizer must have ---------------------------------
def test_recognizer_modules_import_only_schema_from_deid() -> None:
    """Recognizers stay independent of the rest of deid (architecture rule): the schema and
    word knowledge (``deid.words``, which imports nothing above it) only."""
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] == "deid":
                    assert name == "deid.schema" or name.startswith(("deid.anonymizer.recognizers", "deid.words")), (
                        path.name,
                        name,
                    )


def test_registry_names_are_versioned_and_labels_known() -> None:
    """A recognizer's label is a fine type, or a role the profiles decide on (a seat)."""
    from deid.schema import FINE_TO_COARSE, ROLE_LABELS

    for name, cls in RECOGNIZERS.items():
        assert re.fullmatch(r"deid\.recognizers\.[a-z_]+\.v\d+", name)
        assert name.split(".")[2] == cls.NAME
        assert cls.LABEL in FINE_TO_COARSE or cls.LABEL in ROLE_LABELS


_ADVERSARIAL = {
    "digits": "1" * 100_000,
    "digit groups": "12 " * 35_000,
    "zeros": "0 " * 50_000,
    "letters": "a" * 100_000,
    "at signs": "a@" * 50_000,
    "dotted": "a." * 50_000,
    "www": "www." * 25_000,
    "office codes": "DE 1 " * 20_000,
    "separators": "1-2/3." * 17_000,
    "cues": "geb. Nr. Az. " * 8_000,
}


@pytest.mark.parametrize("kind", list(_ADVERSARIAL))
def test_linear_time_on_adversarial_text(kind: str) -> None:
    """100 KB of pathological text takes about a second for all recognizers (every version)
    together; a quadratic regex would take minutes. The bound only catches that: speed is
    measured in bench/, and a busy CI machine must not fail this."""
    text = _ADVERSARIAL[kind]
    start = time.perf_counter()
    for recognizer in build_recognizers():
        recognizer.analyze(text)
    assert time.perf_counter() - start < 3.0


def test_logs_carry_no_text(caplog: pytest.LogCaptureFixture) -> None:
    secret = "Tel. 0911 123456, max.mustermann@example.org, DE89 3704 0044 0532 0130 00"
    with caplog.at_level(logging.DEBUG, logger="deid.anonymizer.recognizers"):
        for recognizer in build_recognizers():
            recognizer.analyze(secret)
    assert caplog.records, "recognizers log their hit counts"
    for record in caplog.records:
        message = record.getMessage()
        assert "0911" not in message and "mustermann" not in message and "3704" not in message
