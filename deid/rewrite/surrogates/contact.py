"""Contact surrogates: German phone numbers that phonenumbers accepts as valid, e-mail
addresses and URLs built from pooled gazetteer names."""

from __future__ import annotations

import re
import unicodedata

import phonenumbers

from deid.rewrite.surrogates.checked_ids import random_digits
from deid.rewrite.surrogates.organization import TRADES
from deid.rewrite.surrogates.request import Request

# (area code without trunk 0, subscriber digits): large cities and a few rural codes.
AREA_CODES: tuple[tuple[str, int], ...] = (
    ("30", 8), ("40", 8), ("89", 8), ("221", 7), ("69", 8), ("711", 7), ("211", 7),
    ("231", 7), ("201", 7), ("421", 7), ("511", 7), ("341", 7), ("351", 7), ("911", 7),
    ("941", 6), ("821", 6), ("931", 6), ("851", 6), ("871", 6), ("761", 6), ("621", 6),
    ("721", 6), ("228", 6), ("251", 6), ("361", 6), ("391", 6), ("331", 6), ("381", 6),
    ("8131", 5), ("8141", 5), ("8161", 5), ("8031", 5), ("9131", 5), ("6131", 6), ("7121", 5),
)  # fmt: skip
MOBILE_PREFIXES: tuple[str, ...] = (
    "151", "152", "157", "159", "160", "162", "163", "170", "171", "172", "173", "174",
    "175", "176", "177", "178", "179",
)  # fmt: skip
MAIL_PROVIDERS: tuple[str, ...] = (
    "web.de", "gmx.de", "gmx.net", "t-online.de", "outlook.de", "posteo.de", "mail.de",
    "freenet.de", "online.de", "arcor.de",
)  # fmt: skip
_EMAIL_CONTEXT_RE = re.compile(r"E-?Mail|Mail-Adresse|elektronisch", re.IGNORECASE)
_URL_CONTEXT_RE = re.compile(r"Internet|Website|Webseite|Homepage|URL|Domain", re.IGNORECASE)


def _subscriber(req: Request, n: int) -> str:
    return random_digits(req.rng, n, first_nonzero=True)


def phone(req: Request) -> str:
    """A valid German landline or mobile number, formatted like the surface."""
    rng = req.rng
    surface = req.surface.strip()
    mobile = surface.startswith(("015", "016", "017", "+4915", "+4916", "+4917", "+49 15",
                                 "+49 16", "+49 17")) or (not surface and rng.random() < 0.35)  # fmt: skip
    for _ in range(20):
        if mobile:
            area = MOBILE_PREFIXES[int(rng.random() * len(MOBILE_PREFIXES))]
            number = _subscriber(req, 7 if area in ("160", "170", "171", "175") else 8)
        else:
            area, n = AREA_CODES[int(rng.random() * len(AREA_CODES))]
            number = _subscriber(req, n)
        parsed = phonenumbers.parse(f"+49{area}{number}", "DE")
        if phonenumbers.is_valid_number(parsed):
            break
    if surface.startswith(("+", "00")):
        return f"+49 {area} {number}"
    if "(" in surface:
        return f"(0{area}) {number}"
    sep = "/" if "/" in surface else ("-" if re.search(r"\d-\d", surface) else " ")
    return f"0{area}{sep}{number}"


def ascii_slug(text: str) -> str:
    """ "Müller-Lüdenscheidt" -> "mueller-luedenscheidt" (for addresses and domains)."""
    text = (
        text.casefold().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    )
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def email(req: Request) -> str:
    rng = req.rng
    gaz = req.gaz
    first = ascii_slug(gaz.first_names[rng.choice(("f", "m"))].sample(rng))
    last = ascii_slug(gaz.surnames.sample(rng))
    if rng.random() < 0.3:
        domain = f"{last}-{ascii_slug(TRADES[int(rng.random() * len(TRADES))])}.de"
        local = rng.choice(("info", "kontakt", "buero", first, f"{first[0]}.{last}"))
        return f"{local}@{domain}"
    local = rng.choice(
        (f"{first}.{last}", f"{first[0]}.{last}", f"{first}{last}", f"{last}.{first}")
    )
    if rng.random() < 0.25:
        local += str(rng.randint(1, 99))
    return f"{local}@{MAIL_PROVIDERS[int(rng.random() * len(MAIL_PROVIDERS))]}"


def url(req: Request) -> str:
    rng = req.rng
    name = ascii_slug(req.gaz.surnames.sample(rng))
    host = f"www.{name}-{ascii_slug(TRADES[int(rng.random() * len(TRADES))])}.de"
    if rng.random() < 0.5:
        host = f"www.{name}.de"
    surface = req.surface.strip()
    scheme = "https://" if surface.startswith("http") else ""
    path = (
        "/" + rng.choice(("kontakt", "impressum", "produkte", "angebot"))
        if "/" in surface.split("//")[-1]
        else ""
    )
    return f"{scheme}{host}{path}"


def generate_contact(req: Request) -> str:
    """E-mail, URL or phone number, whichever the surface or context asks for."""
    surface = req.surface.strip()
    if "@" in surface or (
        _EMAIL_CONTEXT_RE.search(req.context[-40:]) and not re.search(r"\d{3}", surface)
    ):
        return email(req)
    if surface.startswith(("http", "www")) or _URL_CONTEXT_RE.search(req.context[-40:]):
        return url(req)
    if re.search(r"\d", surface) or re.search(
        r"Tel|Fax|Telefon|Handy|Mobil|Ruf", req.context[-40:]
    ):
        return phone(req)
    return req.rng.choice((email, phone, url))(req)
