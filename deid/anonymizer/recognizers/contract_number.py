"""Contract, loan, account, insurance and customer numbers after their label.

Such numbers have no common shape; the label (``Vertragsnummer``, ``Darlehens-Nr.``,
``Kontonummer``, ``Versicherungsschein-Nr.``, ``Kundennummer``) is the evidence, so it is
part of the pattern and the span covers only the number.

Version 2 (:class:`ContractNumberRecognizerV2`) knows the labels that version 1 missed in the
training decisions: a SEPA "Mandatsreferenznummer", a doctor's "Arztnummer" (LANR) and a
practice's "Betriebsstättennummer" (BSNR), an insured person's "Versichertennummer", a
Bedarfsgemeinschaft's "BG-Nummer".

Version 4 (:class:`ContractNumberRecognizerV4`) also knows invoice, guarantee and notarial deed
numbers ("Schlussrechnung Nr.", "Bürgschafts-Nr.", "URNr.").

Version 3 (:class:`ContractNumberRecognizerV3`) also reads a label that names whose number it
is before a colon ("Personalnummer der Klägerin: PN 2014-0817") and a police diary number
("Tagebuchnummer BY8512-004711-22/6", "Tgb.-Nr."), which version 2 found in part or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_KIND = (
    r"vertrags|darlehens|darlehensvertrags|kredit|kreditvertrags|konto|kto\.?|bankkonto"
    r"|sparkonto|depot|kunden|versicherungs|versicherungsschein|versicherungsvertrags"
    r"|policen|police|mitglieds|rechnungs|auftrags|bestell|mandats|mandanten|personal"
    r"|schadens|schaden|vorgangs|referenz|buchungs|karten|kreditkarten|leasing|leasingvertrags"
    r"|zähler|mietvertrags|abonnement"
)
_SPACED = r"vertrag|darlehensvertrag|versicherungsvertrag|police|konto"


def _key(kinds: str, words: str = "kassenzeichen", spaced: str = _SPACED) -> str:
    """A label: a kind compounded with "-nummer"/"-Nr." ("Darlehens-Nr."), a word that is a
    label by itself ("Kassenzeichen"), or a noun and "Nr."/"Nummer" apart ("Vertrag Nr.")."""
    return rf"(?<!\w)(?i:(?:{kinds})(?:-?nummer|-?nr\.?|-?no\.?)|{words}|(?:{spaced})[ \u00a0](?:nr\.|nummer))"


_KEY = _key(_KIND)
_COLON = r"[ \u00a0]?:?[ \u00a0]?"
# letters-then-digits or digit groups joined by . / - or single spaces (``12 150385 M 123``)
_VALUE_BODY = (
    r"(?:[A-Z]{1,4}[ \-]?)?\d[\dA-Z]{0,19}"
    r"(?:[./\-][\dA-Z]{1,12}|[ \u00a0]\d{2,12}|[ \u00a0][A-Z](?=[ \u00a0]\d)){0,6}"
)
_VALUE_END = r"(?![\w]|[./\-]\w)"
_VALUE = rf"(?P<value>{_VALUE_BODY}){_VALUE_END}"
_MIN_DIGITS = 3


class ContractNumberRecognizer(PatternRecognizer):
    """Numbers labelled as contract/loan/account/insurance/customer numbers."""

    NAME = "contract_number"
    LABEL = "CONTRACT_NUMBER"
    PATTERNS = (Pattern("labelled_number", rf"{_KEY}{_COLON}{_VALUE}", 0.8),)

    def validate(self, hit: str) -> bool | None:
        if sum(c.isdigit() for c in hit) < _MIN_DIGITS:
            return False
        return None


_KIND_V2 = (
    rf"{_KIND}|mandatsreferenz|arzt|betriebsstätten|versicherten|krankenversicherten"
    r"|bedarfsgemeinschafts|bg-"
)
_KEY_V2 = _key(_KIND_V2, "kassenzeichen|lanr|bsnr")


class ContractNumberRecognizerV2(ContractNumberRecognizer):
    """Version 1's labels and the ones it missed (the module's docstring)."""

    PATTERNS = (Pattern("labelled_number", rf"{_KEY_V2}{_COLON}{_VALUE}", 0.8),)


_KIND_V3 = rf"{_KIND_V2}|tagebuch|tgb\.?"
_KEY_V3 = _key(_KIND_V3, "kassenzeichen|lanr|bsnr")
# whose number: "der Klägerin", "des Beklagten zu 2)"; only before a colon, which shows the
# number follows ("Vertragsnummer des Klägers" alone names none)
_OWNER = r"(?:[ \u00a0](?:des|der)[ \u00a0][A-ZÄÖÜ][a-zäöüß]+(?:[ \u00a0]zu[ \u00a0]\d\)?)?)"
_WHOSE = rf"(?:{_OWNER}[ \u00a0]?:[ \u00a0]?)"


class ContractNumberRecognizerV3(ContractNumberRecognizer):
    """Version 2's labels, a label with its owner before a colon, police diary numbers."""

    PATTERNS = (Pattern("labelled_number", rf"{_KEY_V3}(?:{_WHOSE}|{_COLON}){_VALUE}", 0.8),)


