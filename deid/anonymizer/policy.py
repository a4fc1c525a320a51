"""What a decision keeps in clear text, whatever a model or recognizer says.

Courts, judges (in the signature and in the bench line "durch die Richterin … Dr. X"),
laws and statute references, court case numbers, published citations and the names of
states (countries and the German Länder: an asylum seeker's "Ukraine" is no address) are
public. A predicted span touching such a zone is dropped. The zones are found by rules on
the document text; which kinds apply is configurable.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from deid.anonymizer.judges import judge_zones_v3
from deid.schema import LITERATURE, MODEL_SOURCE, PERSON, PUBLIC_ENTITY, Span, coarse_label
from deid.words.gazetteer import cities, person_and_place_names
from deid.words.lexicon import LEX_UNKNOWN, is_common_noun, lexical_class, reads_as_noun
from deid.words.public import public_words
from deid.words.shape_cues import is_role
from deid.words.shapes import plain_compound, zipf
from deid.words.vocab import CAPITALIZED_NAME, COURT_ABBREVIATIONS, LEGAL_FORM_TAIL, alternation
from deid.words.written import at_sentence_start

_COURT_WORDS = (
    r"(?:Bundes|Ober|Land|Amts|Verwaltungs|Oberverwaltungs|Finanz|Sozial|Landessozial|Arbeits|"
    r"Landesarbeits|Verfassungs|Bundesverfassungs|Bundesverwaltungs|Bundesarbeits|Bundessozial|"
    r"Bundesfinanz|Bundespatent|Patent|Truppendienst|Dienst|Familien|Kammer|Schöffen|Straf|"
    r"Landesverfassungs|Verwaltungsgerichts|Disziplinar|Anwalts|Berufs|Schieds)?gericht(?:s|es|shof|shofs|e|en)?"
)
_COURT_ABBR = rf"(?:{alternation(COURT_ABBREVIATIONS)})"
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
# version 3: "Aktenzeichen 10 2013 019 870.4" is a DPMA register number, no court's
CASE_NUMBER_V3 = re.compile(
    CASE_NUMBER.pattern.replace(
        r"|\b(?:Az\.|AZ:|Aktenzeichen:?)\s?",
        r"|\b(?:Az\.|AZ:|Aktenzeichen:?)(?!\s?(?:DE\s?)?(?:\d{2}\s\d{4}|\d{3}\s\d{2})\s\d{3}\b)\s?",
    )
)
# version 4: an authority's file number after "Az." is one token ("Az. 41-602-B-2021/0457",
# the permit recognizer's), a court's has spaces between its parts ("Az.: 1 BvR 123/20"); and
# the Bavarian courts' numbers, whose running number follows the year after a dot ("M 26b K
# 19.1234", "8 ZB 15.2237", "Au 7 S 23.1037")
CASE_NUMBER_V4 = re.compile(
    CASE_NUMBER_V3.pattern.replace(r"\s?[\w/.\- ]{3,30}?\d{2}\b", r"\s?(?=[\w/.\-]+\s\w)[\w/.\- ]{3,30}?\d{2}(?:[./]\d{1,5})?\b")
    + r"|\b(?:[A-Z][A-Za-z]?\s)?\d{1,2}\s?[a-z]?\s[A-Z]{1,3}\s\d{2}\.\d{1,5}\b"
)
# version 7: a number after "Az."/"Aktenzeichen" is a court's only where its first part is
# short and a space follows it ("Az. 1 BvR 123/20", "Aktenzeichen BVerwG 3 B 6.24"); version 4
# asked only for a space and a word after the first part, so an authority's number before its
# office ("Aktenzeichen 8.2-1234567 der Zentralen Bußgeldstelle", "Az. 41-602-B-2021/0457 des
# Landratsamts") was kept (probes written like Bavarian decisions; the same zones on the
# training, validation and dev texts)
CASE_NUMBER_V7 = re.compile(CASE_NUMBER_V4.pattern.replace(r"(?=[\w/.\-]+\s\w)", r"(?=[\w/.\-]{1,8}\s\w)"))
# version 8 (and no number across a line break, keep_zones):
# after "Az." an office's capitals and a number joined by hyphens, dots or slashes
# ("Az. SG 32-1431.2/22-187", the permit recognizer's office prefix) are an authority's file
# number, no court's "SG 32" (the from-scratch dev set; no other zone changes on the training,
# validation and dev texts)
_OFFICE_NUMBER = r"[A-Z]{1,4}\s\d+[-.]\d+[-./]"
CASE_NUMBER_V8 = re.compile(CASE_NUMBER_V7.pattern.replace(r"(?=[\w/.\-]{1,8}\s\w)", rf"(?=[\w/.\-]{{1,8}}\s\w)(?!{_OFFICE_NUMBER})"))
# version 9: a number after "Az. des"/"der" and an office that is no court ("Az. des Bundesamts
# 8912447-423", an asylum file) is the authority's; "Az. des Verwaltungsgerichts …" stays a
# court's (the from-scratch dev set)
_OF_AN_OFFICE = r"(?!\s?(?:des|der)\s(?![\w\-]*[Gg]erichts?\b)[\w\-]+)"
CASE_NUMBER_V9 = re.compile(
    CASE_NUMBER_V8.pattern.replace(r"|\b(?:Az\.|AZ:|Aktenzeichen:?)(?!", rf"|\b(?:Az\.|AZ:|Aktenzeichen:?){_OF_AN_OFFICE}(?!", 1)
)
_OFFICE_NUMBER_AFTER = re.compile(r"[ \u00a0]\d+[-.]\d+[-./]")  # "SG 32-1431.2/…": no court "SG"
# version 13: a number after "Az." that an authority's act and its date name ("Bescheid vom 6. Juni
# 2023 (Az. W 1422/23)", "Widerspruchsbescheid vom 11. Juli 2023, Az. U 22/4418735-K", "Schreiben
# vom 12.01.2023 (Az. BV 17/2022)") is the authority's, however much it looks like a court's
# ("W 1422/23" as a Würzburg chamber's); a court's decision is a "Gerichtsbescheid", "Urteil" or
# "Beschluss" (the from-scratch dev set)
_AUTHORITY_ACT_BEFORE = re.compile(
    r"(?<![\w\-])(?<!gerichtlichem[ \u00a0])(?<!gerichtlichen[ \u00a0])(?!Gerichtsbescheid)"
    r"(?:[A-ZÄÖÜ][a-zäöüß]*(?:bescheid|verfügung|genehmigung|erlaubnis|bewilligung)|Bescheid|Verfügung"
    r"|Genehmigung|Erlaubnis|Bewilligung|Schreiben)(?:e?s)?[ \u00a0]vom[ \u00a0]"
    r"\d{1,2}\.[ \u00a0]?(?:\d{1,2}\.[ \u00a0]?|[A-ZÄÖÜ][a-zäöü]+[ \u00a0])\d{4}(?:,[ \u00a0]?|[ \u00a0]?\()$"
)
_FILE_WORD = re.compile(r"Az\.|AZ:|Aktenzeichen")
_ACT_WINDOW = 80  # characters before "Az." that hold the act, its date and the bracket


def _authority_file(text: str, zone: re.Match[str]) -> bool:
    """A case number zone that is an authority's file number after its act's date (version 13)."""
    return _FILE_WORD.match(zone.group()) is not None and (
        _AUTHORITY_ACT_BEFORE.search(text, max(0, zone.start() - _ACT_WINDOW), zone.start()) is not None
    )


STATUTE = re.compile(
    r"(?:§§?|Art\.|Artikel)\s?\d+[a-z]?(?:\s?(?:Abs\.|Absatz|Satz|S\.|Nr\.|Buchst\.|lit\.|Alt\.|Halbsatz|Hs\.|UAbs\.|Ziff\.)\s?\d*[a-z]?|\s?(?:und|bis|,|i\.\s?V\.\s?m\.)\s?\d+[a-z]?)*"
    # the law's abbreviation on the same line: across a line break "DE89 …" (an IBAN) would be one
    r"(?:[^\S\n][A-ZÄÖÜ][\w\-]*[A-Z][\w\-]*(?:\s\d{4})?)?"
)
_JOURNALS = (
    r"(?:BVerfGE|BVerwGE|BGHZ|BGHSt|BAGE|BSGE|BFHE|BStBl|BGBl|NJW(?:-RR)?|NVwZ(?:-RR)?|NZA(?:-RR)?|"
    r"BeckRS|juris|GRUR(?:\sInt)?|ZIP|DB|BB|DStR|DÖV|DVBl|JZ|MDR|FamRZ|ZfBR|BauR|NZS|NZBau|HFR|UR|"
    r"ABl(?:EU)?|Buchholz|VerwRspr|MMR|WRP|NStZ(?:-RR)?|StV|wistra|LSK|FuR|ZUM|K&R|BFH/NV|ZEV|NZM|"
    r"VersR|WM|ZfS|DAR|NZV|ZUR|NuR|UPR|BayVBl|KommJur|NdsVBl|NWVBl|VBlBW|LKV|ZAR|InfAuslR)"
)
CITATION = re.compile(
    rf"\b{_JOURNALS}\.?\s(?:[IVX]+\s)?(?:S\.\s)?\d{{1,4}}(?:,\s?\d{{1,6}})?(?:\s?[<(]\d+[>)])?"
    # a page of the judgment under review, "Urteilsabdruck" / "Beschlussabdruck" ("UA S. 17")
    r"|\b(?:UA|BA)\s(?:S\.\s?|Rn\.\s?)?\d{1,4}\b"
)
# Literature: the authors and editors of a commentary, book or article ("Kopp/Schenke,
# VwGO, 28. Aufl., § 80 Rn. 152", "Schoch in Schoch/Schneider, VwGO, § 80 Rn. 372",
# "Lieder/Berneith, FamRZ 2017, 1623"). Courts never anonymize them. The reference must
# reach an edition, a margin number or a journal within one sentence.
_CAPITALIZED = CAPITALIZED_NAME  # "Geiger", "Schmidt-Aßmann"
_AUTHOR = rf"(?:(?:von|van|de|zu)\s)?{_CAPITALIZED}"
_AUTHORS = rf"{_AUTHOR}(?:\s?/\s?{_AUTHOR})*(?:\su\.\s?a\.|\set\sal\.)?"
_IN_SENTENCE = r"(?:(?!\.\s[A-ZÄÖÜ][a-zäöüß])[^;()\n])"
LITERATURE_CITATION = re.compile(
    rf"(?<![\w\-/]){_AUTHORS}(?:,\s|\sin:?\s){_IN_SENTENCE}{{0,80}}?"
    rf"(?:\d+\.\s?Aufl\.|\bAufl\.|\bRn\.|\bRdnr\.|\bRz\.|\bRandnr\.|\b{_JOURNALS}\s(?:19|20)\d\d\b)"
)
# version 4: an author before "aaO" / "a.a.O." (a work cited before: "Fastenmeier a.a.O. S.
# 100", "Engelmann, aaO") or before a journal written out ("Fastenmeier, Zeitschrift für
# Verkehrssicherheit 2015, 97")
LITERATURE_CITATION_V4 = re.compile(
    rf"{LITERATURE_CITATION.pattern}"
    rf"|(?<![\w\-/]){_AUTHORS}(?:,\s?|\s)(?:a\.\s?a\.\s?O\.|aaO\b)"
    rf"|(?<![\w\-/]){_AUTHORS},\s(?:in:?\s)?Zeitschrift\s(?:für|des|der)\s"
)
# version 12: a source cited in brackets by its author or publisher, a title, a year and a page,
# as asylum and planning decisions cite country reports and expert literature: "(vgl. Schweizerische
# Flüchtlingshilfe/A. Schuster, Russland: Verfolgung …, Auskunft vom 25. Juli 2014, S. 3)", "(Danish
# Immigration Service, Security and human rights in Chechnya …, Januar 2015, S. 85 f.)", "(Hassan
# Siahpoosh, Das Familien- und Erbrecht im Iran, 2006, S. 85)", or one cited before ("(Danish
# Immigration Service, a. a. O., S. 84)"). Only the source is the zone. Not a party's, witness's or
# expert's document of the proceedings: no role word, doctor's title or legal form in the source
# ("(Dr. Huber, Gutachten vom 3. Mai 2021, S. 4)", "(Zeuge Huber, …)", "(Huber Bau GmbH, …)"), no
# dated document of the file as the title ("Angebot vom", "Schreiben der Klägerin vom"; a
# "Gutachten zum 72. Deutschen Juristentag" is literature). Seen in the LER dev half's asylum
# decisions and in the bundled BVerwG decisions ("(Hassan Siahpoosh, …, 2006, S. 85)").
_SOURCE_WORD = r"(?:[A-ZÄÖÜ][\wäöüß\-]*\.?)"
_SOURCE_PARTICLE = r"(?:of|for|and|the|on|für|des|der|de|du|van|von|zu)"
_SOURCE = rf"{_SOURCE_WORD}(?:(?:\s|\s?/\s?)(?:{_SOURCE_PARTICLE}\s)?{_SOURCE_WORD}){{0,5}}"
_NOT_A_SOURCE = re.compile(
    r"\b(?:Dr|Prof|Zeug\w*|Kläger\w*|Beklagt\w*|Antragst\w*|Antragsgegner\w*|Beigeladen\w*|Sachverständig\w*"
    r"|Gutachter\w*|Herrn?|Frau|Rechtsanw\w*|Betroffen\w*|Angeklagt\w*|Beteiligt\w*)\b"
    rf"|(?<![\w\-]){LEGAL_FORM_TAIL}"  # a firm is a party, no author ("(Huber Bau GmbH, Angebot …, S. 2)")
)
_FILE_DOCUMENT = (  # a dated document of the file: "Angebot vom", "Schreiben der Klägerin vom", "Gutachten des"
    r"(?:[A-ZÄÖÜ][\wäöüß\-]*(?:\s(?:der|des|an|zur?|von|Nr\.)\s[\wäöüß.\-/]+){0,2}\svom\b"
    r"|(?:Gutachten|Schreiben|Stellungnahme|Attest|Bericht|Befundbericht|Arztbrief|Vernehmung|Protokoll|E-Mail"
    r"|Schriftsatz|Bescheid|Niederschrift|Vermerk|Aussage|Antrag|Brief|Mitteilung)\s(?:des|der|an)\b)"
)
SOURCE_CITATION = re.compile(
    r"(?:\(|;\s)(?:(?:vgl\.|siehe|s\.|so|auch|etwa|zu\sVorstehendem:)\s)*"
    rf"(?P<source>{_SOURCE}),\s(?!{_FILE_DOCUMENT})"
    r"(?:[^()\n;]{0,250}?\b(?:19|20)\d\d|a\.\s?a\.\s?O\.),\sS\.\s?\d"
)


def _source_zones(text: str) -> list[Span]:
    """The sources :data:`SOURCE_CITATION` finds, but none a role word, a doctor's title or a
    legal form names (:data:`_NOT_A_SOURCE`)."""
    return [
        Span(m.start("source"), m.end("source"), LITERATURE)
        for m in SOURCE_CITATION.finditer(text)
        if not _NOT_A_SOURCE.search(m.group("source"))
    ]


# version 5: the Bundeswehr's regulations are public norms, like a statute ("ZDv A-1340/50",
# "Nr. 1027 ZDv A- 1340/49", "Erlass A-1340/49", "ZDv 14/5"), and the parties' names in a
# European court's case are published by that court ("C-17/10, Toshiba Corporation u. a.";
# an ECHR case "Kafkaris/Zypern": :func:`_echr_case_names`)
_REGULATION_NUMBER = r"A\d?-\s?\d{3,4}(?:/\d{1,3})?\b"
REGULATION = re.compile(
    r"(?:\b(?:Nr\.|Ziff\.)\s?\d{1,4}[a-z]?\s)?"
    rf"\b(?:ZDv\s?(?:{_REGULATION_NUMBER}|\d{{1,2}}/\d{{1,3}}\b)"
    rf"|(?:Zentralen?\sDienstvorschrift|Allgemeinen?\sRegelung|AR|Erlass(?:es)?|Bereichsvorschrift)\s{_REGULATION_NUMBER})"
)
# version 12: the Bundeswehr's central orders too ("Nr. 203 bis 206 ZE B- 1300/46", "Zentralerlass
# B-2640/8", "des Zentralerlasses (ZE) B- 2640/8"): the regulations that replaced the ZDv
# since 2014, numbered by their class letter A to D; the model read "B- 1300/46" as an
# identifier (the LER dev half's soldiers' decisions; the bundled BVerwG decisions cite
# "ZE B-1336/2" the same way)
_REGULATION_NUMBER_V12 = r"[A-D]\d?-\s?\d{3,4}/\d{1,3}\b"  # with its part: "B-1300/46", no plate "ZE B-1234"
REGULATION_V12 = re.compile(
    rf"{REGULATION.pattern}"
    rf"|\b(?:ZE|Zentralerlass(?:es)?(?:\s\(ZE\))?|ZDv|Zentralen?\sDienstvorschrift|AR|Erlass(?:es)?)"
    rf"\s{_REGULATION_NUMBER_V12}"
)
_EU_CASE_NUMBER = r"\b[CT]-\s?\d{1,4}/\d{2}(?:\sP)?"  # the Court of Justice's ("C-17/10") or General Court's
EU_CASE_PARTIES = re.compile(
    rf"{_EU_CASE_NUMBER}(?:\s?\[ECLI:[^\]\n]{{1,40}}\])?,\s"
    rf"{CAPITALIZED_NAME}(?:\s(?:{CAPITALIZED_NAME}|u\.\s?a\.)){{0,4}}"
)
# Version 14: the Federal Labour Court's form of the same, the case's name in brackets after its
# number ("C-677/16 – [Montero Mateos]", "C-456/22 – [Gemeinde Ummendorf]"): the court publishes
# it; 147 in the bundled training and validation decisions, none with a gold span of the dev sets
# inside
EU_CASE_NAME_BRACKETED = re.compile(rf"{_EU_CASE_NUMBER}\s?[-–]\s?\[[^\]\n]{{1,80}}\]")
# Version 14: a position of a fee schedule, part of a law ("Nr. 3100 VV RVG", "Nrn. 3100, 3104 VV
# RVG", "Nr. 1210 KV GKG", "Nr. 9010 GOZ"): the model read a dentist's fee number as an
# identifier (batches 88-91); 30 in the bundled training and validation decisions and the dev
# sets, none with a gold span inside
_FEE_LAWS = r"(?:RVG|GKG|GNotKG|FamGKG|GvKostG|JVEG|GOZ|GOÄ|BEMA|EBM)"
FEE_SCHEDULE = re.compile(
    r"\b(?:Nrn?\.|Nummern?|Ziff(?:ern?|\.))[ \u00a0]?\d{1,5}[a-z]?"
    r"(?:[ \u00a0]?(?:,|und|bis|-|–|/)[ \u00a0]?\d{1,5}[a-z]?)*[ \u00a0]"
    rf"(?:(?:VV|KV|GV|der[ \u00a0]Anlage[ \u00a0]\d)[ \u00a0])?{_FEE_LAWS}\b"
)
_ECHR_APPLICANT = re.compile(rf"(?<![\w\-/]){CAPITALIZED_NAME}(?:\su\.\s?a\.)?\s?/\s?$")
# Web addresses of courts, legal databases and public bodies are sources, not parties
# ("BVerfG, Beschluss vom 13. Juli 2017 - 1 BvR 1202/17 -, www.bverfg.de, Rn. 19"). A host
# name's labels have at most 63 characters (RFC 1035); unbounded, a long hyphenated word
# ("Gericht-Gericht-…", 400 kB) took 90 s of backtracking.
_PUBLIC_HOSTS = (
    r"bverfg|bundesverfassungsgericht|bundesgerichtshof|bverwg|bundesverwaltungsgericht|"
    r"bundesarbeitsgericht|bundessozialgericht|bundesfinanzhof|bundespatentgericht|juris|dejure|"
    r"gesetze-im-internet|rechtsprechung-im-internet|openjur|beck|bund|bayern|nrw|berlin|hamburg|"
    r"bremen|hessen|sachsen|sachsen-anhalt|thueringen|brandenburg|niedersachsen|saarland|rlp|"
    r"schleswig-holstein|baden-wuerttemberg|mv-regierung|europa|coe|echr|justiz|"
    r"[\w\-]{0,63}(?:gericht|behoerde|ministerium|regierung|polizei|gesetze)[\w\-]{0,63}"
)
PUBLIC_SITE = re.compile(
    rf"(?<![\w@.\-])(?:https?://)?(?:[\w\-]{{1,63}}\.)*(?:{_PUBLIC_HOSTS})\.(?:de|eu|int|org|com)(?![\w\-])[^\s]*",
    re.IGNORECASE,
)
_NAME = rf"(?:(?:Dr\.|Prof\.|von|van|de|zu)\s)*{_CAPITALIZED}"
_BENCH_START = re.compile(r"\bdurch\s(?:den|die)\s(?:Vorsitzende|Präsident|Richter|Vizepräsident)", re.I)
_BENCH_END = re.compile(r"\b(?:für Recht erkannt|beschlossen|entschieden|beraten)\b")
# A line of the signature block closing a decision, by keep_zones version (the chain's
# ``keep_zones`` component): version 1 knew lines of one to three names ("Gallner",
# "Dr. Ronny Schimmer") of at most 60 characters; version 2 also takes a first-name initial
# ("M. Rennpferdt", 10 of the 22 bundled BAG decisions sign so) and the judge's office before
# the name ("Vorsitzender Richter am Landesarbeitsgericht Dr. Reinfelder", lower courts).
_INITIALED_NAME = rf"(?:(?:Dr\.|Prof\.|von|van|de|zu|[A-ZÄÖÜ]\.)\s)*{_CAPITALIZED}"
_OFFICE = (
    r"(?:(?:Vorsitzende[rn]?|Vizepräsident(?:in)?|Präsident(?:in)?|[Ee]hrenamtliche[rn]?|Richter(?:in)?)\s){1,3}"
    r"(?:(?:am|an\sdem|beim)\s[A-ZÄÖÜ][\w\-]*(?:gericht|hof)\s)?"
)
# Version 3 keeps version 2's zones and adds every layout of the bundled decisions
# (deid.anonymizer.judges).
SIGNATURE_LINES: dict[int, tuple[re.Pattern[str], int]] = {  # version → (line, longest line)
    1: (re.compile(rf"^\s*(?:{_NAME}\s?){{1,3}}\s*$"), 60),
    2: (re.compile(rf"^\s*(?:{_OFFICE})?(?:{_INITIALED_NAME}\s?){{1,3}}\s*$"), 100),
}
# "RiBGH Dr. Tiemann ist wegen Urlaubs gehindert zu unterschreiben": a judge's short title
_JUDGE_TITLE = re.compile(
    rf"\b(?:V?Rin?|VPräs(?:in)?|Präs(?:in)?){_COURT_ABBR}\b"
    rf"(?:\s{_NAME})?"
)


@dataclass(frozen=True)
class KeepZonesConfig:
    """Which kinds of keep zone the ``keep_zones`` chain step finds (deid.anonymizer.components)."""

    courts: bool = True
    judges: bool = True
    statutes: bool = True
    case_numbers: bool = True
    citations: bool = True
    states: bool = True


@dataclass(frozen=True)
class PolicyConfig:
    """The policy flags of a ``pipeline.json`` saved before the chain (deid.anonymizer.chain): loading
    one maps them to the equivalent chain steps (deid.anonymizer.components.legacy_chain), and
    :func:`apply_policy` runs those steps. The keep zones are the ``keep_zones`` step's config;
    the saved file spells each ``keep_<kind>`` (:meth:`from_saved`)."""

    zones: KeepZonesConfig = field(default_factory=KeepZonesConfig)
    keep_labels: tuple[str, ...] = field(default_factory=tuple)  # e.g. ("PATENT",) for BPatG
    # A model span that is one ordinary word (a Wiktionary noun, "Deponie", or a word the
    # training decisions print in clear text, "ZDv"; deid.words.ordinary.is_ordinary_word) or, on
    # its own, one compound of ordinary words ("Erschwerniszulage"; deid.words.shapes.
    # plain_compound) is kept only this sure: the model flags unfamiliar words, a dictionary
    # knows them. A compound next to another span is part of a name ("Auto-Kraus
    # Abschleppservice") and stays. 0: off.
    common_noun_min_score: float = 0.95
    # Each span filter on its own switch (all on: the behaviour above):
    filter_common_nouns: bool = True  # common_noun_min_score for Wiktionary nouns
    # (deid.words.lexicon.is_common_noun)
    filter_plain_compounds: bool = True  # ... and lone compounds of ordinary words
    # (deid.words.shapes.plain_compound): made-up surnames look like them ("Wolkenhammer")
    filter_public_words: bool = True  # ... and for words the training decisions print in
    # clear text (deid.words.public; consistency and context names use them regardless)
    filter_lowercase: bool = True  # a model word starting in lowercase ("partiarisches")
    filter_no_name_shape: bool = True  # a shortened compound's first part, a lone "&"

    @classmethod
    def from_saved(cls, flags: Mapping[str, Any]) -> PolicyConfig:
        """The flags as a saved ``pipeline.json`` spells them (``keep_courts`` … beside the
        filters); an unknown flag raises."""
        flags = dict(flags)
        kinds = [f.name for f in fields(KeepZonesConfig) if f"keep_{f.name}" in flags]
        zones = KeepZonesConfig(**{kind: flags.pop(f"keep_{kind}") for kind in kinds})
        if "keep_labels" in flags:
            flags["keep_labels"] = tuple(flags["keep_labels"])
        return cls(zones=zones, **flags)


KEEP_ZONES_VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)  # the versions of the chain's keep_zones component
# Version 11: a Bavarian decision's keywords and chains of norms, the editors' header lines
# ("Schlagworte: Biber, Artenschutz, Dammbau", "Normenketten: BauGB § 34"), which name legal
# concepts and never a party (the from-scratch dev set: 0 of 3,136 gold spans, 4 false ones;
# the Bavarian dev half: none of either). Not the title, which may name a place.
HEADER_LINES = re.compile(r"(?m)^(?:Schlagworte|Normenketten?):[ \t]*\n?(?P<body>[^\n]+)")


def keep_zones(
    text: str, cfg: KeepZonesConfig | PolicyConfig | None = None, version: int = max(KEEP_ZONES_VERSIONS)
) -> list[Span]:
    """Character ranges a decision publishes in clear text, as the chain's ``keep_zones``
    component ``version`` finds them: 1 and 2 differ in the signature lines
    (:data:`SIGNATURE_LINES`), 3 finds the judges of every layout (:func:`judge_zones`) and
    leaves a DPMA register number after "Aktenzeichen" to the recognizers
    (:data:`CASE_NUMBER_V3`), 4 leaves an authority's file number after "Az." to them too, and
    knows the Bavarian courts' numbers and more literature (:data:`CASE_NUMBER_V4`,
    :data:`LITERATURE_CITATION_V4`), 5 the Bundeswehr's regulations (:data:`REGULATION`) and
    the parties of a European court's case (:data:`EU_CASE_PARTIES`, :func:`_echr_case_names`),
    6 a firm's "AG"/"KG" before "in" and its seat (:func:`court_zones`), 7 an authority's
    file number before its office's name (:data:`CASE_NUMBER_V7`), 8 one after an office's
    capitals ("Az. SG 32-1431.2/22-187": :data:`CASE_NUMBER_V8`, :func:`court_zones`) and a
    signature's office line with the judge's role ("Richter am Landgericht als Einzelrichter"),
    and no case number across a line break ("1\nAm 14.01…": a margin number and a date), 9 a
    university with its seat (:data:`UNIVERSITY`), no court's number after "Az. des" and an
    office that is no court (:data:`CASE_NUMBER_V9`), no citation in a licence plate
    (:data:`CITATION_V9`), 10 a sole judge's name closing the decision after its last sentence
    (deid.anonymizer.judges.signature_blocks), 11 a Bavarian decision's keywords and chains of
    norms (:data:`HEADER_LINES`), 12 the Bundeswehr's orders and sources cited with a title, 13 no
    court's number after an authority's act and its date ("Bescheid vom … (Az. W 1422/23)"), 14 a
    European case's name in brackets after its number (:data:`EU_CASE_NAME_BRACKETED`) and a fee
    schedule's positions (:data:`FEE_SCHEDULE`)."""
    if version not in KEEP_ZONES_VERSIONS:
        raise ValueError(f"keep_zones has versions {KEEP_ZONES_VERSIONS}, not {version}")
    cfg = cfg.zones if isinstance(cfg, PolicyConfig) else cfg or KeepZonesConfig()
    zones: list[Span] = []
    if cfg.courts:
        zones += court_zones(text, version)
    if cfg.case_numbers:
        numbers = (CASE_NUMBER_V9 if version >= 9 else CASE_NUMBER_V8 if version >= 8
                   else CASE_NUMBER_V7 if version >= 7
                   else CASE_NUMBER_V4 if version >= 4
                   else CASE_NUMBER_V3 if version == 3 else CASE_NUMBER)  # fmt: skip
        zones += [Span(m.start(), m.end(), "CASE_REFERENCE") for m in numbers.finditer(text)
                  if (version < 8 or "\n" not in m.group())  # 8: "1\nAm 14.01" is a margin number and a date
                  and (version < 13 or not _authority_file(text, m))]
    echr = cfg.citations and version >= 5
    states = list(_states().finditer(text)) if cfg.states or echr else []
    if cfg.statutes:
        zones += [Span(m.start(), m.end(), "LAW") for m in STATUTE.finditer(text)]
        if version >= 5:
            regulation = REGULATION_V12 if version >= 12 else REGULATION
            zones += [Span(m.start(), m.end(), "LAW") for m in regulation.finditer(text)]
        if version >= 14:
            zones += [Span(m.start(), m.end(), "LAW") for m in FEE_SCHEDULE.finditer(text)]
    if cfg.citations:
        citation = CITATION_V9 if version >= 9 else CITATION
        zones += [Span(m.start(), m.end(), "CASE_REFERENCE") for m in citation.finditer(text)]
        literature = LITERATURE_CITATION_V4 if version >= 4 else LITERATURE_CITATION
        zones += [Span(m.start(), m.end(), LITERATURE) for m in literature.finditer(text)]
        zones += [Span(m.start(), m.end(), PUBLIC_ENTITY) for m in PUBLIC_SITE.finditer(text)]
        if version >= 5:
            zones += [Span(m.start(), m.end(), "CASE_REFERENCE") for m in EU_CASE_PARTIES.finditer(text)]
        if version >= 14:
            zones += [Span(m.start(), m.end(), "CASE_REFERENCE") for m in EU_CASE_NAME_BRACKETED.finditer(text)]
        if version >= 12:
            zones += _source_zones(text)
    if echr:
        zones += _echr_case_names(text, states)
    if cfg.judges:
        zones += judge_zones(text, version)
    if cfg.states:
        zones += [Span(m.start(), m.end(), PUBLIC_ENTITY) for m in states]
        if version >= 9:
            zones += _university_zones(text)
    if cfg.citations and version >= 11:
        zones += [Span(m.start("body"), m.end("body"), "LAW") for m in HEADER_LINES.finditer(text)]
    return sorted(zones)


