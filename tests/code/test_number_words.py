"""An identifier's label word and a quantity's digits are no name (no_name_shape@7,
deid.words.numbers): the model reads "IBAN", "BG-Nummer" or an amount's digits as spans of
their own; the identifier after the label, a house number and a name stay."""

from __future__ import annotations

import pytest

from deid.anonymizer import components  # noqa: F401  (registers the chain's steps)
from deid.anonymizer.chain import Chain, step
from deid.schema import ID, LOCATION, MODEL_SOURCE, ORGANIZATION, OTHER, PERSON, STREET, Span


def _at(text: str, surface: str, label: str, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(surface, start + 1)
    return Span(start, start + len(surface), label, 0.9, MODEL_SOURCE)


@pytest.mark.parametrize(
    "text, surface, label",
    [
        # sentences of the from-scratch dev set (shortened) and made-up ones in the Bavarian manner,
        # where the model read the label word as a span
        (("Die Kaufpreise gingen auf ein Konto bei der Sparkasse Landshut (IBAN DE89 7435 0000 0020 1187 46), "
          "das der Angeklagte eröffnet hatte."), "IBAN", ID),
        ("Ihren Sohn Luca führt das Jobcenter Mühldorf a. Inn als Bedarfsgemeinschaft (BG-Nummer 83104BG0017752).",
         "BG-Nummer", ID),
        ("Er wohnt in einer Gemeinschaftsunterkunft in Pocking, Passauer Straße 61 (AZR-Nummer 231004118877).",
         "AZR-Nummer", ID),
        ("Die Kaution liegt auf einem Kautionssparbuch bei der Sparkasse Rottal-Inn (Sparbuchnummer 300 441 8827).",
         "Sparbuchnummer", STREET),
        ("Das Bundesamt lehnte mit Bescheid vom 7. März 2023 (Gesch.-Z. 8839214-224) den Antrag ab.", "Z", ID),
        ("Die Anlage soll auf dem Grundstück Fl.-Nr. 1024 der Gemarkung Oberhummel errichtet werden.", "-Nr", ID),
        ("Verpachtet ist der ganze Grundbesitz mit Ausnahme des Grundstücks Gemarkung Aholming Fl. Nr. 845/3.",
         "Fl", ORGANIZATION),
        ("Die Klägerin erwarb einen Pkw mit der Fahrzeugidentifikationsnummer (FIN) WVWZZZ3CZKE512377.", "FIN", OTHER),
        # an amount's or an area's digits, a level with its unit
        ("Am 4. Februar 2022 stellte sie ihre Schlussrechnung Nr. SR-22-0046 über 63.902,18 €.", "902", ID),
        ("Der Sohn übernahm 1994 die Hofstelle und die Grundstücke (3,1245 ha) zu Alleineigentum.", "1245", ID),
        ("Der Gutachter hat an der Grundstücksgrenze zum Anwesen Rosenweg 12 nachts 33 dB(A) gemessen.", "33", STREET),
        ("Der Kläger verlangt Zahlung von 3927,71 Euro nebst Zinsen.", "3927", STREET),
    ],
)  # fmt: skip
def test_version_7_drops_a_label_word_and_a_quantitys_digits(text: str, surface: str, label: str) -> None:
    span = _at(text, surface, label)
    assert Chain([step("no_name_shape", 7)])(text, [span]) == []
    assert Chain([step("no_name_shape", 6)])(text, [span]) == [span]  # version 6 keeps its meaning


@pytest.mark.parametrize(
    "text, surface, label",
    [
        # the identifier itself, a house number, a flat, a person called like a label's abbreviation
        ("Die Kaufpreise gingen auf ein Konto (IBAN DE89 7435 0000 0020 1187 46).", "DE89 7435 0000 0020 1187 46", ID),
        ("Die Zeugin wohnt in der Lindenstraße 2 in Pfarrkirchen.", "2", STREET),
        ("Die Klägerin ist Eigentümerin der Wohnung Nr. 11 in der Wohnanlage Amselweg 5–7.", "5–7", STREET),
        ("Die Zeugin Fin Bergmann sah 2 Männer vor dem Haus.", "Fin Bergmann", PERSON),
        ("Der Zeuge Nummer erschien zum Termin am 3. Mai 2023 nicht.", "Nummer", PERSON),
        # a number without a unit, a label word without a number after it
        ("Er fährt überwiegend die Linie 6108 zwischen Offenberg und Deggendorf.", "6108", ID),
        ("Die Beklagte verlangte vom Kläger die IBAN seines Kontos, die er nie mitteilte.", "IBAN", ID),
        ("Die Klägerin wohnt seit 2010 in Kirchberg 3 bei Ergolding.", "Kirchberg 3", LOCATION),
    ],
)  # fmt: skip
def test_version_7_keeps_identifiers_addresses_and_names(text: str, surface: str, label: str) -> None:
    span = _at(text, surface, label)
    assert Chain([step("no_name_shape", 7)])(text, [span]) == [span]


def test_a_rules_span_stays() -> None:
    """Only the model's readings are dropped: a recognizer that found a label word meant it."""
    text = "Die Kaufpreise gingen auf ein Konto (IBAN DE89 7435 0000 0020 1187 46)."
    span = Span(text.index("IBAN"), text.index("IBAN") + 4, ID, 0.9, "recognizer")
    assert Chain([step("no_name_shape", 7)])(text, [span]) == [span]