# Version 4: the numbers of a builder's invoices and guarantees and of a notary's deed
# ("Schlussrechnung Nr. SR-22-0046", "Bürgschafts-Nr. BG 7730-5512", "URNr. 1034/2019"),
# which name a party's contract as a contract number does (the from-scratch dev set).
_INVOICE = r"(?:schluss|abschlags|teil)?rechnung"
_KIND_V4 = rf"{_KIND_V3}|{_INVOICE}s|bürgschafts|angebots|urkunden|ur"
_WORDS_V4 = "kassenzeichen|lanr|bsnr"
_SPACED_V4 = rf"{_SPACED}|{_INVOICE}|bürgschaft|bürgschaftsurkunde"
_KEY_V4 = _key(_KIND_V4, _WORDS_V4, _SPACED_V4)


class ContractNumberRecognizerV4(ContractNumberRecognizer):
    """Version 3, and invoice, guarantee and notarial deed numbers after their label."""

    PATTERNS = (Pattern("labelled_number", rf"{_KEY_V4}(?:{_WHOSE}|{_COLON}){_VALUE}", 0.8),)


# Version 5: a contribution's or a property's number for fees ("Beitragsnummer 1234567890",
# "Objektnummer 12.345.678"), a child benefit's number ("Kindergeldnummer 123FK456789"), a
# pension, social or tax number by its whole label whatever its check digit says
# ("Rentenversicherungsnummer …", "Steueridentifikationsnummer …": the social_security and
# tax_id recognizers take only numbers whose check digit holds, and a mistyped number is a
# party's all the same), and a label whose number follows "lautet", with or without its owner
# between ("Die Kundennummer des Klägers lautet 47110815", "Die Versicherungsnummer lautet
# 12 150385 M 123"), which version 4 found only right after the label (probes).
_KIND_V5 = (
    rf"{_KIND_V4}|beitrags|beitragskonto|objekt|kindergeld|rentenversicherungs|sozialversicherungs"
    r"|steueridentifikations"
)
_KEY_V5 = _key(_KIND_V5, _WORDS_V4, _SPACED_V4)
_READS = rf"(?:{_OWNER}?[ \u00a0]lautet(?:[ \u00a0]auf)?[ \u00a0]?:?[ \u00a0]?)"


class ContractNumberRecognizerV5(ContractNumberRecognizer):
    """Version 4, contribution and property numbers, and a number after "lautet"."""

    PATTERNS = (Pattern("labelled_number", rf"{_KEY_V5}(?:{_READS}|{_WHOSE}|{_COLON}){_VALUE}", 0.8),)


# Version 6: a patient's or case's number ("Patientennummer PN-0042197", "Fallnummer …"), a
# trade's registration number ("Gewerbekennziffer 09263000-2016-0417") and an
# identification number by its plain label ("Ihre steuerliche Identifikationsnummer lautet …",
# "Fahrzeug-Identifikationsnummer"): version 5 knew only "Steueridentifikationsnummer", and the
# tax_id recognizer takes only numbers whose check digit holds (the from-scratch dev set)
_KIND_V6 = rf"{_KIND_V5}|patienten|fall|identifikations"
_KEY_V6 = _key(_KIND_V6, f"{_WORDS_V4}|gewerbekennziffer", _SPACED_V4)


class ContractNumberRecognizerV6(ContractNumberRecognizer):
    """Version 5, patient and case numbers, an identification number by its plain label."""

    PATTERNS = (Pattern("labelled_number", rf"{_KEY_V6}(?:{_READS}|{_WHOSE}|{_COLON}){_VALUE}", 0.8),)


