"""deid.rewrite.surrogates: type-faithful, document-consistent German surrogates."""

from __future__ import annotations

import datetime as dt
import logging
import lzma
import pickle
import re
import subprocess
import sys
from random import Random

import phonenumbers
import pytest
from stdnum import bic as stdnum_bic
from stdnum import iban as stdnum_iban
from stdnum.de import idnr, vat

from deid.rewrite.surrogates import (
    GENERATORS,
    LABEL_GENERATORS,
    DocumentSurrogates,
    SurrogateGenerator,
    generator_name,
    keyed_rng,
    pool_of,
    substitute,
)
from deid.rewrite.surrogates.checked_ids import rvnr_check_digit
from deid.rewrite.surrogates.commonwords import COMMON_WORDS
from deid.rewrite.surrogates.commonwords_build import common_words
from deid.rewrite.surrogates.dates import MONTHS
from deid.rewrite.surrogates.gazetteers import (
    FEMALE,
    MALE,
    clean_names,
    first_name_table,
    gazetteers,
)
from deid.rewrite.surrogates.gender import after_salutation, infer_gender
from deid.rewrite.surrogates.surface import normalize, parse_name
from deid.schema import FINE_TO_COARSE, LABELS, Span

SEEDS = range(60)


@pytest.fixture(scope="module")
def gen() -> SurrogateGenerator:
    return SurrogateGenerator(seed=7)


def draws(gen: SurrogateGenerator, label: str, surface: str, context: str = "", after=None, n=60):
    return [gen.generate(label, surface, context, Random(i), after=after) for i in range(n)]


def first_name_gender(gen: SurrogateGenerator, name: str) -> str | None:
    return gen.gazetteers.first_name_genders.get(name.split("-")[0])


# --- registry ----------------------------------------------------------------------------


def test_every_label_has_a_versioned_generator(gen):
    for label in (*LABELS, *FINE_TO_COARSE):
        name = generator_name(label)
        assert re.fullmatch(r"deid\.surrogates\.[a-z_]+\.v\d+", name)
        assert name in GENERATORS
        out = gen.generate(label)
        assert isinstance(out, str) and out.strip()
    assert set(LABEL_GENERATORS.values()) <= set(GENERATORS)


def test_unknown_label_is_refused(gen):
    with pytest.raises(ValueError):
        gen.generate("JUDGE", "K.")


