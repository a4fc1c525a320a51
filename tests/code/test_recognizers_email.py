"""E-mail recognizer: addresses in running text, spelled-out ``[at]``, and non-addresses."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.email import EmailRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "per E-Mail an folgende Adresse: [[j.muster@kanzlei-muster.eu]].“",
        "([[max.mustermann+akte@example.org]])",
        "Mail an [[info@bäckerei-müller.de]], bitte",
        "[[a.b-c_d@sub.domain.example.com]];",
        "Kontakt: [[poststelle [at] example.de]]",
        "[[kanzlei(at)example.de]]",
        # negatives
        "@example.org",
        "name@localhost",
        "j..muster@example.org",
        "Preis 3 @ 5 EUR",
        "E-Mail: …@….de",
    ],
)
def test_email_table(marked: str) -> None:
    check_table_row(EmailRecognizer(), marked, "EMAIL")
