"""File and permit numbers of authorities (``Az. 602-1.2-2012-3304-23``, ``Genehmigungs-Nr.``).

Version 2 (:class:`PermitNumberRecognizerV2`) adds the labels decisions write that version 1
missed: "Bescheid mit Zeichen 32-1411/2019", the Jobcenter's "zum Zeichen 04902BG0003674"
(a Bedarfsgemeinschaft's number fires on its shape alone), a driving licence's
"Listennummer 1877/88", the tax office's "Rechtsbehelfslistennummer" and "EW-Nummer", and a
personnel order's "Versetzungsverfügung Nr. 1234".

Version 3 (:class:`PermitNumberRecognizerV3`) reads an identity document's or a licence's
number with "Nr." apart from its name ("Personalausweis Nr. L01X00T47", "Fahrerlaubnis Nr.
B072XK8N351", "Waffenbesitzkarte Nr. 123/2010"), a pet's chip number ("Chipnummer
276098106789123"), a tender's "Vergabenummer", a foreigner's "AZR-Nummer" (Ausländerzentralregister)
and a "Geschäftszahl", which version 2 left in clear.

Court file numbers are kept by policy and handled elsewhere, and they always have spaces
between their parts (``1 F 260/23``, ``BVerwG 3 B 6.24``, ``IX ZR 12/18``). An authority's
number here is one token made of several parts joined by ``-``, ``.``, ``/`` or ``:``
(optionally after a capitals-only office prefix, ``SG 31-1234/2020``), and it fires only
right after a label (``Genehmigungsnummer``, ``Az.``) — ``Az.`` itself only when an
authority word (Landratsamt, Bescheid, Genehmigung ...) is near. Labelled identity-document
numbers (``Führerscheinnummer``, ``Ausweisnummer``) count as permits too.
"""

from __future__ import annotations

import re
from dataclasses import replace

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer, resolve_overlaps
from deid.schema import Span

# one token: alphanumeric parts joined by separators, at least one separator
_ID = (
    r"(?P<value>(?:[A-Z]{1,4}[ \u00a0])?"  # an office prefix: "SG 31-1234/2020"
    r"[A-Za-z0-9ÄÖÜäöü]{1,15}(?:[-./:][A-Za-z0-9ÄÖÜäöü]{1,15}){1,8})(?![\w]|[-./:]\w)"
)
_SOLID = r"(?P<value>[A-Z]{0,4}\d[A-Z0-9]{3,19})(?![\w]|[-./:]\w)"  # 95917, AB1234567
_COLON = r"(?![^\W\d_])[ \u00a0]?:?[ \u00a0]?"  # the label ends a word: not "AZR 171/22"
_PERMIT_KEY = (
    r"(?:genehmigungs|erlaubnis|bescheid|zulassungs|bewilligungs|konzessions|lizenz"
    r"|registrier|betriebs|führerschein|fahrerlaubnis|ausweis|personalausweis|reisepass|pass)"
    r"(?:-?nummer|-?nr\.?)"
)
# the first letters of every permit label (a label may start inside a word, so the engine
# tries every position: a one-letter test first halves the recognizer's time; same matches)
_PERMIT_INITIAL = r"(?=(?i:[abefgklprz]))"
_FILE_KEYS = r"Az\.?|AZ\.?|Aktenzeichen|Geschäftszeichen|Gz\.|GZ\.?|Ihr Zeichen|Unser Zeichen"
_FILE_KEY = rf"(?:{_FILE_KEYS})"
# "Az. des Landratsamts Rosenheim: ...", "Aktenzeichen der Behörde ..."
_OF_AUTHORITY = r"(?:[ \u00a0](?:des|der)(?:[ \u00a0][\w\-]{2,40}){1,3}?)"
# "Nr." alone is everywhere in legal text (§ 3 Nr. 1); only "<permit word> Nr." counts
_NR_KEY = (
    r"(?:Genehmigung|Baugenehmigung|Erlaubnis|Bescheid|Bewilligung|Zulassung|Konzession"
    r"|Lizenz)[ \u00a0](?:Nr\.|Nummer)"
)
_DATE = re.compile(r"\d{1,2}\.\d{1,2}\.(?:\d{2}|\d{4})")
_SECTION = re.compile(r"\d{1,3}(?:\.\d{1,3})+")  # Nr. 3.14.1 of a guideline
_MIN_DIGITS = 4


