"""Numbers without check digits that still have a fixed German layout: license plates,
patents, trade marks, permits, contracts, vehicle and parcel numbers."""

from __future__ import annotations

import re
import string

from deid.rewrite.surrogates.checked_ids import random_digits
from deid.rewrite.surrogates.request import Request

# Real district codes (public), weighted towards large cities by repetition.
DISTRICTS: tuple[str, ...] = (
    "B", "B", "M", "M", "HH", "HH", "K", "F", "S", "D", "DO", "E", "DU", "HB", "H", "N", "L",
    "DD", "A", "R", "WÜ", "PA", "LA", "ER", "FÜ", "BA", "BT", "HO", "IN", "RO", "TS", "GAP",
    "KE", "MN", "AÖ", "DEG", "LL", "FFB", "DAH", "EBE", "ED", "FS", "ND", "WM", "STA", "TÖL",
    "MB", "AIC", "DLG", "NU", "UL", "RV", "FN", "KN", "FR", "OG", "KA", "MA", "HD", "HN", "LB",
    "WN", "ES", "TÜ", "RT", "BB", "PF", "MZ", "WI", "KS", "GÖ", "OS", "MS", "BI", "AC", "BN",
    "KO", "TR", "SB", "KI", "HL", "SN", "HRO", "MD", "HAL", "EF", "J", "C", "Z", "CB", "P",
)  # fmt: skip
_PLATE_LETTERS = "ABCDEFGHIJKLMNOPRSTUVWXYZ"  # no umlauts or Q in the middle part
_PLATE_RE = re.compile(r"^[A-ZÄÖÜ]{1,3}(?P<sep1>[\s\-]+)[A-Z]{1,2}(?P<sep2>\s*)\d{1,4}[EH]?$")


def license_plate(req: Request) -> str:
    """ "M-AB 1234"; the separators of a plate-shaped surface are kept."""
    rng = req.rng
    district = DISTRICTS[int(rng.random() * len(DISTRICTS))]
    n_letters = 1 + int(rng.random() < 0.7)
    letters = "".join(
        _PLATE_LETTERS[int(rng.random() * len(_PLATE_LETTERS))] for _ in range(n_letters)
    )
    n_digits = min(1 + int(rng.random() * 4), 8 - len(district) - n_letters)
    digits = random_digits(rng, n_digits, first_nonzero=True)
    m = _PLATE_RE.match(req.surface.strip())
    sep1, sep2 = (m.group("sep1"), m.group("sep2")) if m else ("-", " ")
    return f"{district}{sep1}{letters}{sep2}{digits}"


def patent(req: Request) -> str:
    """German or European patent / application number ("DE 10 2015 123 456.7", "EP 1 234 567")."""
    rng = req.rng
    if "EP" in req.surface or (not req.surface and rng.random() < 0.4):
        d = random_digits(rng, 7, first_nonzero=True)
        return f"EP {d[0]} {d[1:4]} {d[4:]}"
    year = rng.randint(2000, 2023)
    d = random_digits(rng, 6, first_nonzero=True)
    return f"DE 10 {year} {d[:3]} {d[3:]}.{random_digits(rng, 1)}"


def brand_number(req: Request) -> str:
    """DPMA trade mark register number "30 2015 012 345" (or an EU mark "018123456")."""
    rng = req.rng
    if req.surface.strip().startswith("0") or rng.random() < 0.2:
        return "018" + random_digits(rng, 6)
    return f"30 {rng.randint(2000, 2023)} {random_digits(rng, 3)} {random_digits(rng, 3)}"


def permit_number(req: Request) -> str:
    rng = req.rng
    prefix = rng.choice(("BG", "AZ", "G", "BV", "GEN"))
    return f"{prefix}-{rng.randint(2005, 2023)}-{random_digits(rng, rng.randint(3, 5), True)}"


def contract_number(req: Request) -> str:
    rng = req.rng
    style = rng.random()
    if style < 0.4:
        return random_digits(rng, rng.randint(6, 10), first_nonzero=True)
    if style < 0.7:
        return (
            f"{rng.choice(('V', 'VN', 'KD', 'VS'))}-{random_digits(rng, 3)}-{random_digits(rng, 5)}"
        )
    return f"{random_digits(rng, 3, True)}/{random_digits(rng, 6)}"


def vehicle_id(req: Request) -> str:
    """17-character vehicle identification number (no I, O, Q)."""
    chars = "ABCDEFGHJKLMNPRSTUVWXYZ" + string.digits
    rng = req.rng
    wmi = rng.choice(("WVW", "WDB", "WBA", "WAU", "W0L", "WF0", "VF1", "ZFA", "TMB", "VSS"))
    return wmi + "".join(chars[int(rng.random() * len(chars))] for _ in range(14))


def driving_licence_number(req: Request) -> str:
    """11 characters: authority code, serial, check and issue digits ("B072RRE2I55");
    the check digit is not computed (no public algorithm to validate against)."""
    rng = req.rng
    alnum = "ABCDEFGHJKLMNPRSTUVWXYZ" + string.digits
    authority = rng.choice("ABCDEFGHJKLMNPRSTUVWZ") + random_digits(rng, 3)
    serial = "".join(alnum[int(rng.random() * len(alnum))] for _ in range(5))
    return f"{authority}{serial}{random_digits(rng, 1)}{rng.randint(1, 3)}"


def parcel_number(req: Request) -> str:
    """Flurstücksnummer "1234/5" (the number part of "Flur-Nr. …")."""
    rng = req.rng
    base = str(rng.randint(1, 2500))
    return f"{base}/{rng.randint(1, 30)}" if rng.random() < 0.5 else base


def file_number(req: Request) -> str:
    """An authority's file number ("Az.: 31-1234/19", "123 Js 4567/21", "II 2-7523.1/2019")."""
    rng = req.rng
    year = rng.randint(10, 23)
    style = rng.random()
    if style < 0.4:
        return f"{rng.randint(10, 99)}-{random_digits(rng, 4, True)}/{year}"
    if style < 0.7:
        return f"{rng.randint(100, 999)} Js {rng.randint(100, 99999)}/{year}"
    roman = rng.choice(("I", "II", "III", "IV", "V"))
    return f"{roman} {rng.randint(1, 9)}-{random_digits(rng, 4, True)}.{rng.randint(1, 9)}/20{year}"


def folio_number(req: Request) -> str:
    """Grundbuch "Blatt 1234"."""
    return str(req.rng.randint(1, 9999))


def register_number(req: Request) -> str:
    """Handelsregister "HRB 12345"."""
    return f"{req.rng.choice(('HRB', 'HRB', 'HRA'))} {req.rng.randint(100, 250000)}"