# Version 9: a journal's abbreviation right after a hyphen is a licence plate's letters, no
# citation ("amtliches Kennzeichen R-BB 2211" is no "BB 2211", Betriebs-Berater; the
# from-scratch dev set)
CITATION_V9 = re.compile(CITATION.pattern.replace(r"\b", r"\b(?<!-)", 1))
# Version 9: a university or university of applied sciences named by its seat ("der Technischen
# Hochschule Rosenheim", "die Universität Regensburg"): a public body the policy keeps, whose
# seat the model reads as a place (the from-scratch dev set, where a student's university lost
# its town). Only a seat of the town list, and not after a name ("Eickemeier Hochschule
# Dambach", "Universität Omilade Medien": a private school the federal courts neutralize, LER dev
# halves).
UNIVERSITY = re.compile(
    r"(?<![\w\-])(?:(?:Technische|Katholische|Evangelische|Ostbayerische|Freie)[nr]?[ \u00a0])?"
    r"(?:Universität|Hochschule|Fachhochschule)"
    r"(?:[ \u00a0]für[ \u00a0](?:angewandte[ \u00a0])?(?:Wissenschaften|Technik|Wirtschaft|Musik|Politik))?"
    r"[ \u00a0](?P<seat>[A-ZÄÖÜ][a-zäöüß]+)(?![\w\-])"
)
_WORD_BEFORE = re.compile(r"([A-ZÄÖÜ][a-zäöüß]+)[ \u00a0]$")


