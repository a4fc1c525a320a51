"""The mastr_number recognizer: a number of the Marktstammdatenregister by its shape
(deid.anonymizer.recognizers.mastr_number)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.mastr_number import MastrNumberRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Die Anlage ist im Marktstammdatenregister unter der Nummer [[SEE937104528813]] registriert.",
        "Betreiber ist der Kläger (MaStR-Nr. [[ABR912345678901]]).",
        # negatives: too few digits, another prefix, inside a longer token
        "Die Nummer SEE93710452881 ist unvollständig.",
        "Das Aktenzeichen XYZ937104528813 ist eines Dritten.",
        "Der Code SEE937104528813-B fehlt.",
    ],
)
def test_mastr_table(marked: str) -> None:
    check_table_row(MastrNumberRecognizer(), marked, "PERMIT_NUMBER")
