"""Contract, loan, account, insurance and customer numbers after their label."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.contract_number import ContractNumberRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Vertragsnummer [[738263528]]",
        "Darlehens-Nr. [[1234567]]",
        "Kontonummer: [[0532013000]]",
        "Kto.-Nr. [[12 345 678]] bei der Sparkasse",
        "Versicherungsschein-Nr. [[VS-1234-5678]]",
        "Kundennummer [[K 4711-0815]].",
        "Darlehensvertrag Nr. [[4711/2019]]",
        "Versicherungsnummer [[12 150385 M 123]]",  # not a valid RVNR: still a number
        "(Kassenzeichen [[1180 0586 4722]])",
        # negatives
        "Vertragsnummer …",
        "Personalnummer, Nachname, Vorname, Telefonnummer",
        "Kundennummer 12",
        "Vertragsnummer des Klägers",
        "Celex-Nr. 62020CJ0368",
        "Los-Nr. 1",
    ],
)
def test_contract_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizer(), marked, "CONTRACT_NUMBER")