def _university_zones(text: str) -> list[Span]:
    """The universities :data:`UNIVERSITY` finds whose seat is a town of the list and before
    which stands no name (a capitalized word that is no lowercase word: "Die Universität …" at a
    sentence's start is one)."""
    from deid.words.gazetteer import cities
    from deid.words.vocabulary import lowercase_words

    zones = []
    for m in UNIVERSITY.finditer(text):
        before = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
        named = before is not None and before.group(1).lower() not in lowercase_words()
        if m.group("seat") in cities() and not named:
            zones.append(Span(m.start(), m.end(), PUBLIC_ENTITY))
    return zones


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
    from deid.words.gazetteer import countries
    from deid.words.lexicon import LEX_NAME, lexical_class

    states = (*countries(), *_LAENDER)
    names = {c for c in states if lexical_class(c) != LEX_NAME}
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w\-])(?:{alternatives})s?(?![\w\-])")


def _echr_case_names(text: str, states: list[re.Match[str]]) -> list[Span]:
    """An ECHR case's name, its applicant before the respondent state ("Kafkaris/Zypern",
    "Vinter u. a./Vereinigtes Königreich"), given the ``states`` named in ``text``: the court
    publishes it; only the applicant's name and the state make the zone. A German Land is no
    respondent ("Radebeul/Sachsen")."""
    zones = []
    for m in states:
        if m.group().removesuffix("s") in _LAENDER:
            continue  # "Radebeul/Sachsen" is a town in its Land
        before = _ECHR_APPLICANT.search(text, max(0, m.start() - 60), m.start())
        if before:
            zones.append(Span(before.start(), m.end(), "CASE_REFERENCE"))
    return zones


