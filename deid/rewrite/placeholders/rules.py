"""Context rules: is a candidate a placeholder, and of which type?

Each rule has a name that travels with the resulting span (``source="placeholder:<rule>"``)
so the error analysis can say which rule fired. Vetoes come first (abbreviations, outline
and law references, case numbers, omissions in quotes, real names with initials, letters
that designate a category: "Anlage K", "Vokal „E“"), then positive evidence (roles, legal
forms, places, syntax), then the kind's default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deid.rewrite.placeholders import cues as lx
from deid.rewrite.placeholders.candidates import Candidate
from deid.rewrite.placeholders.context import Window
from deid.schema import CONTACT, DATE, ID, LOCATION, MONEY, ORGANIZATION, OTHER, PERSON, STREET
from deid.words.vocab import STREET_SUFFIXES

_CAP_WORD = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]{2,}(?:-[A-ZÄÖÜ]?[a-zäöüß]+)*$")
_CAP_NOUN = re.compile(r"^[A-ZÄÖÜ][\wäöüß\-]*[a-zäöüß]$")
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*\.?$")
_OUTLINE_NEXT = re.compile(
    r"^\s(?:[IVX]{1,4}\.?(?=[\s,;)]|$)|[a-z]{1,2}\)|(?:[IVX\d.]+\s|[a-z]{1,3}\s){0,3}der Gründe|§)"
)
_CASE_REGISTER_NEXT = re.compile(r"^\s(?:[A-Z][A-Za-z]{0,5})\s\d+[/.]\d+")
# a hyphen glued to the next word ("X-Gruppe", "D. -Bausparvertrag"), not a dash (" - ")
_HYPHEN_WORD = re.compile(r"^\s?-([A-ZÄÖÜa-zäöü][\w.]*)")
_TITLES = frozenset("Dr. Prof. Dres. Dipl.-Ing. Dipl.-Kfm. med. jur. rer. nat. pol.".split())
_PARTICLES = frozenset("von van de zu".split())
_MONTH_OR_YEAR = re.compile(
    r"^\s?(?:\d{4}\b|[.,;)]|$|(?:Januar|Februar|März|April|Mai|Juni|Juli|August|September|"
    r"Oktober|November|Dezember)\b|und\b|bis\b)"
)
_LOWER_ABBREV = re.compile(r"^[a-zäöü]\.$")
_LAW_ABBREV = re.compile(r"^(?=.*[A-ZÄÖÜ].*[A-ZÄÖÜ])[A-ZÄÖÜ][\wäöü]*(?:VO|G|O|V|B|StV)$")
_OUTLINE_PREV = frozenset({"unter", "dazu", "oben", "unten", "siehe", "vgl.", "Gliederungspunkt"})
_CONNECTORS = frozenset(
    "und oder sowie bzw. dass daß weil ob wenn als da nachdem sodass so wie aber denn ehe "
    "bevor während sobald solange zumal indem obwohl damit".split()
)


@dataclass(frozen=True)
class Verdict:
    accept: bool
    rule: str
    label: str = OTHER
    strong_type: bool = False  # type from direct evidence (role, legal form), not a default


def reject(rule: str) -> Verdict:
    return Verdict(False, rule)


# --- evidence helpers ------------------------------------------------------------------


def is_role(word: str) -> bool:
    return word in lx.PERSON_ROLES or bool(lx.PERSON_ROLE_STEM.search(word))


_RANK_SUFFIXES = re.compile(r"(?:\s(?:a\.\s?D\.|d\.\s?R\.|i\.\s?G\.|a\.D\.|d\.R\.|i\.G\.))+\s*$")


def role_before(w: Window) -> str | None:
    """The person role word right before the candidate, skipping titles ("Herrn Dr. von")
    and rank suffixes ("Oberstleutnant a. D. K.")."""
    before = w.before
    m = _RANK_SUFFIXES.search(w.raw_before(30))
    if m:
        cut = w.start - (len(w.raw_before(30)) - m.start())
        before = [b for b in before if b.end <= cut]
    for word in before[:4]:
        if any(c in word.sep for c in ".;:)\n") and word.text not in _TITLES:
            return None
        if word.text in _TITLES or word.text in _PARTICLES:
            continue
        return word.text if is_role(word.text) else None
    return None


def _legal_form_after_next_word(w: Window) -> bool:
    """"V. Fleisch GmbH & Co. KG": one name word between the placeholder and a legal form."""
    m = re.match(r"^\s[A-ZÄÖÜ][\wäöüß\-]+", w.raw_after(60))
    return bool(m) and bool(lx.LEGAL_FORM_AFTER.match(w.raw_after(80)[m.end() :]))


def title_before(w: Window) -> bool:
    """"Dr. K.", "Prof. Dr. von M.": an academic title (particles only after a title)."""
    for word in w.before[:3]:
        if word.sep.strip():
            return False
        if word.text in _TITLES:
            return True
        if word.text not in _PARTICLES:
            return False
    return False


def legal_form_after(w: Window) -> bool:
    after = w.raw_after(80)
    if lx.LEGAL_FORM_AFTER.match(after) or lx.ORG_HEAD_AFTER.match(after):
        return True
    return bool(re.match(r"^-\s?(?:B\.\s?V\.|N\.\s?V\.|S\.\s?A\.)", after))


def hyphen_suffix(w: Window) -> str | None:
    m = _HYPHEN_WORD.match(w.raw_after(40))
    return m.group(1).rstrip(".,;:") if m else None


def _cue_word(w: Window) -> str:
    """The word right before the candidate if nothing separates them, else ''."""
    if not w.before or w.before[0].sep.strip():
        return ""
    return w.before[0].text


def location_cue_before(w: Window) -> bool:
    word = _cue_word(w)
    if not word:
        return False
    if word == "Raum":
        return w.prev(1) == "im"
    if word == "von" and w.prev(1) in ("Grundbuch", "Gemarkung", "Stadt", "Gemeinde", "Landkreis"):
        return True
    return (
        word in lx.LOCATION_CUES
        or word in lx.LOCATION_PREPS
        or (word[0].isupper() and bool(lx.INSTITUTION_NOUN.search(word)) and word not in lx.ORG_CUES)
    )


def org_cue_before(w: Window) -> bool:
    word = _cue_word(w)
    return bool(word) and word in lx.ORG_CUES


def category_before(w: Window) -> bool:
    return bool(w.before) and w.before[0].text in lx.CATEGORY_BEFORE and w.prev() != "Raum"


# A street word standing alone after a placeholder ("K. Weg"); "strasse" and "damm" were
# never in this rule and would change what it accepts.
_BARE_STREET_WORDS = frozenset(STREET_SUFFIXES) - {"strasse", "damm"}


def street_after(w: Window) -> bool:
    nxt = w.next()
    return bool(nxt) and bool(lx.STREET_WORD.search(nxt.lstrip("-"))) and len(nxt) <= 14 and (
        nxt[0].islower() or nxt.lstrip("-")[:1].isupper() and "traße" in nxt or nxt.startswith("-")
        or nxt.lstrip("-").lower() in _BARE_STREET_WORDS
    )


def noun_designation(w: Window) -> bool:
    """"Teil B", "Vokal „E“", "Arbeitslosengeld I": a capitalized noun right before the
    letter names a category, unless the noun is a role, title or an organization/place cue."""
    word = _cue_word(w)
    if not word or not _CAP_NOUN.match(word) or word in lx.SENTENCE_STARTERS:
        return False
    if is_role(word) or word in _TITLES or word in lx.ORG_CUES or word in lx.LOCATION_CUES:
        return False
    if lx.INSTITUTION_NOUN.search(word) or word in lx.LOCATION_PREPS:
        return False
    return True


_JUDGE_ROLES = frozenset("Richter Richterin Richters Vorsitzende Vorsitzender Vorsitzenden Präsident Präsidentin Vizepräsident Vizepräsidentin".split())


def lowercase_words() -> frozenset[str]:
    from deid.words.vocabulary import lowercase_words as words

    return words()


def real_name_after(w: Window) -> bool:
    """Initial followed by a surname-like word: a real, abbreviated name ("M. Rennpferdt").
    After a role or a place/organization cue the next capitalized word is ordinary text
    ("der Zeuge K. Vorhalte", "in L. Dienst", "VEB H. Frankfurt")."""
    if not w.after or w.after[0].sep.strip() or not w.raw_after(1).isspace():
        return False  # "von A., Blatt …": punctuation ends the name
    if _legal_form_after_next_word(w):
        return False
    role = role_before(w)
    if role and role not in _JUDGE_ROLES:
        return False
    if location_cue_before(w) or org_cue_before(w):
        return False
    nxt = w.after[0].text.split("/")[0].rstrip(".,")
    if not _CAP_WORD.match(nxt):
        return False
    if nxt in lx.SENTENCE_STARTERS or nxt in lx.LEGAL_FORMS or nxt in lx.ORG_CUES:
        return False
    if lx.STREET_WORD.search(nxt) or lx.ORG_SUFFIX.match(nxt) or is_role(nxt):
        return False
    if lx.INSTITUTION_NOUN.search(nxt):
        return False  # "die F. Moschee", "der E. Hochschule"
    if nxt.lower() in lowercase_words():
        return False  # a sentence starting after "… und S. Triftige Gründe …"
    return True


def author_citation(w: Window) -> bool:
    """"Rosen, R. C., et al.", "Kuemmerle, H. - P. (Hrsg.)": initials of a cited author."""
    after = w.raw_after(30)
    if re.match(r"^[\s,]*(?:[A-Z]\.\s?)*(?:,\s)?(?:et al|\(Hrsg|u\. a\.,)", after):
        return True
    prev = w.prev()
    if (
        w.before
        and not w.prev_sep().strip()
        and _CAP_WORD.match(prev)
        and not (is_role(prev) or prev in lx.SENTENCE_STARTERS or prev in lx.LOCATION_CUES)
        and not (prev in lx.ORG_CUES or lx.INSTITUTION_NOUN.search(prev))
        and re.match(r"^\s(?:in|u\.|/)\s", after)
    ):
        return True  # "Claßen A. in Lademann"
    if w.before and w.before[0].sep.startswith(",") and _CAP_WORD.match(w.prev()):
        if not is_role(w.prev()) and re.match(r"^(?:\s?[A-Z]\.)*\s?[,;]", after):
            return True
    return False


def in_case_number(w: Window) -> bool:
    """"1 F 260/23", "BVerwG 3 B 6.24", "V ZR 200/14", "IV R 24/21", "C- 132/91"."""
    before = w.raw_before(12)
    after = w.raw_after(16)
    if re.search(r"\d[a-z]?\s$", before) and re.match(r"^\s\d", after):
        return True
    if _CASE_REGISTER_NEXT.match(after) or re.match(r"^-\s?\d", after):
        return True
    if re.match(r"^\s\(pat\)|^\s\((?:EP|EU)\)", after):
        return True
    return bool(re.search(r"\d+/\d+\s\(?$", before))


def number_before(w: Window) -> bool:
    return bool(w.before) and not w.before[0].sep.strip() and bool(_NUMBER.match(w.prev()))


_ROAD_CONTEXT = re.compile(r"km/h|[Ss]traße|Fahrtrichtung|Autobahn|Kreuzung|Fahrbahn|Ausfahrt|Abfahrt")
_UNIT_AFTER = re.compile(r"^\s(?:km|m|qm|m²|ha|kg|t|Stunden|Std\.|Minuten|Jahre|Monate|Tage|%|Prozent|Mal)\b")


def infer_type(w: Window, cand: Candidate) -> tuple[str, bool, str]:
    """Type of an accepted placeholder from its context: (label, strong, rule)."""
    after = w.raw_after(80)
    if _UNIT_AFTER.match(after):
        return OTHER, True, "quantity"  # "rund X km", "mindestens Y Stunden"
    if lx.MONEY_AFTER.match(after):
        return MONEY, True, "money"
    if street_after(w) or cand.kind == "street_fused":
        return STREET, True, "street"
    suffix = hyphen_suffix(w)
    if suffix:
        if lx.STREET_WORD.search(suffix):
            return STREET, True, "street"
        if lx.ORG_SUFFIX.match(suffix):
            return ORGANIZATION, True, "org-suffix"
        if suffix.startswith(("Stadt", "Dorf", "Kreis", "Land")) or suffix.lower().startswith("kreis"):
            return LOCATION, True, "loc-suffix"
        if lx.INSTITUTION_NOUN.search(suffix):
            return ORGANIZATION, True, "institution-suffix"
    if legal_form_after(w) or _legal_form_after_next_word(w):
        return ORGANIZATION, True, "legal-form"
    if lx.LOCATION_HEAD_AFTER.match(after):
        return LOCATION, True, "loc-head"
    if role_before(w):
        return PERSON, True, "role"
    if title_before(w):
        return PERSON, True, "title"
    if org_cue_before(w):
        return ORGANIZATION, True, "org-cue"
    if location_cue_before(w):
        return LOCATION, True, "location-cue"
    before = w.raw_before(40)
    if lx.ID_CUES.search(before):
        return ID, True, "id-cue"
    if lx.MONEY_BEFORE.search(before):
        return MONEY, True, "money"
    if lx.DATE_BEFORE.search(before) and _MONTH_OR_YEAR.match(after):
        return DATE, True, "date-cue"
    if cand.kind == "ellipsis":
        return OTHER, False, "default"
    return PERSON, False, "default"


# --- the decisions per candidate kind ----------------------------------------------------


def judge(cand: Candidate, w: Window) -> Verdict:
    if cand.kind == "date_xrun":
        return Verdict(True, "date-xrun", DATE, True)
    if cand.kind == "url_email":
        return Verdict(True, "url-email", CONTACT, True)
    if cand.kind == "street_fused":
        return Verdict(True, "street-fused", STREET, True)
    if cand.kind == "numbered":
        label = ORGANIZATION if w.surface.startswith("Firma") else LOCATION
        return Verdict(True, "numbered", label, True)
    if cand.kind == "xrun":
        return _accept(cand, w, "xrun")
    if cand.kind == "ellipsis":
        return _judge_ellipsis(cand, w)
    if cand.kind == "initials":
        return _judge_initials(cand, w)
    if cand.kind == "letter":
        return _judge_letter(cand, w)
    if cand.kind == "lower":
        return Verdict(True, "lower-legal-form", ORGANIZATION, True)
    if cand.kind == "zero_number":
        return reject("zero-number")  # accepted only in a list after a street (detector)
    return reject("unknown-kind")


def _accept(cand: Candidate, w: Window, rule: str) -> Verdict:
    label, strong, type_rule = infer_type(w, cand)
    return Verdict(True, f"{rule}/{type_rule}", label, strong)


def _judge_ellipsis(cand: Candidate, w: Window) -> Verdict:
    before1 = w.text[cand.start - 1 : cand.start] if cand.start else ""
    after1 = w.text[cand.end : cand.end + 1]
    if cand.obvious:  # attached to a letter or suffix: "…straße", "S…", "a…"
        return _accept(cand, w, "ellipsis-affix")
    if re.match(r"^,\d\d\s?(?:€|EUR|Euro)", w.raw_after(10)):
        return Verdict(True, "ellipsis-amount", MONEY, True)  # "von…,00 EUR"
    if _quoted_ellipses(w):
        return _accept(cand, w, "ellipsis-quoted")  # thesis: ellipsis in quotes ('"…"')
    if re.search(r"[\wäöüß]{2}$", w.raw_before(2)):
        if re.search(r"(?:\bam|\bvom)$", w.raw_before(4)) and re.match(r"^\s?\d{4}\b", w.raw_after(6)):
            return Verdict(True, "ellipsis-date", DATE, True)  # "am... 1943"
        if re.search(r"\w-$", w.raw_before(2)):
            return _accept(cand, w, "ellipsis-compound")  # "„Auto- … …“"
        return reject("omission-fused")  # "hiermit…", "Beklagten…": a truncated quote
    if re.search(r"\w-\s$", w.raw_before(3)):
        return _accept(cand, w, "ellipsis-compound")  # "„Auto- … …“"
    if (
        re.search(r"[.;:!?]\s*$", w.raw_before(3))
        and re.match(r"^\s*(?:[A-ZÄÖÜ\d§\[(]|$)", w.raw_after(3))
        and not lx.ID_CUES.search(w.raw_before(30))
        and not re.search(r"\b[A-ZÄÖÜa-zäöü][\wäöü]{0,4}\.\s*$", w.raw_before(8))  # "FlNr. …"
    ):
        return reject("omission-between-sentences")  # "… des Monatsentgeltes. … 3. Pausen"
    if before1 in "([" and after1 in ")]" and before1 and after1:
        return reject("omission-brackets")
    if w.line_alone:
        return reject("omission-line")
    if re.search(r"\d[,;]?\s?$", w.raw_before(3)) and re.match(r"^[,;]?\s?\d", w.raw_after(3)):
        return reject("range")
    evidence = (
        role_before(w)
        or title_before(w)
        or legal_form_after(w)
        or street_after(w)
        or lx.MONEY_AFTER.match(w.raw_after(10))
        or _placeholder_neighbour(w)
        or location_cue_before(w)
        or org_cue_before(w)
        or lx.ID_CUES.search(w.raw_before(30))
    )
    if w.surface == "*" and not (evidence or re.match(r"^[a-zäöü]", w.raw_after(1))):
        return reject("asterisk-without-evidence")  # footnote marks, bullets, "8*"
    if w.in_quote and not evidence:
        return reject("omission-quote")
    quote_edge = before1 in "„\"“‚»" or after1 in "“\"”‘«"
    if quote_edge and not (
        role_before(w) or title_before(w) or _placeholder_neighbour(w) or location_cue_before(w)
        or lx.ID_CUES.search(w.raw_before(30))  # "„Bescheid mit Zeichen …“"
    ):
        return reject("omission-quote-edge")
    if w.raw_after(6).lstrip().startswith(("usw", "etc")):
        return reject("omission-etc")
    return _accept(cand, w, "ellipsis")


def _quoted_ellipses(w: Window) -> bool:
    """'„…“', '„… … …“': only ellipses (and spaces) between quotes."""
    left = w.text[max(0, w.start - 12) : w.start]
    right = w.text[w.end : w.end + 12]
    lm = re.search(r"[„\"“‚»](?:\s*(?:…|\.{3,5}))*\s*$", left)
    rm = re.match(r"^(?:\s*(?:…|\.{3,5}))*\s*[“\"”‘«]", right)
    return bool(lm and rm)


def _placeholder_neighbour(w: Window) -> bool:
    """A single letter/initial right before ("S …", "M B …") belongs to the same placeholder."""
    prev = w.prev()
    if re.fullmatch(r"[A-Z]{2,3}", prev) and _LAW_ABBREV.match(prev):
        return False  # "der ZPO …" is a law, not a road code
    return bool(w.before) and not w.prev_sep().strip() and bool(
        re.fullmatch(r"[A-ZÄÖÜ]\d?\.?|[A-ZÄÖÜ][a-zäöü]?\.|[A-Z]{2,3}", prev)  # "S …", "ST ..."
    )


def _judge_initials(cand: Candidate, w: Window) -> Verdict:
    surface = w.surface
    units = re.findall(r"[A-ZÄÖÜ][a-zäöüß]{0,2}\.?", surface)
    single_letters = [u for u in units if len(u.rstrip(".")) == 1]
    role = role_before(w)
    suffix = hyphen_suffix(w)
    if suffix and not (
        lx.STREET_WORD.search(suffix) or lx.ORG_SUFFIX.match(suffix) or lx.INSTITUTION_NOUN.search(suffix)
    ):
        return reject("compound")  # "C.I.L.F.I.T.-Doktrin", "U.S.-Dollar"
    if len(units) == 1 and surface in lx.COMMON_SHORT_ABBREVIATIONS:
        return reject("abbreviation")
    if len(w.before) > 1 and re.fullmatch(r"[a-z]", w.prev()) and re.fullmatch(r"\d+", w.prev(1)):
        return reject("exhibit")  # "Anlage K 1 g U."
    if ELLIPSIS_AFTER.match(w.raw_after(5)) and len(units) <= 2:
        return _accept(cand, w, "initials-ellipsis")  # "L. ...", "Ch. ..."
    if not single_letters and not role and not title_before(w):
        if len(units) == 1 and _syntactic_slot(w) and not w.line_start:
            return _accept(cand, w, "short-form-syntax")  # "Immer wieder drang St. hierbei"
        return reject("short-form-without-role")
    if len(units) >= 3 and " " not in surface:
        return reject("acronym")
    if w.before and _LOWER_ABBREV.match(w.prev()) and not w.prev_sep().strip():
        return reject("abbreviation-sequence")  # "i. S.", "d. A.", "a. F."
    if w.after and _LOWER_ABBREV.match(w.next()) and not w.next_sep().strip() and not role:
        return reject("abbreviation-sequence")  # "D. h.", "L. u. P."
    named_building = surface.endswith(".") and w.prev() in lx.BUILDING_CATEGORIES  # Gebäude „D.“
    if _quoted_initial(w) and (named_building or not category_before(w)) and w.prev() not in _OUTLINE_PREV:
        return _accept(cand, w, "initials-quoted")  # thesis: letters in quotes ('"A."')
    if w.prev() in ("und", "oder", "sowie", "bzw.") and len(w.before) > 1 and re.fullmatch(r"[A-Z]{1,2}\d?", w.before[1].text):
        return reject("code-list")  # "Fahrerlaubnis der Klassen A, B, C1 und L."
    if re.match(r"^[ \t]?\d", w.raw_after(3)) and (
        surface == "S." or not (role or location_cue_before(w))
    ):
        return reject("number-follows")
    if w.raw_after(1) == ")" and w.line_start:
        return reject("outline")
    if number_before(w) and not role:
        return reject("number-before")
    if category_before(w) and not role:
        return reject("category")
    if w.prev() in _OUTLINE_PREV or (
        _OUTLINE_NEXT.match(w.raw_after(8)) and not (location_cue_before(w) or org_cue_before(w) or role)
    ):
        return reject("outline")  # but "Staatsanwaltschaft M. I" is a place
    if w.raw_after(1) == "/" and re.match(r"^/[A-ZÄÖÜ][a-zäöü]", w.raw_after(3)):
        return reject("case-name")  # "G. R./Niederlande", "X./Germany"
    if lx.OUTLINE_ROMAN.match(units[-1].rstrip(".")) and re.match(r"^,\s\d", w.raw_after(4)):
        return reject("outline")  # "(I., 1. der Beschwerdebegründung)"

    if _LAW_ABBREV.match(_cue_word(w)) and not role and not (org_cue_before(w) or location_cue_before(w)):
        return reject("law-abbreviation")
    if lx.OUTLINE_ROMAN.match(units[-1].rstrip(".")) and (w.line_start or w.prev() == "zu" or noun_designation(w)):
        return reject("roman-outline")  # "B. I. Die …", "Beschwerdeführer zu I."
    if len(single_letters) == len(units) <= 2 and w.line_start and not role:
        nxt = w.next()
        if nxt and (nxt[0].isupper() or nxt[0].isdigit() or nxt[0] in "(„\""):
            return reject("enumeration")
    if real_name_after(w):
        return reject("real-name")
    if author_citation(w):
        return reject("author")
    if in_case_number(w):
        return reject("case-number")
    return _accept(cand, w, "initials")


def _quoted_initial(w: Window) -> bool:
    """'„X.“', '"A."': an initial wrapped in quotes (a space inside the quotes allowed)."""
    before = w.text[max(0, w.start - 2) : w.start].rstrip(" ")
    after = w.text[w.end : w.end + 2].lstrip(" ")
    return bool(before) and before[-1] in "„\"“‚»" and bool(after) and after[0] in "“\"”‘«"


def _judge_letter(cand: Candidate, w: Window) -> Verdict:
    surface = w.surface
    has_digit = any(ch.isdigit() for ch in surface)
    after = w.raw_after(40)
    role = role_before(w)
    suffix = hyphen_suffix(w)
    # hard vetoes: numbers, case numbers, outlines
    if has_digit:
        if ELLIPSIS_AFTER.match(after) or role:
            return _accept(cand, w, "letter-digit")
        return reject("letter-digit")
    if re.match(r"^-\s?\d", after):
        return reject("case-number")
    if suffix:
        raw_suffix = _HYPHEN_WORD.match(after).group(1)  # type: ignore[union-attr]
        if lx.STREET_WORD.search(suffix) or lx.STREET_WORD.search(raw_suffix) or lx.ORG_SUFFIX.match(
            suffix
        ) or suffix.startswith(("Stadt", "Dorf", "Kreis", "Land")):
            return _accept(cand, w, "letter-compound")
        if legal_form_after(w):
            return _accept(cand, w, "letter-legal-form")
        return reject("hyphen-compound")
    if re.match(r"^[ \t]?\d", after):
        return reject("number-follows")
    if number_before(w):
        return reject("number-before")
    if in_case_number(w):
        return reject("case-number")
    if category_before(w):
        return reject("category")
    if _OUTLINE_NEXT.match(after):
        return reject("outline")
    if re.match(r"^\s\(\w+\)\s\d", after) or re.match(r"^:\s?\d", after):
        return reject("case-number")  # "29 W (pat) 34/12", "EU: C: 2013: 612"
    if after.startswith(")") and (w.line_start or w.prev() in _OUTLINE_PREV):
        return reject("outline")  # "A) Dem Anmeldezeichen …", "unter C)."
    if lx.ROMAN.match(surface) and w.prev() in ("bis", "und", "oder") and len(w.before) > 1 and lx.ROMAN.match(w.prev(1)):
        return reject("roman-list")  # "Tiefbrunnen I bis V"
    if re.match(r"^\s(?:bezeichne|genannt|markiert|gekennzeichne)", after):
        return reject("designation")
    if re.match(r"^\s?/\s?[A-ZÄÖÜ](?![\w])", after):
        return reject("citation-authors")  # "Krämer in D / P / M"
    if lx.ROMAN.match(surface) and w.prev() in ("SGB", "Teil", "Buch", "Abschnitt", "BStBl", "BGBl.", "Band", "zu"):
        return reject("roman")  # "SGB X", "Klageantrag zu I"
    if re.search(r"(?:Bundes|Staats|Kreis|Land)straße\s$|Autobahn\s$|Bundesautobahn\s$", w.raw_before(20)):
        return reject("road-class")  # "Bundesstraße B ...": the number is the placeholder
    if surface in ("A", "B", "K", "L") and ELLIPSIS_AFTER.match(after) and _ROAD_CONTEXT.search(w.raw_before(120)):
        return reject("road-class")  # "120 km/h auf der B ...": the road number is the placeholder
    # strong positive evidence
    if ELLIPSIS_AFTER.match(after):
        return _accept(cand, w, "letter-ellipsis")
    if role:
        return _accept(cand, w, "letter-role")
    if title_before(w):
        return _accept(cand, w, "letter-title")
    if legal_form_after(w) or _institution_after(w):
        return _accept(cand, w, "letter-legal-form")
    if street_after(w):
        return _accept(cand, w, "letter-street")
    if _letter_sequence_before_legal_form(w):
        return _accept(cand, w, "letter-sequence")
    # soft vetoes
    if _in_letter_list(w):
        return reject("letter-list")
    if len(w.before) > 1 and re.fullmatch(r"[a-z]", w.prev()) and re.fullmatch(r"\d+", w.prev(1)):
        return reject("exhibit")  # "Anlage K 1 f U"
    if w.prev() in ("und", "oder", "sowie", "bzw.") and len(w.before) > 1 and re.fullmatch(r"[A-Z]{1,2}\d?", w.before[1].text):
        return reject("code-list")  # "Klassen A2, AM sowie L"
    if re.fullmatch(r"[A-ZÄÖÜ]{2,}", _cue_word(w)) and not location_cue_before(w) and not org_cue_before(w):
        return reject("acronym-designation")  # "MTV H", "BAT I"
    if noun_designation(w):
        return reject("noun-designation")
    if _quoted_alone(w):
        if w.prev() in lx.ARTICLES or is_role(w.prev()) or org_cue_before(w):
            return _accept(cand, w, "letter-quoted")
        return reject("quoted-letter")
    if location_cue_before(w):
        return _accept(cand, w, "letter-location")
    if org_cue_before(w):
        return _accept(cand, w, "letter-org")
    if _coordinated_with_letter(w):
        return _accept(cand, w, "letter-coordinated")
    if _syntactic_slot(w):
        return _accept(cand, w, "letter-syntax")
    return reject("letter-no-evidence")


def _institution_after(w: Window) -> bool:
    """"das M Seniorenzentrum", "die H Klinik": a letter naming an institution."""
    nxt = w.next()
    return bool(nxt) and nxt[:1].isupper() and not w.next_sep().strip() and bool(
        lx.INSTITUTION_NOUN.search(nxt)
    ) and nxt not in lx.SENTENCE_STARTERS


ELLIPSIS_AFTER = re.compile(r"^\s?(?:…|\.\.\.)")


def _letter_sequence_before_legal_form(w: Window) -> bool:
    """"D P T S GmbH": bare letters in a row up to a legal form."""
    m = re.match(r"^(?:\s[A-ZÄÖÜ](?![\w.]))+", w.raw_after(30))
    if not m:
        return False
    return bool(lx.LEGAL_FORM_AFTER.match(w.raw_after(80)[m.end() :]))


def _quoted_alone(w: Window) -> bool:
    b = w.text[w.start - 1 : w.start] if w.start else ""
    a = w.text[w.end : w.end + 1]
    return b in "„\"“‚»'" and a in "“\"”‘«'" and bool(b) and bool(a)


def _coordinated_with_letter(w: Window) -> bool:
    """"Herr S und K", "der Zeugen N. und W.": a letter coordinated with a role-introduced one."""
    if len(w.before) < 2 or w.prev() not in ("und", "oder", "sowie"):
        return False
    other = w.before[1].text
    if not re.fullmatch(r"[A-ZÄÖÜ]\.?", other):
        return False
    return any(is_role(t.text) for t in w.before[2:5])


def _in_letter_list(w: Window) -> bool:
    """"Blöcke B und C", "Influenzavirus A und B": a letter listed after another letter,
    unless a role introduced that one (handled by :func:`_coordinated_with_letter`)."""
    if len(w.before) < 2 or w.prev() not in ("und", "oder", "bzw.", "sowie"):
        return False
    return bool(re.fullmatch(r"[A-ZÄÖÜ]", w.before[1].text)) and not _coordinated_with_letter(w)


_DETERMINERS = frozenset("ein eine einen einem einer eines der die das den dem des sowie und mit".split())


def _syntactic_slot(w: Window) -> bool:
    """A letter used as a name in a sentence: after an article, preposition, connector, verb
    or at a sentence start, and before a verb or punctuation ("Dagegen erhob R am …",
    "dass S in Untersuchungshaft …", "E hat …", "der A,")."""
    after = w.raw_after(3)
    nxt = w.next()
    follows_ok = (not after) or after[0] in ",;:)" or (
        bool(nxt) and nxt[0].islower() and not w.next_sep().strip()
    )
    if not follows_ok:
        return False
    if w.line_start:
        return nxt not in _DETERMINERS
    if not w.before:
        return True
    prev, sep = w.prev(), w.prev_sep()
    if sep.strip(" ") and sep.strip(" ") not in (",",):
        return sep.strip(" ")[-1:] in ".!?:" and after[:1] != "."
    if prev in lx.ARTICLES or prev in _CONNECTORS or prev in lx.SENTENCE_STARTERS:
        return True
    return prev[:1].islower() and prev.isalpha()
