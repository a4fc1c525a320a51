"""Organization surrogates: company names that keep the shown initials and leave the legal
form to the text ("S … GmbH" -> "Schneider Bau GmbH", "A-GbR" -> "Albers-GbR")."""

from __future__ import annotations

import re

from deid.rewrite.surrogates.request import Request
from deid.rewrite.surrogates.surface import parse_name

# Trade words that follow a founder's name ("Griesmann Bau"); also fill further initials.
TRADES: tuple[str, ...] = (
    "Agrar", "Anlagenbau", "Automobile", "Bau", "Bauunternehmung", "Bedachungen", "Beratung",
    "Chemie", "Consulting", "Dachbau", "Dienstleistungen", "Druck", "Elektro", "Elektrotechnik",
    "Energie", "Entsorgung", "Fahrzeugbau", "Fensterbau", "Finanz", "Fliesen", "Gastronomie",
    "Gebäudereinigung", "Gebäudetechnik", "Handel", "Haustechnik", "Holzbau", "Immobilien",
    "Industriebau", "Informatik", "Kältetechnik", "Kommunikation", "Konstruktion", "Logistik",
    "Landtechnik", "Maschinenbau", "Medien", "Metallbau", "Montage", "Naturstein",
    "Nutzfahrzeuge", "Objektbau", "Optik", "Personal", "Pflege", "Planung", "Projektbau",
    "Recycling", "Reinigung", "Reisen", "Sanitär", "Service", "Software", "Spedition",
    "Stahlbau", "Systeme", "Technik", "Tiefbau", "Touristik", "Transporte", "Umwelttechnik",
    "Verwaltung", "Vertrieb", "Werbung", "Wohnbau", "Zahntechnik", "Zimmerei",
)  # fmt: skip
# How often a surrogate company gets each legal form (the words themselves: deid.words.vocab).
LEGAL_FORM_WEIGHTS: tuple[tuple[str, int], ...] = (
    ("GmbH", 50), ("GmbH & Co. KG", 12), ("AG", 8), ("KG", 6), ("GbR", 6), ("e.K.", 4),
    ("UG (haftungsbeschränkt)", 5), ("OHG", 3), ("e.V.", 3), ("eG", 2), ("SE", 1),
)  # fmt: skip
_LEGAL_FORM_RE = re.compile(
    r"(?:^|\s)(?:g?GmbH(?: & Co\. KG)?|AG(?: & Co\. KG)?|KGaA|KG|OHG|GbR|UG(?: \(haftungsbeschränkt\))?"
    r"|e\.\s?K\.|e\.\s?V\.|eG|SE|mbH|PartG(?:mbB)?|Ltd\.?|Inc\.?)$"
)
_FOLLOWING_FORM_RE = re.compile(
    r"^\s*-?\s*(?:g?GmbH|AG|KGaA|KG|OHG|GbR|UG|e\.\s?K\.|e\.\s?V\.|eG|SE|mbH|PartG|Ltd|Inc|&\s?Co)\b"
)
_COMPANY_CUE_RE = re.compile(
    r"\b(?:Firma|Fa\.|Unternehmen|Gesellschaft|Arbeitgeberin|Auftraggeberin|Auftragnehmerin"
    r"|Schuldnerin|Gläubigerin|Herstellerin|Betreiberin|Vermieterin|Komplementärin"
    r"|Vermögen der|Geschäftsführer(?:in)? der|Konzern)\s*$"
)


def legal_form(req: Request) -> str:
    total = sum(w for _, w in LEGAL_FORM_WEIGHTS)
    x = req.rng.random() * total
    for form, weight in LEGAL_FORM_WEIGHTS:
        x -= weight
        if x < 0:
            return form
    return LEGAL_FORM_WEIGHTS[0][0]


def _trade(req: Request, letter: str) -> str:
    matches = [t for t in TRADES if t.startswith(letter)] if letter else list(TRADES)
    if not matches:
        return req.gaz.surnames.sample_initial(req.rng, letter)
    return matches[int(req.rng.random() * len(matches))]


def _name(req: Request, letter: str, single_word: bool) -> str:
    """A company name starting with ``letter`` (any letter when empty)."""
    surname = req.gaz.surnames.sample_initial(req.rng, letter) if letter else None
    surname = surname or req.gaz.surnames.sample(req.rng)
    if single_word:
        return surname
    x = req.rng.random()
    if x < 0.3:
        return surname
    if x < 0.65:
        return f"{surname} {_trade(req, '')}"
    if x < 0.75:
        return f"{surname} & {req.gaz.surnames.sample(req.rng)}"
    companies = req.gaz.companies.unhyphenated
    if letter and len(companies.with_prefix(letter)) < 20:  # too few to keep the initial
        return f"{surname} {_trade(req, '')}"
    return companies.with_prefix(letter).sample(req.rng)


def generate_organization(req: Request) -> str:
    """Company name; initials kept, a legal form only where the text lacks one."""
    surface = parse_name(req.surface)
    own_form = _LEGAL_FORM_RE.search(req.surface.strip()) if not surface.is_placeholder else None
    initials = [p.letters[0] for p in surface.parts if p.kind == "initial"]
    # "A-GbR", "X-Gruppe", "…gruppe": the name is glued to what follows, so one word.
    single_word = bool(req.after and (req.after[0] == "-" or req.after[0].islower()))
    if len(initials) > 1:
        name = " ".join(
            [req.gaz.surnames.sample_initial(req.rng, initials[0])]
            + [_trade(req, letter) for letter in initials[1:]]
        )
    else:
        name = _name(req, initials[0] if initials else "", single_word)
    if own_form:
        return f"{name} {own_form.group(0).strip()}"
    form_follows = req.after is not None and _FOLLOWING_FORM_RE.match(req.after) is not None
    if not single_word and not form_follows and _COMPANY_CUE_RE.search(req.context):
        return f"{name} {legal_form(req)}"
    return name
