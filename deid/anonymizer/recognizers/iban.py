"""IBANs of any country, compact or in groups of four, confirmed by the ISO 7064 checksum."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

from stdnum import iban

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_MIN_LEN, _MAX_LEN = 15, 34  # shortest (Norway) and longest IBANs


class IbanRecognizer(PatternRecognizer):
    """IBAN; a wrong check digit rejects the hit, so the score is high without context."""

    NAME = "iban"
    LABEL = "IBAN"
    # Greedy over at most 30 more characters, optional single spaces; ``candidates`` trims
    # words that ran on (``... 30 00 EUR``) back to the longest valid prefix.
    PATTERNS = (
        Pattern("iban", r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9])", 0.5),
    )
    CONTEXT = ("iban", "bankverbindung", "konto", "überweis", "zahlung")
    CONTEXT_BOOST = 0.05
    VALIDATION_BOOST: ClassVar[float] = 0.45

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span()
        hit = text[start:end]
        # possible ends: the match end and every position before a space, longest first
        ends = [len(hit)] + [i for i in range(len(hit) - 1, 0, -1) if hit[i] == " "]
        for cut in ends:
            if _MIN_LEN <= len(hit[:cut].replace(" ", "")) <= _MAX_LEN and self.validate(hit[:cut]):
                yield start, start + cut
                return

    def validate(self, hit: str) -> bool | None:
        return iban.is_valid(hit)


class IbanRecognizerV2(IbanRecognizer):
    """Version 1, and a German IBAN right after the word "IBAN" whatever its check digits say:
    a number mistyped in a decision is still the party's account, all but a digit of it (the
    from-scratch dev set, whose made-up IBANs failed the checksum and stayed in clear)."""

    PATTERNS = (
        *IbanRecognizer.PATTERNS,
        Pattern(
            "labelled_german",
            r"(?<![\w\-])IBAN:?[ \u00a0]?(?P<value>DE\d{2}(?:[ \u00a0]?\d{4}){4}[ \u00a0]?\d{2})(?![\w])",
            0.8,
        ),
    )

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if "value" in match.re.groupindex:
            yield match.span("value")
        else:
            yield from super().candidates(text, match)

    def score_hit(self, text: str, start: int, end: int, pattern: Pattern) -> float | None:
        if pattern.name == "labelled_german":
            return pattern.score
        return super().score_hit(text, start, end, pattern)


class IbanRecognizerV3(IbanRecognizerV2):
    """Version 2, and any country's IBAN right after the word "IBAN" whatever its check digits
    ("auf ein Konto mit der IBAN LT41 3250 0731 8820 4417": a fraud's account abroad, made up
    in the from-scratch dev set, failed the checksum and stayed in clear under version 2)."""

    PATTERNS = (
        *IbanRecognizerV2.PATTERNS,
        Pattern(
            "labelled_any",
            r"(?<![\w\-])IBAN:?[ \u00a0]?(?P<value>(?!DE)[A-Z]{2}\d{2}(?:[ \u00a0]?[A-Z0-9]{4}){2,7}"
            r"(?:[ \u00a0]?[A-Z0-9]{1,3})?)(?![\w])",
            0.8,
        ),
    )

    def score_hit(self, text: str, start: int, end: int, pattern: Pattern) -> float | None:
        if pattern.name == "labelled_any":
            return pattern.score
        return super().score_hit(text, start, end, pattern)