def test_import_loads_no_gazetteer():
    code = (
        "import deid.rewrite.surrogates, deid.rewrite.surrogates.gazetteers as g;"
        "assert g.gazetteers.cache_info().currsize == 0;"
        "assert g._first_names_all.cache_info().currsize == 0"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_generator_pickles_without_gazetteers():
    gen = SurrogateGenerator(seed=11, pool="train")
    gen.generate("PERSON", "A. G.", "Herr ")
    data = pickle.dumps(gen)
    assert len(data) < 10_000
    clone = pickle.loads(data)
    assert clone.generate("PERSON", "K.", "Herr ") == gen.generate("PERSON", "K.", "Herr ")


def test_unknown_pool_is_refused():
    with pytest.raises(ValueError):
        SurrogateGenerator(pool="test")


# --- gender ------------------------------------------------------------------------------

GENDER_CASES = [
    ("Der als Letzter vernommene Zeuge ", MALE),
    ("war bis zuletzt umstritten. Die Amtsärztin Frau Dr. ", FEMALE),
    ("dass die Zeugin ", FEMALE),
    ("Herr S und Herr ", MALE),
    ("der Kläger ", MALE),
    ("die Klägerin ", FEMALE),
    ("die Beklagte ", FEMALE),
    ("der Beklagte ", MALE),
    ("der Beklagten ", FEMALE),
    ("dem Beklagten ", MALE),
    ("ein Sachverständiger ", MALE),
    ("die Angeklagte ", FEMALE),
    ("beantragte der Kläger, die Vorsitzende Richterin ", FEMALE),
    ("nach § 840 ZPO an die Drittschuldnerin ", FEMALE),
    ("vertreten durch Rechtsanwältin ", FEMALE),
    ("vertreten durch Rechtsanwalt ", MALE),
    ("ihr Ehemann ", MALE),
    ("seine Ehefrau ", FEMALE),
    ("Hr. ", MALE),
    # must not fire: no cue, or the cue belongs to someone else
    ("Dagegen gibt ", None),
    ("Der Zeuge M. habe dann zusammen mit dem Antragsteller und ", None),
    ("am 5. Oktober ", None),
    ("in Berlin ", None),
    ("Sachverständige ", None),
    ("", None),
]


@pytest.mark.parametrize("context,expected", GENDER_CASES)
def test_infer_gender(context, expected):
    assert infer_gender(context) == expected


def test_gender_after_the_name_only_without_cue_before():
    assert infer_gender("Dagegen gibt ", " an, er könne nicht") == MALE
    assert infer_gender("mit ", " und ihre Tochter") == FEMALE
    assert infer_gender("der Zeuge ", " und ihre Tochter") == MALE  # the cue before wins
    assert infer_gender("mit ", ". Er sagte") is None  # another sentence


def test_after_salutation():
    assert after_salutation("Herr ")
    assert after_salutation("die Zeugin ")
    assert not after_salutation("vertreten durch ")
    assert not after_salutation("Herr Müller und ")


@pytest.mark.parametrize(
    "context", ["Frau ", "die Zeugin ", "der Klägerin ", "Frau Dr. ", "die Beklagte "]
)
def test_female_context_never_yields_a_male_first_name(gen, context):
    for surface in ("A. G.", "M. E.-N.", "H.-J. M.", "Hans Müller"):
        for out in draws(gen, "PERSON", surface, context, n=40):
            first = out.split()[0]
            for piece in first.split("-"):
                assert first_name_gender(gen, piece) == FEMALE, (surface, context)


@pytest.mark.parametrize(
    "context", ["Herr ", "der Zeuge ", "der Kläger ", "Herrn Dr. ", "dem Beklagten "]
)
def test_male_context_never_yields_a_female_first_name(gen, context):
    for out in draws(gen, "PERSON", "A. G.", context, n=40):
        assert first_name_gender(gen, out.split()[0]) == MALE


def test_unknown_gender_gives_both(gen):
    genders = {
        first_name_gender(gen, out.split()[0]) for out in draws(gen, "PERSON", "A. G.", "mit ")
    }
    assert genders == {FEMALE, MALE}


def test_real_first_name_gives_gender(gen):
    for out in draws(gen, "PERSON", "Sabine Krause", "mit ", n=30):
        assert first_name_gender(gen, out.split()[0]) == FEMALE


# --- person: form and initials --------------------------------------------------------

PERSON_CASES = [
    # surface, context, pattern the surrogate must match
    ("K.", "Der Zeuge ", r"K[^\s.]+"),
    ("A. G.", "Herr Dr. ", r"A[^\s.]+ G[^\s.]+"),
    ("M. D.", "die Klägerin ", r"M[^\s.]+ D[^\s.]+"),
    ("U. Sch.", "Herr ", r"U[^\s.]+ Sch[^\s.]+"),
    ("E.-N.", "Frau ", r"E[^\s.\-]+-N[^\s.\-]+"),
    ("M. E.-N.", "der Kläger ", r"M[^\s.]+ E[^\s.\-]+-N[^\s.\-]+"),
    ("H.-J. M.", "Herr ", r"H[^\s.\-]+-J[^\s.\-]+ M[^\s.]+"),
    ("Z", "Zeuge ", r"Z[^\s.]+"),
    ("S", "Herr ", r"S[^\s.]+"),
    ("H. S.", "an die Drittschuldnerin ", r"H[^\s.]+ S[^\s.]+"),
    ("A. v. G.", "Herr ", r"A[^\s.]+ von G[^\s.]+"),
    ("Dr. A. G.", "mit ", r"Dr\. A[^\s.]+ G[^\s.]+"),
    ("…", "Rechtsanwalt ", r"[^\s.]+"),  # after a role: surname only
    ("…", "vertreten durch ", r"[^\s.]+ [^\s.]+"),  # no salutation: full name
    ("N.N.", "gegen ", r"[^\s.]+ [^\s.]+"),
]


@pytest.mark.parametrize("surface,context,pattern", PERSON_CASES)
def test_person_keeps_form_and_initials(gen, surface, context, pattern):
    for out in draws(gen, "PERSON", surface, context, n=30):
        assert re.fullmatch(pattern, out), (surface, out)
        assert out != surface


def test_person_names_are_clean(gen):
    for out in draws(gen, "PERSON", "…", "mit ", n=200):
        assert not re.search(r"\d", out)
        assert all(part not in COMMON_WORDS for part in re.split(r"[ \-]", out))


def test_real_name_is_replaced_word_by_word(gen):
    for out in draws(gen, "PERSON", "Hans Müller", "der Kläger ", n=100):
        words = out.split()
        assert len(words) == 2 and "Hans" not in words and "Müller" not in words


# --- organization, location, street, other ---------------------------------------------

ORG_CASES = [
    # surface, context, after, pattern
    ("S …", "Gutachten der ", " GmbH vom", r"S\S*(?: [^\s]+)*"),
    ("A", "bei der ", "-GbR und", r"A[^\s\-]+"),
    ("X", "arbeitete der Kläger bei der ", " GmbH und erhielt", r"X\S*(?: \S+)*"),
    ("T. C.", "eine Haaranalyse der Forensisch ", " GmbH vom 11. September", r"T\S+ C\S+"),
    ("H.", "die ", " AG", r"H\S*(?: \S+)*"),
]


@pytest.mark.parametrize("surface,context,after,pattern", ORG_CASES)
def test_organization_keeps_initials_and_leaves_legal_form_to_text(
    gen, surface, context, after, pattern
):
    for out in draws(gen, "ORGANIZATION", surface, context, after, n=40):
        assert re.fullmatch(pattern, out), out
        assert not re.search(r"\b(GmbH|AG|KG|GbR|e\.V\.|UG|OHG|SE)\b", out), out


def test_organization_gets_legal_form_where_text_has_none(gen):
    outs = draws(gen, "ORGANIZATION", "…", "Vertrag mit der Firma ", " über", n=30)
    assert all(
        re.search(r"(GmbH|AG|KG|GbR|e\.K\.|e\.V\.|UG \(haftungsbeschränkt\)|OHG|eG|SE)$", o)
        for o in outs
    )
    outs = draws(gen, "ORGANIZATION", "…", "Vertrag mit der Firma ", " GmbH über", n=30)
    assert not any(re.search(r"GmbH|AG$", o) for o in outs)


def test_real_organization_keeps_its_legal_form_not_its_name(gen):
    for out in draws(gen, "ORGANIZATION", "Müller Bau GmbH", "die ", n=30):
        assert out.endswith(" GmbH") and "Müller" not in out


LOCATION_CASES = [
    ("O.", "Landratsamt ", None, r"O[^\-]+"),
    ("A.", "Widerspruch beim Landratsamt ", " eingelegt", r"A[^\-]+"),
    ("E.-N.", "Institut für Rechtsmedizin der Universität ", " vom 5. September", r"E\w+-N\w+"),
    ("M.-S.", "der Fahrerlaubnisbehörde beim Landratsamt ", " (künftig", r"M\w+-S\w+"),
    ("P.", "Die Bundespolizeiinspektion ", " verfügte", r"P[^\-]+"),
    ("L.", "Einfahrt von der Bundesstraße auf den ", "er Weg", r"L\w+"),
    ("…", "in ", None, r"[A-ZÄÖÜ].+"),
]


@pytest.mark.parametrize("surface,context,after,pattern", LOCATION_CASES)
def test_location(gen, surface, context, after, pattern):
    for out in draws(gen, "LOCATION", surface, context, after, n=40):
        assert re.fullmatch(pattern, out), out
        assert not re.search(r"\d", out)


STREET_CASES = [
    ("Kstraße", "in der ", r"K[a-zäöüß]+straße"),
    ("R. straße ...", "an der östlichen Seite der ", r"R[a-zäöüß]+straße \d+a?"),
    ("S. straße ...", "an der östlichen Seite der ", r"S[a-zäöüß]+straße \d+a?"),
    ("G. Straße 1", "in der ", r"G\S+ Straße 1"),
    ("F* … Straße", "Im Bereich der ", r"F\S+ Straße"),
    ("S* …-Straße", "In der ", r"S\S+-Straße"),
    ("S.straße …", "Sportwetten am Standort ", r"S[a-zäöüß]+straße \d+a?"),
    ("Z-weg 01", "mit der Anschrift ", r"Z[a-zäöüß]+weg 01"),
    ("Kstr. 5", "in der ", r"K[a-zäöüß]+str\. 5"),
    ("...", "am nördlichen Rand der Staatsstraße ", r"\d+a?"),
    ("…", "wohnhaft ", r"\D+ \d+a?"),
]


@pytest.mark.parametrize("surface,context,pattern", STREET_CASES)
def test_street_keeps_street_word_initial_and_number(gen, surface, context, pattern):
    for out in draws(gen, "STREET", surface, context, n=30):
        assert re.fullmatch(pattern, out), (surface, out)


def test_other_keeps_initial(gen):
    for out in draws(gen, "OTHER", "B.", "das Schiff ", n=20):
        assert re.fullmatch(r"B\w+", out)


# --- dates and money --------------------------------------------------------------------

DATE_CASES = [
    ("xx.xx.2015", r"(\d\d)\.(\d\d)\.2015", "%d.%m.%Y"),
    ("XX.XX.XXXX", r"\d\d\.\d\d\.\d{4}", "%d.%m.%Y"),
    ("....2022", r"\d\d\.\d\d\.2022", "%d.%m.%Y"),
    ("… 2015", rf"\d{{1,2}}\. ({'|'.join(MONTHS)}) 2015", None),
    ("xx. Mai 2019", r"\d{1,2}\. Mai 2019", None),
    ("17.03.2015", r"\d\d\.\d\d\.2015", "%d.%m.%Y"),
    ("1.3.15", r"\d{1,2}\.\d{1,2}\.15", "%d.%m.%y"),
    ("…", r"\d\d\.\d\d\.\d{4}", "%d.%m.%Y"),
]


@pytest.mark.parametrize("surface,pattern,fmt", DATE_CASES)
def test_date_preserves_format_and_visible_parts(gen, surface, pattern, fmt):
    for out in draws(gen, "DATE", surface, "am ", n=40):
        assert re.fullmatch(pattern, out), (surface, out)
        assert out != surface
        if fmt:
            dt.datetime.strptime(out, fmt)  # a real calendar date


def test_placeholder_keeps_visible_day_and_month(gen):
    assert all(o.startswith("03.") for o in draws(gen, "DATE", "03.xx.2015", "am ", n=20))


def test_date_of_birth_is_plausible(gen):
    for out in draws(gen, "DATE_OF_BIRTH", "…", "geboren am ", n=40):
        assert 1930 <= dt.datetime.strptime(out, "%d.%m.%Y").year <= 2010


def test_money_scaled_by_following_word(gen):
    for out in draws(gen, "MONEY", "…", "Umsatz von ", " Mio. €", n=20):
        assert re.fullmatch(r"\d{1,3},\d", out), out


@pytest.mark.parametrize(
    "surface,pattern",
    [
        ("…", r"\d{1,3}(?:\.\d{3})*,\d\d"),
        ("22.421,42", r"\d{2}\.\d{3},\d\d"),
        ("1.000 €", r"\d\.\d{3} €"),
        ("500", r"\d{3}"),
    ],
)
def test_money_in_german_format(gen, surface, pattern):
    for out in draws(gen, "MONEY", surface, "einen Gewinn von ", n=40):
        assert re.fullmatch(pattern, out), (surface, out)
        assert out != surface


# --- identifiers and contacts ------------------------------------------------------------


def test_id_keeps_shape(gen):
    surface = "AZ 12/345-b"
    for out in draws(gen, "ID", surface, n=30):
        assert len(out) == len(surface) and out != surface
        for a, b in zip(surface, out):
            kind = (str.isdigit, str.isupper, str.islower)
            assert [k(a) for k in kind] == [k(b) for k in kind] or a == b


@pytest.mark.parametrize(
    "context,pattern",
    [
        ("Flur-Nr. ", r"\d+(?:/\d+)?"),
        ("amtliches Kennzeichen ", r"[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} [1-9]\d{0,3}"),
        ("Fahrzeugidentifikationsnummer ", r"[A-Z0-9]{17}"),
        ("Handelsregister ", r"HR[AB] \d+"),
        ("Führerscheinnummer ", r"[A-Z]\d{3}[A-Z0-9]{5}\d[1-3]"),
        ("Az.: ", r"[\w .\-]+/\d{2,4}"),
        ("Grundbuch von Stadt 1, Blatt ", r"\d{1,4}"),
        ("Nr. ", r"[1-9]\d{3,7}"),
    ],
)
def test_opaque_id_follows_context(gen, context, pattern):
    for out in draws(gen, "ID", "…", context, n=20):
        assert re.fullmatch(pattern, out), (context, out)


def test_iban_valid(gen):
    outs = draws(gen, "IBAN", "", n=50) + draws(gen, "ID", "…", "die IBAN ", n=50)
    outs += draws(gen, "ID", "DE89370400440532013000", n=20)
    for out in outs:
        assert out.startswith("DE") and stdnum_iban.is_valid(out), out
    assert all(" " not in o for o in outs[-20:])  # compact surface, compact surrogate


def test_checked_identifiers_valid(gen):
    for out in draws(gen, "VAT_ID", "", n=50) + draws(gen, "ID", "…", "USt-IdNr. ", n=20):
        assert vat.is_valid(out), out
    for out in draws(gen, "TAX_ID", "", n=50):
        assert idnr.is_valid(out), out
    for out in draws(gen, "BIC", "", n=50):
        assert stdnum_bic.is_valid(out), out


def test_pension_insurance_number_check_digit(gen):
    assert rvnr_check_digit("10010490A44") == "3"  # published example 10010490A443
    for out in draws(gen, "SOCIAL_SECURITY_ID", "", n=50):
        assert re.fullmatch(r"\d{8}[A-Z]\d{3}", out) and rvnr_check_digit(out[:11]) == out[11]


@pytest.mark.parametrize(
    "surface,prefix", [("", "0"), ("089/1234567", "0"), ("+49 89 1234567", "+49 ")]
)
def test_phone_valid_german_number(gen, surface, prefix):
    for out in draws(gen, "PHONE", surface, n=60):
        assert out.startswith(prefix) and out != surface
        assert phonenumbers.is_valid_number(phonenumbers.parse(out, "DE")), out
    if "/" in surface:
        assert all("/" in o for o in draws(gen, "PHONE", surface, n=10))


def test_contact_kinds(gen):
    for out in draws(gen, "EMAIL", "", n=30) + draws(gen, "CONTACT", "…", "E-Mail: ", n=30):
        assert re.fullmatch(r"[a-z0-9.\-]+@[a-z0-9.\-]+\.(de|net)", out), out
    for out in draws(gen, "URL", "https://www.example.org/x", n=20):
        assert re.fullmatch(r"https://www\.[a-z0-9\-]+\.de(/\w+)?", out), out
    for out in draws(gen, "CONTACT", "…", "Telefon: ", n=20):
        assert phonenumbers.is_valid_number(phonenumbers.parse(out, "DE"))


@pytest.mark.parametrize(
    "label,pattern",
    [
        ("LICENSE_PLATE", r"[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} [1-9]\d{0,3}"),
        ("PATENT", r"(DE 10 \d{4} \d{3} \d{3}\.\d|EP \d \d{3} \d{3})"),
        ("BRAND_NUMBER", r"(30 \d{4} \d{3} \d{3}|018\d{6})"),
        ("PERMIT_NUMBER", r"[A-Z]+-\d{4}-\d{3,5}"),
        ("CONTRACT_NUMBER", r"[A-Z0-9/\-]+"),
    ],
)
def test_fine_id_formats(gen, label, pattern):
    for out in draws(gen, label, "", n=30):
        assert re.fullmatch(pattern, out), out


def test_vehicle_ids_are_vins_the_recognizer_accepts(gen):
    from deid.anonymizer.recognizers.vehicle_id import VehicleIdRecognizer

    recognizer = VehicleIdRecognizer()
    for out in draws(gen, "VEHICLE_ID", "WAUZZZFY5J2041754", n=30):
        assert re.fullmatch(r"[A-HJ-NPR-Z0-9]{17}", out), out  # no I, O, Q
        assert [(s.start, s.end) for s in recognizer.analyze(f"FIN {out}")] == [(4, 21)]


def test_odd_surfaces_never_crash(gen):
    rng = Random(0)
    alphabet = "AaKkxX0189 .-…/*€()Äüß,"
    for _ in range(300):
        surface = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        after = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))
        for label in (*LABELS, *FINE_TO_COARSE):
            assert gen.generate(label, surface, "Herr ", Random(1), after=after).strip()


