"""Patent publication/application numbers and trademark register numbers."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.recognizers.brand_number import BrandNumberRecognizer
from deid.recognizers.patent import PatentRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "[[DE 10 2006 011 652 A1]]",
        "[[DE102006011652A1]]",
        "Gebrauchsmuster [[DE 20 2010 001 234 U1]]",
        "[[EP 1 234 567 B1]] und [[EP1234567B1]]",
        "E5 [[EP 878 165 B1]]",
        "[[WO 2010/012345 A1]], [[WO 02/12345]]",
        "D4 [[US 4,515,634]]\nD3 [[US 6 636 973 B1]]\nD7 [[US 2003/0073563 A1]]",
        "D6: [[CA 1 277 535 C]] und D7: [[FR 2 447 848 A]]",
        "Druckschrift [[DE 195 12 345 A1]] (D1) und [[DE 44 21 234 C2]]",
        "betreffend die Patentanmeldung [[10 2009 060 716.1]] hat der Senat",
        "das europäische Patent [[EP 0 835 663]] ([[DE 693 34 297]])",
        # negatives
        "10 2009 060 716.1",  # application number without context
        "Az. L 4 KR 216/18 B ER",
        "BVerwG 3 B 6.24",
        "DE 195 12 345",  # old layout, no kind code, no context
        "ECLI:DE:BVerwG:2024:010224U2A7.23.0",
        "DE89370400440532013000",
    ],
)
def test_patent_table(marked: str) -> None:
    check_table_row(PatentRecognizer(), marked, "PATENT")


@pytest.mark.parametrize(
    "marked",
    [
        "[[30 2017 029 616]]",
        "Marke Nr. [[30 2017 029 616]]",
        "[[DE 30 2017 029 616.7/09]]",
        "betreffend die Markenanmeldung [[30 2015 000 116.3]] hat",
        "Widerspruch aus der Marke [[UM 005 137 708]]",
        "die international registrierte Marke [[IR 1 160 635]]",
        "der IR-Marke [[1 250 722]] KAGURA",
        "mit der Registernummer [[306 56 360]] eingetragen",
        # negatives
        "1 250 722",  # a bare number without context
        "306 56 360",
        "Kilometerstand von 38.909 der Marke Audi",
        "§ 14 Abs. 2 Nr. 2 MarkenG",
        "30 2017 029 6161",
    ],
)
def test_brand_number_table(marked: str) -> None:
    check_table_row(BrandNumberRecognizer(), marked, "BRAND_NUMBER")


def test_brand_number_context_raises_score() -> None:
    recognizer = BrandNumberRecognizer()
    assert [s.score for s in recognizer.analyze("30 2017 029 616")] == [0.5]
    assert [s.score for s in recognizer.analyze("Marke 30 2017 029 616")] == [0.9]