@lru_cache(maxsize=1)
def _public_places() -> frozenset[str]:
    """German cities and states: a court's seat is public, any other word after it is not."""
    from deid.words.gazetteer import read_lines

    surnames = frozenset(read_lines("surnames.txt.xz"))
    cities = frozenset(c for c in read_lines("cities.txt.xz") if c not in surnames or c in _BIG_CITIES)
    return cities | frozenset(read_lines("countries.txt.xz")) | frozenset(_LAENDER)


# "AG" and "KG" are also legal forms: after a name ("Tessner Bau AG", "H AG", "Müller GmbH &
# Co. KG", "die A-KG") they are no court, unless a court's seat follows ("AG München")
_FIRM_BEFORE_FORM = re.compile(
    r"(?:(?<![\w.\-])(?!(?:Das|Der|Die|Dem|Den|Des|Ein|Eine|Einer|Vom|Beim|Zum|Am|Im|Urteil|Beschluss)\b)"
    r"[A-ZÄÖÜ][\w.\-]*|Co\.?|&|-|…|\.\.\.)[ \u00a0]?$"
)
_FORM_OR_COURT = frozenset({"AG", "KG"})


def court_zones(text: str, version: int = max(KEEP_ZONES_VERSIONS)) -> list[Span]:
    """Court names, with their seat when the next word is a known place ("Landgericht Kleve"
    but not "das Landgericht Schmidt als Zeugen"). From version 3 on, "AG" and "KG" after a
    name and without a seat are a firm's legal form, no court (:data:`_FIRM_BEFORE_FORM`);
    from version 6 on also before "in" and a seat ("Huber Transporte KG in Iphofen": a court
    is written "AG München"), which version 5 kept with the firm's name and its town; from
    version 8 on, capitals before a number joined by hyphens or dots are an office's, no court
    ("Az. SG 32-1431.2/22-187")."""
    places = _public_places()
    zones: list[Span] = []
    for m in COURT.finditer(text):
        end = m.end()
        seat = _PLACE.match(text, end)
        if seat:
            name = seat.group(1)
            if name in places or name.split()[0] in places or name.split("-")[0] in places:
                end = seat.end()
        firm_seat = version >= 6 and seat is not None and seat.group().lstrip().startswith("in ")
        if (
            version >= 3
            and (end == m.end() or firm_seat)
            and m.group() in _FORM_OR_COURT
            and _FIRM_BEFORE_FORM.search(text, max(0, m.start() - 40), m.start())
        ):
            continue
        if version >= 8 and end == m.end() and _OFFICE_NUMBER_AFTER.match(text, end):
            continue
        zones.append(Span(m.start(), end, "COURT"))
    return zones