def _patterns(permit_key: str, nr_key: str, initial: str = _PERMIT_INITIAL) -> tuple[Pattern, ...]:
    """The patterns of a version: ``permit_key`` and ``nr_key`` are its labels, ``initial``
    the first letters of ``permit_key``'s labels."""
    return (
        Pattern("permit_labelled", rf"{initial}(?i:{permit_key}){_COLON}{_ID}", 0.85),
        Pattern("permit_labelled_solid", rf"{initial}(?i:{permit_key}){_COLON}{_SOLID}", 0.8),
        Pattern(
            "authority_file",
            rf"(?<!\w){_FILE_KEY}{_OF_AUTHORITY}?{_COLON}{_ID}",
            0.7,
            needs_context=True,
        ),
        Pattern("permit_nr", rf"(?<!\w){nr_key}{_COLON}{_ID}", 0.8),
    )


class PermitNumberRecognizer(PatternRecognizer):
    """Authority file and permit numbers after their label; never court file numbers."""

    NAME = "permit_number"
    LABEL = "PERMIT_NUMBER"
    PATTERNS = _patterns(_PERMIT_KEY, _NR_KEY)
    CONTEXT = (
        "genehmigung", "baugenehmigung", "erlaubnis", "bescheid", "ausgangsbescheid",
        "widerspruchsbescheid", "bewilligung", "zulassung", "landratsamt", "landesamt",
        "bundesamt", "behörde", "stadt", "gemeinde", "regierung", "bezirksregierung",
        "ministerium", "bauaufsicht", "bauamt", "ausländerbehörde", "jobcenter", "agentur",
        "finanzamt", "polizei", "kreisverwaltung", "verwaltung", "amt ", "amtes", "amts",
    )  # fmt: skip
    CONTEXT_WINDOW = 80
    CONTEXT_BOOST = 0.1

    def validate(self, hit: str) -> bool | None:
        if sum(c.isdigit() for c in hit) < _MIN_DIGITS:
            return False  # "Nr. 3.36", "Nummer 5.9.1": section numbers, not ids
        if _DATE.fullmatch(hit) or _SECTION.fullmatch(hit):
            return False
        return None


# version 2: the labels version 1 missed in the bundled and training decisions
_PERMIT_KINDS_V2 = (
    r"genehmigungs|erlaubnis|bescheid|zulassungs|bewilligungs|konzessions|lizenz"
    r"|registrier|betriebs|führerschein|fahrerlaubnis|ausweis|personalausweis|reisepass|pass"
    r"|listen|(?<![^\W\d_])ew-?"
)
_PERMIT_KEY_V2 = rf"(?:{_PERMIT_KINDS_V2})(?:-?nummer|-?nr\.?)"
_NR_KEY_V2 = (
    r"(?:Genehmigung|Baugenehmigung|Erlaubnis|Bescheid|Bewilligung|Zulassung|Konzession"
    r"|Lizenz|[A-ZÄÖÜ]?[a-zäöüß]*[Vv]erfügung)[ \u00a0](?:Nr\.|Nummer)"
)
# "Bescheid mit Zeichen …", "zum Zeichen …", "Ihr Zeichen: …"
_SIGN_KEY = r"(?:mit(?:[ \u00a0]dem)?|zum|unter[ \u00a0]dem|Ihr|Unser|Ihrem|Unserem)[ \u00a0]Zeichen"
# a Bedarfsgemeinschaft's number: the Jobcenter's five digits, BG, seven digits
_BG_NUMBER = r"(?<![\w\-/])\d{5}[ \u00a0]?BG[ \u00a0]?\d{7}(?![\w\-/])"
# what version 2 adds to the labelled patterns; every later version keeps them
_V2_PATTERNS = (
    Pattern("permit_nr_solid", rf"(?<!\w){_NR_KEY_V2}{_COLON}{_SOLID}", 0.75),
    Pattern("sign", rf"(?<!\w){_SIGN_KEY}{_COLON}{_ID}", 0.7, needs_context=True),
    Pattern("bg_number", _BG_NUMBER, 0.85),
)


