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
