"""Money surrogates: an amount in German notation ("1.250,00"); the currency stays in the
text ("… €" has the span "…"), a currency inside the span is kept."""

from __future__ import annotations

import math
import re

from deid.rewrite.surrogates.request import Request

_AMOUNT_RE = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?")
_CURRENCY_RE = re.compile(r"\s*(?:€|EUR|Euro|DM|CHF|USD|\$)\s*")
_SCALE_RE = re.compile(r"^\s*(?:Mio|Mrd|Millionen|Milliarden|Tsd)\b")
AMOUNT_RANGE = (20.0, 250_000.0)  # log-uniform: fees, wages, damages, purchase prices


def german_amount(value: float, decimals: int = 2, thousands: bool = True) -> str:
    """``1250.5`` -> ``"1.250,50"``."""
    text = f"{value:,.{decimals}f}" if thousands else f"{value:.{decimals}f}"
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def _value(req: Request, shown: str | None) -> float:
    if shown:  # a written-out amount: same order of magnitude, different digits
        digits = shown.split(",")[0].replace(".", "")
        lo, hi = 10 ** (len(digits) - 1), 10 ** len(digits)
        return req.rng.uniform(max(lo, 1), hi - 1)
    lo, hi = AMOUNT_RANGE
    value = math.exp(req.rng.uniform(math.log(lo), math.log(hi)))
    return float(round(value, -1 if value < 1000 else -2)) if req.rng.random() < 0.6 else value


def generate_money(req: Request) -> str:
    surface = req.surface.strip()
    if req.after and _SCALE_RE.match(req.after) and not re.search(r"\d", surface):
        return german_amount(req.rng.uniform(1, 500), decimals=1)  # "… Mio. €" -> "12,5"
    shown = _AMOUNT_RE.search(surface)
    text = shown.group(0) if shown else None
    decimals = len(text.split(",")[1]) if text and "," in text else (0 if text else 2)
    thousands = text is None or "." in text or len(text.split(",")[0]) < 4
    amount = german_amount(_value(req, text), decimals, thousands)
    prefix = _CURRENCY_RE.match(surface)
    suffix = _CURRENCY_RE.search(surface[shown.end() :] if shown else surface)
    if prefix and prefix.group(0).strip() and (not shown or prefix.end() <= shown.start()):
        return f"{prefix.group(0).strip()} {amount}"
    if suffix and suffix.group(0).strip():
        return f"{amount} {suffix.group(0).strip()}"
    return amount