class PermitNumberRecognizerV2(PermitNumberRecognizer):
    """Version 1's labels and the ones it missed (the module's docstring)."""

    PATTERNS = (*_patterns(_PERMIT_KEY_V2, _NR_KEY_V2), *_V2_PATTERNS)


# version 3: identity documents and licences with "Nr." apart, chip, tender, AZR and "Geschäftszahl"
_PERMIT_KEY_V3 = rf"(?:{_PERMIT_KINDS_V2}|chip|transponder|vergabe|azr-?)(?:-?nummer|-?nr\.?)|geschäftszahl"
_PERMIT_INITIAL_V3 = r"(?=(?i:[abcefgklprtvz]))"
_DOCUMENT_NR_KEY = (
    r"(?:Personalausweis(?:es)?|Reisepass(?:es)?|Pass(?:es)?|Führerschein(?:s|es)?|Fahrerlaubnis"
    r"|Waffenbesitzkarte|Waffenschein(?:s|es)?|Jagdschein(?:s|es)?|Aufenthaltstitel(?:s)?"
    r"|Aufenthaltserlaubnis|Niederlassungserlaubnis)[ \u00a0](?:Nr\.|Nummer)"
)


class PermitNumberRecognizerV3(PermitNumberRecognizerV2):
    """Version 2 and the labels of version 3 (the module's docstring)."""

    PATTERNS = (
        *_patterns(_PERMIT_KEY_V3, _NR_KEY_V2, _PERMIT_INITIAL_V3),
        *_V2_PATTERNS,
        Pattern("document_nr", rf"(?<!\w){_DOCUMENT_NR_KEY}{_COLON}{_ID}", 0.8),
        Pattern("document_nr_solid", rf"(?<!\w){_DOCUMENT_NR_KEY}{_COLON}{_SOLID}", 0.8),
    )


# Version 4: the number after an authority's decision and its date ("der Bescheid vom 3. Mai
# 2022, Nr. 32-6160-2022-123", "die Erlaubnis vom 01.07.2015, Az. 6432.1-2015/12"), which
# versions 1 to 3 read only right after the word ("Bescheid Nr. …"); and a fine office's file
# number ("Aktenzeichen 8.2-1234567 der Zentralen Bußgeldstelle"), whose context words they
# lacked (probes written like Bavarian decisions).
_DECISION_WORD = (
    r"(?:[A-ZÄÖÜ][a-zäöüß]*(?:bescheid|verfügung|genehmigung|erlaubnis|anordnung)"
    r"|Bescheid|Verfügung|Genehmigung|Erlaubnis|Anordnung|Bewilligung|Zulassung)(?:e?s)?"
)
_DATED = r"(?:\d{1,2}\.[ \u00a0]?(?:\d{1,2}\.[ \u00a0]?|[A-ZÄÖÜ][a-zäöü]+[ \u00a0])\d{4})"
_FILE_OR_NR = r"(?:Nr\.|Nummer|Az\.?|AZ\.?|Aktenzeichen|Geschäftszeichen|Gz\.|GZ\.?)"
_DATED_NR_KEY = rf"{_DECISION_WORD}[ \u00a0]vom[ \u00a0]{_DATED}(?:,[ \u00a0]?|[ \u00a0]?\()(?:{_FILE_OR_NR})"


