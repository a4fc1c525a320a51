"""A vehicle's make and model where the text describes a vehicle ("mit seinem Pkw VW Passat,
amtliches Kennzeichen …", "des Traktors Fendt 309 Vario", "blauer Dacia Logan, Kennzeichen …").

The model reads makes and models as names ("Dacia Logan" a person, "Passat" a place, "Skoda"
an organization: the Bavarian dev half and the from-scratch dev set). A make names a big
manufacturer in passing, which both profiles keep (docs/anonymization-policy.md); the plate,
the VIN and the owner are what identify, and other rules find those. A make alone is not enough,
since makes are surnames too ("Ford", "Porsche", "Opel", "Fendt"): the phrase counts only where
a vehicle word stands before it or a vehicle's identifier follows it, and never after a person's
role or title ("des Fahrzeugs, Herr Opel, …").

The makes are those of cars, vans, lorries, tractors, motorcycles and motorhomes registered in
Germany in numbers (the Kraftfahrt-Bundesamt's statistics of new registrations by make, FZ 10),
written out by hand.
"""

from __future__ import annotations

import re

from deid.schema import Span
from deid.words.roles import after_person_role
from deid.words.vocab import alternation

VEHICLE_MAKES: tuple[str, ...] = (
    "Alfa Romeo", "Aston Martin", "Audi", "BMW", "Citroën", "Citroen", "Cupra", "Dacia", "Daihatsu",
    "Ferrari", "Fiat", "Ford", "Honda", "Hyundai", "Iveco", "Jaguar", "Jeep", "Kia", "Lada",
    "Lamborghini", "Lancia", "Land Rover", "Lexus", "Maserati", "Mazda", "Mercedes-Benz", "Mercedes",
    "MAN", "Mini", "Mitsubishi", "Nissan", "Opel", "Peugeot", "Porsche", "Renault", "Saab", "Seat",
    "Skoda", "Škoda", "Smart", "SsangYong", "Subaru", "Suzuki", "Tesla", "Toyota", "Volkswagen",
    "Volvo", "VW", "Scania", "DAF", "Fendt", "Deutz-Fahr", "Deutz", "John Deere", "Claas",
    "Massey Ferguson", "New Holland", "Steyr", "Kubota", "Valtra", "Harley-Davidson", "Yamaha",
    "Kawasaki", "Ducati", "KTM", "Vespa", "Piaggio", "Aprilia", "Hymer", "Knaus", "Dethleffs",
)  # fmt: skip

_S = r"[ \u00a0]"
# the make, then up to three words of the model ("X5", "309 Vario", "Sprinter 316 CDI", "A 6")
_MAKE = rf"(?<![\w\-])(?:{alternation(sorted(VEHICLE_MAKES, key=len, reverse=True))})(?![\w\-])"
_MODEL = rf"(?:{_S}(?:[A-ZÄÖÜ0-9][\w\-]*|[a-z]{{1,3}}\d\w*)){{0,3}}"
_PHRASE = re.compile(rf"{_MAKE}{_MODEL}")
# a vehicle word up to 40 characters before, in the same clause ("Pkw", "des Traktors",
# "das Basisfahrzeug", "blauer", not across a stop)
_VEHICLE_BEFORE = re.compile(
    r"(?:Pkw|PKW|Kfz|Fahrzeug\w*|Kraftfahrzeug\w*|\w*[Ww]agens?|Transporters?|Lkw|LKW|Sattelzug\w*"
    r"|Traktors?|Schleppers?|Wohnmobils?|Basisfahrzeugs?|Motorrad\w*|Rollers?|Kleinbus\w*|Busses"
    r"|Modell|Typ)"
    r"[^.;:!?\n]{0,40}$"
)
# a vehicle's identifier up to 30 characters after ("amtliches Kennzeichen", "Fahrgestellnummer")
_VEHICLE_AFTER = re.compile(
    r"^[^.;:!?\n]{0,30}?(?:Kennzeichen|Fahrgestellnummer|Fahrzeug-Identifi\w*|FIN\b|Erstzulassung|Baujahr)"
)


