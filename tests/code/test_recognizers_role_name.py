"""The role_name recognizer: a person's full name after a noun that names the person
(deid.anonymizer.recognizers.role_name)."""

from __future__ import annotations

import pytest
from test_recognizers_base import check_table_row

from deid.anonymizer.recognizers import RECOGNIZER_SETS
from deid.anonymizer.recognizers.role_name import RoleNameRecognizer
from deid.schema import PERSON, Span, coarse_label, merge_spans


@pytest.mark.parametrize(
    "marked",
    [
        "Die Zweckbindung ergibt sich aus der Bescheinigung des Versicherungsvertreters [[Günther Kronschnabl]].",
        "Die Küche wurde von den Monteuren [[Igor Petrenko]] und Daniel Stockinger eingebaut.",
        "Die Zeugin [[Sabine Hausberger]] ist Schreinermeisterin.",
        # negatives: a common noun after the first name, two first names, a first name alone
        "Die Kirche Maria Himmelfahrt wurde 1712 geweiht.",
        "Entwendet wurde eine Armbanduhr Rolex Submariner (Seriennummer 7K2X4481).",
        "Die Tochter Anna Maria kam später.",
        "Sie sprach mit Frau Maria über den Vorfall.",
    ],
)
def test_role_name_table(marked: str) -> None:
    check_table_row(RoleNameRecognizer(), marked, "ROLE_NAME")


def test_a_role_name_is_a_person_that_the_set_runs_from_version_10() -> None:
    assert coarse_label(RoleNameRecognizer.LABEL) == PERSON
    assert "deid.recognizers.role_name.v1" in RECOGNIZER_SETS[10]
    assert "deid.recognizers.role_name.v1" not in RECOGNIZER_SETS[9]


@pytest.mark.parametrize(
    ("model", "rule", "merged"),
    [
        # where the model found the name, its label and role stand (a lawyer stays a lawyer)
        (Span(24, 40, "LAWYER", 0.9, "model"), Span(24, 40, "ROLE_NAME", 0.7, "role_name"),
         Span(24, 40, "LAWYER", 0.9, "model")),
        (Span(24, 30, PERSON, 0.9, "model"), Span(24, 40, "ROLE_NAME", 0.7, "role_name"),
         Span(24, 40, PERSON, 0.9, "model")),
        # any other recognizer's label wins as before (a validated identifier beats a guess)
        (Span(24, 30, PERSON, 0.9, "model"), Span(22, 40, "IBAN", 0.8, "iban"), Span(22, 40, "IBAN", 0.9, "iban")),
    ],
)  # fmt: skip
def test_a_backup_name_yields_to_the_models_label(model: Span, rule: Span, merged: Span) -> None:
    assert merge_spans([model], [rule]) == [merged]
    assert merge_spans([], [rule]) == [rule]


@pytest.mark.parametrize(
    "marked",
    [
        # a hyphenated noun names a person too; its last part decides
        "Der Kläger kaufte vom Beklagten, dem Kfz-Händler [[Ahmet Kaya]], einen Audi A6 Avant.",
        "Bei einer Inspektion las der Kfz-Meister [[Andreas Pfisterer]] den Kilometerstand aus.",
        # a surname the list holds as a first name only where no third name follows: the
        # daughter's two first names are hers to neutralize; "Anna Maria Huber" is the model's
        "Die Tochter [[Anna Maria]] kam später.",
        "Die Patientin Anna Maria Huber kam später.",
        # negatives of version 1 stay: a thing's hyphenated noun, a common noun after the name
        "Entwendet wurde eine Sport-Armbanduhr Rolex Submariner.",
        "Die Kirche Maria Himmelfahrt wurde 1712 geweiht.",
    ],
)
def test_role_name_v2_table(marked: str) -> None:
    from deid.anonymizer.recognizers.role_name import RoleNameRecognizerV2

    check_table_row(RoleNameRecognizerV2(), marked, "ROLE_NAME")


def test_version_1_keeps_its_meaning_for_a_hyphenated_noun() -> None:
    text = "vom Beklagten, dem Kfz-Händler Ahmet Kaya, einen Audi"
    assert RoleNameRecognizer().analyze(text) == []
    assert "deid.recognizers.role_name.v2" in RECOGNIZER_SETS[16]
    assert "deid.recognizers.role_name.v2" not in RECOGNIZER_SETS[15]


@pytest.mark.parametrize(
    "marked",
    [
        "Der Marktmeister der Stadt, [[Hans Wagner]], hat die Bewertungsmatrix erläutert.",
        "Die Sachbearbeiterin des Landratsamts, [[Petra Huber]], erklärte, der Antrag sei unvollständig.",
        # negatives: a judge's or a lawyer's title; a thing's noun; a common noun after the first name
        "Der Vorsitzende des Vereins, Hans Wagner, sagte, das Fest falle aus.",
        "Die Kirche der Gemeinde, Maria Himmelfahrt, ist denkmalgeschützt.",
    ],
)  # fmt: skip
def test_role_name_v3_table(marked: str) -> None:
    from deid.anonymizer.recognizers.role_name import RoleNameRecognizerV3

    check_table_row(RoleNameRecognizerV3(), marked, "ROLE_NAME")


def test_version_2_keeps_its_meaning_for_an_apposition() -> None:
    from deid.anonymizer.recognizers.role_name import RoleNameRecognizerV2

    assert RoleNameRecognizerV2().analyze("Der Marktmeister der Stadt, Hans Wagner, hat") == []
