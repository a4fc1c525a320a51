"""Vehicle identification numbers: context word or a valid North-American check digit."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.vehicle_id import VehicleIdRecognizer, check_digit_ok


@pytest.mark.parametrize(
    "marked",
    [
        "mit der Fahrzeugidentifikationsnummer (FIN) [[WAUZZZFY5J2041754]] nebst zwei Schlüsseln",
        "Fahrgestellnummer: [[WVWZZZ1JZXW000001]]",
        "[[1M8GDM9AXKP042788]]",  # check digit holds: no context needed
        # negatives
        "WAUZZZFY5J2041754",  # European VIN without context
        "FIN WAUZZZFY5J204175",  # 16 characters
        "FIN WAUZZZFY5J20417549",  # 18 characters
        "FIN WAUZZZFYOJ2041754",  # the letter O never occurs in a VIN
        "FIN 12345678901234567",  # digits only
        "IBAN DE89370400440532013000",
    ],
)
def test_vehicle_id_table(marked: str) -> None:
    check_table_row(VehicleIdRecognizer(), marked, "VEHICLE_ID")


def test_check_digit() -> None:
    assert check_digit_ok("1M8GDM9AXKP042788")
    assert not check_digit_ok("1M8GDM9A1KP042788")