# --- never the placeholder ------------------------------------------------------------------


@pytest.mark.parametrize(
    "label,surface",
    [("PERSON", "K"), ("LOCATION", "Passau"), ("ID", "A"), ("ID", "12"), ("DATE", "01.01.2020"),
     ("MONEY", "5"), ("PHONE", "030 1234567"), ("STREET", "Kstraße"), ("ORGANIZATION", "X")],
)  # fmt: skip
def test_surrogate_never_equals_surface(gen, label, surface):
    assert all(out.casefold() != surface.casefold() for out in draws(gen, label, surface, n=200))


# --- document consistency, determinism, keys --------------------------------------------


def test_same_placeholder_same_surrogate_in_document(gen):
    doc = DocumentSurrogates(gen, "doc-1")
    first = doc.surrogate("PERSON", "A. G.", "Herr ")
    assert doc.surrogate("PERSON", "A.G.", "mit ") == first
    assert doc.surrogate("PERSON", "A G", "mit ") == first
    assert doc.surrogate("LOCATION", "…", "das Landratsamt ") == doc.surrogate(
        "LOCATION", "...", "Landratsamt "
    )
    assert doc.surrogate("PERSON", "…", "Rechtsanwalt ") == doc.surrogate(
        "PERSON", "…", "Herrn Rechtsanwalt "
    )


