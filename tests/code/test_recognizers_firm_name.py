"""A firm's name before its legal form (the policy neutralizes the whole name with the form)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.firm_name import (
    FirmNameRecognizer,
    FirmNameRecognizerV2,
    FirmNameRecognizerV3,
    FirmNameRecognizerV4,
    FirmNameRecognizerV5,
)


@pytest.mark.parametrize(
    "marked",
    [
        "verlangt von der Beklagten, der [[Gruber Hoch- und Tiefbau GmbH & Co. KG]], restlichen Werklohn",
        "Die Blutprobe ergab nach dem Gutachten des [[MVZ Labor Dr. Kleinhenz GmbH]] eine THC-Konzentration",
        "Die Klägerin, die [[Estrichbau Hinterberger GmbH]], Industriestraße 28a, 94469 Deggendorf",
        "vertreten durch die Dr. [[Bogner & Partner Rechtsanwälte mbB]], tragen vor",
        # the everyday noun naming the firm's kind stays outside, as the gold sets mark it
        "als Verkäuferin in der Metzgerei [[Wagensonner OHG]] in Landau a. d. Isar",
        "Mit Schreiben der Kanzlei [[Aigner Stadlbauer Rechtsanwälte PartG mbB]] vom 4. Mai 2021",
        "vertreten durch das Inkassounternehmen [[KBS Forderungsmanagement GmbH]], die weitere Beteiligte",
        "ein selbstschuldnerischer Bürge. Die [[Tessner Dienstleistungs GmbH]] sei ihren Verpflichtungen",
        "die Firma [[Auto-Kraus Abschleppservice UG (haftungsbeschränkt)]] schleppte ab",
        # negatives: a form without a name, a "name" of everyday nouns, big public companies,
        # forms that end public bodies' names as often
        "Die Klägerin ist eine GmbH, die Beklagte eine AG.",
        "Damit würde in der Familien GmbH der Tatbestand der Zerrüttung erfüllt",
        "der DB Netz AG und der Deutschen Post AG",
        "der Deutschen Gesellschaft für Ernährung und der Stiftung Warentest",
    ],
)
def test_firm_name_table(marked: str) -> None:
    check_table_row(FirmNameRecognizer(), marked, "FIRM_NAME")


@pytest.mark.parametrize(
    "marked",
    [
        # a one-word name that reads as a compound but no lexicon lists
        "Die Klägerin, die [[Mannsdörfer GbR]], vertreten durch ihren Geschäftsführer, verlangt Zahlung.",
        "Der Kläger war bei der [[Holzleitner OHG]] als Lagerarbeiter beschäftigt.",
        # version 1's rows stay
        "Die Klägerin, die [[Estrichbau Hinterberger GmbH]], Industriestraße 28a, 94469 Deggendorf",
        "als Verkäuferin in der Metzgerei [[Wagensonner OHG]] in Landau a. d. Isar",
        # negatives: a lexicon noun alone, a decision's shorthand, a public company, an acronym alone
        "in der Familien GmbH und bei der Hausverwaltung GmbH",
        "Zugleich kündigte der Kläger der XY-Holding (im Folgenden GmbH) den Vertrag.",
        "die Deutsche Bahn AG",
    ],
)
def test_firm_name_v2_table(marked: str) -> None:
    check_table_row(FirmNameRecognizerV2(), marked, "FIRM_NAME")


def test_version_1_keeps_its_meaning() -> None:
    """A saved ``recognizers@6`` chain runs version 1, which reads the compound as a kind."""
    assert FirmNameRecognizer().analyze("Die Klägerin, die Mannsdörfer GbR, verlangt Zahlung.") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Die Haftpflichtversicherung der Beklagten, die Ärzteversicherung [[Niederbayern VVaG]], lehnte ab.",
        "Die Klägerin lieferte Holz an die [[Baltic Timber UAB]] in Kaunas und an die [[Danube Logistics s.r.o.]].",
        "Die [[Green Energy Ltd]] hat die Module geliefert, die [[Kovac Trans Kft.]] den Transport.",
        "Produktinformation des Streitpatents, 4 Seiten, 25. 9. 2017\nD22 [[Ivoclar Vivadent Inc.]], IPS",
        "Der Versicherer, die [[Müller Versicherungsmakler GmbH & Co. KG]], zahlte nicht.",
        # negatives: a court; a form alone; an inspection body named in passing is public
        "Die Zulassung beschloss die Hauptversammlung der AG. Das AG Passau entschied.",
        "Der Antragsteller meldete sich bei der TÜV SÜD Life Service GmbH zur Begutachtung an.",
    ],
)
def test_firm_name_v3_table(marked: str) -> None:
    check_table_row(FirmNameRecognizerV3(), marked, "FIRM_NAME")


def test_firm_name_version_2_keeps_its_meaning() -> None:
    assert FirmNameRecognizerV2().analyze("die Baltic Timber UAB und die Kovac Trans Kft. lieferten") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Sie wenden sich gegen die der Beigeladenen, der [[Funkturm Süd Infrastruktur GmbH]], erteilte Baugenehmigung.",
        "Die Haftpflichtversicherung der Beklagten, die [[Landgenossen Versicherung a.G.]], lehnte die Regulierung ab.",
        # the word for the firm's kind as a whole stays outside, as the gold sets mark it
        "Die Klägerin, die Wohnbau [[Dachauer Land eG]], vermietet an die Beklagte eine Wohnung.",
        "Er hält eine Beteiligung an der Grundstücksgesellschaft [[Finkendreher Werbung GbR]].",
        # negatives: one everyday noun before the form names no one
        "Die Gesellschafter der Familien GmbH stritten über die Gewinnverteilung.",
        "Komplementärin ist die Komplementär GmbH.",
    ],
)  # fmt: skip
def test_firm_name_v4_table(marked: str) -> None:
    check_table_row(FirmNameRecognizerV4(), marked, "FIRM_NAME")


def test_firm_name_version_3_keeps_its_meaning() -> None:
    assert FirmNameRecognizerV3().analyze("der Beigeladenen, der Funkturm Süd Infrastruktur GmbH, erteilte") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Die Beklagten unterhalten bei der [[Oberpfälzer Landversicherung VaG]] eine Tierhalterhaftpflichtversicherung.",
        # as version 4; negative: one everyday noun before the form names no one
        "Die Haftpflichtversicherung der Beklagten, die [[Landgenossen Versicherung a.G.]], lehnte die Regulierung ab.",
        "Komplementärin ist die Komplementär GmbH.",
    ],
)  # fmt: skip
def test_firm_name_v5_table(marked: str) -> None:
    check_table_row(FirmNameRecognizerV5(), marked, "FIRM_NAME")


def test_firm_name_version_4_keeps_its_meaning() -> None:
    assert FirmNameRecognizerV4().analyze("bei der Oberpfälzer Landversicherung VaG eine") == []
