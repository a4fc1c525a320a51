"""Authority file and permit numbers: labelled ids fire, court file numbers never do."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.permit_number import PermitNumberRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Bescheid des Landratsamts vom 3.4.2020, Az. [[602-1.2-2012-3304-23]]",
        "Baugenehmigung vom 15. Dezember 2008 (Az.: [[B-2008/1234]])",
        "Genehmigungsnummer [[GEN-2019-00123]]",
        "Erlaubnis-Nr. [[12/345-678]]",
        "unter der Führerscheinnummer [[95917]] ausgehändigt",
        "Personalausweisnummer: [[L01X00T47]]",
        "Baugenehmigung Nr. [[2019-0815]] vom",
        "Aktenzeichen der Behörde: [[32.1-4567/19]]",
        "Az. des Landratsamts Rosenheim [[SG 31-1234/2020]]",
        # negatives: court file numbers, section numbers, dates, anonymized values
        "Bescheid vom 15. Februar 2019; VG München, Az. 1 F 260/23",
        "Widerspruchsbescheid; Az. BVerwG 3 B 6.24",
        "Bescheid; LAG Az. 14 Sa 631/22",
        "Bescheid; BGH, Az. IX ZR 12/18",
        "Bescheid (vgl. BAG 25. Januar 2023 – 4 AZR 171/22 – Rn. 11)",
        "Bescheid; Az.: 5 K 3125/23.F",
        "Az. 602-1.2-2012-3304-23",  # no authority word nearby
        "Nach Nr. 3.14.1 der Begutachtungsleitlinien (Widerspruchsbescheid)",
        "Bescheid Nr. 1 und 2",
        "Bescheid vom 15.02.2019, Az. 15.02.2019",
        "Bescheid des Landratsamts (Az.: …)",
        "unter Nr. 2022/S 069-123456 im Amtsblatt",
    ],
)
def test_permit_table(marked: str) -> None:
    check_table_row(PermitNumberRecognizer(), marked, "PERMIT_NUMBER")
