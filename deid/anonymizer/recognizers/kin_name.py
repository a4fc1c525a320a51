"""A relative's first name after the word for the kinship ("ihre Kinder Jonas und Emilia",
"der Sohn Elias", "die Tochter Lina").

Children are named by their first name alone, and the policy neutralizes them like any party
(docs/anonymization-policy.md: children's first names too). A first name alone has no shape
the model can tell from a common word; the kinship word before it is the evidence. Only a first
name of the bundled list that is no ordinary or lowercase word counts
(:func:`deid.words.ordinary.is_plain_first_name`), so "die Kinder Sorge" or "der Sohn
Klein …" stay. A list of two or three ("Jonas und Emilia", "Lea, Jonas und Emil") is read
name by name. Chosen on the from-scratch dev set (a family's package holiday).
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer, list_item_patterns
from deid.words.ordinary import is_plain_first_name

_S = r"[ \u00a0]"
_KIN = (
    r"(?:Kinder|Kindern|Sohn|Sohnes|Söhne|Söhnen|Tochter|Töchter|Töchtern|Enkel|Enkelin|Enkelkinder"
    r"|Enkelkindern|Bruder|Bruders|Schwester|Geschwister|Neffe|Neffen|Nichte|Zwillinge|Pflegekind"
    r"|Pflegesohn|Pflegetochter|Stiefsohn|Stieftochter)"
)
_HEAD = rf"(?<![\w\-]){_KIN},?{_S}"
_FIRST = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?(?![\w\-])"
_SEPARATOR = rf"(?:,{_S}|{_S}und{_S}|{_S}sowie{_S})"
_MAX_NAMES = 4


class KinNameRecognizer(PatternRecognizer):
    """A first name of the list after a kinship word, each name of a short list after it."""

    NAME = "kin_name"
    LABEL = "KIN_NAME"
    PATTERNS = (
        Pattern("kin_first_name", rf"{_HEAD}(?P<value>{_FIRST})", 0.75),
        *list_item_patterns("kin_first_name_item", _HEAD, _FIRST, _SEPARATOR, 0.75, _MAX_NAMES),
    )

    def validate(self, hit: str) -> bool | None:
        return all(is_plain_first_name(part) for part in hit.split("-"))