# Version 7 (the from-scratch dev set): a farm's number ("Betriebsnummer 09 372 117 0045"), a
# register's ("Registriernummer …"), a phone's device number ("IMEI 356938114207785"), a
# cattle's ear tags ("Ohrmarke DE 09 372 45118"), a bicycle's frame or a device's serial number
# ("Rahmennummer …", "Seriennummer …"), a horse's life number ("UELN 276009090154712"), a
# certificate's or examinee's number ("Zertifikatsnummer 4471-B1-2206-0183"), a savings book's
# ("Sparbuchnummer 300 441 8827"), an old car's chassis number of any length
# ("Fahrgestellnummer 11304412019873"), a weapon's ("Waffennummer R8-114472"), an authority's
# reference after "Kennzeichen" ("Bescheid … (Kennzeichen EG-2231-448817)"), a contract of any
# kind, an offer or a subscription by "Nr." after it ("Nachunternehmervertrag Nr. NU-2022-117",
# "Angebot Nr. AN-23-00457", "Zeichnungsschein Nr. SIS3-004417", "Auftragsbestätigung Nr. …"), a grant's
# ("Förderkennzeichen 2818DIG041"; a licence plate has
# letters after its district and is the licence_plate recognizer's); and after a label in the plural, each number of its list
# ("mit den Ohrmarken DE 09 372 45118 und DE 09 372 45121", "Kundennummern 4711, 4712 und 4713"):
# a plural label announces more than one, so a further number after "," "und" "sowie" is one too.
_KIND_V7 = rf"{_KIND_V6}|betriebs|registrier|imei|rahmen|serien|zertifikats|teilnehmer|prüfungs|sparbuch|fahrgestell|waffen"
_WORDS_V7 = f"{_WORDS_V4}|gewerbekennziffer|imei|ohrmarken?|ueln|kennzeichen|förderkennzeichen"
# "Nachunternehmervertrag Nr. NU-2022-117", "Angebot Nr. AN-23-00457", "Zeichnungsschein Nr. …"
_SPACED_V7 = (
    rf"{_SPACED_V4}|[a-zäöüß]+vertrag|angebot|zeichnungsschein|lieferschein|bestellung|auftragsbestätigung"
)
_KEY_V7 = _key(_KIND_V7, _WORDS_V7, _SPACED_V7)
_PLURAL_KEY = rf"(?<!\w)(?i:(?:{_KIND_V7})-?nummern|ohrmarken)"
_LIST_SEPARATOR = r"(?:,[ \u00a0]|[ \u00a0](?:und|sowie)[ \u00a0])"
_MAX_LISTED = 6
_LISTED = rf"{_VALUE_BODY}{_VALUE_END}(?![ \u00a0]?(?:€|EUR\b|Euro\b|%))"  # no amount after a list


_LISTED_ONE = re.compile(_LISTED)
# the labels' first letters tried first: the engine tries every position (same matches, a
# fraction of the time on long texts)
_INITIAL_V7 = r"(?=[^\W\d_])"


# a check digit apart at a number's end, before a bracket or a stop ("Mitgliedsnummer 09 118 447
# 3)"); not before a word ("Kundennummer 4711 2 Jahre")
_VALUE_V7 = rf"(?P<value>{_VALUE_BODY}(?:[ \u00a0]\d(?=[).,;]))?){_VALUE_END}"


class ContractNumberRecognizerV7(ContractNumberRecognizer):
    """Version 6, farm, register, device and ear-tag numbers, and each number of a list after a
    label in the plural."""

    PATTERNS = (
        Pattern("labelled_number", rf"{_INITIAL_V7}{_KEY_V7}(?:{_READS}|{_WHOSE}|{_COLON}){_VALUE_V7}", 0.8),
        Pattern(
            "listed_numbers",
            rf"{_INITIAL_V7}{_PLURAL_KEY}{_COLON}(?P<list>{_LISTED}(?:{_LIST_SEPARATOR}{_LISTED}){{0,{_MAX_LISTED - 1}}})",
            0.8,
        ),
    )

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        if "list" not in match.re.groupindex:
            yield from super().candidates(text, match)
            return
        start, end = match.span("list")
        for item in _LISTED_ONE.finditer(text, start, end):
            yield item.span()


