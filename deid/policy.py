"""What a decision keeps in clear text, whatever a model or recognizer says.

Courts, judges (in the signature and in the bench line "durch die Richterin … Dr. X"),
laws and statute references, court case numbers, published citations and the names of
states (countries and the German Länder: an asylum seeker's "Ukraine" is no address) are
public. A predicted span touching such a zone is dropped. The zones are found by rules on
the document text; which kinds apply is configurable.
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Iterable

from deid.features import plain_compound
from deid.lexicon import is_ordinary_word
from deid.schema import DATE, ID, MODEL_SOURCE, MONEY, PUBLIC_ENTITY, Span

_COURT_WORDS = (
    r"(?:Bundes|Ober|Land|Amts|Verwaltungs|Oberverwaltungs|Finanz|Sozial|Landessozial|Arbeits|"
    r"Landesarbeits|Verfassungs|Bundesverfassungs|Bundesverwaltungs|Bundesarbeits|Bundessozial|"
    r"Bundesfinanz|Bundespatent|Patent|Truppendienst|Dienst|Familien|Kammer|Schöffen|Straf|"
    r"Landesverfassungs|Verwaltungsgerichts|Disziplinar|Anwalts|Berufs|Schieds)?gericht(?:s|es|shof|shofs|e|en)?"
)
_COURT_ABBR = r"(?:BVerfG|BVerwG|BGH|BAG|BSG|BFH|BPatG|OLG|OVG|VGH|LSG|LAG|FG|LG|AG|VG|SG|ArbG|KG|EuGH|EGMR|BayVGH|BayObLG|TDG)"
_PLACE = re.compile(
    r"\s(?:[–-]\s(?:Familiengericht|Landwirtschaftsgericht|Vollstreckungsgericht)\s[–-]\s)?(?:in\s)?"
    r"([A-ZÄÖÜ][\wäöüß\-]+(?:\s(?:am|an der|im|in der|\(Oder\))\s?[A-ZÄÖÜ]?[\wäöüß\-]*)?)"
)
COURT = re.compile(rf"\b(?:{_COURT_WORDS}|{_COURT_ABBR})\b")
CASE_NUMBER = re.compile(
    r"\b(?:[IVX]{1,5}|\d{1,3}|[A-Z])\s?[a-z]?\s?(?:[A-Z][A-Za-z]{0,5}|[A-Z]{1,4}-[A-Za-z]{1,4})\s?\d{1,5}\s?[/.]\s?\d{2}(?:\.[A-Z])?\b"
    r"|\bB\s\d{1,2}[a-z]?\s[A-Z]{1,3}\s\d{1,5}/\d{2}\s[A-Z]{1,2}\b"
    r"|\bECLI:[A-Z]{2}:[A-Za-z]+:\d{4}:[\w.]+"
    r"|\b(?:Az\.|AZ:|Aktenzeichen:?)\s?[\w/.\- ]{3,30}?\d{2}\b"
)
STATUTE = re.compile(
    r"(?:§§?|Art\.|Artikel)\s?\d+[a-z]?(?:\s?(?:Abs\.|Absatz|Satz|S\.|Nr\.|Buchst\.|lit\.|Alt\.|Halbsatz|Hs\.|UAbs\.|Ziff\.)\s?\d*[a-z]?|\s?(?:und|bis|,|i\.\s?V\.\s?m\.)\s?\d+[a-z]?)*"
    r"(?:\s[A-ZÄÖÜ][\w\-]*[A-Z][\w\-]*(?:\s\d{4})?)?"
)
CITATION = re.compile(
    r"\b(?:BVerfGE|BVerwGE|BGHZ|BGHSt|BAGE|BSGE|BFHE|BStBl|BGBl|NJW(?:-RR)?|NVwZ(?:-RR)?|NZA(?:-RR)?|"
    r"BeckRS|juris|GRUR(?:\sInt)?|ZIP|DB|BB|DStR|DÖV|DVBl|JZ|MDR|FamRZ|ZfBR|BauR|NZS|NZBau|HFR|UR|"
    r"ABl(?:EU)?|Buchholz|VerwRspr|MMR|WRP|NStZ(?:-RR)?|StV|wistra|LSK|FuR|ZUM|K&R|BFH/NV)\.?"
    r"\s(?:[IVX]+\s)?(?:S\.\s)?\d{1,4}(?:,\s?\d{1,6})?(?:\s?[<(]\d+[>)])?"
)
_NAME = r"(?:(?:Dr\.|Prof\.|von|van|de|zu)\s)*[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?"
_BENCH_START = re.compile(r"\bdurch\s(?:den|die)\s(?:Vorsitzende|Präsident|Richter|Vizepräsident)", re.I)
_BENCH_END = re.compile(r"\b(?:für Recht erkannt|beschlossen|entschieden|beraten)\b")
_SIGNATURE_LINE = re.compile(rf"^\s*(?:{_NAME}\s?){{1,3}}\s*$")


@dataclass(frozen=True)
class PolicyConfig:
    keep_courts: bool = True
    keep_judges: bool = True
    keep_statutes: bool = True
    keep_case_numbers: bool = True
    keep_citations: bool = True
    keep_states: bool = True
    keep_labels: tuple[str, ...] = field(default_factory=tuple)  # e.g. ("PATENT",) for BPatG
    # A model span that is one ordinary word (a Wiktionary noun, "Deponie", or a word the
    # training decisions print in clear text, "ZDv"; deid.lexicon.is_ordinary_word) or, on
    # its own, one compound of ordinary words ("Erschwerniszulage"; deid.features.
    # plain_compound) is kept only this sure: the model flags unfamiliar words, a dictionary
    # knows them. A compound next to another span is part of a name ("Auto-Kraus
    # Abschleppservice") and stays. 0: off.
    common_noun_min_score: float = 0.95
    # A model span of these types holds a digit: "Erschwerniszulage" is no amount, "Revision"
    # no date. Rules never produce such a span; gold spans never are one.
    digit_labels: tuple[str, ...] = (DATE, MONEY, ID)


def keep_zones(text: str, cfg: PolicyConfig | None = None) -> list[Span]:
    """Character ranges a decision publishes in clear text."""
    cfg = cfg or PolicyConfig()
    zones: list[Span] = []
    if cfg.keep_courts:
        zones += court_zones(text)
    if cfg.keep_case_numbers:
        zones += [Span(m.start(), m.end(), "CASE_REFERENCE") for m in CASE_NUMBER.finditer(text)]
    if cfg.keep_statutes:
        zones += [Span(m.start(), m.end(), "LAW") for m in STATUTE.finditer(text)]
    if cfg.keep_citations:
        zones += [Span(m.start(), m.end(), "CASE_REFERENCE") for m in CITATION.finditer(text)]
    if cfg.keep_judges:
        zones += judge_zones(text)
    if cfg.keep_states:
        zones += [Span(m.start(), m.end(), PUBLIC_ENTITY) for m in _states().finditer(text)]
    return sorted(zones)


# Court seats that are also surnames; a village named like a person does not count.
_BIG_CITIES = frozenset(
    "Berlin Hamburg München Köln Frankfurt Stuttgart Düsseldorf Leipzig Dortmund Essen Bremen "
    "Dresden Hannover Nürnberg Duisburg Bochum Wuppertal Bielefeld Bonn Münster Mannheim "
    "Karlsruhe Augsburg Wiesbaden Mönchengladbach Gelsenkirchen Aachen Braunschweig Kiel "
    "Chemnitz Halle Magdeburg Freiburg Krefeld Mainz Lübeck Erfurt Oberhausen Rostock Kassel "
    "Hagen Potsdam Saarbrücken Hamm Ludwigshafen Oldenburg Mülheim Osnabrück Leverkusen "
    "Darmstadt Heidelberg Solingen Regensburg Herne Paderborn Neuss Ingolstadt Offenbach Fürth "
    "Würzburg Ulm Heilbronn Pforzheim Wolfsburg Göttingen Bottrop Reutlingen Koblenz Bremerhaven "
    "Erlangen Bergisch Trier Jena Remscheid Siegen Hildesheim Salzgitter Cottbus Kleve Celle "
    "Bamberg Bayreuth Coburg Landshut Passau Traunstein Kempten Memmingen Amberg Weiden Hof "
    "Ansbach Aschaffenburg Schweinfurt Deggendorf Straubing Rosenheim".split()
)


_LAENDER = (
    "Baden-Württemberg Bayern Berlin Brandenburg Bremen Hamburg Hessen Mecklenburg-Vorpommern "
    "Niedersachsen Nordrhein-Westfalen Rheinland-Pfalz Saarland Sachsen Sachsen-Anhalt "
    "Schleswig-Holstein Thüringen Berlin-Brandenburg".split()
)


@lru_cache(maxsize=1)
def _states() -> re.Pattern[str]:
    """Countries (the gazetteer's short and official names) and the German Länder, with a
    genitive "s"; a name Wiktionary also knows as a person's name is left out."""
    from deid.lexicon import LEX_NAME, lexical_class
    from deid.surrogates.gazetteers import read_lines

    states = (*read_lines("countries.txt.xz"), *_LAENDER)
    names = {c for c in states if lexical_class(c) != LEX_NAME}
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w\-])(?:{alternatives})s?(?![\w\-])")


