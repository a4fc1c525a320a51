"""Register numbers of a party's own rights, not of rights cited as prior art or comparison.

Patent, utility-model and trademark decisions name two kinds of register numbers in the same
shapes: the right in suit ("das Streitpatent EP 1 234 567 B1", "der Widerspruch aus der Marke
30 2011 047 766", "die Patentanmeldung 10 2009 060 716.1"), which belongs to a party and the
`strict` profile neutralizes, and the documents the court compares it with ("Druckschrift D1
DE 195 12 345 A1", "Entgegenhaltung", "der vorveröffentlichte Stand der Technik"), which
both profiles keep (docs/anonymization-policy.md). The number's shape cannot tell them apart;
the words before it can. So a candidate fires only when the nearest cue word within
``CUE_WINDOW`` characters before it is one of the right's own cues ("Streitpatent", "Marke",
"Patentanmeldung"), never when it is a citation cue ("Druckschrift", "D3", "Stand der Technik")
or a cue of another kind of right (a patent cue before a trademark number), and never when a
citation label follows it ("DE 10 2006 020 372 (D1)"). Shapes that only a register file
number has (the DPMA's "10 2009 060 716.1" without office prefix or kind code: an application
in proceedings, never a printed document) fire without a cue, unless a citation cue is nearest.
"""

from __future__ import annotations

import re
from typing import ClassVar

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.schema import Span

S = r"[ \u00a0]?"  # optional space between digit groups
LEFT = r"(?<![\w\-/.,])"  # a register number never continues a word or another number
# a bare file-number shape is not the tail of an office-prefixed one ("DE 10 2015 …") nor
# of a longer group of digits
NO_OFFICE = r"(?<!\d[ \u00a0])(?<!DE[ \u00a0])(?<!EP[ \u00a0])(?<!IR[ \u00a0])(?<!EM[ \u00a0])(?<!UM[ \u00a0])"
RIGHT = r"(?![\w\-]|[.,/]\d|[ \u00a0]\d)"
KIND = r"(?:[ \u00a0]?[ABCT][1-9]?(?![\w\-]))"  # a publication's kind code: A1, B4, C2, T2
UM_KIND = r"(?:[ \u00a0]?U[1-9]?(?![\w\-]))"  # a utility model's: U1
YEAR = r"(?:19|20)\d{2}"
DPMA_SERIAL = rf"{S}\d{{3}}{S}\d{{3}}"  # the six digits after type and year: "123 456"



def dpma_file(types: str, tail: str = r"(?:\.\d)?", prefix: str = "") -> str:
    """A DPMA file number of the two-digit ``types`` ("1[0-2]" patents, "2[01]" utility
    models, "3[09]" trademarks): type, year, six digits, then ``tail`` (a check digit)."""
    return rf"{LEFT}{NO_OFFICE}{prefix}(?:{types})[ \u00a0]{YEAR}[ \u00a0]\d{{3}}[ \u00a0]\d{{3}}{tail}{RIGHT}"


def old_dpma_file(first: str) -> str:
    """A file number of the years before 2004 with its check digit: ``first`` digits, two, three
    ("198 31 774.5")."""
    return rf"{LEFT}{NO_OFFICE}(?:{first})[ \u00a0]\d{{2}}[ \u00a0]\d{{3}}\.\d{RIGHT}"


def de_publication(types: str, kind: str) -> str:
    """A German publication since 2004: "DE", the file number's type, year, serial, ``kind``."""
    return rf"{LEFT}DE{S}(?:{types}){S}{YEAR}{DPMA_SERIAL}{kind}{RIGHT}"


def old_de_publication(kind: str) -> str:
    """An older German publication: "DE 195 12 345 A1", "DE 44 21 234 C2" (``kind``)."""
    return rf"{LEFT}DE{S}\d{{1,3}}{S}\d{{2,3}}{S}\d{{3}}{kind}{RIGHT}"


