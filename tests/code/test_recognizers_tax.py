"""Tax identifiers: Steuer-IdNr (checksum), Steuernummer (context), USt-IdNr (checksum)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.tax_id import TaxIdRecognizer
from deid.anonymizer.recognizers.tax_number import TaxNumberRecognizer
from deid.anonymizer.recognizers.vat_id import VatIdRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Steuer-IdNr. [[86095742719]]",
        "steuerliche Identifikationsnummer: [[86 095 742 719]]",
        "IdNr [[36/574/261/809]]",
        "die Nummer [[36574261809]] ohne Hinweis",  # valid checksum, lower score
        # negatives: one digit off, leading zero, part of longer numbers, phone
        "Steuer-IdNr. 86095742710",
        "Steuer-IdNr. 06095742719",
        "860957427191",
        "1.86095742719",
        "Tel. 08912345678",
    ],
)
def test_tax_id_table(marked: str) -> None:
    check_table_row(TaxIdRecognizer(), marked, "TAX_ID")


@pytest.mark.parametrize(
    "text, score",
    [("Steuer-IdNr. 86095742719", 0.9), ("Nummer 86095742719", 0.5)],
)
def test_tax_id_scores(text: str, score: float) -> None:
    assert [s.score for s in TaxIdRecognizer().analyze(text)] == [score]


@pytest.mark.parametrize(
    "marked",
    [
        "Steuernummer [[181/815/08155]]",
        "St.-Nr. [[93815/08152]]",
        "Steuer-Nr.: [[2181081508155]]",
        "unter der StNr [[21/815/08150]] geführt",
        # negatives: no context, not a tax-number layout, court file numbers
        "181/815/08155",
        "Steuernummer 1234567890123",
        "Steuernummer des Klägers im Verfahren IX R 12/18",
        "Steuernummer … (BFH 1/234/5)",
    ],
)
def test_tax_number_table(marked: str) -> None:
    check_table_row(TaxNumberRecognizer(), marked, "TAX_ID")


@pytest.mark.parametrize(
    "marked",
    [
        "USt-IdNr. [[DE136695976]]",
        "[[DE 136 695 976]]",
        "Umsatzsteuer-Identifikationsnummer [[DE123456788]]",
        "VAT [[ATU13585627]]",
        # negatives: one digit off, EU number without context, patent, IBAN
        "USt-IdNr. DE136695977",
        "ATU13585627",
        "DE102006011652A1",
        "DE89370400440532013000",
    ],
)
def test_vat_id_table(marked: str) -> None:
    check_table_row(VatIdRecognizer(), marked, "VAT_ID")


@pytest.mark.parametrize(
    "recognizer, valid, invalid",
    [
        (TaxIdRecognizer(), "86095742719", "86095742710"),
        (TaxIdRecognizer(), "36574261809", "36574261800"),
        (VatIdRecognizer(), "DE136695976", "DE136695977"),
        (VatIdRecognizer(), "DE123456788", "DE123456789"),
        (TaxNumberRecognizer(), "181/815/08155", "181/815/081555"),  # no check digit: length
    ],
    ids=["idnr", "idnr2", "vat", "vat2", "stnr-format"],
)
def test_tax_checksums(recognizer: object, valid: str, invalid: str) -> None:
    assert recognizer.validate(valid) is True  # type: ignore[attr-defined]
    assert recognizer.validate(invalid) is False  # type: ignore[attr-defined]
