"""Which ``deid.schema`` label an LER entity gets when it stays in clear text.

Judges, courts, laws, case references and literature have their own labels; a lawyer (``AN``)
and a party's mark (``MRK`` in the Federal Patent Court's decisions) get the role that
the anonymization profiles decide on (``LAWYER``, ``BRAND``); an authority's or a lower court's name that ends with the place it
sits in ("Landratsamt Ebersberg", "Amtsgericht Erding") gives that place the role ``SEAT``
(deid.words.roles). Every other entity LER annotates and the courts left unanonymized (a
country, an authority, a public person) is a ``PUBLIC_ENTITY``.
"""

from __future__ import annotations

from collections.abc import Sequence

from deid.schema import (
    BRAND,
    CASE_REFERENCE,
    COURT,
    JUDGE,
    LAW,
    LAWYER,
    LITERATURE,
    LOCATION,
    PUBLIC_ENTITY,
    STREET,
    Document,
    Span,
)
from deid.words.roles import seat_in_name

LER_KEEP_LABELS: dict[str, str] = {
    "RR": JUDGE,
    "AN": LAWYER,
    "GRT": COURT,
    "GS": LAW,
    "VO": LAW,
    "EUN": LAW,
    "VS": LAW,
    "VT": LAW,
    "RS": CASE_REFERENCE,
    "LIT": LITERATURE,
}
# A mark (``MRK``) is a party's own where the court decides on marks (the Federal Patent
# Court's trademark disputes); elsewhere it is a car's or a product's make named in passing
# ("ein Pkw der Marke BMW"), which every profile keeps.
OWN_MARK_COURTS = frozenset({"bpatg"})
# LER types of names that may end with a seat: institutions, courts, organizations, companies
_NAMES_WITH_SEATS = frozenset({"INN", "GRT", "ORG", "UN"})
# A town (``ST``) or street (``STR``) the federal courts printed. In a gold set it keeps its
# type, so that scoring reads its role as for any other span (deid.evaluation.profiles): a big
# city or an authority's seat stays a keep span under ``federal``; a place of residence or
# events and a street, which the policy neutralizes, are the court's disagreement with its own
# profile, set aside. Training reads them as public, as printed (the default).
PRINTED_PLACES: dict[str, str] = {"ST": LOCATION, "STR": STREET}


def keep_label(ler_tag: str, court: str | None = None, printed_places: bool = False) -> str:
    """The label of an LER tag whose entity is not a placeholder (in a decision of ``court``;
    ``printed_places``: a town or street keeps its type, :data:`PRINTED_PLACES`)."""
    if ler_tag == "MRK":
        return BRAND if court in OWN_MARK_COURTS else PUBLIC_ENTITY
    if printed_places and ler_tag in PRINTED_PLACES:
        return PRINTED_PLACES[ler_tag]
    return LER_KEEP_LABELS.get(ler_tag, PUBLIC_ENTITY)


def entity_keep_spans(text: str, entity: Span, court: str | None = None, printed_places: bool = False) -> list[Span]:
    """The spans of an LER entity left in clear text (``entity.label`` is its LER tag) in a
    decision of ``court``: one span of its label, or, for a name that ends with its seat, the
    name before the seat and the seat (``SEAT``)."""
    label = keep_label(entity.label, court, printed_places)
    seat = seat_in_name(text, entity) if entity.label in _NAMES_WITH_SEATS else None
    if seat is None:
        return [Span(entity.start, entity.end, label)]
    head_end = seat.start
    while head_end > entity.start and text[head_end - 1].isspace():
        head_end -= 1
    return [Span(entity.start, head_end, label), seat] if head_end > entity.start else [seat]


def ler_keep_spans(doc: Document, placeholders: Sequence[Span], printed_places: bool = False) -> list[Span]:
    """An LER document's entities that no placeholder touches, as keep and role spans
    (original offsets): what the training data and the rewritten gold set mark as left in
    clear text (the gold set with ``printed_places``)."""
    return [
        span
        for e in doc.entities
        if not any(e.overlaps(p) for p in placeholders)
        for span in entity_keep_spans(doc.text, e, doc.court, printed_places)
    ]
