"""Shared German legal vocabulary: street suffixes, legal forms, court abbreviations and the
shape of a capitalized word or name.

Every rule that needs one of these reads it here, so a street word or a legal form added
once is known to the recognizers, the placeholder miner, the policy and the surrogates
alike. Where a reader needs a narrower or wider list, it is derived here from the base with
a name and a reason, never written out again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def alternation(words: Iterable[str]) -> str:
    """``words`` as a regex alternation (``straße|str\\.|weg``), each escaped; no group."""
    return "|".join(re.escape(w) for w in words)


# --- streets ---------------------------------------------------------------------------
# A road's class before "straße" (lower case): "Staatsstraße 2125", "Kreisstraße SR 12" name a
# public road by its number, no street of an address
ROAD_CLASSES = (
    r"bundes|staats|kreis|landes|land|gemeinde|orts|durchgangs|verbindungs|zufahrts|erschließungs"
)
# Street words a name ends in, lower case ("Bahnhofstraße", "Kstraße", "Ziegeleiweg"). No
# word is a prefix of another, so the order of an alternation built from them is irrelevant.
STREET_SUFFIXES: tuple[str, ...] = (
    "straße", "strasse", "str.", "weg", "platz", "allee", "gasse", "ring", "damm",
)  # fmt: skip
# The address recognizer also knows rarer street words of addresses with a house number.
ADDRESS_STREET_SUFFIXES: tuple[str, ...] = (*STREET_SUFFIXES, "ufer", "steig", "pfad", "chaussee")
# A word that ends like a street is never a plain compound nor a placeholder's neighbour noun;
# this test is about a word's form only, so it takes every street head the miner has seen.
STREET_WORD_SUFFIXES: tuple[str, ...] = (
    *ADDRESS_STREET_SUFFIXES, "promenade", "anger", "stieg", "kamp", "rampe",
)  # fmt: skip
STREET_WORD = re.compile(rf"(?:{alternation(STREET_WORD_SUFFIXES)})$", re.IGNORECASE)
# The field, water and landmark words a street named with a preposition ends in ("Am Mühlbach",
# "An der Leiten", "Im Winkel", "Zur Schmiede"; one in seven streets of the OpenStreetMap list
# starts with a preposition). Common words themselves, so only a preposition before and a house
# number after make them an address; the words they also end are left out (``_NOT_FIELD``).
FIELD_STREET_HEADS: tuple[str, ...] = (
    "berg", "berge", "bach", "feld", "felde", "garten", "graben", "acker", "busch", "hof", "wald",
    "walde", "mühle", "stein", "grund", "wiese", "wiesen", "rain", "holz", "bruch", "brunnen",
    "born", "winkel", "turm", "weide", "weiher", "kirche", "burg", "bühl", "büchel", "baum", "tal",
    "horst", "hang", "kreuz", "moor", "moos", "ried", "leite", "leiten", "höhe", "markt", "anger",
    "kapelle", "schmiede", "see", "teich", "heide", "halde", "forst", "brühl", "deich", "hafen",
    "schloss", "schloß", "schanze", "wall", "weiler", "hain", "hügel", "point", "gries", "lohe",
    "ziegelei", "bleiche",
)  # fmt: skip
_NOT_FIELD = r"(?:an|zusammen|über)hang|(?:hinter|vorder|unter|ab|s)grund|(?:kapi|hospi|spi|to|den|digi)tal"
FIELD_STREET_WORD = re.compile(
    rf"(?<!\w)(?!\w*(?:{_NOT_FIELD})$)\w*(?:{alternation(FIELD_STREET_HEADS)})$", re.IGNORECASE
)

# What comes before a street's own word and belongs to its name ("Alte Poststraße", "Unterer
# Markt", "Große Rosengasse", "Dr.-Carl-Benz-Straße"): a capitalized adjective, declined, or a
# title or saint; and the capitalized preposition a street's name may begin with ("Am Anger",
# "Auf dem Hassel", "Zur Vogelhecke"). Mid-sentence a capital preposition is no prose.
_STREET_ADJECTIVE_STEMS = (
    "Alt", "Neu", "Ober", "Unter", "Groß", "Klein", "Hoh", "Lang", "Breit", "Hinter", "Vorder",
    "Inner", "Äußer", "Mittler", "Nieder", "Kurz", "Krumm", "Schmal", "Weit", "Still", "Grün",
    "Rot", "Weiß", "Schwarz", "Tief", "Schön",
)  # fmt: skip
STREET_PREFIX_WORD = rf"(?:(?:{alternation(_STREET_ADJECTIVE_STEMS)})e[rsn]?|St\.|Sankt|Dr\.|Prof\.)"
# An abbreviated title or saint a street's hyphenated name may begin with ("Dr.-", "St.-", "Bgm.-")
TITLE_ABBREVIATION = r"[A-ZÄÖÜ][a-zäöü]{1,5}\."
# The same adjectives declined after a preposition, capitalized or not ("Im Oberen Feld", "Am
# großen Bleek"): a street's name between its preposition and its word.
STREET_ADJECTIVE = rf"(?:(?:{alternation((*_STREET_ADJECTIVE_STEMS, *(s.lower() for s in _STREET_ADJECTIVE_STEMS)))})e[rsn]?)"
_STREET_PREPOSITIONS = (
    "Am", "Im", "Beim", "Zum", "Zur", "Vorm", "Hinterm", "Unterm", "Überm", "An der", "An den",
    "Auf der", "Auf dem", "Auf den", "In der", "In den", "Hinter der", "Hinter dem", "Hinter den",
    "Unter der", "Unter den", "Vor dem", "Vor der", "Bei der", "Zu den", "Über der", "Auf",
)  # fmt: skip
# as one regex (no group), the longest first ("Auf dem" before "Auf"), a space or a no-break space
STREET_PREPOSITION = "|".join(p.replace(" ", "[ \u00a0]") for p in sorted(_STREET_PREPOSITIONS, key=len, reverse=True))

# --- organizations ---------------------------------------------------------------------
# Legal forms and their spellings: a word of these names no company by itself.
LEGAL_FORMS: frozenset[str] = frozenset(
    """GmbH gGmbH mbH mbB AG KG KGaA OHG oHG GbR UG SE eG EG Ltd Ltd. Limited Inc Inc.
    LLC LLP plc PLC S.A. SA SAS SARL S.à.r.l. B.V. BV N.V. NV Co. Co & e.V. eV e.K. e.Kfm.
    Aktiengesellschaft Kommanditgesellschaft Partnerschaft PartG PartGmbB AöR KdöR
    Holding Stiftung Genossenschaft Gesellschaft GesmbH Sp. z o.o. s.r.o. EWIV
    Kapitalanlagegesellschaft Fleischhandelsgesellschaft""".split()
)
# How a legal form stands after a firm's name, as one regex (no group): one or more of
# LEGAL_FORMS joined by spaces or "& Co." ("GmbH & Co. KG", "PartG mbB", "KGaA"), a dotted
# form spaced or not ("e.V.", "e. V."), "UG (haftungsbeschränkt)". "&" and "Co." only join.
_JOINS = frozenset({"&", "Co", "Co."})
_FORM_WORDS = sorted(LEGAL_FORMS - _JOINS, key=len, reverse=True)
_FORM_WORD = (
    r"(?:"
    + "|".join(re.escape(w).replace(r"\.", r"\.[ \u00a0]?") for w in _FORM_WORDS)
    + r")(?<![ \u00a0])(?![\w\-])"
)
LEGAL_FORM_TAIL: str = (
    rf"{_FORM_WORD}(?:(?:[ \u00a0]?&[ \u00a0]?Co\.?[ \u00a0]?|[ \u00a0]){_FORM_WORD})*"
    r"(?:[ \u00a0]\(haftungsbeschränkt\))?"
)
# The words that name a law, tax or patent practice's kind after its name ("Huber Rechtsanwälte
# PartG mbB") and the partners' tail that closes it ("Berger & Partner", "Lindner und Kollegen").
PRACTICE_WORDS: tuple[str, ...] = (
    "Rechtsanwälte", "Rechtsanwaltsgesellschaft", "Patentanwälte", "Steuerberater",
    "Steuerberatungsgesellschaft", "Wirtschaftsprüfungsgesellschaft",
)  # fmt: skip
PRACTICE_PARTNERS: str = r"(?:Partner|Kollegen)(?![\w\-])"
PRACTICE_TAIL: str = rf"(?:&|und)[ \u00a0]{PRACTICE_PARTNERS}"
# The heads of a trade's compound that a craftsman's or dealer's firm puts after its founder's
# name ("Wimmer Holzbau", "Lindinger Sicherheitstechnik", "Kerscher Gebäudereinigung"): German
# word formation, written here for detection. The surrogate generator's whole trade words
# (deid.rewrite.surrogates.organization.TRADES) stay apart: the LER test sets' firms come from
# them, and a detector that read them would measure the list.
TRADE_HEADS: tuple[str, ...] = (
    "bau", "technik", "handel", "service", "logistik", "transporte", "vertrieb", "beratung",
    "reinigung", "montage", "planung", "systeme", "elektrik", "medien", "werbung", "touristik",
    "gastronomie", "fotografie", "optik", "akustik", "verwaltung", "vermietung", "entsorgung",
)  # fmt: skip
# The common one-word forms: a lowercase letter before one is a company placeholder ("w
# GmbH", deid.rewrite.placeholders.gold; the miner takes a narrower subset, deid.rewrite.placeholders).
COMMON_LEGAL_FORMS: tuple[str, ...] = ("GmbH", "AG", "KG", "OHG", "GbR", "Holding", "UG", "SE", "mbH", "gGmbH")

# --- courts ----------------------------------------------------------------------------
# Abbreviations of German and European courts ("BGH", "OLG", "EuGH"); in this order in an
# alternation (a word boundary follows each, so no shorter one cuts a longer one short).
COURT_ABBREVIATIONS: tuple[str, ...] = (
    "BVerfG", "BVerwG", "BGH", "BAG", "BSG", "BFH", "BPatG", "OLG", "OVG", "VGH", "LSG", "LAG",
    "FG", "LG", "AG", "VG", "SG", "ArbG", "KG", "EuGH", "EGMR", "BayVGH", "BayObLG", "TDG",
)  # fmt: skip

# --- dates -----------------------------------------------------------------------------
# German month names and their abbreviations ("Jänner" is Austrian), as a regex alternation.
MONTH_WORDS = (
    "Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"
    r"|Jan\.|Feb\.|Mär\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Okt\.|Nov\.|Dez\."
)

# --- capitalized words and names -------------------------------------------------------
UPPER = "A-ZÄÖÜ"  # a German capital letter (character class body)
LOWER = "a-zäöüß"  # a German small letter
CAPITALIZED_WORD = rf"[{UPPER}][{LOWER}]+"  # "Geiger", "Ziegelei"
# A surname, double names included ("Geiger", "Schmidt-Aßmann").
CAPITALIZED_NAME = rf"{CAPITALIZED_WORD}(?:-{CAPITALIZED_WORD})?"

# --- police ranks ----------------------------------------------------------------------
# A police officer's rank before the name, as Bavarian decisions cite a witnessing officer
# ("PHM Gerstl", "POMin Huber", "Kriminalhauptkommissar Wendl"). Only the abbreviations that
# name nothing else: "PM" (a press release), "PK", "KK" (a health insurer) and "KM" (kilometres)
# are left out. As a regex alternation, longest first.
_RANK_ABBREVIATIONS = ("EPHK", "EKHK", "POM", "PHM", "POK", "PHK", "KOK", "KHK", "KOM")
_RANK_WORDS = (
    "Polizeimeister", "Polizeiobermeister", "Polizeihauptmeister", "Polizeikommissar",
    "Polizeioberkommissar", "Polizeihauptkommissar", "Erster Polizeihauptkommissar",
    "Kriminalkommissar", "Kriminaloberkommissar", "Kriminalhauptkommissar", "Kriminalobermeister",
)  # fmt: skip
_SPACED_RANK_WORDS = tuple(w.replace(" ", "[ \u00a0]") for w in _RANK_WORDS)
POLICE_RANK = "|".join(
    sorted(
        [*(f"{a}(?:in)?" for a in _RANK_ABBREVIATIONS), *(f"{w}(?:in|s)?" for w in _SPACED_RANK_WORDS)],
        key=len,
        reverse=True,
    )
)
