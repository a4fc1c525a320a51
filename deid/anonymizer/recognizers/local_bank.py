"""Local banks named by their place: "Sparkasse Deggendorf", "Raiffeisenbank Freising-Nord eG",
"Volksbank Raiffeisenbank Rottal-Inn eG", "Kreissparkasse München Starnberg Ebersberg".

The policy neutralizes small local banks like any private firm (docs/anonymization-policy.md):
a party's savings bank names the place it lives and banks. The model learns firms from the
courts' placeholders, and the training decisions name almost no bank (three mentions in the
training and validation split), so it leaves them, or marks only the place. The bank's kind
is the evidence: a savings or cooperative bank followed by the capitalized words of its place
(and "eG"). A bank without a place ("die Sparkasse") and the big banks ("Deutsche Bank AG",
kept as big companies named in passing) are not matched.
"""

from __future__ import annotations

import re

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.lexicon import is_common_noun

_S = r"[ \u00a0]"
_KIND = (
    r"(?:Kreis|Stadt|Verbands)?[Ss]parkasse|Volksbank|Raiffeisenbank|Raiffeisenkasse"
    r"|Raiffeisen-Volksbank|VR-Bank|VR[ \u00a0]Bank|Sparda-Bank|PSD[ \u00a0]Bank"
    r"|Spar-[ \u00a0]und[ \u00a0]Darlehnskasse"
)
_WORD = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)*"
_SPA_OR_SAINT = rf"(?:(?:Bad|Sankt|St\.){_S})?"
_PLACE = rf"{_SPA_OR_SAINT}{_WORD}"
# the bank's kind up to its place: "Sparkasse ", "Volksbank Raiffeisenbank ", "VR-Bank-"
_HEAD = rf"(?:{_KIND})(?:{_S}(?:Volksbank|Raiffeisenbank))?(?:{_S}|-)"
_LINK = rf"(?:a\.{_S}?d\.|am|an{_S}der|im|in{_S}der|i\.|ob|vor{_S}der)"
# the place, a suffix ("Pfaffenhofen a. d. Ilm"), or up to four words closed by "eG" (a
# cooperative's registered name); without "eG" a second capitalized word may be the sentence's
# ("bei der Sparkasse Landshut Kredite aufgenommen")
_BANK = rf"{_HEAD}{_PLACE}(?:{_S}{_LINK}{_S}{_WORD}|(?:{_S}{_PLACE}){{0,3}}{_S}eG)?"
_NAME = rf"(?<![\w-])(?P<value>{_BANK})(?![\w-])"

_FIRST_PLACE = re.compile(rf"^{_HEAD}{_SPA_OR_SAINT}(?P<word>{_WORD})")


class LocalBankRecognizer(PatternRecognizer):
    """A savings or cooperative bank with its place."""

    NAME = "local_bank"
    LABEL = "LOCAL_BANK"
    PATTERNS = (Pattern("bank_with_place", _NAME, 0.8),)

    def validate(self, hit: str) -> bool | None:
        """An ordinary noun after the bank is the sentence's, not a place ("dass die Sparkasse
        Zinsen verlangte"), unless a cooperative's "eG" closes the name."""
        first = _FIRST_PLACE.match(hit)
        if first is not None and not hit.endswith("eG") and is_common_noun(first.group("word")):
            return False
        return None


# "Sparkasse Berchtesgadener Land", "VR Bank Dachauer Land eG": a district named by its
# people's adjective and "Land" (Wiktionary lists the adjective as a noun: "der Berchtesgadener")
_DISTRICT = rf"{_HEAD}{_SPA_OR_SAINT}{_WORD}er{_S}Land"
_NAME_V2 = rf"(?<![\w-])(?P<value>{_DISTRICT}(?:{_S}eG)?|{_BANK})(?![\w-])"


class LocalBankRecognizerV2(LocalBankRecognizer):
    """Version 1, and a bank named by its district ("Sparkasse Berchtesgadener Land"): version 1
    read the adjective as a noun of the sentence and found no bank (the from-scratch dev set)."""

    PATTERNS = (Pattern("bank_with_place", _NAME_V2, 0.8),)

    def validate(self, hit: str) -> bool | None:
        """A district's name is a place even where its adjective is a noun's form."""
        return None if re.fullmatch(rf"{_DISTRICT}(?:{_S}eG)?", hit) else super().validate(hit)