def judge_zones(text: str, version: int = max(KEEP_ZONES_VERSIONS)) -> list[Span]:
    """The bench line ("durch die Vorsitzende Richterin … Dr. X und die Richter Y und Z
    beschlossen"), the signature block (name-only lines closing the decision) and a judge
    named with a short title ("RiBGH Dr. Tiemann"); version 3 finds the bench of every layout
    (only names, titles and courts up to the word after the bench) and the other layouts of
    deid.anonymizer.judges besides."""
    signature = min(version, max(SIGNATURE_LINES))
    zones = [Span(m.start(), m.end(), "JUDGE") for m in _JUDGE_TITLE.finditer(text)]
    for m in _BENCH_START.finditer(text) if version < 3 else ():  # version 3: judges.bench_zones
        end = _BENCH_END.search(text, m.end(), min(len(text), m.end() + 600))
        if end:
            zones.append(Span(m.start(), end.start(), "JUDGE"))
    signature_line, longest = SIGNATURE_LINES[signature]
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
        if signature_line.match(stripped) and len(stripped) <= longest:
            block_start = start
            trailing += 1
            pos = start - 1
            continue
        break
    if block_start is not None and trailing >= 2:
        zones.append(Span(block_start, len(text), "JUDGE"))
    if version >= 3:  # the zones version 2 did not find already
        found = judge_zones_v3(text, roles=version >= 8, lone=version >= 10)
        zones += [z for z in found if not any(k.start <= z.start and z.end <= k.end for k in zones)]
    return zones


