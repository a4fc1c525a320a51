"""Land parcel numbers: labelled numbers and list items fire, bare fractions never do."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.parcel_number import ParcelNumberRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "für den geplanten Stall auf Fl.Nr. [[318/2]] Gemarkung Thann",
        "Die Garage auf dem Grundstück Fl.Nr. [[2205/4]] (Nr. 2 des Bescheids) steht",
        "das Grundstück Flurstück Nr. [[4938]] der Gemarkung",
        "Eigentümer der Grundstücke FlNrn. [[12/3]], [[12/4]] und [[15]] der Gemarkung",
        "auf dem Flurstück [[118/2]] errichtet",
        "Flur-Nr.: [[77/12]]",
        "Flst. Nr. [[2031a]] ist bebaut",
        "das im Grundbuch von Velden, Blatt [[3317]] verzeichnete Grundstück",
        "(Grundbuch des Amtsgerichts Landshut von Ergolding, Blatt [[2093]]) mit der Anschrift",
        "eingetragen im Grundbuch von Schwabing Bl. [[12345]]",
        # negatives: placeholders of the published corpus, fractions and citations without a label
        "Flur-Nr. xx/001 und Flurstück B",
        "Flurstücke a, b und c",
        "Beschluss vom 12/18 und 3/19",
        "§ 34 Abs. 1 BauGB, Nr. 12/3 und 4",
        "nach Anlage 1 Nr. 421/5 der Verordnung",
        "die Flurstücke wurden 2019 und 2020 geteilt",
        "vgl. Bl. 236 der Gerichtsakte; das Grundbuch wurde berichtigt.\nBlatt 3",
        "Grundbuchamt, Blatt 12/3 der Akte",
    ],
)
def test_parcel_table(marked: str) -> None:
    check_table_row(ParcelNumberRecognizer(), marked, "PARCEL_NUMBER")