# after the number: "(Streitpatent)", "unter der Nummer … geführt"
TECHNICAL_OWN_AFTER = r"^[ \u00a0]?(?:\((?:Streit|Klage)\w*\)|geführt\b)"
# cue words; the nearest one before a candidate decides (InSuitRecognizer.nearest_cue)
TECHNICAL_OWN = (
    r"\w*[Pp]atent(?:e|es|s|en)?(?!-)"
    r"|(?:Streit)?[Pp]atentschrift|Patentanmeldung(?:en)?|Gebrauchsmusteranmeldung(?:en)?"
    r"|Schutzzertifikat(?:s|sanmeldung)?|(?:Streit|Klage|Verfügungs)?[Gg]ebrauchsmusters?(?!-)"
    r"|Patent-?(?:Nr\.|[Nn]ummer)|Abzweigung"
)
TRADEMARK_OWN = (
    r"[\w\-/]*[Mm]arken?(?!-)|Markenanmeldung(?:en)?|Registernummer(?:n)?"
    r"|Register-?Nr\."
)
# an application of either kind ("die Anmeldung 30 2014 057 343.1", "Teilanmeldung") and the
# application whose priority it claims ("Priorität 103 55 628.1"): evidence for a file number's
# shape, not enough for a plain digit group ("im Bereich von 200 000" in an application)
SHARED_OWN = r"(?:Teil|Stamm|Serien|Vor)?[Aa]nmeldung(?:en)?|Priorität"
CITED = (
    r"Druckschrift(?:en)?|Entgegenhaltung(?:en)?|Stand(?:es)? der Technik|vorveröffentlicht\w*"
    r"|Dokument(?:e|en)?|Veröffentlichung(?:en)?|[DE][ \u00a0]?\d{1,2}|vgl\.|siehe"
    r"|Offenlegungsschrift(?:en)?|Auslegeschrift(?:en)?|US-Patent(?:e|s)?"
)
# a comparison within the sentence makes every right in it a cited one: "verweist auf die
# eingetragenen Marken …", "vergleichbare Voreintragungen (Registernummern …)"
COMPARISON = r"Voreintragung(?:en)?|[Vv]erweis(?:t|en|e)?|[Vv]ergleichbare?[nmrs]?|Drittmarken?"
# "... (D1)", "..., E3": a citation label right after the number
_CITED_AFTER = re.compile(r"[ \u00a0]?(?:\([DE][ \u00a0]?\d{1,2}\)|,?[ \u00a0][DE]\d{1,2}(?![\w]))")
# the last sentence boundary before a number: cues beyond it are another sentence's
_SENTENCE_END = re.compile(r"[.!?:;][\"“”)]?[ \u00a0]+(?=[A-ZÄÖÜ])|\n")
# the further items of a list share the first one's verdict ("EP 1 234 567 und EP 2 345 678")
# and so does a national part in parentheses ("EP 1 084 705 (DE 597 13 097)")
_LIST_JOINT = re.compile(r"\s?(?:,|;|und|sowie|oder|bzw\.|/|\()\s?")


def _cue_group(name: str, words: str) -> str:
    """A named group of cue ``words`` that start and end a word ("Markenamt" is no cue)."""
    return rf"(?P<{name}>(?<![^\W\d_])(?:{words})(?![^\W\d_]))"