def test_placeholders_that_show_nothing_are_told_apart(gen):
    doc = DocumentSurrogates(gen, "doc-2")
    amounts = {doc.surrogate("MONEY", "…", "in Höhe von ") for _ in range(10)}
    numbers = {doc.surrogate("ID", "…", "Flur-Nr. ") for _ in range(10)}
    assert len(amounts) == 10 and len(numbers) == 10
    assert doc.surrogate("PERSON", "…", "mit ") != doc.surrogate("PERSON", "…", "mit ")
    assert doc.surrogate("ORGANIZATION", "X", "die ") == doc.surrogate("ORGANIZATION", "X", "der ")
    assert normalize("K.") == normalize("K") == "K"


def test_surname_mentions_agree_with_full_name(gen):
    for key in range(30):
        doc = DocumentSurrogates(gen, f"doc-{key}")
        full = doc.surrogate("PERSON", "A. G.", "Herr Dr. ")
        short = doc.surrogate("PERSON", "G.", "Herr ")
        assert full.split()[-1] == short
        doc = DocumentSurrogates(gen, f"doc-{key}")  # surname first, full name later
        short = doc.surrogate("PERSON", "G.", "Herr ")
        assert doc.surrogate("PERSON", "A. G.", "Herr ").endswith(" " + short)