class PermitNumberRecognizerV4(PermitNumberRecognizerV3):
    """Version 3, a decision's number after its date, a fine office's file number."""

    PATTERNS = (
        *PermitNumberRecognizerV3.PATTERNS,
        Pattern("dated_decision_nr", rf"(?<!\w){_DATED_NR_KEY}{_COLON}{_ID}", 0.8),
    )
    CONTEXT = (*PermitNumberRecognizerV3.CONTEXT, "bußgeld", "verwarnung")


# Version 5 (the from-scratch dev set): a permit's number after a compound naming the permit
# ("Sondernutzungserlaubnis Nr. SN-2021-038", "Gaststättenerlaubnis Nr. 12/2019", "Erlaubnisurkunde
# Nr. GE 17/0412"), which
# version 4 read only after the bare word ("Erlaubnis Nr."), and an authority's file number
# written as groups of digits apart ("Bescheid vom 6. Juni 2023 (Az. 5 23 118 904 7)", an
# accident insurer's): a court's number always holds letters ("2 Ds 114 Js 3312/15").
_PERMIT_COMPOUND = (
    r"(?<![\w\-])[A-ZÄÖÜ][a-zäöüß]{2,}(?:erlaubnis|genehmigung|bescheid|bewilligung|zulassung"
    r"|konzession|lizenz|urkunde)[ \u00a0](?:Nr\.|Nummer)"
)
_SPACED_DIGITS = r"(?P<value>\d{1,6}(?:[ \u00a0]\d{1,6}){2,7})(?![\w\-/.,]\d|[\w\-/]|[ \u00a0]\d)"
_MIN_SPACED_DIGITS = 8


class PermitNumberRecognizerV5(PermitNumberRecognizerV4):
    """Version 4, a permit's number after a compound naming the permit, and an authority's file
    number of digit groups after "Az." (the module's docstring)."""

    PATTERNS = (
        *PermitNumberRecognizerV4.PATTERNS,
        Pattern("permit_compound_nr", rf"{_PERMIT_COMPOUND}{_COLON}{_ID}", 0.8),
        Pattern("permit_compound_nr_solid", rf"{_PERMIT_COMPOUND}{_COLON}{_SOLID}", 0.75),
        Pattern("dated_decision_spaced", rf"(?<!\w){_DATED_NR_KEY}{_COLON}{_SPACED_DIGITS}", 0.8),
        Pattern("authority_file_spaced", rf"(?<!\w){_FILE_KEY}{_OF_AUTHORITY}?{_COLON}{_SPACED_DIGITS}", 0.7,
                needs_context=True),
    )

    def validate(self, hit: str) -> bool | None:
        if " " in hit or "\u00a0" in hit:
            digits = sum(c.isdigit() for c in hit)
            if not any(c.isalpha() for c in hit) and digits < _MIN_SPACED_DIGITS:
                return False  # "Az. 3 12 4": too short for an authority's number
        return super().validate(hit)


