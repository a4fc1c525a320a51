"""Contract, loan, account, insurance and customer numbers after their label."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.contract_number import (
    ContractNumberRecognizer,
    ContractNumberRecognizerV2,
    ContractNumberRecognizerV3,
    ContractNumberRecognizerV4,
    ContractNumberRecognizerV5,
    ContractNumberRecognizerV6,
    ContractNumberRecognizerV7,
    ContractNumberRecognizerV8,
    ContractNumberRecognizerV9,
    ContractNumberRecognizerV10,
    ContractNumberRecognizerV11,
    ContractNumberRecognizerV12,
    ContractNumberRecognizerV13,
)


@pytest.mark.parametrize(
    "marked",
    [
        "Vertragsnummer [[738263528]]",
        "Darlehens-Nr. [[1234567]]",
        "Kontonummer: [[0532013000]]",
        "Kto.-Nr. [[12 345 678]] bei der Sparkasse",
        "Versicherungsschein-Nr. [[VS-1234-5678]]",
        "Kundennummer [[K 4711-0815]].",
        "Darlehensvertrag Nr. [[4711/2019]]",
        "Versicherungsnummer [[12 150385 M 123]]",  # not a valid RVNR: still a number
        "(Kassenzeichen [[1180 0586 4722]])",
        # negatives
        "Vertragsnummer …",
        "Personalnummer, Nachname, Vorname, Telefonnummer",
        "Kundennummer 12",
        "Vertragsnummer des Klägers",
        "Celex-Nr. 62020CJ0368",
        "Los-Nr. 1",
    ],
)
def test_contract_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizer(), marked, "CONTRACT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        "Vertragsnummer [[738263528]]",
        "Kundennummer 12",
        # the labels version 1 missed
        "ein SEPA-Basislastschriftmandat mit der Mandatsreferenznummer [[ZUEV82050012214011112013]] erteilt",
        "der Vertragsarzt mit der Arztnummer [[123456701]] rechnete ab",
        "unter seiner LANR [[123456701]] und der BSNR [[021234500]]",
        "Versichertennummer [[A123456789]]",
        # negatives: fee codes and product numbers are no one's
        "unter Angabe der Gebührennummer 401 300 gezahlt",
        "Produkte mit der Artikelnummer 6026136 und der Bezeichnung",
        "die lebenslange Arztnummer (LANR) wurde eingeführt",
    ],
)
def test_contract_v2_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV2(), marked, "CONTRACT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        "Kundennummer [[K 4711-0815]].",
        # the number's owner before the colon, police diary numbers
        "Personalnummer der Klägerin: [[PN 2014-0817]].",
        "unter der Kundennummer des Beklagten zu 2): [[47110815]] geführt",
        "Die Polizeiinspektion nahm den Unfall auf (Tagebuchnummer [[BY8512-004711-22/6]]).",
        "Tgb.-Nr. [[1234/22]] der Kriminalpolizei",
        # negatives: an owner without a colon names no number; fee codes stay
        "Vertragsnummer des Klägers",
        "Steuernummer des Leistenden fehlten",
        "unter Angabe der Gebührennummer 401 300 gezahlt",
    ],
)
def test_contract_v3_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV3(), marked, "CONTRACT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        "Personalnummer der Klägerin: [[PN 2014-0817]].",
        "Tgb.-Nr. [[1234/22]] der Kriminalpolizei",
        # a builder's invoices and guarantees, a notary's deed (the from-scratch dev set)
        "Die Klägerin stellte am 14. Februar 2022 ihre Schlussrechnung Nr. [[SR-22-0046]] über 63.902,18 €.",
        "eine Bürgschaft der Volksbank (Bürgschafts-Nr. [[BG 7730-5512]]) übergeben",
        "mit der 3. Abschlagsrechnung Nr. [[2021-0457]] vom 5. Mai 2021",
        "Rechnungsnummer: [[RE-118422]]",
        "mit notariellem Testament vom 3. Mai 2019 (URNr. [[1034/2019]] des Notars Dr. K.)",
        "Urkunde des Notars (UR-Nr. [[812/2020]])",
        # negatives: an invoice without its number, a count, a norm
        "die Schlussrechnung vom 14. Februar 2022",
        "Rechnung Nr. 3",
        "Nr. 2 der Anlage zur Rechnungslegung",
    ],
)
def test_contract_v4_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV4(), marked, "CONTRACT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        "Schlussrechnung Nr. [[SR-22-0046]]",
        # a contribution's and a property's number for fees (probes)
        "Der Rundfunkbeitrag wird unter der Beitragsnummer [[123 456 789]] geführt.",
        "Für das Grundstück (Objektnummer [[12.345.678]]) setzte die Gemeinde Gebühren fest.",
        "Der Bescheid der Familienkasse (Kindergeldnummer [[123FK456789]]) hob die Festsetzung auf.",
        # a pension or tax number by its label, its check digit wrong
        "Die Klägerin erhielt die Rentenversicherungsnummer [[12 150385 M 123]].",
        "Der Kläger hat die Steueridentifikationsnummer [[12 345 678 901]].",
        # a number after "lautet", with its owner between or without
        "Die Kundennummer des Klägers lautet [[47110815]].",
        "Die Versicherungsnummer lautet [[12 150385 M 123]].",
        "Die Vertragsnummer des Beklagten zu 2) lautet: [[V-2019-0042]].",
        # negatives: a contract in a name, an object lesson, a number too short
        "Die Vertragsnummer lautet auf den Namen des Klägers.",
        "Das Objekt der Klage ist das Grundstück Nr. 3.",
        "Die Kundennummer lautet 12.",
        "Die Kindergeldnummer wurde nicht angegeben.",
    ],
)
def test_contract_v5_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV5(), marked, "CONTRACT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        "Die Kundennummer des Klägers lautet [[47110815]].",
        # a patient's or case's number, an identification number by its plain label
        "Der unterzeichnete Aufklärungsbogen (Patientennummer [[PN-0042197]]) erwähnt eine Nervenschädigung nicht.",
        "Das Jugendamt führt den Vorgang unter der Fallnummer [[2023-4471]].",
        "Das Gewerbe ist unter der Gewerbekennziffer [[09263000-2016-0417]] angemeldet.",
        "Ihre steuerliche Identifikationsnummer lautet [[57 319 046 882]].",
        "Die Identifikationsnummer der Klägerin: [[86 095 742 719]].",
        # negatives: no number, too few digits
        "Die Identifikationsnummer wurde nicht mitgeteilt.",
        "Die Fallnummer lautet 12.",
    ],
)
def test_contract_v6_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV6(), marked, "CONTRACT_NUMBER")


@pytest.mark.parametrize(
    "marked",
    [
        # a farm's, a phone's, a horse's, a certificate's, a savings book's, a grant's number
        "Der Antragsteller betreibt einen Betrieb mit 74 Rindern (Betriebsnummer [[09 372 117 0045]]).",
        "Das sichergestellte Mobiltelefon Samsung Galaxy A54 (IMEI [[356938114207785]]) wird eingezogen.",
        "Zug um Zug gegen Rückgabe der Stute „Donna Bella“ (UELN [[276009090154712]]) zu zahlen.",
        "Er legte das Zertifikat Deutsch B1 (Zertifikatsnummer [[4471-B1-2206-0183]]) vor.",
        "Die Kaution legte sie auf einem Kautionssparbuch an (Sparbuchnummer [[300 441 8827]]).",
        "im Projekt „SmartFarm Isar-Inn“ (Förderkennzeichen [[2818DIG041]]) beschäftigt",
        "Das Zentrum bewilligte mit Bescheid vom 9. Februar 2023 (Kennzeichen [[EG-2231-448817]]) Elterngeld.",
        "die Trockenbauarbeiten (Nachunternehmervertrag Nr. [[NU-2022-117]] vom 7. März 2022)",
        "Das Sanitätshaus bot das Modell zu 24.800 € an (Angebot Nr. [[AN-23-00457]]).",
        "Er zeichnete eine Kommanditbeteiligung über 25.000 € (Zeichnungsschein Nr. [[SIS3-004417]]).",
        "gegen Rückgabe des Fahrzeugs Mercedes-Benz 280 SL (Fahrgestellnummer [[11304412019873]])",
        "eine Einbauküche für ihr Haus in Massing (Auftragsbestätigung Nr. [[AB-22-0317]])",
        "Er ist bei der Beklagten versichert (Mitgliedsnummer [[09 118 447 3]]).",
        "eine geladene Büchse Blaser R8 (Waffennummer [[R8-114472]])",
        "Die Kundennummer [[4711]] 2 Jahre lang",
        # a plural label: each number of its list, no amount after it
        "Zwei Kälber mit den Ohrmarken [[DE 09 372 45118]] und [[DE 09 372 45121]] waren verendet.",
        "Die Kundennummern [[4711]], [[4712]] und [[4713]] sowie 2.000 € Rückstand",
        # negatives: a licence plate is the plate recognizer's; a singular label takes one number
        "mit dem amtlichen Kennzeichen FS-LW 2207 aus der Straße",
        "Kundennummer [[12345]] und 2.000 € Rückstand",
        "Der Arbeitsvertrag Nr. 3 sah Schichtzulagen vor.",
    ],
)
def test_contract_v7_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV7(), marked, "CONTRACT_NUMBER")


def test_version_6_keeps_its_meaning() -> None:
    text = "Betriebsnummer 09 372 117 0045, IMEI 356938114207785, Ohrmarken DE 09 372 45118 und DE 09 372 45121"
    assert ContractNumberRecognizerV6().analyze(text) == []


def test_version_5_keeps_its_meaning() -> None:
    text = "Patientennummer PN-0042197; die steuerliche Identifikationsnummer lautet 57 319 046 882."
    assert ContractNumberRecognizerV5().analyze(text) == []


def test_version_4_keeps_its_meaning() -> None:
    text = "Die Kundennummer des Klägers lautet 47110815, Beitragsnummer 123 456 789."
    assert ContractNumberRecognizerV4().analyze(text) == []


def test_versions_1_to_3_keep_their_meaning() -> None:
    text = "Schlussrechnung Nr. SR-22-0046, Bürgschafts-Nr. BG 7730-5512, URNr. 1034/2019"
    for old in (ContractNumberRecognizer(), ContractNumberRecognizerV2(), ContractNumberRecognizerV3()):
        assert old.analyze(text) == []


@pytest.mark.parametrize(
    "marked",
    [
        "Bei der Kontrolle wurde eine Blutprobe entnommen (Untersuchungsnummer [[T-23-04418]]), die 1,21 Promille ergab.",
        "Das bestätigt ein Ausdruck des Ticketsystems (Störungsmeldung Nr. [[ST-2024-0113]]).",
        "Die Probe mit der Labornummer [[L 2023-55817]] war negativ.",
        "Die Maklerin übersandte ein Exposé mit der Objektnummer [[WW-CH-2211]] per E-Mail.",
        # negatives: a margin number, a report without a number's shape
        "Die Randnummer 12 der Entscheidung betrifft das nicht; die Meldung Nr. 3 ist unerheblich.",
    ],
)  # fmt: skip
def test_contract_v8_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV8(), marked, "CONTRACT_NUMBER")


def test_contract_version_7_keeps_its_meaning_for_v8s_labels() -> None:
    assert ContractNumberRecognizerV7().analyze("(Untersuchungsnummer T-23-04418), Störungsmeldung Nr. ST-2024-0113") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Die Standortbescheinigung vom 19. Januar 2023 (Standortbescheinigungsnummer [[720381]]) weist 8,10 m aus.",
        "vertreten durch die Hausverwaltung Immo-Service GmbH (Mieternummer [[0815-2211-04]]).",
        # negative: the label without a number
        "Die Mieternummer des Klägers ist unbekannt.",
    ],
)  # fmt: skip
def test_contract_number_v9_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV9(), marked, "CONTRACT_NUMBER")


def test_contract_number_version_8_keeps_its_meaning() -> None:
    assert ContractNumberRecognizerV8().analyze("(Standortbescheinigungsnummer 720381) und (Mieternummer 0815-2211-04)") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Der Antragsgegner zahlt ein Darlehen bei der Sparkasse ab (Darlehenskonto [[7700 418 263]]).",
        "Die Rente wird auf das Girokonto [[1234567890]] bei der Raiffeisenbank überwiesen.",
        # negatives: "Konto" alone is a ledger's or a bank's word; a compound without a number
        "Der Angeklagte verbuchte die Zahlung auf dem Konto 6827 der Firma.",
        "Das Darlehenskonto wies am 31. Dezember 2022 einen Saldo von 4.200 € aus.",
    ],
)  # fmt: skip
def test_contract_number_v10_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV10(), marked, "CONTRACT_NUMBER")


def test_contract_number_version_9_keeps_its_meaning() -> None:
    assert ContractNumberRecognizerV9().analyze("(Darlehenskonto 7700 418 263) und Girokonto 1234567890") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Die Messung erfolgte durch die Verkehrspolizeiinspektion (Vorgangs-Nr. [[VPI-MÜ-2023-004187]]).",
        "Die Rechnung (Rechnungs-Nr. [[RÖ-2023-0815]]) ist offen.",
        # negatives: an umlaut's word without a label; a label before a word
        "Der Transporter MÜ-FP war nicht zugelassen.",
        "Die Vorgangs-Nr. Überprüfung fehlte.",
    ],
)  # fmt: skip
def test_contract_number_v11_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV11(), marked, "CONTRACT_NUMBER")


def test_contract_number_version_10_keeps_its_meaning() -> None:
    assert ContractNumberRecognizerV10().analyze("(Vorgangs-Nr. VPI-MÜ-2023-004187)") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Der Versicherer lehnte unter der Schadennummer [[BH-23-004417]] zum Versicherungsschein [[77.410.298-3]] eine Regulierung ab.",
        "Die Antragsgegnerin hat Anrechte bei der Pensionskasse (Vers.-Nr. [[DV 4471 90823]]) erworben.",
        "Die Police [[LV-2231-0087]] wurde zum 1. Januar 2020 beitragsfrei gestellt.",
        "Die Anlage ist beim Netzbetreiber unter der Zählpunktnummer [[DE0004712390000000000000087731458]] angemeldet.",
        "Der Zähler (Zählpunkt [[DE 000471 94315 00000000000087731458]]) misst den Bezug.",
        "Die Abrechnung nennt [[DE00047194315ABC00000000000877313]] als Lieferstelle.",
        "Am 24. Oktober 2022 lieferte sie 26,2 t (Lieferschein [[LS-22-10473]]).",
        "Nach dem Prüfbericht Nr. [[BA-2212-0386]] des Prüflabors lag der Aschegehalt bei 1,4 %.",
        # negatives: the label without a number; an IBAN is no meter's point (22 characters)
        "Der Versicherungsschein wurde nicht vorgelegt.",
        "Die Zahlung ging auf das Konto mit der IBAN DE89 3704 0044 0532 0130 00.",
    ],
)  # fmt: skip
def test_contract_number_v12_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV12(), marked, "CONTRACT_NUMBER")


def test_contract_number_version_11_keeps_its_meaning() -> None:
    text = "zum Versicherungsschein 77.410.298-3 und Zählpunktnummer DE0004712390000000000000087731458"
    assert ContractNumberRecognizerV11().analyze(text) == []


@pytest.mark.parametrize(
    "marked",
    [
        "Die Beklagte stellte hierfür die Rechnungen Nr. [[SV-21-3317]] und Nr. [[SV-22-0412]] über zusammen 2.414,00 € aus.",
        "Die Blutprobe ergab laut Befund der Rechtsmedizin (Befund-Nr. [[BA-23-11842]]) eine Blutalkoholkonzentration von 1,21 Promille.",
        "Der Betriebsrat beschloss die Teilnahme am Seminar „Betriebsverfassungsrecht Teil I“ (Seminar-Nr. [[BR1-23-088]]).",
        "Die Polizeiinspektion führte die Ermittlungen im Vorgang [[BY5410-027718-23/4]].",
        "Der Kurs ist bei der Zentralen Prüfstelle Prävention unter der Kurs-ID [[KU-YO-2018-04471]] zertifiziert.",
        "Sie nahmen bei der Raiffeisenbank ein Darlehen (Darlehen Nr. [[40 118 772]]) über 96.000 € auf.",
        # as version 12: a known label; negatives: a norm's number, a file number, a photo's short label
        "Am 24. Oktober 2022 lieferte sie 26,2 t (Lieferschein [[LS-22-10473]]).",
        "Nach Anlage 1 Nr. 3-2 der Verordnung ist das nicht erforderlich.",
        "Das Urteil des BGH vom 12. Mai 2020 – VI ZR 12/19 – ist einschlägig.",
        "Das Lichtbild B-12-1 der Ermittlungsakte zeigt die Einfahrt.",
    ],
)  # fmt: skip
def test_contract_number_v13_table(marked: str) -> None:
    check_table_row(ContractNumberRecognizerV13(), marked, "CONTRACT_NUMBER")


def test_contract_number_version_12_keeps_its_meaning() -> None:
    text = "die Rechnungen Nr. SV-21-3317 im Vorgang BY5410-027718-23/4, Darlehen Nr. 40 118 772"
    assert ContractNumberRecognizerV12().analyze(text) == []