def test_different_placeholders_never_collide(gen):
    for key in range(20):
        doc = DocumentSurrogates(gen, f"doc-{key}")
        outs = [doc.surrogate("PERSON", f"{c}.", "Herr ") for c in "ABCDEFGHKLMNPRSTW"]
        outs += [doc.surrogate("PERSON", f"{c}. K.", "Frau ") for c in "ABCDEFGH"]
        outs += [doc.surrogate("ORGANIZATION", s, "der ") for s in ("X", "Y", "Z", "…", "A", "B")]
        assert len(set(outs)) == len(outs)
        # dates with few possible values must still differ
        dates = [doc.surrogate("DATE", f"xx.xx.{y}", "am ") for y in range(2000, 2010)]
        assert len(set(dates)) == len(dates)


def test_deterministic_by_seed_doc_and_epoch():
    items = [("PERSON", "A. G.", "Herr "), ("LOCATION", "O.", "Landratsamt "), ("DATE", "xx.xx.2015", "am "),
             ("STREET", "Kstraße", "in der "), ("IBAN", "", ""), ("MONEY", "…", "von ")]  # fmt: skip

    def mapping(seed: int, doc_key: str, epoch: int) -> list[str]:
        doc = DocumentSurrogates(SurrogateGenerator(seed=seed), doc_key, epoch=epoch)
        return [doc.surrogate(*item) for item in items]

    assert mapping(1, "d", 0) == mapping(1, "d", 0)
    assert mapping(1, "d", 0) != mapping(1, "d", 1)  # a new epoch, new surrogates
    assert mapping(1, "d", 0) != mapping(2, "d", 0)
    assert mapping(1, "d", 0) != mapping(1, "e", 0)