# Version 6 (the from-scratch dev set): an authority's file number that holds letters and digits
# needs no authority word near ("lehnte die Anerkennung ab (Az. UV-2022-018374-RB)", "Antrag
# vom 9. Januar 2023 (Az. der Beklagten 32-1441/23-Or)"): a court's number is never one token
# of letters and digits joined by "-", "/" or "."; a number whose first part ends in an office's
# letters goes on over a last group ("Az. III/32-Kr 118", "Gz. 32/131-Ga 17/22", "Nr. FV-IE
# 2023/114"), which version 5 cut at the space; a letter's sign after its date ("Schreiben vom
# 2. Mai 2023, Zeichen St-0412/23"); and a certificate's, licence card's or cost plan's number
# in brackets or some words after it ("Sein Jagdschein (Nr. 97/1994)", "Reisegewerbekarte der
# Stadt Vilsbiburg (Nr. RG 14/2019)", "Heil- und Kostenplan Nr. HKP-21-0388"); and a number of
# letters and digits after any "-nummer" or "trägt die Nummer" ("Bewerbungsnummer CKM-23-0094");
# an office's letters between two tokens ("Az. II.5-5 P 8123.2-2023/118") and the Federal
# Office's "Gesch.-Z." ("Bescheid vom 7. März 2023 (Gesch.-Z. 8839214-224)").
_TOKEN = r"[A-Za-z0-9ÄÖÜäöü]{1,15}(?:[-./:][A-Za-z0-9ÄÖÜäöü]{1,15}){1,8}"
_LAST_GROUP = r"(?:(?<=[A-Za-zÄÖÜäöü])[ \u00a0]\d{1,5}(?:/\d{2,4})?)?"  # after a token's letters only
# an office's letters between two tokens ("II.5-5 P 8123.2-2023/118"): a court's number never
# begins with a token of joined parts
_SECOND_TOKEN = rf"[ \u00a0][A-Z]{{1,3}}[ \u00a0]{_TOKEN}"
_ID_V6 = rf"(?P<value>(?:[A-Z]{{1,4}}[ \u00a0])?{_TOKEN}(?:{_SECOND_TOKEN}|{_LAST_GROUP}))(?![\w]|[-./:]\w)"
# the Federal Office's "Gesch.-Z." and "Geschäftsz." beside version 1's labels
_FILE_KEY_V6 = rf"(?:{_FILE_KEYS}|Gesch\.-Z\.|Geschäftsz\.)"
# one token of letters and digits: "UV-2022-018374-RB", "32-1441/23-Or"; not the European
# register's public number of a medicine ("zugelassen unter der Nummer EU/1/07/436/001")
_MIXED_ID = (
    r"(?P<value>(?:[A-Z]{1,4}[ \u00a0](?=\d))?(?!EU/)(?=[\w\-./:]*\d)(?=[\w\-./:]*[A-Za-zÄÖÜäöü])"
    rf"{_TOKEN}{_LAST_GROUP})(?![\w]|[-./:]\w)"
)
_LETTER_SIGN_KEY = (
    rf"(?:Schreiben|Brief|Abmahnung|Mahnung|E-Mail|Telefax)[ \u00a0]vom[ \u00a0]{_DATED}(?:,?[ \u00a0]|[ \u00a0]?\()"
    r"(?:Zeichen|Az\.|Aktenzeichen|Gz\.|Geschäftszeichen)"
)
_CERTIFICATE = (
    r"(?<![\w\-])(?:[A-ZÄÖÜ][a-zäöüß]*(?:schein|karte|ausweis|urkunde|zeugnis|zertifikat|bescheinigung"
    r"|kostenplan|police)|Ausweis|Urkunde|Zeugnis|Zertifikat|Bescheinigung|Kostenplan|Police)(?:e?s|en|n)?"
)
# any "-nummer" compound or "trägt die Nummer", before a number of letters and digits
# ("Bewerbungsnummer CKM-23-0094", "Die Gewerbeanmeldung trägt die Nummer GA-2019-0733")
_NUMBER_KEY = r"(?:(?<![\w\-])[A-ZÄÖÜ][a-zäöüß]{2,}nummer|(?:trägt|hat|mit|unter)[ \u00a0](?:die|der)[ \u00a0]Nummer)"
_CERTIFICATE_NR_KEY = rf"{_CERTIFICATE}[^\n;()]{{0,50}}?[ \u00a0]\(?(?:Nr\.|Nummer)"


class PermitNumberRecognizerV6(PermitNumberRecognizerV5):
    """Version 5, a file number of letters and digits without an authority word near, a last
    group after an office's letters, a letter's sign, a certificate's number, a number of letters
    and digits after any "-nummer" (the comment above)."""

    PATTERNS = (
        *(replace(p, regex=p.regex.replace(_ID, _ID_V6).replace(_FILE_KEY, _FILE_KEY_V6))
          for p in PermitNumberRecognizerV5.PATTERNS),
        Pattern("authority_file_mixed", rf"(?<!\w){_FILE_KEY_V6}{_OF_AUTHORITY}?{_COLON}{_MIXED_ID}", 0.75),
        Pattern("letter_sign", rf"(?<!\w){_LETTER_SIGN_KEY}{_COLON}{_ID_V6}", 0.75),
        Pattern("certificate_nr", rf"{_CERTIFICATE_NR_KEY}{_COLON}{_ID_V6}", 0.75),
        Pattern("certificate_nr_solid", rf"{_CERTIFICATE_NR_KEY}{_COLON}{_SOLID}", 0.75),
        Pattern("number_mixed", rf"{_NUMBER_KEY}{_COLON}{_MIXED_ID}", 0.75),
    )


