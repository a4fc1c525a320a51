"""License plates: both forms need a vehicle context word."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.license_plate import LicensePlateRecognizer, LicensePlateRecognizerV2


@pytest.mark.parametrize(
    "marked",
    [
        "mit dem Kennzeichen [[M-AB 1234]]",
        "amtliches Kennzeichen [[B-XY 12E]]",
        "amtliches Kennzeichen [[KA AB 123]]",
        "der Pkw mit dem Kennzeichen [[WÜ-Z 9]] wurde",
        "Kfz-Kennzeichen: [[HH-AB1234]]",
        "das Fahrzeug [[M-AB 1234]] und [[M-CD 56H]]",
        "mit im Fahrzeug liegenden rumänischem Kennzeichen „[[CJ 07 RMT]]“",
        "Kennzeichen: [[B-123-XYZ]]",
        # negatives
        "M-AB 1234",  # no context
        "Kennzeichen „… … …“",
        "Fahrzeug; vgl. VG M 6 S 19.1168",
        "Fahrzeug; WuW/E DE-R 1621",
        "Kennzeichen ABC-DE 12345",  # five digits
        "Kennzeichen ABC-DE 1234",  # nine characters
        "Kennzeichen M-AB 0123",  # leading zero
        "Fahrzeug der Marke Audi vom Typ SQ5 3.0 TDI",
        "CJ 07 RMT",  # foreign layout without context
        "zum Fahrzeug vgl. BSG, Az. B 12 KR 11/06",
        "das Fahrzeug; BSG B 12 KR 11/06",
    ],
)
def test_license_plate_table(marked: str) -> None:
    check_table_row(LicensePlateRecognizer(), marked, "LICENSE_PLATE")


@pytest.mark.parametrize(
    "marked",
    [
        "wegen einer Geschwindigkeitsüberschreitung mit dem Sattelzug [[PAN-OL 218]] auf der A 94",
        "Der Traktor [[LA-XK 77]] stand auf dem Feldweg.",
        # negatives: a tariff or journal abbreviation without a vehicle
        "Die Vergütung richtet sich nach TV-L 3.",
    ],
)
def test_license_plate_v2_table(marked: str) -> None:
    check_table_row(LicensePlateRecognizerV2(), marked, "LICENSE_PLATE")


def test_license_plate_version_1_keeps_its_meaning() -> None:
    assert LicensePlateRecognizer().analyze("mit dem Sattelzug PAN-OL 218 auf der A 94") == []