def test_order_does_not_change_independent_surrogates(gen):
    a = DocumentSurrogates(gen, "doc")
    b = DocumentSurrogates(gen, "doc")
    x1, y1 = a.surrogate("LOCATION", "O.", "in "), a.surrogate("ORGANIZATION", "S …", "der ")
    y2, x2 = b.surrogate("ORGANIZATION", "S …", "der "), b.surrogate("LOCATION", "O.", "in ")
    assert (x1, y1) == (x2, y2)


def test_variety_across_documents(gen):
    outs = {
        DocumentSurrogates(gen, f"d{i}").surrogate("PERSON", "A. G.", "Herr ") for i in range(50)
    }
    assert len(outs) >= 45


def test_keyed_pseudonymization_is_reproducible(gen):
    def pseudonym(secret: bytes, doc_id: str = "doc-9") -> str:
        return DocumentSurrogates(gen, doc_id, secret=secret).surrogate(
            "PERSON", "Hans Müller", "Herr "
        )

    assert pseudonym(b"k1") == pseudonym(b"k1")
    assert pseudonym(b"k1") == DocumentSurrogates(
        SurrogateGenerator(seed=99), "doc-9", secret=b"k1"
    ).surrogate("PERSON", "Hans Müller", "Herr ")  # the seed plays no part once a key is given
    assert len({pseudonym(f"k{i}".encode()) for i in range(20)}) >= 18
    r1, r2 = keyed_rng(b"k", "d", "PERSON", "A. G."), keyed_rng(b"k", "d", "PERSON", "A.G.")
    assert r1.random() == r2.random()
    assert (
        keyed_rng(b"k", "d", "PERSON", "A. G.").random()
        != keyed_rng(b"j", "d", "PERSON", "A. G.").random()
    )
    with pytest.raises(ValueError):
        DocumentSurrogates(gen, "d", secret=b"")