def unsure(span: Span, min_score: float) -> bool:
    """A model span below ``min_score``: the ordinary-word filters judge only those."""
    return span.source == MODEL_SOURCE and (span.score or 0.0) < min_score


def public_word(text: str, span: Span) -> bool:
    """A word the training decisions print in clear text ("ZDv")."""
    return text[span.start : span.end] in public_words()


def common_noun(text: str, span: Span) -> bool:
    """A Wiktionary noun ("Deponie")."""
    return is_common_noun(text[span.start : span.end])


# common_nouns@4: a word that is a noun and a surname ("Brauer", "Jäger") where the grammar
# makes it the noun: after an indefinite article ("Kündigung eines Brauers"), after "als" with an
# employment's word ("als Brauer und Mälzer beschäftigt"), or after a subject and a copula at the
# sentence's end ("Der Kläger ist Jäger."). A surname takes none of these without a title
# ("eines Herrn Müller", "als Zeuge Müller", "Geschäftsführer ist Herr Müller").
_INDEFINITE_BEFORE = re.compile(r"(?<![\w\-])(?:[Ee]in|[Ee]ine[mnrs]?|[Kk]ein|[Kk]eine[mnrs]?)[ \u00a0]$")
_AS_BEFORE = re.compile(r"(?<![\w\-])als[ \u00a0]$")
_EMPLOYED_AFTER = re.compile(
    r"(?:[ \u00a0](?:und|oder)[ \u00a0][A-ZÄÖÜ][a-zäöüß]+)?[ \u00a0]"
    r"(?:beschäftigt|tätig|angestellt|eingestellt|gearbeitet|ausgebildet|arbeitet|arbeitete)(?!\w)"
)
_SUBJECT_IS_BEFORE = re.compile(r"(?:(?<![\w\-])[Ee]r|(?<![\w\-])[Ss]ie|(?:Der|Die)[ \u00a0][A-ZÄÖÜ][a-zäöüß]+)[ \u00a0](?:ist|war)[ \u00a0]$")
_SENTENCE_END_AFTER = re.compile(r"\.(?:\s|$)|[ \u00a0]von[ \u00a0]Beruf(?!\w)")
_ONE_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]+")