class InSuitRecognizer(PatternRecognizer):
    """A pattern recognizer that fires only for the right in suit.

    ``OWN`` is the regex of this right's cue words, ``OTHER`` those of the other kinds of
    right (their nearest occurrence blocks, so a trademark cue never lets a patent number
    through); citation cues (``CITED``) block too, and a comparison cue (``COMPARISON``)
    anywhere in the sentence before the number. Cues count within ``CUE_WINDOW`` characters
    of the same sentence. ``Pattern.needs_context`` marks the shapes that need an own cue;
    the others fire unless a blocking cue is nearest. ``OWN_AFTER`` (optional) is an own cue
    allowed after the number ("unter der Nummer 30 2009 072 008 als Wort-/Bildmarke
    eingetragen"). The further items of a list ("… und EP 2 345 678 B1") share the verdict
    of the item before them.
    """

    OWN: ClassVar[str] = ""
    OTHER: ClassVar[str] = ""
    OWN_AFTER: ClassVar[str] = ""
    CUE_WINDOW: ClassVar[int] = 90
    AFTER_WINDOW: ClassVar[int] = 60

    def __init__(self, name: str | None = None, min_score: float = 0.0) -> None:
        super().__init__(name, min_score)
        # in this order: "US-Patent" is a citation, not a patent cue
        groups = [_cue_group("comparison", COMPARISON), _cue_group("cited", CITED)]
        if self.OTHER:
            groups.append(_cue_group("other", self.OTHER))
        groups += [_cue_group("own", self.OWN), _cue_group("shared", SHARED_OWN)]
        self._cues = re.compile("|".join(groups))
        self._own_after = re.compile(self.OWN_AFTER) if self.OWN_AFTER else None

    def sentence_start(self, text: str, start: int) -> int:
        """Where the cue window before ``start`` begins: ``CUE_WINDOW`` back, or the start of
        the sentence if that is nearer."""
        window_start = max(0, start - self.CUE_WINDOW)
        boundary = None
        for boundary in _SENTENCE_END.finditer(text, window_start, start):
            pass
        return boundary.end() if boundary else window_start

    def cue(self, text: str, start: int, end: int) -> str | None:
        """``own``, ``shared``, ``cited`` or ``other``: the kind of the cue that decides
        (None: none). A comparison in the sentence is ``cited``, else the nearest cue before
        decides."""
        kind = None
        for match in self._cues.finditer(text, self.sentence_start(text, start), start):
            if match.lastgroup == "comparison":
                return "cited"
            kind = match.lastgroup
        after = text[end : end + self.AFTER_WINDOW]
        if kind is None and self._own_after is not None and self._own_after.search(after):
            kind = "own"
        return kind

    def verdict(self, text: str, start: int, end: int, pattern: Pattern) -> float | None:
        """The score of a candidate standing alone, or None when it must not fire."""
        if self.validate(text[start:end]) is False or _CITED_AFTER.match(text, end):
            return None
        cue = self.cue(text, start, end)
        if cue in ("cited", "other") or (cue in (None, "shared") and pattern.needs_context):
            return None  # an application ("Anmeldung") is no evidence for a plain digit group
        return min(1.0, pattern.score + (self.CONTEXT_BOOST if cue in ("own", "shared") else 0.0))

    def analyze(self, text: str) -> list[Span]:
        """The candidates of all patterns, the longest where they overlap ("DE 10 2015 123
        456 B4", not its tail), each judged in text order; a list item after a judged item
        takes its verdict."""
        found = [
            (start, end, pattern)
            for pattern, regex in self._patterns
            for match in regex.finditer(text)
            for start, end in self.candidates(text, match)
        ]
        found.sort(key=lambda c: (c[0], -(c[1] - c[0])))
        spans: list[Span] = []
        last_end, last_score = -1, None
        for start, end, pattern in found:
            if start < last_end:
                continue  # inside the longer candidate just judged
            if last_end >= 0 and _LIST_JOINT.fullmatch(text, last_end, start):
                score = last_score
            else:
                score = self.verdict(text, start, end, pattern)
            last_end, last_score = end, score
            if score is not None and score >= self.min_score:
                spans.append(Span(start, end, self.LABEL, round(score, 4), self.name))
        return spans


class TechnicalRightRecognizer(InSuitRecognizer):
    """The cues of patents and utility models (a party's technical rights)."""

    OWN = TECHNICAL_OWN
    OTHER = TRADEMARK_OWN
    OWN_AFTER = TECHNICAL_OWN_AFTER
    CONTEXT_BOOST = 0.3
