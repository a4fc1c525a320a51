"""Date surrogates that keep the placeholder's format and its visible parts
("xx.xx.2015" -> "17.03.2015", "… 2015" -> "12. März 2015", "xx. Mai 2019" -> "3. Mai 2019").

A fully written date (pseudonymization) keeps its format and year and gets a new day and
month; a date of birth also moves its year a little.
"""

from __future__ import annotations

import calendar
import re

from deid.rewrite.surrogates.request import Request

MONTHS = (
    "Januar", "Februar", "März", "April", "Mai", "Juni",
    "Juli", "August", "September", "Oktober", "November", "Dezember",
)  # fmt: skip
_MONTH_INDEX = {m.casefold(): i + 1 for i, m in enumerate(MONTHS)} | {"jänner": 1}
_HOLE = r"(?:[xX]{1,4}|\.\.|…|_+|\*+|#+)"
_NUMERIC_RE = re.compile(
    rf"^(?P<d>\d{{1,2}}|{_HOLE})\.(?P<s1>\s?)(?P<m>\d{{1,2}}|{_HOLE})\.(?P<s2>\s?)"
    rf"(?P<y>\d{{4}}|\d{{2}}|{_HOLE})$"
)
_TEXTUAL_RE = re.compile(
    rf"^(?:(?P<d>\d{{1,2}}|{_HOLE})\.\s?)?(?P<m>[A-Za-zäÄ]+|{_HOLE})\s(?P<y>\d{{4}}|{_HOLE})$"
)
_YEAR_ONLY_HOLE_RE = re.compile(r"^(?:…|\.{3,})\s?\.?(?P<y>\d{4})$")  # "… 2015", "....2022"
_HOLE_RE = re.compile(rf"^{_HOLE}$")
YEARS = (1995, 2023)
BIRTH_YEARS = (1940, 2005)


def _is_hole(part: str | None) -> bool:
    return part is not None and bool(_HOLE_RE.match(part))


def _year(req: Request, shown: str | None, birth: bool) -> int:
    if shown and shown.isdigit():
        year = int(shown) if len(shown) == 4 else 2000 + int(shown)
        return year + (req.rng.randint(-3, 3) if birth and not _any_hole(req) else 0)
    if birth:
        return req.rng.randint(*BIRTH_YEARS)
    lo, hi = YEARS  # decisions mostly speak of the last few years
    return hi - int(req.rng.random() ** 2 * (hi - lo + 1))


def _any_hole(req: Request) -> bool:
    return bool(re.search(_HOLE, req.surface))


def _day_month(req: Request, day: str | None, month: int | None, year: int) -> tuple[int, int]:
    """Visible day/month are kept on placeholders, replaced on written-out dates."""
    keep = _any_hole(req)
    m = month if (keep and month) else req.rng.randint(1, 12)
    last = calendar.monthrange(year, m)[1]
    d = (
        int(day)
        if (keep and day and day.isdigit() and int(day) <= last)
        else req.rng.randint(1, last)
    )
    return d, m


def _fmt(value: int, shown: str) -> str:
    """Zero-pad like the placeholder ("xx", "03") unless it shows one digit."""
    return f"{value:02d}" if len(shown) >= 2 or shown in ("…",) else str(value)


def generate_date(req: Request, birth: bool = False) -> str:
    surface = " ".join(req.surface.split())
    if (m := _NUMERIC_RE.match(surface)) is not None:
        shown_y = m.group("y")
        year = _year(req, None if _is_hole(shown_y) else shown_y, birth)
        month = None if _is_hole(m.group("m")) else int(m.group("m"))
        day, month = _day_month(req, m.group("d"), month, year)
        y_text = str(year) if len(shown_y) != 2 else f"{year % 100:02d}"
        return (
            f"{_fmt(day, m.group('d'))}.{m.group('s1')}{_fmt(month, m.group('m'))}."
            f"{m.group('s2')}{y_text}"
        )
    if (m := _YEAR_ONLY_HOLE_RE.match(surface)) is not None:
        year = int(m.group("y"))
        day, month = _day_month(req, None, None, year)
        if "…" in surface or " " in surface:
            return f"{day}. {MONTHS[month - 1]} {year}"
        return f"{day:02d}.{month:02d}.{year}"
    if (m := _TEXTUAL_RE.match(surface)) is not None and (
        _is_hole(m.group("m")) or m.group("m").casefold() in _MONTH_INDEX
    ):
        shown_y = m.group("y")
        year = _year(req, None if _is_hole(shown_y) else shown_y, birth)
        month = None if _is_hole(m.group("m")) else _MONTH_INDEX[m.group("m").casefold()]
        day, month = _day_month(req, m.group("d"), month, year)
        day_text = f"{day}. " if m.group("d") is not None else ""
        return f"{day_text}{MONTHS[month - 1]} {year}"
    if re.fullmatch(r"\d{4}|[xX]{4}", surface):
        return str(_year(req, None, birth))
    # Nothing recognizable: the most common format of German decisions.
    year = _year(req, None, birth)
    day, month = _day_month(req, None, None, year)
    return f"{day:02d}.{month:02d}.{year}"


def generate_birth_date(req: Request) -> str:
    return generate_date(req, birth=True)