# --- pools and gazetteer hygiene ----------------------------------------------------------


def test_train_and_eval_pools_are_disjoint_and_split_80_20():
    train, evaluation = gazetteers("train"), gazetteers("eval")
    for attr in ("surnames", "cities", "streets", "companies"):
        a, b = set(getattr(train, attr).entries), set(getattr(evaluation, attr).entries)
        assert a and b and not a & b, attr
        assert 0.15 < len(b) / (len(a) + len(b)) < 0.25, attr
    for g in (FEMALE, MALE):
        assert not set(train.first_names[g].entries) & set(evaluation.first_names[g].entries)
    assert pool_of("Griesmann") == pool_of("griesmann")  # case variants fall together


def test_eval_generator_draws_only_eval_entries():
    gen = SurrogateGenerator(seed=3, pool="eval")
    for i in range(100):
        out = gen.generate("PERSON", "A. G.", "Herr ", Random(i))
        first, last = out.split()
        assert pool_of(first) == "eval" and pool_of(last) == "eval"
        assert pool_of(gen.generate("LOCATION", "O.", "in ", Random(i))) == "eval"


def test_loaded_gazetteers_hold_no_junk():
    gaz = gazetteers("all")
    surnames = set(gaz.surnames.entries)
    assert not {"Herr", "Kläger", "Recht", "Richter", "Zeuge"} & surnames
    assert {"Müller", "Schmidt", "Becker"} <= surnames
    for sampler in (
        gaz.surnames,
        gaz.cities,
        gaz.streets,
        gaz.companies,
        *gaz.first_names.values(),
    ):
        assert not [e for e in sampler.entries if re.search(r"\d|[|\"/(),]", e)]


