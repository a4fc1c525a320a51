"""Identifiers with check digits (IBAN, BIC, tax id, VAT id, pension insurance number).

A recognizer or a model that learned "IBANs validate" must see valid surrogates, so each
one is built with its real checksum (stdnum computes or verifies it). The layout of the
surface (spaces, grouping) is kept.
"""

from __future__ import annotations

import re
import string
from random import Random

from stdnum import bic as stdnum_bic
from stdnum import iban as stdnum_iban
from stdnum.de import idnr, stnr
from stdnum.iso7064 import mod_11_10

from deid.rewrite.surrogates.request import Request

_DIGITS = string.digits
_UPPER = string.ascii_uppercase


def random_digits(rng: Random, n: int, first_nonzero: bool = False) -> str:
    out = [_DIGITS[int(rng.random() * 10)] for _ in range(n)]
    if first_nonzero and out and out[0] == "0":
        out[0] = str(1 + int(rng.random() * 9))
    return "".join(out)


def regroup(value: str, surface: str) -> str:
    """Lay ``value`` out like ``surface``: same separators after the same number of
    characters; plain value if the surface has no separators or another length."""
    compact = re.sub(r"[\s\-/.]", "", surface)
    if len(compact) != len(value) or compact == surface:
        return value
    out, i = [], 0
    for ch in surface:
        if ch in " -/.\t":
            out.append(ch)
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def iban(req: Request) -> str:
    """A German IBAN (DE, 8-digit bank code, 10-digit account) with valid check digits,
    printed in groups of four unless the surface is compact."""
    bban = random_digits(req.rng, 8, first_nonzero=True) + random_digits(req.rng, 10)
    number = "DE" + stdnum_iban.calc_check_digits("DE00" + bban) + bban
    if req.surface and " " not in req.surface.strip() and len(req.surface.strip()) > 4:
        return number
    return stdnum_iban.format(number)


def bic(req: Request) -> str:
    """A syntactically valid German BIC (4 letters, DE, 2 location, optional branch)."""
    rng = req.rng
    bank = "".join(_UPPER[int(rng.random() * 26)] for _ in range(4))
    location = "".join(rng.choice(_UPPER + _DIGITS[1:]) for _ in range(2))
    branch = "XXX" if len(req.surface.strip()) == 11 or rng.random() < 0.5 else ""
    number = f"{bank}DE{location}{branch}"
    return stdnum_bic.validate(number)


def tax_id(req: Request) -> str:
    """Steuer-Identifikationsnummer (11 digits, one digit repeated, mod 11,10) or, where
    the surface looks like one, a Steuernummer ("143/123/45678")."""
    surface = req.surface.strip()
    if "/" in surface or re.search(r"steuernummer|st\.?-?nr", req.context, re.IGNORECASE):
        return _steuernummer(req)
    rng = req.rng
    while True:
        digits = [str(1 + int(rng.random() * 9))] + [
            _DIGITS[int(rng.random() * 10)] for _ in range(9)
        ]
        counts = {d: digits.count(d) for d in digits}
        if sorted(c for c in counts.values() if c > 1) in ([2], [3]):
            break
    body = "".join(digits)
    number = body + mod_11_10.calc_check_digit(body)
    idnr.validate(number)
    return regroup(number, surface) if surface else idnr.format(number)


def _steuernummer(req: Request) -> str:
    """Bavarian-style regional tax number FFF/BBB/UUUUP (stdnum validates the layout)."""
    rng = req.rng
    while True:
        number = (
            f"{random_digits(rng, 3, True)}/{random_digits(rng, 3, True)}/{random_digits(rng, 5)}"
        )
        if stnr.is_valid(number, "Bayern"):
            return number


def vat_id(req: Request) -> str:
    """German USt-IdNr.: DE + 9 digits, the last a mod 11,10 check digit."""
    body = random_digits(req.rng, 8, first_nonzero=True)
    number = "DE" + body + mod_11_10.calc_check_digit(body)
    return regroup(number, req.surface.strip()) if req.surface.strip() else number


def social_security_id(req: Request) -> str:
    """Rentenversicherungsnummer: area, birth date DDMMYY, name letter, serial, check."""
    rng = req.rng
    area = f"{rng.choice((12, 13, 15, 16, 17, 18, 19, 23, 24, 25, 26, 28, 29, 38, 39, 40, 65)):02d}"
    birth = f"{rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(0, 99):02d}"
    letter = _UPPER[int(rng.random() * 26)]
    serial = f"{rng.randint(0, 99):02d}"
    body = area + birth + letter + serial
    number = body + rvnr_check_digit(body)
    return regroup(number, req.surface.strip()) if req.surface.strip() else number


def rvnr_check_digit(body: str) -> str:
    """Check digit of an 11-character pension insurance number (letter as its position)."""
    digits = body[:8] + f"{ord(body[8].upper()) - 64:02d}" + body[9:11]
    weights = (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1)
    total = sum(sum(divmod(int(d) * w, 10)) for d, w in zip(digits, weights))
    return str(total % 10)
