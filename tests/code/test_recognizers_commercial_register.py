"""Commercial-register and association-register numbers; a court's own file numbers never."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.commercial_register import CommercialRegisterRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Die Beklagte ist im Handelsregister des Amtsgerichts München unter HRB [[123456]] eingetragen.",
        "Die Tessner Bau GmbH (Amtsgericht München, HRB [[123456]]) ist Beklagte.",
        "Die Klägerin ist im Handelsregister eingetragen (HRA [[6789 B]]).",
        "eingetragen im Handelsregister B des Amtsgerichts Charlottenburg unter der Nummer [[98765]]",
        "Der Verein ist im Vereinsregister des Amtsgerichts Passau unter VR [[1234]] eingetragen.",
        "Die Genossenschaft (GnR [[56]]) ist Mitglied des Verbands.",
        "Die Partnerschaft ist im Partnerschaftsregister unter PR [[789]] eingetragen.",
        "Registernummer: HR B [[4711]]",
        # negatives: court file numbers, placeholders, directives
        "Mit Beschluss vom 19. September 2017 - BVerwG 1 VR 8.17 - hat der Senat abgelehnt.",
        "Beschluss vom 19. Dezember 2017 - 1 WDS-VR 10.17 - abgelehnt; Vereinsregister",
        "einen chronologischen Ausdruck zur Registernummer HRB … vom 27. Februar 2017",
        "nach der Vorstandsrichtlinie „DSK VR 02/07“ des Vereins",
        "Die VR 5 ist eine Vergütungsregelung.",
    ],
)
def test_commercial_register_table(marked: str) -> None:
    check_table_row(CommercialRegisterRecognizer(), marked, "COMMERCIAL_REGISTER")