@lru_cache(maxsize=1)
def _public_places() -> frozenset[str]:
    """German cities and states: a court's seat is public, any other word after it is not."""
    from deid.surrogates.gazetteers import read_lines

    surnames = frozenset(read_lines("surnames.txt.xz"))
    cities = frozenset(c for c in read_lines("cities.txt.xz") if c not in surnames or c in _BIG_CITIES)
    return cities | frozenset(read_lines("countries.txt.xz")) | frozenset(_LAENDER)


def court_zones(text: str) -> list[Span]:
    """Court names, with their seat when the next word is a known place ("Landgericht Kleve"
    but not "das Landgericht Schmidt als Zeugen")."""
    places = _public_places()
    zones: list[Span] = []
    for m in COURT.finditer(text):
        end = m.end()
        seat = _PLACE.match(text, end)
        if seat:
            name = seat.group(1)
            if name in places or name.split()[0] in places or name.split("-")[0] in places:
                end = seat.end()
        zones.append(Span(m.start(), end, "COURT"))
    return zones


def judge_zones(text: str) -> list[Span]:
    """The bench line ("durch die Vorsitzende Richterin … Dr. X und die Richter Y und Z
    beschlossen") and the signature block (name-only lines closing the decision)."""
    zones: list[Span] = []
    for m in _BENCH_START.finditer(text):
        end = _BENCH_END.search(text, m.end(), min(len(text), m.end() + 600))
        if end:
            zones.append(Span(m.start(), end.start(), "JUDGE"))
    lines = text.split("\n")
    pos = len(text)
    block_start = None
    trailing = 0
    for line in reversed(lines):
        start = pos - len(line)
        stripped = line.strip()
        if not stripped:
            pos = start - 1
            continue
        if _SIGNATURE_LINE.match(stripped) and len(stripped) <= 60:
            block_start = start
            trailing += 1
            pos = start - 1
            continue
        break
    if block_start is not None and trailing >= 2:
        zones.append(Span(block_start, len(text), "JUDGE"))
    # signature blocks in the middle (LER documents are concatenations of sentences)
    return zones


