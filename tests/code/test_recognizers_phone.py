"""Phone recognizer: German and international numbers, and the many digit strings of
decisions that are not phone numbers (dates, file numbers, money, citations, years)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.phone import PhoneRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "[[0911 123456]]",
        "Tel. [[0911 123456]]",
        "Telefon: [[+49 (0)89 1234-567]]",
        "Tel. [[089/123456]]",
        "Fax [[089 / 12 34 56]]",
        "mobil unter [[0171 1234567]] erreichbar",
        "[[+49 171 1234567]]",
        "[[0049 89 123456]]",
        "Telefon [[(089) 1234567]]",
        "Zentrale [[0211 4921-0]], Durchwahl",
        "Tel.: [[069/1533-1234]].",
        "Telefon [[08912345678]]",  # glued together: only with a context word
        "[[+33 1 23 45 67 89]]",
        # negatives
        "08912345678",
        "Beschluss vom 01.02.2023 - 1 F 260/23 -",
        "BVerwG 3 B 6.24, 14 Sa 631/22, IX ZR 12/18",
        "am 04.07.2017 um 11:15 Uhr",
        "Streitwert 8.750,- Euro; 0,52 Gramm",
        "ISBN 0-306-40615-2 und ISBN 978-3-406-12345-6",
        "ISBN 0306 406152",
        "BGBl. I S. 1234; BGBl 2009 I S. 2449",
        "Rn. 014 und Rn. 12",
        "in den Jahren 2019 und 2020",
        "§ 0123 456 ZPO",
        "Kassenzeichen 1180 0586 4722",
        "PLZ 01067 Dresden",
        "Az. 0123 456789",
        "04 07 2017",
        "00 12",
    ],
)
def test_phone_table(marked: str) -> None:
    check_table_row(PhoneRecognizer(), marked, "PHONE")


@pytest.mark.parametrize(
    "text, score",
    [("0911 123456", 0.6), ("Tel. 0911 123456", 0.9), ("+49 89 1234567", 0.7)],
)
def test_phone_scores(text: str, score: float) -> None:
    assert [s.score for s in PhoneRecognizer().analyze(text)] == [score]
