"""A firm's name written before its legal form: "Gruber Hoch- und Tiefbau GmbH & Co. KG",
"MVZ Labor Dr. Kleinhenz GmbH", "Estrichbau Hinterberger GmbH".

The policy neutralizes a private firm's whole name with its legal form
(docs/anonymization-policy.md). The model learns firms from the courts' placeholders ("S …
GmbH") and misses a long name written in full; the legal form is the evidence that the
capitalized words before it are a firm's name. Only the forms of companies count (GmbH, AG,
KG, OHG, GbR, UG, SE, eG, e.K., PartG mbB): "Gesellschaft" or "Stiftung" end public bodies'
names as often. Words before the name that are no part of it (an article, a party's role,
"Firma", a title) and the everyday nouns that name the firm's kind ("Metzgerei", "Kanzlei",
"Klinikum": outside the span, as the gold sets mark it) are left out, and a "name" of
everyday nouns only ("in der Familien GmbH") is none; a name that starts with "Deutsche"/"DB" is a big public company named
in passing ("DB Netz AG", "Deutsche Post AG"), which the policy keeps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.lexicon import is_common_noun
from deid.words.ordinary import known_name
from deid.words.shapes import noun_compound

_S = r"[ \u00a0]"
_FORM = (
    rf"(?:g?GmbH|mbH|AG|KGaA|KG|OHG|GbR|UG|SE|eG|e\.{_S}?K\.|PartG{_S}mbB|mbB)"
    rf"(?:{_S}?&{_S}?Co\.{_S}?(?:KGaA|KG|OHG))?(?:{_S}\(haftungsbeschränkt\))?"
)
# a word of a name: no full stop at its end (a sentence's), but for a title or an initial
_WORD = r"[A-ZÄÖÜ0-9][\w+\-]*(?:\.[\w+\-]+)*"
_TOKEN = rf"(?:{_WORD}|Dr\.|St\.|[A-ZÄÖÜ]\.|&|\+|und)"


def _name_and_form(form: str) -> str:
    """One to six words of a name (a title or an initial among them) before one of ``form``'s
    legal forms: the pattern of every version, which differ in the forms they read."""
    return rf"(?<![\w\-.])(?P<value>(?:{_WORD}|Dr\.)(?:{_S}{_TOKEN}){{0,5}}{_S}{form})(?![\w\-])"


_FIRM = _name_and_form(_FORM)
# words that introduce a firm rather than name it
_LEAD = frozenset(
    """Der Die Das Den Dem Des Eine Einer Einem Eines Firma Fa. Unternehmen Klägerin Kläger
    Beklagte Beklagten Antragstellerin Antragsgegnerin Beigeladene Beigeladenen Schuldnerin
    Gläubigerin Drittschuldnerin Auftraggeberin Auftragnehmerin Arbeitgeberin Bauherrin
    Komplementärin Gesellschafterin Mieterin Vermieterin Herstellerin Betreiberin Versicherung
    Bei Mit Von Zu Für Gegen Durch Nach Vor Aus An Auf In Im Am Und Gesellschaft Dr. Prof.""".split()
)
_PUBLIC = re.compile(r"(?:Deutschen?|DB)\b")


def _kind_word(word: str) -> bool:
    """An everyday noun or compound of nouns that names a firm's kind ("Metzgerei",
    "Grundstücksgesellschaft"), not a surname that is also a noun ("Bogner")."""
    return (is_common_noun(word) or noun_compound(word)) and not known_name(word)


class FirmNameRecognizer(PatternRecognizer):
    """Capitalized words before a company's legal form, as the firm's name."""

    NAME = "firm_name"
    LABEL = "FIRM_NAME"
    PATTERNS = (Pattern("name_and_form", _FIRM, 0.8),)
    FORM = _FORM  # the legal forms a version reads
    PUBLIC = _PUBLIC  # the names of big public companies named in passing

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span("value")
        start = _skip(text, start, end, lambda w: w in _LEAD)  # the words that introduce it
        if self.PUBLIC.match(text, start, end):
            return  # a big public company named in passing
        named = _skip(text, start, end, lambda w: w in _LEAD or _kind_word(w))  # and its kind
        name = text[named:end]
        # at least one word of the name before the form, and no joining word first
        if re.match(rf"^{_TOKEN}{_S}", name) and not re.match(rf"^(?:{self.FORM}$|[&+]|und\b)", name):
            yield named, end
        elif self.unlisted_name(text, start, end):
            yield start, end

    def unlisted_name(self, text: str, start: int, end: int) -> bool:
        """Whether ``text[start:end]``, whose words all read as a firm's kind, is a name all
        the same (version 2); version 1: never."""
        return False


def _skip(text: str, start: int, end: int, skipped: Callable[[str], bool]) -> int:
    """``start`` moved past the leading words of ``text[start:end]`` that ``skipped`` names."""
    while (word := re.match(r"\S+", text[start:end])) is not None and skipped(word.group()):
        start += word.end()
        while start < end and text[start] in " \u00a0":
            start += 1
    return start


class FirmNameRecognizerV2(FirmNameRecognizer):
    """Version 1, but a name of one compound word before the form stays a name when no lexicon
    lists it ("die Mannsdörfer GbR": version 1 read "Mannsdörfer" as a compound of nouns, a
    firm's kind, and found no name); a lexicon noun alone still names none ("in der Familien
    GmbH"). Chosen on a probe of the train pool's businesses (docs/results.md)."""

    def unlisted_name(self, text: str, start: int, end: int) -> bool:
        word = re.match(rf"^({_WORD}){_S}(?:{self.FORM})$", text[start:end])
        return (word is not None and not is_common_noun(word.group(1)) and not word.group(1).isupper()
                and not _SHORTHAND_BEFORE.search(text, max(0, start - 4), start))  # fmt: skip


# "(im Folgenden GmbH)": the shorthand a decision introduces, no name (training text)
_SHORTHAND_BEFORE = re.compile(r"(?<!\w)[Ii]m[ \u00a0]$")


# Version 3 (the from-scratch dev set): a mutual insurer's form ("Ärzteversicherung Niederbayern
# VVaG", "… a.G.") and the forms of firms abroad that decisions print as they are ("Baltic
# Timber UAB", "Danube Logistics s.r.o.", "Kovac Trans Kft.", "Green Energy Ltd"), which
# version 2 did not read as a firm's end
_FORM_V3 = (
    rf"(?:{_FORM}|VVaG|a\.{_S}?G\.|Ltd\.?|Limited|LLC|Inc\.?|B\.{_S}?V\.|N\.{_S}?V\.|S\.{_S}?A\."
    rf"|S\.{_S}?p\.{_S}?A\.|S\.{_S}?r\.{_S}?l\.|s\.{_S}?r\.{_S}?o\.|Sp\.{_S}z{_S}o\.{_S}?o\.|UAB|OÜ|Kft\.|A/S)"
)
_FIRM_V3 = _name_and_form(_FORM_V3)


# and the technical inspection bodies a decision names in passing ("TÜV SÜD Life Service GmbH",
# "DEKRA Automobil GmbH": an accredited examiner, public as "Deutsche Post AG" is)
_PUBLIC_V3 = re.compile(r"(?:Deutschen?|DB|TÜV|DEKRA|GTÜ)\b")
_DOCUMENT_LABEL = re.compile(rf"[A-Z]{{1,2}}\d{{1,3}}{_S}(?=[A-ZÄÖÜ])")  # "D22 ", "E5 " in a list of prior art


class FirmNameRecognizerV3(FirmNameRecognizerV2):
    """Version 2, and a mutual insurer's and a foreign firm's legal form; an inspection body is
    public."""

    PATTERNS = (Pattern("name_and_form", _FIRM_V3, 0.8),)
    FORM = _FORM_V3
    PUBLIC = _PUBLIC_V3

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        for start, end in super().candidates(text, match):
            # a cited document's label before the firm ("D22 Ivoclar Vivadent Inc.") is no name
            label = _DOCUMENT_LABEL.match(text, start, end)
            yield (label.end(), end) if label else (start, end)


# the words that name a firm's kind as a whole, left out before a name of everyday nouns
_KIND_FIRST = re.compile(rf"[A-ZÄÖÜ]\w*(?:gesellschaft|genossenschaft|verwaltung|bau|betrieb|unternehmen){_S}")


class FirmNameRecognizerV4(FirmNameRecognizerV3):
    """Version 3, and a name of two or more everyday nouns before the form is a name ("der
    Funkturm Süd Infrastruktur GmbH", "die Landgenossen Versicherung a.G."), after a word that
    names the firm's kind as a whole ("die Wohnbau Dachauer Land eG", "der
    Grundstücksgesellschaft Finkendreher Werbung GbR"): version 3 read every word as the firm's
    kind and found none. One such noun alone ("in der Familien GmbH", "die Komplementär GmbH")
    still names no one (the from-scratch dev set)."""

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        for start, end in super().candidates(text, match):
            kind = _KIND_FIRST.match(text, start, end)
            yield (kind.end(), end) if kind and self._nouns_only(text, kind.end(), end) else (start, end)

    def unlisted_name(self, text: str, start: int, end: int) -> bool:
        return super().unlisted_name(text, start, end) or (
            self._nouns_only(text, start, end) and not _SHORTHAND_BEFORE.search(text, max(0, start - 4), start)
        )

    def _nouns_only(self, text: str, start: int, end: int) -> bool:
        """Two to six words before the form."""
        return re.match(rf"^(?:{_WORD}{_S}){{2,6}}(?:{self.FORM})$", text[start:end]) is not None


# Version 5 (a batch of the twenty-fourth session, written by another before the chain ran on
# it): a mutual insurer's form written "VaG" ("bei der Oberpfälzer Landversicherung VaG"), which
# version 4 knew only as "VVaG" or "a. G." and so found no firm at all
_FORM_V5 = rf"(?:{_FORM_V3}|VaG)"
_FIRM_V5 = _name_and_form(_FORM_V5)


class FirmNameRecognizerV5(FirmNameRecognizerV4):
    """Version 4, and a mutual insurer's form written "VaG"."""

    PATTERNS = (Pattern("name_and_form", _FIRM_V5, 0.8),)
    FORM = _FORM_V5