def _unsure_word(text: str, span: Span, min_score: float, attached: bool) -> bool:
    if span.source != MODEL_SOURCE or (span.score or 0.0) >= min_score:
        return False
    surface = text[span.start : span.end]
    return is_ordinary_word(surface) or (not attached and plain_compound(surface))


_JOINT = re.compile(r"[ \-„“\"]{1,2}")


def _attached(text: str, spans: list[Span]) -> set[int]:
    """Indices of spans that touch another one across a space, hyphen or quote."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i].start, spans[i].end))
    out: set[int] = set()
    for a, b in zip(order, order[1:]):
        left, right = spans[a], spans[b]
        if left.end <= right.start and _JOINT.fullmatch(text[left.end : right.start]):
            out.update((a, b))
    return out


def _without_digit(text: str, span: Span, labels: tuple[str, ...]) -> bool:
    surface = text[span.start : span.end]
    return span.source == MODEL_SOURCE and span.label in labels and not any(c.isdigit() for c in surface)


def _kept_by(zone: Span, span: Span) -> bool:
    """A span touching a court, law, judge … zone is dropped; a state name only drops a span
    that is no more than it ("Ukraine", not "Amazon Deutschland GmbH")."""
    if zone.label == PUBLIC_ENTITY:
        return zone.start <= span.start and span.end <= zone.end
    return zone.start < span.end and span.start < zone.end


def apply_policy(text: str, spans: Iterable[Span], cfg: PolicyConfig | None = None, zones: list[Span] | None = None) -> list[Span]:
    """Drop predicted spans that touch a keep zone (or lie within a state name), carry a kept
    label, are an ordinary word or a lone compound of them the model is not sure about, or a
    number without a digit."""
    cfg = cfg or PolicyConfig()
    zones = keep_zones(text, cfg) if zones is None else zones
    out: list[Span] = []
    starts = [z.start for z in zones]
    import bisect

    digit_labels = tuple(cfg.digit_labels)
    spans = list(spans)
    attached = _attached(text, spans)
    for index, span in enumerate(spans):
        if (
            span.label in cfg.keep_labels
            or _unsure_word(text, span, cfg.common_noun_min_score, index in attached)
            or _without_digit(text, span, digit_labels)
        ):
            continue
        i = bisect.bisect_right(starts, span.start)
        nearby = zones[max(0, i - 50) : i + 1]
        if any(_kept_by(z, span) for z in nearby):
            continue
        out.append(span)
    return out
