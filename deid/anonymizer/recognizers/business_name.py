"""A small business named by its kind and its owner's name, without quotes or a legal form:
"des Vermessungsbüros Hausladen", "die Metzgerei Pichlmaier", "der Spedition Brandl".

The policy neutralizes a private firm's name (docs/anonymization-policy.md). A craftsman's,
surveyor's or engineer's business is usually called by its kind and the owner's surname; the
model reads the surname as a person or a place, or leaves it, and no legal form or quote marks
it (deid.anonymizer.recognizers.firm_name, .quoted_name). The kind word is the evidence; the
name after it is one capitalized word (or a hyphenated pair) that no lexicon lists as an
ordinary noun ("die Bäckerei Brot und Kuchen verkauft" names no one). The kind stays outside
the span, as the gold sets mark it. Law firms are left out ("Kanzlei Huber"): the profiles
treat a practice of lawyers apart (the model's and legal_form's business). Chosen on the
from-scratch dev set; the 598 training and validation decisions have no such phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.lexicon import is_common_noun

_S = r"[ \u00a0]"
_KINDS = (
    r"(?:Ingenieur|Vermessungs|Architektur|Planungs|Sachverständigen|Gutachter)büros?"
    r"|[A-ZÄÖÜ][a-zäöüß]*(?:erei|orei)|Spedition"  # Metzgerei, Fliesenlegerei, Konditorei
    r"|Autohaus(?:es)?|Fahrschule|Gasthof(?:s|es)?|Gasthaus(?:es)?|Brauerei"
    r"|(?:Maler|Elektro|Sanitär|Dachdecker|Bau|Abbruch|Transport)betrieb(?:s|es)?"
)
_NAME = rf"(?<![\w-])(?:{_KINDS}){_S}(?P<value>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)(?![\w-])"


class BusinessNameRecognizer(PatternRecognizer):
    """The owner's name after a small business's kind."""

    NAME = "business_name"
    LABEL = "FIRM_NAME"
    PATTERNS = (Pattern("kind_and_name", _NAME, 0.7),)

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span("value")
        if not is_common_noun(text[start:end]):
            yield start, end
