"""The role a name plays where the text says it: a lawyer's name after "Rechtsanwalt", the
seat in an authority's or lower court's name ("Landratsamt Ebersberg", "Polizeiinspektion Bad
Tölz"). The anonymization profiles (deid.anonymizer.profiles) decide by role, not by type; the
training data, the gold sets and the profile step all read roles from here.

The model learns roles (deid.schema.ROLE_LABELS) from training text labelled with these rules:
the courts' placeholders after such a word, and the LER training courts' own annotations
(a lawyer ``AN``, the place at the end of an institution's or a court's name). The same rules
give the roles of the hand-rewritten Bavarian gold set's spans, which carry types only, and
the profile step uses them for a model that predicts no role.

The word lists were written from the training decisions, the LER training courts and the
Bavarian set's dev half, never its sealed half.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from deid.schema import (
    CONTACT,
    DATE,
    EVENT_DATE,
    FILE_REFERENCE,
    ID,
    LAWYER,
    LOCATION,
    ORGANIZATION,
    PERSON,
    SEAT,
    WEB_PAGE,
    Span,
    coarse_label,
)
from deid.words.shape_cues import is_role
from deid.words.vocab import MONTH_WORDS

# People whose names the strict profile neutralizes and the federal one keeps where printed:
# lawyers, patent attorneys, tax advisers, insolvency administrators (the policy's row).
_LAWYER_WORDS = (
    r"Rechtsanw(?:alt|alts|ältin|älte|älten)|RA(?:in)?|Fachanw(?:alt|ältin)|Patentanw(?:alt|alts|ältin|älte|älten)"
    r"|Steuerberater(?:in|s|n)?|Insolvenzverwalter(?:in|s)?|Prozessbevollmächtigte[rn]?|Verfahrensbevollmächtigte[rn]?"
    r"|Bevollmächtigte[rn]?|Verteidiger(?:in|s)?|Pflichtverteidiger(?:in|s)?|Wahlverteidiger(?:in|s)?"
)
_TITLES = r"(?:(?:Dr\.|Prof\.|Dipl\.-[\wäöü]+\.?|LL\.\s?M\.|Herrn?|Frau)\s)*"
LAWYER_BEFORE = re.compile(rf"(?<![\w-])(?:{_LAWYER_WORDS})\s?:?\s{_TITLES}$")
# A second name of the same counsel: "Rechtsanwälte A., B. und C." — the words between the
# cue and the span are names, initials, commas and "und"/"&".
LAWYER_LIST_BEFORE = re.compile(
    rf"(?<![\w-])(?:{_LAWYER_WORDS})\s?:?\s(?:{_TITLES}[\wÄÖÜäöüß.\-]+(?:\s[\wÄÖÜäöüß.\-]+)?\s?(?:,|und|&)\s){{1,4}}{_TITLES}$"
)

# Authorities and lower courts whose name ends with the place they sit in. Landgerichte,
# Oberlandesgerichte and higher courts sit in big cities, so their seats stay in any profile.
_AUTHORITY_WORDS = (
    r"Landratsamt(?:e?s)?|Landratsämter|Polizeiinspektion(?:en)?|Polizeipräsidium(?:s)?|Polizeidirektion|"
    r"Polizeistation|Polizeiwache|Polizeidienststelle|Kriminalpolizeiinspektion|Verkehrspolizeiinspektion|"
    r"Grenzpolizeiinspektion|Autobahnpolizeistation|Polizei|Staatsanwaltschaft|Generalstaatsanwaltschaft|"
    r"Amtsgericht(?:e?s)?|Arbeitsgericht(?:e?s)?|Sozialgericht(?:e?s)?|Verwaltungsgericht(?:e?s)?|"
    r"Finanzgericht(?:e?s)?|Jobcenter(?:s)?|Ausländerbehörde|Ausländeramt(?:e?s)?|Finanzamt(?:e?s)?|"
    r"Jugendamt(?:e?s)?|Gesundheitsamt(?:e?s)?|Schulamt(?:e?s)?|Sozialamt(?:e?s)?|Bauamt(?:e?s)?|"
    r"Ordnungsamt(?:e?s)?|Standesamt(?:e?s)?|Bürgeramt(?:e?s)?|Einwohnermeldeamt(?:e?s)?|Vermessungsamt(?:e?s)?|"
    r"Wasserwirtschaftsamt(?:e?s)?|Straßenbauamt(?:e?s)?|Veterinäramt(?:e?s)?|Zollamt(?:e?s)?|Hauptzollamt(?:e?s)?|"
    r"Agentur für Arbeit|Arbeitsagentur|Bundesagentur für Arbeit|Stadtverwaltung|Kreisverwaltung|"
    r"Gemeindeverwaltung|Verwaltungsgemeinschaft|Stadtwerke|Gemeinde|Stadt|Markt(?:gemeinde)?|Landkreis(?:es)?|"
    r"Kreis(?:es)?|Bezirksamt(?:e?s)?|Grundschule|Mittelschule|Realschule|Gymnasium|Gesamtschule|"
    r"Förderschule|Berufsschule|Kindergarten|Kindertagesstätte|Kita|Justizvollzugsanstalt|JVA|"
    r"Grundbuchamt(?:e?s)?|Nachlassgericht(?:e?s)?|Betreuungsgericht(?:e?s)?|Familiengericht(?:e?s)?|"
    r"Vollstreckungsgericht(?:e?s)?|Registergericht(?:e?s)?|Insolvenzgericht(?:e?s)?"
)
# "Landratsamt Ebersberg", "Polizeiinspektion in Bad Tölz", "Jobcenter Landkreis Görlitz",
# "Amtsgericht – Familiengericht – Erding", "Landratsamt des Landkreises Miesbach"
_LINK = (
    r"(?:\s(?:[–-]\s[A-ZÄÖÜ][\wäöüß]+\s[–-]))?"  # "– Familiengericht –"
    r"(?:\s(?:des|der|im|für\sden|für\sdie)\s(?:Landkreises|Landkreis|Kreises|Stadt|Marktes|Gemeinde|Bezirks|Region))?"
    r"(?:\s(?:Landkreis|Stadt|Markt|Kreis|Gemeinde))?"
    r"(?:\s(?:in|am|an\sder|bei))?"
)
# an authority's or a lower court's word and its link, before the place it sits in
SEAT_CUE = rf"(?<![\w-])(?:{_AUTHORITY_WORDS}){_LINK}\s"
SEAT_BEFORE = re.compile(rf"{SEAT_CUE}$")
# A place as the last words of an institution's or court's name (LER's INN, GRT, ORG spans):
# what follows the authority word, one to four capitalized words (or "a.d." style particles).
_PLACE_TAIL = r"(?P<place>[A-ZÄÖÜ][\wäöüß.\-]*(?:\s(?:(?:a\.|i\.|an|am|in|im|ob|bei|vor|der|d\.)\s?)*[A-ZÄÖÜ(][\wäöüß.\-)]*){0,3})"
SEAT_IN_NAME = re.compile(rf"(?<![\w-])(?:{_AUTHORITY_WORDS}){_LINK}\s{_PLACE_TAIL}$")
# roman numerals and directions name a court's part, not a place ("Landgericht München I")
_NOT_A_PLACE = re.compile(r"^(?:[IVX]+|Nord|Süd|Ost|West|Mitte)$")


# --- dates and places in the file ----------------------------------------------------------
# The policy neutralizes dates of birth, death and marriage and prints every other date. A
# model that learned dates and file numbers from the courts' placeholders also marks a
# letter's date, or its year alone, as a DATE or an ID ("Schriftsatz vom 06.04.2023",
# "30.[08.2022]"). A date here: a day and month with or without the year, a month and year,
# an ISO date, a year alone (never a part of a file number such as "123/2023").
_DATE_EXPRESSION = re.compile(
    rf"(?<![\w.,/-])(?:\d{{1,2}}\.\s?(?:\d{{1,2}}\.|(?:{MONTH_WORDS}))(?:\s?(?:19|20)?\d{{2}}(?![\d/]))?"
    rf"|\d{{1,2}}\.(?:19|20)\d{{2}}(?![\d/])|(?:{MONTH_WORDS})\s(?:19|20)\d{{2}}(?![\d/])"
    rf"|(?:19|20)\d{{2}}-\d{{2}}-\d{{2}}|(?:19|20)\d{{2}}(?![\d/]|[.,]\d))"
)
# Words of the same clause that make a date personal: birth, death, marriage (before the date:
# "verstarb am", "geb.", "*"; after it: "geborene", "verstorben", "geheiratet").
_PERSONAL_DATE_CUE = re.compile(
    r"(?i:geb\.|geboren\w*|geburts\w*|verstorben\w*|verstarb|gestorben\w*|starb|tod\b|todes\w*|sterbe\w*"
    r"|heirat\w*|geheiratet|verheiratet\w*|eheschließung|trauung)|[*†]"
)
_CLAUSE_END = re.compile(r"[;!?]\s|\.\s+(?=[A-ZÄÖÜ])|\n")
# A page, margin number or exhibit of the court file, and the numbers listed after it:
# "Bl. 214 ff. d.A.", "Bl. 256 und 262", "S. 25", "Rn. 18", "Anlage K 3". Not a land register's
# sheet ("Grundbuch von …, Blatt 2" identifies a plot).
_FILE_PLACE_BEFORE = re.compile(
    r"(?<![\w.])(?:Bl\.|S\.|Seiten?|Rn\.|Rz\.|Randnr\.|Randnummern?|Anlagen?|Anl\.)\s?(?:[A-Z]{1,3}\s?)?"
    r"(?:\d+\s?(?:ff?\.)?\s?(?:,|und|bis|-|–|/)\s?)*$"
)
_LAND_REGISTER = re.compile(r"Grundbuch", re.IGNORECASE)
_FILE_NUMBER = re.compile(r"^\d+(?:\s?(?:ff?\.|[-–/]\s?\d+))?$")


def date_role(text: str, span: Span) -> str | None:
    """The policy's role of a DATE or ID span that is a date or a place in the court file:
    DATE for a date of birth, death or marriage, EVENT_DATE for any other date, FILE_REFERENCE
    for "Bl. 214"; None when the span is neither (an identifier, a date inside a file number)."""
    if span.label not in (DATE, ID):
        return None
    surface = text[span.start : span.end]
    if not any(c.isdigit() for c in surface):
        return None
    lo = max(0, span.start - 60)
    for match in _DATE_EXPRESSION.finditer(text, lo, span.end + 60):
        if match.start() <= span.start and span.end <= match.end():
            before = _CLAUSE_END.split(text[max(0, match.start() - 60) : match.start()])[-1]
            after = _CLAUSE_END.split(text[match.end() : match.end() + 30])[0]
            return DATE if _PERSONAL_DATE_CUE.search(before) or _PERSONAL_DATE_CUE.search(after) else EVENT_DATE
    before = text[lo : span.start]
    if _FILE_NUMBER.match(surface) and _FILE_PLACE_BEFORE.search(before) and not _LAND_REGISTER.search(before):
        return FILE_REFERENCE
    return None


# A full date: day, month (a number or a month's word) and year ("26. November 1948", "3.5.2001")
_FULL_DATE = re.compile(
    rf"(?<![\w.,/-])\d{{1,2}}\.\s?(?:\d{{1,2}}\.\s?|(?:{MONTH_WORDS})\s)(?:19|20)\d{{2}}(?![\d/]|[.,]\d)"
)


def personal_dates(text: str) -> list[Span]:
    """Every full date of ``text`` that :func:`date_role` reads as a date of birth, death or
    marriage (DATE): what the policy neutralizes under every profile. A gold set whose
    source annotates no dates (LER) lists those its court printed (deid.rewrite.gold.auto)."""
    found = (Span(m.start(), m.end(), DATE) for m in _FULL_DATE.finditer(text))
    return [span for span in found if date_role(text, span) == DATE]


# --- web pages ------------------------------------------------------------------------------
# The hosts where an address's path names a person's or a firm's account (a handle, which every
# profile neutralizes), not a page the decision cites
_ACCOUNT_HOSTS = frozenset(
    "facebook.com fb.com instagram.com tiktok.com twitter.com x.com youtube.com youtu.be linkedin.com "
    "xing.com xing.de t.me wa.me snapchat.com pinterest.com pinterest.de threads.net twitch.tv "
    "kleinanzeigen.de ebay-kleinanzeigen.de ebay.de ebay.com onlyfans.com telegram.me".split()
)


def page_role(text: str, span: Span) -> str | None:
    """WEB_PAGE for a contact span that is a web address with a path: a page the decision
    cites ("vgl. https://de.wikipedia.org/wiki/Lack", "www.g-ba.de/informationen/beschluesse/
    3013/") or a party's media; None for a bare domain ("www.kugler-testet.de"), a path on an
    account host (a profile is a handle), or no web address."""
    if coarse_label(span.label) != CONTACT:
        return None
    surface = text[span.start : span.end]
    if "@" in surface or not re.match(r"(?i)(?:https?://|ftp://|www\.)", surface):
        return None
    parts = urlsplit(surface if "://" in surface else f"http://{surface}")
    host = (parts.hostname or "").removeprefix("www.")
    if not host or host in _ACCOUNT_HOSTS or any(host.endswith(f".{h}") for h in _ACCOUNT_HOSTS):
        return None
    return WEB_PAGE if parts.path.strip("/") or parts.query else None


def role_label(text: str, span: Span, *, dates: bool = False, pages: bool = False) -> str:
    """The span's label with the role its context gives: LAWYER for a person after a lawyer's
    title ("Rechtsanwalt Dr. K.", "Rechtsanwälte A., B. und C."), SEAT for a place after an
    authority or lower court ("Landratsamt E."); with ``dates``, the role of a date or a place
    in the file (:func:`date_role`; the policy since version 2 and the gold sets' scoring);
    with ``pages``, a web page's (:func:`page_role`; the policy since version 3, the gold sets'
    scoring); otherwise the label as it is."""
    if dates and (role := date_role(text, span)) is not None:
        return role
    if pages and (role := page_role(text, span)) is not None:
        return role
    before = text[max(0, span.start - 120) : span.start]
    if span.label == PERSON and (LAWYER_BEFORE.search(before) or LAWYER_LIST_BEFORE.search(before)):
        return LAWYER
    if span.label == LOCATION and SEAT_BEFORE.search(before):
        return SEAT
    return span.label


# Where the text itself places someone: a residence, a birthplace, a firm's seat, a plot's
# cadastral district ("wohnhaft in Laufen", "mit Sitz in Au", "Gemarkung Oberhummel").
_RESIDENCE_BEFORE = re.compile(
    r"(?<![\w-])(?:(?:wohnhaft|wohnt|wohnen|wohnte|wohnten|lebt|leben|lebte|lebten|geboren|ansässig|Sitz|"
    r"Wohnsitz|Wohnort|Geburtsort)\s(?:in|im\sOrtsteil)|Gemarkung|Ortsteil|Weiler)\s$"
)
_NAME_LABELS = frozenset({PERSON, ORGANIZATION})


def placed(text: str, span: Span, name_ends: frozenset[int] = frozenset()) -> bool:
    """Whether ``span`` (a place) stands where the text names a place: after a residence,
    birth or seat cue, an authority's word (:data:`SEAT_BEFORE`), or "in" right after a
    person's or firm's name, one of whose spans ends at an offset in ``name_ends``
    (:func:`name_ends`; "Notarin Dr. Ulrike Hagenauer in Laufen"). A place whose name is also a
    noun's form ("Laufen", "Stephanskirchen") is a place there."""
    before = text[max(0, span.start - 120) : span.start]
    if _RESIDENCE_BEFORE.search(before) or SEAT_BEFORE.search(before):
        return True
    return text[max(0, span.start - 4) : span.start] == " in " and span.start - 4 in name_ends


_WORD_BEFORE = re.compile(r"(\S+)\s+$")


def after_person_role(text: str, span: Span) -> bool:
    """Whether the word before ``span`` names a person's role or title ("der Angeklagte
    Trosthuber", "Dr. Hopfeneder", "Staatsanwältin Bühlmoser"): a name stands there."""
    before = _WORD_BEFORE.search(text, max(0, span.start - 40), span.start)
    return bool(before) and is_role(before.group(1).rstrip(",:"))


def name_ends(spans: Sequence[Span]) -> frozenset[int]:
    """Where the person and firm spans among ``spans`` end (what :func:`placed` looks up)."""
    return frozenset(s.end for s in spans if s.label in _NAME_LABELS)


def with_roles(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` relabelled by :func:`role_label`."""
    return [s.with_label(role_label(text, s)) for s in spans]


def seat_in_name(text: str, name: Span) -> Span | None:
    """The seat at the end of an authority's or lower court's name span ("Landratsamt
    Ebersberg" → "Ebersberg"), or None when the name ends with no place."""
    match = SEAT_IN_NAME.search(text, name.start, name.end)
    if match is None or match.end() != name.end:
        return None
    place = match.group("place").rstrip(".")
    if not place or _NOT_A_PLACE.match(place.split()[0]):  # "Landgericht I" names no place
        return None
    start = match.start("place")
    return Span(start, start + len(place), SEAT)  # "München I": the seat with its number
