"""The one explicit table of surrogate generators, by versioned name.

Names are recorded with rewritten data sets and models ("which surrogates did this model
see"); a generator whose output changes gets a new version instead of changing silently.
"""

from __future__ import annotations

from collections.abc import Callable

from deid.rewrite.surrogates import checked_ids, contact, official_numbers
from deid.rewrite.surrogates.dates import generate_birth_date, generate_date
from deid.rewrite.surrogates.ids import generate_id, shaped
from deid.rewrite.surrogates.location import generate_location
from deid.rewrite.surrogates.money import generate_money
from deid.rewrite.surrogates.organization import generate_organization
from deid.rewrite.surrogates.other import generate_other
from deid.rewrite.surrogates.person import generate_person
from deid.rewrite.surrogates.request import Request
from deid.rewrite.surrogates.street import generate_street
from deid.schema import (
    CONTACT,
    DATE,
    FINE_TO_COARSE,
    ID,
    LABELS,
    LOCATION,
    MONEY,
    ORGANIZATION,
    OTHER,
    PERSON,
    STREET,
)

Generator = Callable[[Request], str]

GENERATORS: dict[str, Generator] = {
    "deid.surrogates.person_de.v1": generate_person,
    "deid.surrogates.organization_de.v1": generate_organization,
    "deid.surrogates.location_de.v1": generate_location,
    "deid.surrogates.street_de.v1": generate_street,
    "deid.surrogates.date_de.v1": generate_date,
    "deid.surrogates.birth_date_de.v1": generate_birth_date,
    "deid.surrogates.money_de.v1": generate_money,
    "deid.surrogates.id_shape.v1": generate_id,
    "deid.surrogates.iban_de.v1": checked_ids.iban,
    "deid.surrogates.bic_de.v1": checked_ids.bic,
    "deid.surrogates.tax_id_de.v1": checked_ids.tax_id,
    "deid.surrogates.vat_id_de.v1": checked_ids.vat_id,
    "deid.surrogates.social_security_id_de.v1": checked_ids.social_security_id,
    "deid.surrogates.license_plate_de.v1": official_numbers.license_plate,
    "deid.surrogates.vehicle_id.v1": official_numbers.vehicle_id,
    "deid.surrogates.patent_de.v1": official_numbers.patent,
    "deid.surrogates.brand_number_de.v1": shaped(official_numbers.brand_number),
    "deid.surrogates.permit_number_de.v1": shaped(official_numbers.permit_number),
    "deid.surrogates.contract_number_de.v1": shaped(official_numbers.contract_number),
    "deid.surrogates.contact_de.v1": contact.generate_contact,
    "deid.surrogates.email_de.v1": contact.email,
    "deid.surrogates.url_de.v1": contact.url,
    "deid.surrogates.phone_de.v1": contact.phone,
    "deid.surrogates.other_de.v1": generate_other,
}

LABEL_GENERATORS: dict[str, str] = {
    PERSON: "deid.surrogates.person_de.v1",
    ORGANIZATION: "deid.surrogates.organization_de.v1",
    LOCATION: "deid.surrogates.location_de.v1",
    STREET: "deid.surrogates.street_de.v1",
    DATE: "deid.surrogates.date_de.v1",
    MONEY: "deid.surrogates.money_de.v1",
    ID: "deid.surrogates.id_shape.v1",
    CONTACT: "deid.surrogates.contact_de.v1",
    OTHER: "deid.surrogates.other_de.v1",
    "IBAN": "deid.surrogates.iban_de.v1",
    "BIC": "deid.surrogates.bic_de.v1",
    "TAX_ID": "deid.surrogates.tax_id_de.v1",
    "VAT_ID": "deid.surrogates.vat_id_de.v1",
    "SOCIAL_SECURITY_ID": "deid.surrogates.social_security_id_de.v1",
    "LICENSE_PLATE": "deid.surrogates.license_plate_de.v1",
    "VEHICLE_ID": "deid.surrogates.vehicle_id.v1",
    "PATENT": "deid.surrogates.patent_de.v1",
    "BRAND_NUMBER": "deid.surrogates.brand_number_de.v1",
    "PERMIT_NUMBER": "deid.surrogates.permit_number_de.v1",
    "CONTRACT_NUMBER": "deid.surrogates.contract_number_de.v1",
    "EMAIL": "deid.surrogates.email_de.v1",
    "URL": "deid.surrogates.url_de.v1",
    "PHONE": "deid.surrogates.phone_de.v1",
    "DATE_OF_BIRTH": "deid.surrogates.birth_date_de.v1",
}


def generator_name(label: str) -> str:
    """The registry name serving ``label`` (fine labels fall back to their coarse type)."""
    name = LABEL_GENERATORS.get(label) or LABEL_GENERATORS.get(FINE_TO_COARSE.get(label, ""))
    if name is None:
        raise ValueError(f"no surrogate generator for label {label!r}")
    return name


def covered_labels() -> tuple[str, ...]:
    """Every sensitive label, coarse and fine (all must have a generator)."""
    return tuple(LABELS) + tuple(FINE_TO_COARSE)
