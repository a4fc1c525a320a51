"""A small business named by its kind and its owner (the policy neutralizes a private firm)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.business_name import BusinessNameRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "Sie legte eine Erklärung des Vermessungsbüros [[Hausladen]] und Luftbilder vor.",
        "Die Beklagte zu 2) ist als Verkäuferin in der Metzgerei [[Pichlmaier]] am Max-Josefs-Platz beschäftigt.",
        "Es stützte sich auf das Schallgutachten des Ingenieurbüros [[Rauchenberger]] vom 3. Mai 2022.",
        "Der Kläger ließ die Garage vom Abbruchbetrieb [[Zellner-Huber]] abreißen.",
        # the kind's everyday sense, a noun after it, and a law firm are no such name
        "Die Bäckerei Brot und Kuchen verkaufte auch sonntags.",
        "Die Brauerei Gebäude wurden 1998 abgerissen.",
        "vertreten durch die Kanzlei Wimmer Rechtsanwälte",
        "Er arbeitete in einer Metzgerei in Landau.",
    ],
)
def test_business_name_table(marked: str) -> None:
    check_table_row(BusinessNameRecognizer(), marked, "FIRM_NAME")


def test_the_recognizer_joins_the_set_in_version_8() -> None:
    assert "deid.recognizers.business_name.v1" in RECOGNIZER_SETS[8]
    assert "deid.recognizers.business_name.v1" not in RECOGNIZER_SETS[7]
