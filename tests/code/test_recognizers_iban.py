"""IBAN and BIC recognizers: positive/negative tables and checksum tables."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.bic import BicRecognizer
from deid.anonymizer.recognizers.iban import IbanRecognizer, IbanRecognizerV2, IbanRecognizerV3


@pytest.mark.parametrize(
    "marked",
    [
        "IBAN: [[DE89 3704 0044 0532 0130 00]]",
        "IBAN [[DE89370400440532013000]].",
        "auf das Konto [[DE89 3704 0044 0532 0130 00]] EUR 500 überwiesen",  # trailing words
        "(IBAN [[DE89 3704 0044 0532 0130 00]])",
        "[[GB82 WEST 1234 5698 7654 32]]",
        "[[AT611904300234573201]] und [[NL91ABNA0417164300]]",
        "Konto [[FR14 2004 1010 0505 0001 3M02 606]], BIC ...",
        # negatives: one digit off, patent number, too short, lowercase prose
        "DE89 3704 0044 0532 0130 01",
        "DE 10 2006 011 652 A1",
        "DE102006011652A1",
        "DE12 3456",
        "de89 3704 0044 0532 0130 00",
        "ECLI:DE:BVerwG:2024:010224U2A7.23.0",
    ],
)
def test_iban_table(marked: str) -> None:
    check_table_row(IbanRecognizer(), marked, "IBAN")


@pytest.mark.parametrize(
    "marked",
    [
        "IBAN: [[DE89 3704 0044 0532 0130 00]]",
        # a German IBAN right after its label counts whatever its check digits say (a typo in the
        # decision is still the party's account)
        "bei der VR-Bank Rottal-Inn eG (IBAN [[DE63 7406 1813 0004 5127 90]]) erhalten habe",
        "IBAN: [[DE89370400440532013001]].",
        # negatives: without the label the checksum still decides; too short; a patent
        "die Nummer DE89 3704 0044 0532 0130 01 ohne Bezeichnung",
        "IBAN DE12 3456",
        "IBAN-Angabe DE 10 2006 011 652 A1",
    ],
)
def test_iban_v2_table(marked: str) -> None:
    check_table_row(IbanRecognizerV2(), marked, "IBAN")


@pytest.mark.parametrize(
    "marked",
    [
        # any country's IBAN after its label, whatever its check digits (a fraud's account abroad)
        "überwiesen auf ein Konto mit der IBAN [[LT41 3250 0731 8820 4417]] bei einer litauischen Bank",
        "IBAN: [[FR76 3000 6000 0112 3456 7890 189]] und",
        "bei der VR-Bank (IBAN [[DE63 7406 1813 0004 5127 90]]) erhalten habe",
        # negatives: without the label only a valid checksum counts; a patent after a label word
        "die Nummer LT41 3250 0731 8820 4417 ohne Bezeichnung",
        "IBAN-Angabe DE 10 2006 011 652 A1",
    ],
)
def test_iban_v3_table(marked: str) -> None:
    check_table_row(IbanRecognizerV3(), marked, "IBAN")


def test_iban_version_2_keeps_its_meaning() -> None:
    assert IbanRecognizerV2().analyze("mit der IBAN LT41 3250 0731 8820 4417 bei") == []


def test_iban_version_1_keeps_its_meaning() -> None:
    assert IbanRecognizer().analyze("(IBAN DE63 7406 1813 0004 5127 90)") == []


@pytest.mark.parametrize(
    "valid, invalid",
    [
        ("DE89370400440532013000", "DE89370400440532013001"),
        ("DE89 3704 0044 0532 0130 00", "DE89 3704 0044 0532 0131 00"),
        ("GB82WEST12345698765432", "GB82WEST12345698765433"),
        ("AT611904300234573201", "AT611904300234573202"),
        ("CH9300762011623852957", "CH9300762011623852958"),
    ],
)
def test_iban_checksum(valid: str, invalid: str) -> None:
    recognizer = IbanRecognizer()
    assert recognizer.validate(valid) is True
    assert recognizer.validate(invalid) is False
    assert [s.score for s in recognizer.analyze(valid)] == [0.95]
    assert recognizer.analyze(invalid) == []


@pytest.mark.parametrize(
    "marked",
    [
        "BIC: [[COBADEFFXXX]]",
        "IBAN DE89 ..., BIC [[DEUTDEFF]]",
        "SWIFT-Code [[GENODEF1M04]]",
        # negatives: no context, capitals that are words, bad country
        "COBADEFFXXX",
        "BIC: BUNDESAMT",
        "BIC: ABCDXX12",
    ],
)
def test_bic_table(marked: str) -> None:
    check_table_row(BicRecognizer(), marked, "BIC")
