"""Local banks named by their place (the policy neutralizes them like any private firm)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.local_bank import LocalBankRecognizer, LocalBankRecognizerV2


@pytest.mark.parametrize(
    "marked",
    [
        "Zahlung auf ihr Konto bei der [[Sparkasse Deggendorf]], IBAN DE17 7415 0000 0190 4432 07",
        "eine Bürgschaft der [[Volksbank Raiffeisenbank Rottal-Inn eG]] (Bürgschafts-Nr. BG 7730-5512)",
        "sein Konto bei der [[Raiffeisenbank Freising-Nord eG]]",
        "auf das Anderkonto des Notars bei der [[Sparkasse Freyung-Grafenau]] zahlen",
        "ein Darlehen der [[Kreissparkasse München]] Starnberg Ebersberg",
        "bei der [[Sparkasse Pfaffenhofen a. d. Ilm]] angelegt",
        "die [[VR-Bank Landsberg-Ammersee eG]] kündigte",
        "bei der [[Sparkasse Bad Tölz-Wolfratshausen]] und der [[Sparda-Bank Ostbayern eG]]",
        "die [[Sparkasse Landshut]] Kredite gewährte",
        # negatives: a bank without its place, the sentence's noun after it, the big banks
        "dass die Sparkasse Zinsen verlangte",
        "die Sparkasse kündigte den Vertrag",
        "ein Konto bei der Deutsche Bank AG",
        "die Sparkassen-Finanzgruppe und die Volksbanken",
    ],
)
def test_local_bank_table(marked: str) -> None:
    check_table_row(LocalBankRecognizer(), marked, "LOCAL_BANK")


@pytest.mark.parametrize(
    "marked",
    [
        # a bank named by its district: the people's adjective and "Land"
        "Die Erblasserin unterhielt bei der [[Sparkasse Berchtesgadener Land]] ein Sparkonto.",
        "ein Darlehen der [[VR Bank Dachauer Land eG]] über 40.000 €",
        # version 1's rows keep their meaning
        "Zahlung auf ihr Konto bei der [[Sparkasse Deggendorf]], IBAN DE17 7415 0000 0190 4432 07",
        "die [[Sparkasse Landshut]] Kredite gewährte",
        "dass die Sparkasse Zinsen verlangte",
        "ein Konto bei der Deutsche Bank AG",
    ],
)
def test_local_bank_v2_table(marked: str) -> None:
    check_table_row(LocalBankRecognizerV2(), marked, "LOCAL_BANK")


def test_version_1_read_the_districts_adjective_as_a_noun() -> None:
    text = "Die Erblasserin unterhielt bei der Sparkasse Berchtesgadener Land ein Sparkonto."
    assert LocalBankRecognizer().analyze(text) == []
