"""Street names without a house number: "in der Lindenstraße", "die Landshuter Straße",
"Ludwig-Thoma-Straße", "über den Weiherweg".

The policy neutralizes a street that points to a home or an accident site also without a
number (docs/anonymization-policy.md); a decision names the street of a party's home or of the
accident again and again without one ("das Anwesen des Klägers in der Lindenstraße"). The
model finds most street names in running text but not all, and a street word is no name shape
it can rely on. The street's own word is the evidence:

* a compound ending in "-straße", "-gasse" or "-allee" ("Lindenstraße", "Kirchgasse"), a
  hyphenated name ending in a street noun ("Ludwig-Thoma-Straße", "Martin-Luther-Platz"), or a
  town's adjective before "Straße", "Gasse", "Allee", "Weg", "Platz", "Ring" ("Landshuter
  Straße");
* the weaker street words ("-weg", "-platz", "-ring", "-damm", "-anger") only after a
  cue that a street follows ("in der", "an der", "am", "über den", "Anwesen", "Straße"): "Weg"
  and "Platz" end many everyday compounds ("Rechtsweg", "Arbeitsplatz").

Never a word for a kind of street ("Einbahnstraße", "Sackgasse", "Hauptstraße", which names the
main road as often as a street) or a road class ("Bundesstraße", "Staatsstraße 2074"), a weak
street word's everyday compound of the lexicon ("am Arbeitsplatz", "am Parkplatz"), or a legal
"way" ("Rechtsweg", "Instanzenweg"). The lexicon does not judge "-straße" words: Wiktionary
lists real street names as nouns ("Lindenstraße", "Dorfstraße").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.lexicon import is_common_noun

_S = r"[ \u00a0]"
_W = r"[A-ZÄÖÜ][a-zäöüß]+"
# "-strasse" is left out: "Antragstrasse" is the applied-for route (Antrags-Trasse); courts
# write "-straße"
_STRONG = r"(?:straße|gasse|allee)"
_WEAK = r"(?:weg|platz|ring|damm|anger|steig|pfad)"  # not "-ufer": "Fahrzeugkäufer"
_NOUNS = r"(?:Straße|Strasse|Gasse|Allee|Weg|Platz|Ring|Damm|Ufer|Steig)"
_CUE = (
    rf"(?:(?<![\w-])(?:[Ii]n{_S}der|[Aa]n{_S}der|[Aa]uf{_S}der|[Aa]m|[Ii]m|[Aa]uf{_S}dem|über{_S}den|"
    rf"[Dd]er|[Dd]ie|[Dd]en|Anwesen|Anschrift|Straße|Kreuzung|Einmündung){_S})"
)
_NAME = (
    rf"(?<![\w\-])(?P<value>{_W}{_STRONG}"  # Lindenstraße
    rf"|(?:{_W}-)+{_NOUNS}"  # Ludwig-Thoma-Straße, Martin-Luther-Platz
    rf"|{_W}er{_S}{_NOUNS})(?![\w\-])"  # Landshuter Straße
)
_WEAK_NAME = rf"(?P<cue>{_CUE})(?P<value>{_W}{_WEAK})(?![\w\-])"
# road classes and the everyday words for a kind of street: no street's name ("die Einbahnstraße")
_GENERIC = re.compile(
    r"^(?:Bundes|Staats|Kreis|Landes|Land|Gemeinde|Orts|Durchgangs|Verbindungs|Zufahrts|Erschließungs"
    r"|Umgehungs|Haupt|Neben|Seiten|Quer|Wohn|Privat|Einbahn|Hauptverkehrs|Anlieger|Fahr|Spiel|Sack"
    r"|Rettungs|Fußgänger|Zubringer|Ausfall|Wirtschafts|Forst|Feld|Wald|Durchfahrts|Stich|Sammel)"
    r"[\- ]?(?:straße|strasse|gasse|allee)$",
    re.IGNORECASE,
)
_LEGAL_WAYS = re.compile(
    r"(?:rechts|instanzen|dienst|beschwerde|klage|verwaltungs|gerichts|rechtsmittel|arbeits|schul|heim)weg$",
    re.IGNORECASE,
)


class StreetNameRecognizer(PatternRecognizer):
    """A street's name by its street word, without a house number."""

    NAME = "street_name"
    LABEL = "STREET_NAME"
    PATTERNS = (Pattern("street_word", _NAME, 0.7), Pattern("street_word_after_cue", _WEAK_NAME, 0.6))

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        start, end = match.span("value")
        name = text[start:end]
        if _GENERIC.match(name) or _LEGAL_WAYS.search(name):
            return
        if match.re.groupindex.get("cue") is not None and is_common_noun(name):
            return  # a weak street word's everyday compound ("am Arbeitsplatz", "am Parkplatz")
        yield start, end