# Version 7 (the batch of the twenty-second session, written before the chain ran on it): a file
# number after a compound naming whose file it is ("lehnte die Anerkennung ab
# (Unfallaktenzeichen 2022 118 640 7)", "Schadensaktenzeichen"), which version 6 read only after
# the bare word and with an authority word near: the compound names a file that is no court's
# (not "Gerichtsaktenzeichen"); and an insurer's or a fund's word as the context of a bare
# "Az." ("Die Berufsgenossenschaft lehnte … ab (Az. 5 23 118 904 7)"), where a public insurer
# decides as an authority does.
_COMPOUND_FILE_KEY = r"(?<![\w\-])(?!Gerichts)[A-ZÄÖÜ][a-zäöüß]{2,}aktenzeichen(?:s)?"


class PermitNumberRecognizerV7(PermitNumberRecognizerV6):
    """Version 6, a file number after a compound of "-aktenzeichen", an insurer's word as
    context."""

    PATTERNS = (
        *PermitNumberRecognizerV6.PATTERNS,
        Pattern("compound_file", rf"{_COMPOUND_FILE_KEY}{_COLON}{_ID_V6}", 0.75),
        Pattern("compound_file_spaced", rf"{_COMPOUND_FILE_KEY}{_COLON}{_SPACED_DIGITS}", 0.75),
        Pattern("compound_file_solid", rf"{_COMPOUND_FILE_KEY}{_COLON}{_SOLID}", 0.75),
    )
    CONTEXT = (*PermitNumberRecognizerV6.CONTEXT, "berufsgenossenschaft", "unfallkasse", "krankenkasse",
               "pflegekasse", "familienkasse", "rentenversicherung", "versicherer")  # fmt: skip


# Version 8 (the batch of the twenty-third session, written before the chain ran on it): the
# further numbers of a list after a labelled one ("Inhaber der Waffenbesitzkarten Nr. 44/2011
# und 12/2016", "die Bescheide Az. 41-6240/2021, 41-6241/2021", "Nr. 1/2008 und Nr. 44/2015"),
# which version 7 read only right after the label, so the second stayed in clear. A further
# number joins by a comma, "und", "sowie", "bzw." or "oder" (and a repeated "Nr.") and has the first one's shape (the same separators between its
# parts): a date or a court's number after it has another.
_NEXT_ITEM = re.compile(
    rf"(?:,[ \u00a0]|[ \u00a0](?:und|sowie|bzw\.|oder)[ \u00a0])(?:Nr\.[ \u00a0])?(?P<value>{_TOKEN})(?![\w]|[-./:]\w)"
)
_PART = re.compile(r"[A-Za-z0-9ÄÖÜäöü]+")
_MAX_FURTHER = 5


def _shape(number: str) -> str:
    """A number's separators between its parts ("44/2011" → "x/x")."""
    return _PART.sub("x", number)


class PermitNumberRecognizerV8(PermitNumberRecognizerV7):
    """Version 7, and the further numbers of the same shape listed after a labelled one."""

    def analyze(self, text: str) -> list[Span]:
        spans = super().analyze(text)
        further: list[Span] = []
        for span in spans:
            shape, end = _shape(text[span.start : span.end]), span.end
            for _ in range(_MAX_FURTHER):
                item = _NEXT_ITEM.match(text, end)
                if item is None or _shape(item.group("value")) != shape or self.validate(item.group("value")) is False:
                    break
                further.append(Span(item.start("value"), item.end("value"), self.LABEL, span.score, self.name))
                end = item.end("value")
        return resolve_overlaps([*spans, *further]) if further else spans
