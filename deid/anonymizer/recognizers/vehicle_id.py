"""Vehicle identification numbers (``FIN WAUZZZFY5J2041754``, ISO 3779).

A VIN names one vehicle and through the registration its keeper, like a plate. Seventeen
capitals and digits without I, O and Q; European makers leave the North-American check digit
out, so a match needs a context word (``FIN``, ``Fahrgestellnummer``) unless the check digit
confirms it.
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_VIN = r"(?<![A-Za-z0-9])(?=[A-HJ-NPR-Z0-9]{0,16}[A-HJ-NPR-Z])(?=[A-HJ-NPR-Z0-9]{0,16}\d)[A-HJ-NPR-Z0-9]{17}(?![A-Za-z0-9])"
_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
_VALUES = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9)))}
_VALUES |= dict(zip("JKLMN", range(1, 6))) | {"P": 7, "R": 9} | dict(zip("STUVWXYZ", range(2, 10)))


def check_digit_ok(vin: str) -> bool:
    """The North-American check digit at position 9 (``X`` stands for 10)."""
    total = sum(_VALUES[c] * w for c, w in zip(vin, _WEIGHTS))
    digit = total % 11
    return vin[8] == ("X" if digit == 10 else str(digit))


class VehicleIdRecognizer(PatternRecognizer):
    """VINs near a vehicle context word, or anywhere when the check digit holds."""

    NAME = "vehicle_id"
    LABEL = "VEHICLE_ID"
    PATTERNS = (Pattern("vin", _VIN, 0.4),)  # + context 0.85, + check digit 0.8
    CONTEXT = (
        "fin", "fahrzeugidentifikationsnummer", "fahrzeug-identifizierungsnummer",
        "fahrzeugidentnummer", "fahrgestellnummer", "fahrgestell-nr", "vin", "fahrzeug",
    )  # fmt: skip
    CONTEXT_WINDOW = 60
    CONTEXT_BOOST = 0.45
    VALIDATION_BOOST = 0.4

    def validate(self, hit: str) -> bool | None:
        return True if check_digit_ok(hit) else None

    def score_hit(self, text: str, start: int, end: int, pattern: Pattern) -> float | None:
        if not check_digit_ok(text[start:end]) and not self.has_context(text, start):
            return None  # seventeen capitals and digits alone may be anything
        return super().score_hit(text, start, end, pattern)