# Version 8 (the from-scratch dev set): a laboratory's or examination's number ("Blutprobe …
# (Untersuchungsnummer T-23-04418)", "Probennummer …", "Labornummer …") and a ticket's or a
# report's number by "Nr." after it ("Störungsmeldung Nr. ST-2024-0113", "Schadensmeldung Nr. …",
# "Ticket Nr. …") and a number of two letter groups ("Objektnummer WW-CH-2211"), which version 7
# left in clear.
_KIND_V8 = rf"{_KIND_V7}|untersuchungs|proben|labor|ticket"
_SPACED_V8 = rf"{_SPACED_V7}|[a-zäöüß]*meldung|ticket|blutprobe"
_KEY_V8 = _key(_KIND_V8, _WORDS_V7, _SPACED_V8)
_PLURAL_KEY_V8 = rf"(?<!\w)(?i:(?:{_KIND_V8})-?nummern|ohrmarken)"


# an agent's or a portal's number of two letter groups before its digits ("Objektnummer
# WW-CH-2211"), whose second group version 7 did not read
_VALUE_V8 = rf"(?P<value>(?:[A-Z]{{1,4}}-)?{_VALUE_BODY}(?:[ \u00a0]\d(?=[).,;]))?){_VALUE_END}"


def _labelled_patterns(key: str, plural_key: str, value: str = _VALUE_V8) -> tuple[Pattern, Pattern]:
    """A number after its label, and each number of a list after the label in the plural
    (versions 8 and later, which differ in the labels they know and, from 11, in the letters of
    the value)."""
    return (
        Pattern("labelled_number", rf"{_INITIAL_V7}{key}(?:{_READS}|{_WHOSE}|{_COLON}){value}", 0.8),
        Pattern(
            "listed_numbers",
            rf"{_INITIAL_V7}{plural_key}{_COLON}(?P<list>{_LISTED}(?:{_LIST_SEPARATOR}{_LISTED}){{0,{_MAX_LISTED - 1}}})",
            0.8,
        ),
    )


class ContractNumberRecognizerV8(ContractNumberRecognizerV7):
    """Version 7, and a laboratory's, examination's, ticket's or report's number."""

    PATTERNS = _labelled_patterns(_KEY_V8, _PLURAL_KEY_V8)


# Version 9 (the from-scratch dev set): a certificate's number ("Standortbescheinigungsnummer
# 720381", "Bescheinigungsnummer …") and a tenant's ("Mieternummer 0815-2211-04"), which version
# 8 left in clear or to the phone rule
_KIND_V9 = rf"{_KIND_V8}|[a-zäöüß]*bescheinigungs|mieter"
_KEY_V9 = _key(_KIND_V9, _WORDS_V7, _SPACED_V8)
_PLURAL_KEY_V9 = rf"(?<!\w)(?i:(?:{_KIND_V9})-?nummern|ohrmarken)"


class ContractNumberRecognizerV9(ContractNumberRecognizerV8):
    """Version 8, and a certificate's and a tenant's number."""

    PATTERNS = _labelled_patterns(_KEY_V9, _PLURAL_KEY_V9)


# Version 10 (the from-scratch dev set): an account's number after a compound of "-konto" alone
# ("Darlehenskonto 7700 418 263", "Girokonto 1234567"), which version 9 read only before "-nummer"
# or "Nr."; "Konto" alone stays a ledger's or a bank's word ("auf dem Konto 6827", training text)
_WORDS_V10 = rf"{_WORDS_V7}|[a-zäöüß]+konto"
_KEY_V10 = _key(_KIND_V9, _WORDS_V10, _SPACED_V8)


class ContractNumberRecognizerV10(ContractNumberRecognizerV9):
    """Version 9, and an account's number after a compound of "-konto" alone."""

    PATTERNS = _labelled_patterns(_KEY_V10, _PLURAL_KEY_V9)


# Version 11 (the batch of the twenty-third session, written before the chain ran on it): a
# number whose letter groups have an umlaut ("Vorgangs-Nr. VPI-MÜ-2023-004187": a police office
# of Mühldorf, as licence plates write "MÜ", "TÖL"), which version 10 read only in A to Z and so
# not at all.
_VALUE_V11 = _VALUE_V8.replace("A-Z", "A-ZÄÖÜ")


class ContractNumberRecognizerV11(ContractNumberRecognizerV10):
    """Version 10, and a number whose letters have an umlaut ("VPI-MÜ-2023-004187")."""

    PATTERNS = _labelled_patterns(_KEY_V10, _PLURAL_KEY_V9, _VALUE_V11)


