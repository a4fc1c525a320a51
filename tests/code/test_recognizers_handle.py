"""The handle recognizer: a user name on a platform after its label, or an @ name where a
platform is named, on sentences written like the decisions (deid.anonymizer.recognizers.handle)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.handle import (
    HandleRecognizer,
    HandleRecognizerV2,
    HandleRecognizerV3,
    HandleRecognizerV4,
)


@pytest.mark.parametrize(
    "marked",
    [
        "Der Angeklagte bot unter dem Nutzernamen „[[laaber_deals94]]“ auf einem Kleinanzeigenportal Spielkonsolen an.",
        "Ihr Benutzername: [[bergsepp]]; das Passwort teilte sie niemandem mit.",
        "Er verkaufte unter dem Profilnamen „[[Bergsepp]]“ gebrauchte Motorsägen.",
        "Der Account des Klägers „[[tom.k.1990]]“ wurde am 3. Mai 2023 gesperrt.",
        "Auf Instagram veröffentlichte die Beklagte unter [[@bergsepp_88]] Fotos der Klägerin.",
        # negatives: a name unquoted may be the sentence going on, an account's word with an
        # ordinary word, an e-mail address, an @ name with no platform near
        "Unter dem Nutzernamen Huber verkaufte er nichts.",
        "Sein Profil wurde gelöscht.",
        "Sein Profil „passt“ nicht zu der Stelle.",
        "Er schrieb an hans.maier@web.de eine Mahnung.",
        "Die Klägerin schrieb @Huber an.",
    ],
)  # fmt: skip
def test_handle_table(marked: str) -> None:
    check_table_row(HandleRecognizer(), marked, "HANDLE")


@pytest.mark.parametrize(
    "marked",
    [
        "Sie betreibt auf der Plattform eBay das Verkäuferkonto „[[trachtenliebe_lisa]]“.",
        "Er schrieb über sein Instagram-Konto [[@bergsepp_88]] an die Zeugin.",
        "unter dem Nutzernamen „[[laaber_deals94]]“",
        # negatives: a bank account's number is no handle; an account word before a word
        "Er zahlte auf sein Bankkonto 12345678 ein.",
        "Die Aufwendungen buchte sie auf dem Konto 6827 „Abschluss- und Prüfungskosten“.",
        "Das Verkäuferkonto „passt“ nicht zu ihr.",
    ],
)
def test_handle_v2_table(marked: str) -> None:
    check_table_row(HandleRecognizerV2(), marked, "HANDLE")


def test_handle_version_1_keeps_its_meaning() -> None:
    assert HandleRecognizer().analyze("das Verkäuferkonto „trachtenliebe_lisa“") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Das Notebook bot er am folgenden Tag über ein Kleinanzeigenportal unter dem Namen „[[passauboy89]]“ an.",
        "Sie trat in dem Forum mit dem Nicknamen „[[bergfee_83]]“ auf.",
        # negatives: an inn's or a firm's name in quotes has no handle's shape
        "Das Lokal firmiert unter dem Namen „Zur Post“.",
        "Er betrieb das Geschäft unter dem Namen „Huber“ weiter.",
    ],
)
def test_handle_v3_table(marked: str) -> None:
    check_table_row(HandleRecognizerV3(), marked, "HANDLE")


def test_handle_version_2_keeps_its_meaning() -> None:
    assert HandleRecognizerV2().analyze("unter dem Namen „passauboy89“") == []


@pytest.mark.parametrize(
    "marked",
    [
        "Die auf [[@sophia.ertl.wanderlust]] nachträglich ergänzte Markierung „[[@lichtblick.hochzeiten]]“ ändert nichts.",
        "Er antwortete als [[@berg_sepp]] auf den Beitrag.",
        # negatives: an e-mail address; an @ name without a dot or underscore and no platform near;
        # a sentence's full stop after an @ name
        "Die Rechnung ging an anna.huber@web.de am selben Tag.",
        "Der Satz endete mit @bergsepp und einem Bild.",
    ],
)  # fmt: skip
def test_handle_v4_table(marked: str) -> None:
    check_table_row(HandleRecognizerV4(), marked, "HANDLE")


def test_handle_version_3_keeps_its_meaning() -> None:
    assert HandleRecognizerV3().analyze("Die auf @sophia.ertl.wanderlust ergänzte Markierung") == []
