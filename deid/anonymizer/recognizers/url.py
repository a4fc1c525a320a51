"""Web addresses: with a scheme, with ``www.``, or a bare domain under a common TLD.

Legal abbreviations (``z.B.``, ``i.V.m.``, ``Rn.``), ECLI identifiers and sentences run
together without a space (``festzusetzen.Diesen``) must not fire: bare domains need a known
lowercase TLD, and every host needs a real label before its TLD.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_LABEL = r"[A-Za-z0-9äöüÄÖÜß](?:[A-Za-z0-9äöüÄÖÜß\-]{0,61}[A-Za-z0-9äöüÄÖÜß])?"
_TAIL = r"(?:[/?#][^\s<>\"“”„«»]{0,2000})?"
_COMMON_TLDS = (
    "de|com|org|net|eu|info|at|ch|io|gov|edu|biz|int|online|bayern|berlin|hamburg|nrw|koeln"
    "|ruhr|saarland|uk|fr|it|nl|be|lu|pl|cz|es|dk|se|us"
)
_LEFT = r"(?<![\w.@/\-])"
_TRAILING = ".,;:!?'\"’)]}"


class UrlRecognizer(PatternRecognizer):
    """URLs; trailing sentence punctuation and unbalanced closing brackets are trimmed."""

    NAME = "url"
    LABEL = "URL"
    PATTERNS = (
        Pattern(
            "url_scheme",
            r"(?<![\w])(?:https?|ftp)://[^\s<>\"“”„«»]{1,2000}",
            0.85,
            flags=re.IGNORECASE,
        ),
        Pattern(
            "url_www", rf"{_LEFT}www\.(?:{_LABEL}\.){{1,6}}[A-Za-z]{{2,24}}(?![\w\-]){_TAIL}", 0.8
        ),
        Pattern(
            "url_domain", rf"{_LEFT}(?:{_LABEL}\.){{1,6}}(?:{_COMMON_TLDS})(?![\w\-@]){_TAIL}", 0.5
        ),
    )
    CONTEXT = ("internet", "homepage", "website", "webseite", "url", "online", "abrufbar", "unter")
    CONTEXT_BOOST = 0.1

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span()
        while end > start and text[end - 1] in _TRAILING:
            closer = text[end - 1]
            opener = {")": "(", "]": "[", "}": "{"}.get(closer)
            segment = text[start:end]
            if opener and segment.count(opener) >= segment.count(closer):
                break  # balanced: the bracket belongs to the URL (Wikipedia style)
            end -= 1
        if end > start:
            yield start, end

    def validate(self, hit: str) -> bool | None:
        host = re.sub(r"^[a-z]+://", "", hit, flags=re.IGNORECASE).split("/", 1)[0].split("?", 1)[0]
        labels = host.split(".")
        if len(labels) < 2 or not all(labels) or not labels[-1].isalpha():
            return False  # "http://www..." is a redaction, not an address
        if labels[0].lower() == "www" and len(labels) < 3:
            return False
        return None