# Version 12 (the batches of the twenty-fourth session, written by others before the chain ran
# on them): an insurance policy's number after "Versicherungsschein" or "Police" alone
# ("zum Versicherungsschein 77.410.298-3"), after the abbreviation "Vers.-Nr." ("Vers.-Nr. DV
# 4471 90823"), a delivery note's after "Lieferschein" alone ("(Lieferschein LS-22-10473)"), a
# report's by "Nr." after it ("Nach dem Prüfbericht Nr. BA-2212-0386"), and an electricity meter's point of delivery ("unter der Zählpunktnummer
# DE000943…"): after its label, or by the shape the Bundesnetzagentur gives it (DE, six digits of
# the grid operator, five of the postal code, twenty letters or digits), which no other number has
_KIND_V12 = rf"{_KIND_V9}|vers\.|zählpunkt"
_WORDS_V12 = rf"{_WORDS_V10}|versicherungsschein|police|zählpunkt|zählpunktbezeichnung|lieferschein"
_SPACED_V12 = rf"{_SPACED_V8}|[a-zäöüß]*bericht"
_KEY_V12 = _key(_KIND_V12, _WORDS_V12, _SPACED_V12)
_PLURAL_KEY_V12 = rf"(?<!\w)(?i:(?:{_KIND_V12})-?nummern|ohrmarken)"
_METERING_LABEL = r"(?<!\w)(?i:zählpunkt(?:-?nummer|-?nr\.|-?bezeichnung)?|marktlokations-id|malo-id)"
_METERING_VALUE = r"(?P<value>DE[\dA-Z]{20,38})(?!\w)"
_METERING_POINT = r"(?<![\w])(?P<value>DE[ \u00a0]?\d{6}[ \u00a0]?\d{5}[ \u00a0]?[\dA-Z]{20})(?!\w)"


class ContractNumberRecognizerV12(ContractNumberRecognizerV11):
    """Version 11, a policy's number after "Versicherungsschein", "Police" or "Vers.-Nr.", a
    delivery note's and a report's, and a meter's point of delivery after its label or by its shape."""

    PATTERNS = (
        *_labelled_patterns(_KEY_V12, _PLURAL_KEY_V12, _VALUE_V11),
        Pattern("metering_point_labelled", rf"{_METERING_LABEL}{_COLON}{_METERING_VALUE}", 0.8),
        Pattern("metering_point", _METERING_POINT, 0.8),
    )


# Version 13 (the batches of the twenty-fourth session, written by others before the chain ran
# on them): a number coded as letters, a year and a serial ("Rechnungen Nr. SV-21-3317",
# "Befund-Nr. BA-23-11842", "Kostenvoranschlag Nr. KV-23-0412", "Seminar-Nr. BR1-23-088",
# "Kurs-ID KU-YO-2018-04471") after any label or none, and a Bavarian police case's number ("im
# Vorgang BY5410-027718-23/4"): shapes no other word of a decision has (none in the training and
# validation texts or the dev halves; all 78 in the from-scratch dev set are marked), which
# version 12 read only after a label it knows; and a loan's number after "Darlehen Nr."
_CODED = r"(?<![\w\-/.])(?P<value>[A-ZÄÖÜ]{1,4}\d?(?:-[A-ZÄÖÜ]{1,4})?-\d{2,4}-\d{3,6})(?![\w\-/]|\.\w)"
_POLICE_CASE = r"(?<![\w\-/.])(?P<value>BY\d{4}-\d{6}-\d{2}(?:/\d)?)(?![\w\-/]|\.\w)"
_KEY_V13 = _key(_KIND_V12, _WORDS_V12, rf"{_SPACED_V12}|darlehen")


class ContractNumberRecognizerV13(ContractNumberRecognizerV12):
    """Version 12, a number of letters, a year and a serial, or a Bavarian police case's
    number, by its shape alone, and a loan's after "Darlehen Nr."."""

    PATTERNS = (
        *_labelled_patterns(_KEY_V13, _PLURAL_KEY_V12, _VALUE_V11),
        *ContractNumberRecognizerV12.PATTERNS[2:],
        Pattern("coded_number", _CODED, 0.8),
        Pattern("police_case", _POLICE_CASE, 0.8),
    )
