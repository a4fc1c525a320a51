"""An IPv4 address (an identifier both profiles neutralize), not an outline's item number."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

import deid.anonymizer.components  # noqa: F401 - registers the chain components
from deid.anonymizer.chain import registry
from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.ip_address import IpAddressRecognizer, IpAddressRecognizerV2


@pytest.mark.parametrize(
    "marked",
    [
        "Die Ermittlungen führten über die IP-Adresse [[84.153.27.196]] zum Anschluss der Wohnung.",
        "Der Zugriff erfolgte von der IP [[10.0.0.12]] aus.",
        "Der Router hatte die Adresse [[192.168.178.20]].",
        # negatives: an outline's item, a date, a number out of range, a version number's five parts
        "Nach Nr. 3.1.2.1 VwV ist der Antrag zu stellen.",
        "Die Frist endete am 1.2.2023.",
        "Die Zeichenfolge 300.12.1.4 ist keine Adresse.",
        "Es galt die Version 2.10.3.1.5 der Software.",
    ],
)  # fmt: skip
def test_ip_address_table(marked: str) -> None:
    check_table_row(IpAddressRecognizer(), marked, "IP_ADDRESS")
    check_table_row(IpAddressRecognizerV2(), marked, "IP_ADDRESS")


def test_ip_address_v2_reads_the_word_ip_only_as_a_word() -> None:
    """"ZIP-" is no cue; version 1 keeps its meaning and reads it as one."""
    text = "Die ZIP-Datei 10.0.0.12 lag bei."
    assert IpAddressRecognizerV2().analyze(text) == []
    assert [text[s.start : s.end] for s in IpAddressRecognizer().analyze(text)] == ["10.0.0.12"]


def test_recognizers_12_runs_the_new_versions_in_place_of_the_old() -> None:
    new = {"ip_address.v1", "firm_name.v4", "street_address.v7", "business_name.v4", "venue_name.v3", "contract_number.v9"}
    old = {"firm_name.v3", "street_address.v6", "business_name.v3", "venue_name.v2", "contract_number.v8"}
    assert {f"deid.recognizers.{n}" for n in new} <= set(RECOGNIZER_SETS[12])
    assert not {f"deid.recognizers.{n}" for n in old} & set(RECOGNIZER_SETS[12])
    assert not {f"deid.recognizers.{n}" for n in new} & set(RECOGNIZER_SETS[11])  # 11 keeps its meaning


def test_recognizers_13_runs_the_new_versions_in_place_of_the_old() -> None:
    new = {"ip_address.v2", "street_address.v8"}
    old = {"ip_address.v1", "street_address.v7"}
    assert {f"deid.recognizers.{n}" for n in new} <= set(RECOGNIZER_SETS[13])
    assert not {f"deid.recognizers.{n}" for n in old} & set(RECOGNIZER_SETS[13])
    assert not {f"deid.recognizers.{n}" for n in new} & set(RECOGNIZER_SETS[12])  # 12 keeps its meaning


def test_every_recognizer_set_is_a_chain_component_version() -> None:
    """A pipeline names its set as ``recognizers@N``: each set needs its registered version."""
    assert sorted(registry()["recognizers"]) == sorted(RECOGNIZER_SETS)


def test_recognizers_14_runs_contract_number_v10_in_place_of_v9() -> None:
    assert "deid.recognizers.contract_number.v10" in RECOGNIZER_SETS[14]
    assert "deid.recognizers.contract_number.v9" not in RECOGNIZER_SETS[14]
    assert "deid.recognizers.contract_number.v10" not in RECOGNIZER_SETS[13]  # 13 keeps its meaning


def test_recognizers_15_runs_brand_name_v4_in_place_of_v3() -> None:
    assert "deid.recognizers.brand_name.v4" in RECOGNIZER_SETS[15]
    assert "deid.recognizers.brand_name.v3" not in RECOGNIZER_SETS[15]
    assert "deid.recognizers.brand_name.v4" not in RECOGNIZER_SETS[14]  # 14 keeps its meaning


def test_recognizers_17_runs_the_new_versions_in_place_of_the_old() -> None:
    new = {"brand_name.v5", "license_plate.v2", "venue_name.v4"}
    old = {"brand_name.v4", "license_plate.v1", "venue_name.v3"}
    assert {f"deid.recognizers.{n}" for n in new} <= set(RECOGNIZER_SETS[17])
    assert not {f"deid.recognizers.{n}" for n in old} & set(RECOGNIZER_SETS[17])
    assert not {f"deid.recognizers.{n}" for n in new} & set(RECOGNIZER_SETS[16])  # 16 keeps its meaning
