"""Generic ID surrogates: the surface's shape where it shows one (digits stay digits,
letters letters, separators stay), otherwise the kind of number the context names
("IBAN …", "Flur-Nr. …", "Kennzeichen …")."""

from __future__ import annotations

import re
import string
from collections.abc import Callable

from deid.rewrite.surrogates import checked_ids, official_numbers
from deid.rewrite.surrogates.checked_ids import random_digits
from deid.rewrite.surrogates.request import Request
from deid.rewrite.surrogates.surface import shows_nothing

_IBAN_RE = re.compile(r"^[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}(?:\s?[A-Z0-9]{1,4})?$")
_ELLIPSIS_RE = re.compile(r"…|\.{3,}")
_HOLE_RE = re.compile(r"[xX]{2,}")
# Context keyword -> generator; the keyword closest to the span wins.
_CONTEXT_KINDS: tuple[tuple[re.Pattern[str], Callable[[Request], str]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), fn)
    for pattern, fn in (
        (r"\bIBAN|Konto(?:nummer|-Nr\.?)?", checked_ids.iban),
        (r"\bBIC\b", checked_ids.bic),
        (r"USt|Umsatzsteuer", checked_ids.vat_id),
        (r"Steuer(?:nummer|-Nr\.?)|St\.?-?Nr\.|\bIdentifikationsnummer|Steuer-ID", checked_ids.tax_id),
        (r"(?:Renten|Sozial)versicherungsnummer|RV-Nr", checked_ids.social_security_id),
        (r"Kennzeichen", official_numbers.license_plate),
        (r"Patent|Gebrauchsmuster", official_numbers.patent),
        (r"Marke|Register-?nummer", official_numbers.brand_number),
        (r"Genehmigung|Erlaubnis|Bescheid-?Nr", official_numbers.permit_number),
        (r"Vertrag|Versicherungs(?:schein)?nummer|Police|Kundennummer", official_numbers.contract_number),
        (r"Fahrzeugidentifikationsnummer|FIN\b|Fahrgestell", official_numbers.vehicle_id),
        (r"Flur(?:stück)?(?:-?Nr\.?|nummer)?|Fl\.?-?Nr\.?|Gemarkung", official_numbers.parcel_number),
        (r"Handelsregister|HR[AB]\b", official_numbers.register_number),
        (r"\bAz\.?:?|Aktenzeichen|Geschäftszeichen|Gz\.", official_numbers.file_number),
        (r"\bBlatt|\bBl\.", official_numbers.folio_number),
        (r"Führerschein", official_numbers.driving_licence_number),
    )
)  # fmt: skip


_CHECKED = (
    checked_ids.iban,
    checked_ids.bic,
    checked_ids.vat_id,
    checked_ids.tax_id,
    checked_ids.social_security_id,
)


def shape_like(surface: str, req: Request) -> str:
    """Same shape, new content: digit -> digit, letter -> letter (case kept), "xx" holes
    -> digits, "…" -> three digits, other characters kept."""
    rng = req.rng
    chunks = []
    for piece in _ELLIPSIS_RE.split(surface):
        piece = _HOLE_RE.sub(lambda m: "0" * len(m.group(0)), piece)
        chars = []
        for i, ch in enumerate(piece):
            if ch.isdigit():
                chars.append(random_digits(rng, 1, first_nonzero=(i == 0 and ch != "0")))
            elif ch.isascii() and ch.isupper():
                chars.append(string.ascii_uppercase[int(rng.random() * 26)])
            elif ch.isascii() and ch.islower():
                chars.append(string.ascii_lowercase[int(rng.random() * 26)])
            else:
                chars.append(ch)
        chunks.append("".join(chars))
    return "".join(
        chunk if i == 0 else random_digits(rng, 3) + chunk for i, chunk in enumerate(chunks)
    )


def _from_context(req: Request) -> Callable[[Request], str] | None:
    tail = req.context[-40:]
    best: tuple[int, Callable[[Request], str]] | None = None
    for pattern, fn in _CONTEXT_KINDS:
        for m in pattern.finditer(tail):
            if best is None or m.end() > best[0]:
                best = (m.end(), fn)
    return best[1] if best else None


def shows_shape(surface: str) -> bool:
    """The surface has letters or digits to imitate (not just "…" or "xx")."""
    return not shows_nothing(surface) and re.search(r"[0-9A-Za-z]", surface) is not None


def generate_id(req: Request) -> str:
    """Checked numbers (IBAN, tax ids) wherever surface or context name them, so their
    check digits stay valid; otherwise the surface's shape; otherwise the context's kind."""
    surface = req.surface.strip()
    if _IBAN_RE.match(surface) and surface.startswith("DE"):
        return checked_ids.iban(req)
    kind = _from_context(req)
    if kind in _CHECKED:
        return kind(req)
    if shows_shape(surface):
        return shape_like(surface, req)
    if kind is not None:
        return kind(req)
    return random_digits(req.rng, req.rng.randint(4, 8), first_nonzero=True)


def shaped(fn: Callable[[Request], str]) -> Callable[[Request], str]:
    """``fn`` for opaque surfaces, the surface's own shape where it shows one (numbers
    without a fixed national layout: permits, contracts, trade marks)."""

    def generate(req: Request) -> str:
        surface = req.surface.strip()
        return shape_like(surface, req) if shows_shape(surface) else fn(req)

    generate.__name__ = getattr(fn, "__name__", "shaped")
    generate.__doc__ = fn.__doc__
    return generate