def noun_by_grammar(text: str, span: Span) -> bool:
    """A one-word person span that is a noun too, where the grammar around it makes it the noun
    (the comment above)."""
    word = text[span.start : span.end]
    if coarse_label(span.label) != PERSON or not _ONE_WORD.fullmatch(word) or not reads_as_noun(word):
        return False
    low = max(0, span.start - 40)
    if _INDEFINITE_BEFORE.search(text, low, span.start):
        return True
    if _AS_BEFORE.search(text, low, span.start) and _EMPLOYED_AFTER.match(text, span.end):
        return True
    return bool(_SUBJECT_IS_BEFORE.search(text, low, span.start) and _SENTENCE_END_AFTER.match(text, span.end))


_TOKEN_BEFORE = re.compile(r"(\S+)[ \u00a0]$")


def nouns_by_grammar(text: str, spans: list[Span]) -> list[bool]:
    """For each span, whether it is a noun by its grammar (:func:`noun_by_grammar`) or another
    mention of one in the document with no role, title or name before it ("Der Kläger ist
    Jäger. … müssen Jäger die Tiere melden"): consistency would spread the one left to all."""
    found = [s.source == MODEL_SOURCE and noun_by_grammar(text, s) for s in spans]
    nouns = {text[s.start : s.end] for s, f in zip(spans, found) if f}
    if not nouns:
        return found
    forms = nouns | {n + "s" for n in nouns} | {n[:-1] for n in nouns if n.endswith("s")}
    ends = {s.end for s in spans}
    out = []
    for span, f in zip(spans, found):
        if not f and span.source == MODEL_SOURCE and coarse_label(span.label) == PERSON and text[span.start : span.end] in forms:
            before = _TOKEN_BEFORE.search(text, max(0, span.start - 40), span.start)
            f = before is None or not (is_role(before.group(1)) or before.end(1) in ends)  # "Zeuge Jäger", "Anna Jäger"
        out.append(f)
    return out


