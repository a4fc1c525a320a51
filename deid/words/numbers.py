"""What stands around a number: the label word before an identifier ("IBAN DE89 …",
"BG-Nummer 83503//0012876", "Fl.-Nr. 1024", "(FIN) WAUZZZ…") and the unit after a quantity
("63.902,18 €", "5,0703 ha", "33 dB(A)").

The model reads both as part of what they describe: the label word as an identifier or a
brand of its own, an amount's or an area's digits as an identifier or a house number (the
Bavarian dev half, the from-scratch dev set, the LER validation split's "3927,71 Euro"). A
label word names what follows, never a person; a quantity is neither an identifier nor an
address. The identifier itself stays: the recognizers find it after its label.
"""

from __future__ import annotations

import re

_W = r"[\wÄÖÜäöüß]"
# a label word: a compound ending in "-nummer"/"-Nr."/"-Z." or "-zeichen"/"-zahl" ("Sparbuchnummer",
# "AZR-Nummer", "Fl.-Nr.", "FlNr.", "Gesch.-Z.", "Geschäftszahl", "Aktenzeichen"), or one of the
# abbreviations decisions print before a number (case as printed: "FIN", never the name "Fin")
_LABEL_WORD = re.compile(
    rf"(?:{_W}[\w.]*-?)?(?i:nummer|nummern|nrn?|zeichen|zahl)\.?"
    rf"|{_W}[\w.]*\.-Z\.?"
    r"|(?:IBAN|BIC|FIN|VIN|IMEI|UELN|Az|AZ|Gz|GZ|Tel|Fax|Kto|BLZ|Fl|Flst|Hs|IdNr|USt-IdNr)\.?"
)
_LABEL_TOKEN_EDGES = "()[]:,;„“\"'"
# what follows a label word: "Nr." again ("Fl. Nr. 312/2"), a colon or bracket, then a token
# with a digit ("DE89 7435 …", "83503//0012876", ") WAUZZZFY5J2041754")
_NUMBER_AFTER = re.compile(r"[\s:.()\[\]]*(?:(?:Nr|Nrn|Nummer)\.?[\s:]*)?[A-ZÄÖÜ0-9][\w./\-]*?\d")

_NUMBER = r"(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?)"
_UNIT = r"(?:€|EUR|Euro|DM|CHF|ha|qm|m²|m2|m³|km/h|km|kg|cm|mm|m|t|l|%|Prozent|dB\(A\)|dB|PS|kW|kWh|Std\.|Stunden)"
# a number with its unit after it, or an amount's currency before it ("EUR 1.200,00")
QUANTITY = re.compile(
    rf"(?<![\w.,/-]){_NUMBER}[ \u00a0]?{_UNIT}(?![\wÄÖÜäöüß²³])|(?<![\w])(?:€|EUR)[ \u00a0]?{_NUMBER}(?![\d.,]\d)"
)


def label_word_before_number(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies inside one word that labels the identifier after it
    ("IBAN", "BG-Nummer", the "Fl" of "Fl. Nr. 312/2"): the word, without brackets or a
    colon, is a label word, holds no digit, and a token with a digit follows it."""
    left = (
        max(text.rfind(" ", 0, start), text.rfind("\n", 0, start), text.rfind("\u00a0", 0, start))
        + 1
    )
    right = end
    while right < len(text) and not text[right].isspace():
        right += 1
    word = text[left:right].strip(_LABEL_TOKEN_EDGES)
    if not word or any(c.isdigit() for c in word) or not _LABEL_WORD.fullmatch(word):
        return False
    return _NUMBER_AFTER.match(text, left + text[left:right].find(word) + len(word)) is not None


def in_quantity(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies inside a number with its unit or currency ("63.902,18
    €", "5,0703 ha", "33 dB(A)")."""
    lo = max(0, start - 40)
    return any(
        m.start() <= start and end <= m.end()
        for m in QUANTITY.finditer(text, lo, min(len(text), end + 20))
    )