def vehicle_phrases(text: str) -> list[Span]:
    """Each make with its model that the text describes as a vehicle (the module's docstring)."""
    out = []
    for match in _PHRASE.finditer(text):
        before = text[max(0, match.start() - 60) : match.start()]
        after = text[match.end() : match.end() + 40]
        phrase = Span(match.start(), match.end(), "VEHICLE")
        if (_VEHICLE_BEFORE.search(before) or _VEHICLE_AFTER.match(after)) and not after_person_role(text, phrase):
            out.append(phrase)
    return out


# --- version 2: a device's designation, a model named by its type --------------------------
# A model named by its type ("Fahrzeug der Marke Audi vom Typ SQ5 3.0 TDI Quattro", "eine
# Windenergieanlage vom Typ Enercon E-160", "mit dem Modell „Phonak Audéo P90“") and a device's
# make and model before the device's own number ("Mobiltelefon Samsung Galaxy A54 (IMEI …)",
# "Lasermessgerät Riegl FG21-P (Gerätenummer …)", "Armbanduhr Rolex Submariner (Seriennummer
# …)"): the Bavarian dev half and the from-scratch dev set, where the model read them as a
# brand, a place or a street. A manufacturer's product, which both profiles keep; the number
# after it identifies and stays. Not "Marke" or "Bezeichnung": in a trademark case those name
# the party's own mark, which the strict profile neutralizes.
_DESIGNATION = (
    r"(?:„[^“\n]{1,40}“"
    r"|[A-ZÄÖÜ0-9][\w\-.]*(?:[ \u00a0](?:[A-ZÄÖÜ0-9][\w\-.]*|[a-z]{1,3}\d\w*)){0,3})"
)
_TYPE_CUE = re.compile(
    r"(?<![\w\-])(?:vom|des|dem|den|der|eines|einem|ein)[ \u00a0](?:Typs?|Modells?|Fabrikats?)[ \u00a0]"
)
_DEVICE_CUE = re.compile(
    r"(?<![\w\-])(?:Mobiltelefons?|Handys?|Smartphones?|Tablets?|Laptops?|Notebooks?|Computers?|Rechners?"
    r"|(?:Armband|Taschen|Smart)?[Uu]hr|\w*[Gg]eräts?|Kamera|Büchse|Gewehrs?|Pistole|Revolvers?|Waffe"
    r"|Fahrrads?|E-Bikes?|Pedelecs?|\w*[Aa]nlage|Wärmepumpe|\w*[Mm]aschine|Motorsäge|Drohne|Konsole"
    r"|Fernsehers?)[ \u00a0]"
)
_DEVICE_NUMBER_AFTER = re.compile(
    r"[ \u00a0,]*\(?(?:IMEI|Serien-?(?:nummer|Nr\.?)|Seriennr\.?|Geräte-?(?:nummer|Nr\.?)|Waffennummer"
    r"|Rahmennummer|Fahrgestellnummer|FIN)(?![\w])"
)
# never a person: "überließ das Mobiltelefon Frau Maier (IMEI …)"
_TYPED = re.compile(rf"(?!(?:Herrn?|Frau|Dr\.|Prof\.)[ \u00a0]){_DESIGNATION}")


def product_phrases(text: str) -> list[Span]:
    """:func:`vehicle_phrases` and each model named by its type or standing between a device
    word and the device's own number (the comment above)."""
    out = vehicle_phrases(text)
    for cue in _TYPE_CUE.finditer(text):
        if (match := _TYPED.match(text, cue.end())) is not None:
            out.append(Span(match.start(), match.end(), "PRODUCT"))
    for cue in _DEVICE_CUE.finditer(text):
        match = _TYPED.match(text, cue.end())
        if match is not None and _DEVICE_NUMBER_AFTER.match(text, match.end()) is not None:
            out.append(Span(match.start(), match.end(), "PRODUCT"))
    return out


# a make and its model in a plate's shape ("mit dem Pkw BMW X5, amtliches Kennzeichen …"): no
# plate's district is a make's name
_MAKE_PLATE = re.compile(rf"{_MAKE}[ \u00a0\-][A-Z]{{1,2}}\d{{1,4}}")


def is_make_and_model(surface: str) -> bool:
    """Whether a plate-shaped ``surface`` is a make and its model ("BMW X5", "BMW M3")."""
    return _MAKE_PLATE.fullmatch(surface) is not None