def test_name_filters():
    raw = ["Müller", "Amali|e", '"Bob"', "alfarabi", "Herr", "Kläger", "Recht", "Meier2", "AB",
           "MÜLLER", "Al-Rashed/Almanasir", "AdresseFuchs", "Schmidt-Lüders"]  # fmt: skip
    assert clean_names(raw) == ["Müller", "Schmidt-Lüders"]
    lines = ["name\tgender\tcount", "Anna\tw\t100", "Anna\tm\t2", "Kim\tw\t50", "Kim\tm\t40",
             "Ivanovna\tw\t30", "Rareo\tm\t2", "Jonas\tm\t80"]  # fmt: skip
    assert first_name_table(lines) == {"Anna": (FEMALE, 102), "Jonas": (MALE, 80)}


def test_common_words_builder(tmp_path):
    path = tmp_path / "x.conll.xz"
    rows = ["Der O", "Kläger O", "Müller B-PER"] * 3 + ["Recht O"] * 2
    with lzma.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(rows) + "\n")
    assert common_words([path], min_count=3) == {"Der", "Kläger"}


def test_parse_name():
    parts = parse_name("U. Sch.").parts
    assert [p.letters for p in parts] == [("U",), ("Sch",)]
    assert parse_name("E.-N.").parts[0].letters == ("E", "N")
    assert not parse_name("Hans Müller").is_placeholder
    assert [p.kind for p in parse_name("S …").parts] == ["initial", "opaque"]


# --- whole texts ---------------------------------------------------------------------------


def test_substitute_rewrites_real_decision_sentence(gen):
    text = (
        "Der als Letzter vernommene Zeuge M. erklärte gegenüber der Polizei, "
        "dass Herr Dr. A. G. am xx.xx.2019 beim Landratsamt O. war; Herr G. zahlte … €."
    )

    def span(sub: str, label: str, nth: int = 0) -> Span:
        start = -1
        for _ in range(nth + 1):
            start = text.index(sub, start + 1)
        return Span(start, start + len(sub), label)

    spans = [span("M.", "PERSON"), span("A. G.", "PERSON"), span("xx.xx.2019", "DATE"),
             span("O.", "LOCATION"), span("G.", "PERSON", 1), span("…", "MONEY")]  # fmt: skip
    keep = [span("Landratsamt", "PUBLIC_ENTITY"), span("Polizei", "PUBLIC_ENTITY")]
    doc = DocumentSurrogates(gen, "decision-1")
    new_text, new_spans, carried = substitute(text, spans, doc, carry=keep)
    assert [s.label for s in new_spans] == [s.label for s in spans]
    surrogates = [new_text[s.start : s.end] for s in new_spans]
    assert re.fullmatch(r"M\S+", surrogates[0])
    assert re.fullmatch(r"A\S+ G\S+", surrogates[1])
    assert surrogates[1].split()[-1] == surrogates[4]
    assert re.fullmatch(r"\d\d\.\d\d\.2019", surrogates[2])
    assert re.fullmatch(r"\d{1,3}(?:\.\d{3})*,\d\d", surrogates[5])
    assert [new_text[s.start : s.end] for s in carried] == ["Landratsamt", "Polizei"]
    assert "Herr Dr. " + surrogates[1] in new_text and surrogates[5] + " €." in new_text
    for sub in ("M.", "A. G.", "xx.xx", "…"):
        assert f" {sub} " not in new_text


def test_nothing_is_logged(gen, caplog):
    with caplog.at_level(logging.DEBUG):
        doc = DocumentSurrogates(gen, "doc")
        substitute("Herr A. G. kam.", [Span(5, 10, "PERSON")], doc)
    assert not [r for r in caplog.records if r.name.startswith("deid.rewrite.surrogates")]


