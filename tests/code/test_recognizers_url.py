"""URL recognizer: schemes, www., bare domains; legal abbreviations and ECLIs never fire."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers.url import UrlRecognizer


@pytest.mark.parametrize(
    "marked",
    [
        "abrufbar unter [[www.example.org]].",
        "(Pschyrembel Online, [[https://www.pschyrembel.de/Demenz/K05MH]], letzte Aktualisierung)",
        "auf der Internetseite [[https://www.anwalt.de/\u200brechtstipps/\u200bx-188279.html]] weiter",
        "([[https://de.wikipedia.org/wiki/Shisha_(Pfeife)]])",
        "[[http://example.com/a?b=1&c=2#top]]",
        "vgl. DUDEN online, [[www.duden.de/rechtschreibung/Headline]];",
        "Liste (Stand: 14.2.2023, liste.pdf ([[gluecksspiel-behoerde.de]]))",
        "Plattformen wie „[[Check24.de]]“",
        "[[HTTPS://EXAMPLE.ORG/Seite]]",
        # negatives
        "z.B. i.V.m. Rn. 12 u.a. d.h. v.a.",
        "ECLI:DE:BVerwG:2024:010224U2A7.23.0",
        "§§ 1, 2 BGB; Art. 3 Abs. 1 GG",
        "der Homepage der Beigeladenen (http://www...) zu entnehmen",
        "festzusetzen.Diesen Antrag lehnte das FA ab.Die Klage",
        "j.muster@kanzlei-muster.eu",
        "Datei gutachten.pdf und bericht.docx",
        "Az. 5 K 3125/23.F",
        "BGBl. I S. 1234",
    ],
)
def test_url_table(marked: str) -> None:
    check_table_row(UrlRecognizer(), marked, "URL")