def lone_compound(text: str, span: Span, attached: bool) -> bool:
    """On its own (not ``attached`` to another span), a compound of ordinary words
    ("Erschwerniszulage")."""
    return not attached and plain_compound(text[span.start : span.end])


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


_NAME_PARTICLE = re.compile(r"(?:von|vom|van|de|der|den|du|da|di|del|della|dos|zu|zur|ten|ter|al|el|bin|ibn)\b")


def _lowercase_model_word(text: str, span: Span) -> bool:
    """A model span that starts in lowercase ("ich", "erfuhr", "partiarisches"): names,
    places and companies are capitalized in German, except after a name particle ("von
    Bülow", "de Maizière")."""
    surface = text[span.start : span.end]
    return span.source == MODEL_SOURCE and surface[:1].islower() and not _NAME_PARTICLE.match(surface)


# lowercase@2: a present participle at a sentence's start, where German capitalizes it
# ("Strafschärfend wirkt, dass …", "Zusammenfassend ist …"): a word in lowercase (wordfreq knows
# it; "-end", "-ernd", "-elnd") that neither Wiktionary ("Abend", "Westend") nor a gazetteer holds
_PARTICIPLE = re.compile(r"[A-ZÄÖÜ][a-zäöüß]{3,}(?:e|er|el)nd")
_PARTICIPLE_MIN_ZIPF = 1.0


def participle_at_sentence_start(text: str, span: Span) -> bool:
    """A model span that is a present participle capitalized at a sentence's start."""
    surface = text[span.start : span.end]
    return (
        span.source == MODEL_SOURCE
        and _PARTICIPLE.fullmatch(surface) is not None
        and at_sentence_start(text, span.start)
        and zipf(surface.lower()) >= _PARTICIPLE_MIN_ZIPF
        and lexical_class(surface) == LEX_UNKNOWN
        and surface not in person_and_place_names()
        and surface not in cities()
    )


# "Berufungs- und Berufungsbegründungsschrift": the first part of a shortened compound
_SHORTENED_COMPOUND = re.compile(r"-\s(?:und|oder|bzw\.|sowie|als auch)\s|-,\s")


def _no_name_shape(text: str, span: Span, attached: bool) -> bool:
    """A model span that is the first part of a shortened compound, or a lone one without a
    letter or digit ("&"; between two name parts it joins them): no name looks like this."""
    surface = text[span.start : span.end]
    return span.source == MODEL_SOURCE and (
        (not attached and not any(c.isalnum() for c in surface))
        or _SHORTENED_COMPOUND.match(text, span.end) is not None
    )


def _kept_by(zone: Span, span: Span) -> bool:
    """A span touching a court, law, judge … zone is dropped; a state name only drops a span
    that is no more than it ("Ukraine", not "Amazon Deutschland GmbH")."""
    if zone.label == PUBLIC_ENTITY:
        return zone.start <= span.start and span.end <= zone.end
    return zone.start < span.end and span.start < zone.end


def in_keep_zone(zones: list[Span], starts: list[int], span: Span) -> bool:
    """Whether ``span`` touches one of the sorted ``zones`` (``starts``: their starts)."""
    i = bisect.bisect_right(starts, span.start)
    return any(_kept_by(z, span) for z in zones[max(0, i - 50) : i + 1])
