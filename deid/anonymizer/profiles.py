"""The anonymization policy's profiles: what is neutralized, by type and role, under ``strict``
(the default, the Bavarian courts' practice) and ``federal`` (what the federal courts print).

The contract is docs/anonymization-policy.md. The model and the recognizers find entities and
their roles (deid.schema: ``LAWYER``, ``SEAT``, ``BRAND`` beside the types); the ``policy``
chain step (deid.anonymizer.components) applies one profile's table to them. Switching the
profile never needs a retrain. The same table decides which gold spans count as sensitive when
a gold set is scored under a profile (deid.evaluation.profiles), so the product and its
evaluation cannot disagree on what a profile means.

Rows the model and rules do not see (judges, courts, laws, citations, amounts and dates other
than birth dates) are kept by the keep zones and ``keep_labels`` steps before this one; a span
that reaches this step with a keep type is dropped here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from deid.schema import (
    BRAND,
    CONTACT,
    DATE,
    EVENT_DATE,
    FILE_REFERENCE,
    ID,
    LABELS,
    LAWYER,
    LOCATION,
    MONEY,
    ORGANIZATION,
    OTHER,
    PERSON,
    PROFILES,
    ROLE_TYPES,
    SEAT,
    STREET,
    WEB_PAGE,
    Span,
    coarse_label,
)
from deid.sources.errors import UserError
from deid.words.gazetteer import is_big_city
from deid.words.roles import role_label

STRICT, FEDERAL = PROFILES
DEFAULT_PROFILE = STRICT

NEUTRALIZE = "neutralize"
KEEP = "keep"
UNLESS_BIG_CITY = "neutralize unless a big city"

# A party's own intellectual property and its register numbers (recognizers' fine labels):
# neutralized under strict, printed by the federal courts.
OWN_IP_LABELS: frozenset[str] = frozenset({"PATENT", "UTILITY_MODEL", "BRAND_NUMBER"})
BRAND_NAME = "BRAND_NAME"  # the brand_name recognizer's fine label of the BRAND role


@dataclass(frozen=True)
class Row:
    """One row of the policy: who or what (a type and a role), and the action per profile."""

    type: str
    role: str
    strict: str
    federal: str

    def action(self, profile: str) -> str:
        return getattr(self, profile)


# label → the policy's row. A label is a type (its role the ordinary one), a role (deid.schema.
# ROLE_LABELS) or a recognizer's fine label.
TABLE: Mapping[str, Row] = MappingProxyType(
    {
        PERSON: Row(PERSON, "party, witness, relative, expert, employee …", NEUTRALIZE, NEUTRALIZE),
        LAWYER: Row(PERSON, "lawyer, patent attorney, tax adviser, insolvency administrator", NEUTRALIZE, KEEP),
        ORGANIZATION: Row(ORGANIZATION, "private company, association, practice, shop", NEUTRALIZE, NEUTRALIZE),
        LOCATION: Row(LOCATION, "place of residence, birth, work or events", UNLESS_BIG_CITY, UNLESS_BIG_CITY),
        SEAT: Row(LOCATION, "place in the name of an authority or lower court", UNLESS_BIG_CITY, KEEP),
        STREET: Row(STREET, "address of a private person or firm", NEUTRALIZE, NEUTRALIZE),
        DATE: Row(DATE, "date of birth, death or marriage", NEUTRALIZE, NEUTRALIZE),
        EVENT_DATE: Row(DATE, "any other date or year (a letter's, a hearing's, a contract's)", KEEP, KEEP),
        MONEY: Row(MONEY, "amount", KEEP, KEEP),
        ID: Row(ID, "identifier (file, tax, account, plate, register … number)", NEUTRALIZE, NEUTRALIZE),
        FILE_REFERENCE: Row(ID, "a page, margin number or exhibit of the court file (\"Bl. 214\")", KEEP, KEEP),
        CONTACT: Row(CONTACT, "phone, e-mail, private URL or handle", NEUTRALIZE, NEUTRALIZE),
        WEB_PAGE: Row(CONTACT, "a web page's address with a path: a source the decision cites, a party's media",
                      NEUTRALIZE, KEEP),
        OTHER: Row(OTHER, "other identifying detail", NEUTRALIZE, NEUTRALIZE),
        **dict.fromkeys((BRAND, BRAND_NAME), Row(OTHER, "a party's own mark, brand or product", NEUTRALIZE, KEEP)),
        **{label: Row(ID, "a party's own patent, utility model or mark: its number", NEUTRALIZE, KEEP)
           for label in sorted(OWN_IP_LABELS)},
    }
)  # fmt: skip


# the label a role read from the context is neutralized as (a web page: the URL it is)
_CONTEXT_ROLE_LABELS: Mapping[str, str] = MappingProxyType({WEB_PAGE: "URL"})


class ProfileError(UserError, ValueError):
    """A profile name that is not one of :data:`PROFILES`, or a profile asked of a pipeline
    that was evaluated without one: the user's to fix, never worth a retry."""


def check_profile(name: str) -> str:
    """``name`` when it is a profile, else a clear error naming the profiles."""
    if name not in PROFILES:
        raise ProfileError(f"unknown anonymization profile {name!r}: use {' or '.join(PROFILES)}")
    return name


def row_of(label: str) -> Row | None:
    """The policy row of a span label (a fine recognizer label falls back to its type); None
    for a keep type (judge, court, law …)."""
    return TABLE.get(label) or TABLE.get(coarse_label(label))


def outcome(profile: str, label: str, surface: str) -> str | None:
    """The label a span of ``label`` covering ``surface`` is neutralized as under ``profile``,
    or None when the profile keeps it: a role takes its type ("LAWYER" → "PERSON"), a fine
    label stays fine (the operators know them), a big city stays where the row says so."""
    row = row_of(label)
    action = row.action(profile) if row is not None else KEEP
    if action == KEEP or (action == UNLESS_BIG_CITY and is_big_city(surface)):
        return None
    return ROLE_TYPES.get(label) or _CONTEXT_ROLE_LABELS.get(label, label)


def apply_profile(
    profile: str, text: str, spans: Iterable[Span], *, dates: bool = False, pages: bool = False
) -> list[Span]:
    """The spans ``profile`` neutralizes, labelled as they are neutralized. A span of a type
    whose role the model did not give (a model without roles, a recognizer) gets the role its
    context gives (deid.words.roles), so "Landratsamt Ebersberg"'s seat is a seat either way.
    ``dates``: a date's role too (kept unless of birth, death or marriage), as the policy step
    does since its version 2. ``pages``: a web page's role too (a recognizer's fine ``URL``
    included), as the policy step does since its version 3."""
    out = []
    for span in spans:
        roled = span.label in LABELS or (pages and coarse_label(span.label) == CONTACT)
        label = role_label(text, span, dates=dates, pages=pages) if roled else span.label
        new = outcome(profile, label, text[span.start : span.end])
        if new is not None:
            out.append(span if new == span.label else span.with_label(new))
    return out


def policy_table() -> list[dict[str, str]]:
    """The table as rows (for the docs, the service and the tests)."""
    return [{"label": label, "type": row.type, "role": row.role, STRICT: row.strict, FEDERAL: row.federal}
            for label, row in TABLE.items()]  # fmt: skip
