"""Grammatical gender of the person a placeholder stands for, read from its surroundings.

German marks it right before the name: "Herr"/"Frau", "Zeuge"/"Zeugin", "-er"/"-erin" role
nouns, and nominalized adjectives whose article decides ("der Beklagte" is a man, "die
Beklagte" and "der Beklagten" a woman). Only the words directly before the name count
(titles skipped), because a role word further back usually belongs to someone else
("der Zeuge M. habe mit K. ..."). Possessives and pronouns ("seine", "ihre", "er") refer
to the possessor, so they are read only right after the name and only when nothing
precedes it: "Frau A. und ihre Tochter", "K. gab an, er habe ...".
"""

from __future__ import annotations

import re

from deid.rewrite.surrogates.gazetteers import FEMALE, MALE

_WORD_RE = re.compile(r"[\w.\-]+")
_SKIP = {
    "dr.", "prof.", "med.", "dent.", "jur.", "rer.", "nat.", "phil.", "habil.", "dipl.-ing.",
    "dipl.", "ing.", "h.c.", "von", "vom", "zu", "van", "de", "v.", "i.g.", "a.d.", "d.r.",
}  # fmt: skip
_FEMALE_WORDS = {
    "frau", "fr.", "zeugin", "mutter", "tochter", "schwester", "ehefrau", "witwe", "tante",
    "nichte", "enkelin", "großmutter", "oma", "gattin", "dame", "freundin", "cousine",
    "schwiegermutter", "schwiegertochter", "stieftochter", "stiefmutter", "braut",
}  # fmt: skip
_MALE_WORDS = {
    "herr", "herrn", "hr.", "hrn.", "zeuge", "zeugen", "vater", "sohn", "bruder", "ehemann",
    "witwer", "onkel", "neffe", "neffen", "enkel", "großvater", "opa", "gatte", "gatten",
    "freund", "cousin", "schwiegervater", "schwiegersohn", "stiefsohn", "stiefvater",
    "kollege", "kollegen", "arzt", "anwalt", "rechtsanwalt", "staatsanwalt", "patentanwalt",
    "notar", "beamter", "bräutigam", "lebensgefährte", "lebensgefährten", "junge", "mann",
}  # fmt: skip
# Words with a role-noun ending that name no person.
_NOT_PERSON = {
    "september", "oktober", "november", "dezember", "meter", "liter", "register", "semester",
    "kalender", "center", "theater", "zimmer", "keller", "fenster", "computer", "sektor",
    "faktor", "motor", "monitor", "kataster", "ufer", "wasser", "muster", "filter", "wert",
    "kontext", "moment", "dokument", "argument", "element", "segment", "prozent", "instrument",
}  # fmt: skip
# Female role nouns: "Klägerin", "Ärztin", "Rechtsanwältin", "Beamtin", "Kollegin".
_FEMALE_SUFFIX_RE = re.compile(
    r"(?:erin|orin|örin|ärin|entin|antin|istin|eurin|ärztin|anwältin|beamtin|kollegin|"
    r"notarin|zeugin|göttin|ktin|otin|eutin)$"
)
# Male role nouns: "Kläger", "Antragsteller", "Referent", "Praktikant", "Journalist".
_MALE_SUFFIX_RE = re.compile(
    r"(?:[^aeiouä]er|or|ör|ent|ant|ist|eur|ärzt|anwalt|kapitän|oberst|major|hauptmann|leutnant"
    r"|feldwebel|general|admiral|bootsmann)s?$"
)
# Nominalized adjectives/participles: gender comes from ending and article.
_ADJ_STEMS = (
    "beklagt", "angeklagt", "betroffen", "beigeladen", "verstorben", "geschädigt",
    "beschuldigt", "verletzt", "sachverständig", "vorsitzend", "bevollmächtigt", "beteiligt",
    "verurteilt", "angestellt", "beauftragt", "abgeordnet", "verlobt", "verwandt", "bekannt",
    "erkrankt", "versichert", "berechtigt", "auszubildend", "studierend", "verdächtig",
    "streitverkündet", "geladen", "gesellschaft", "behindert", "vertriebene", "begünstigt",
)  # fmt: skip
_ADJ_RE = re.compile(rf"(?:{'|'.join(_ADJ_STEMS)})(e|en|er|em)$")
_AFTER_RE = re.compile(
    r"^[^.;:!?]{0,60}?\b(?:(?P<m>er|ihm|sein|seine|seiner|seinem|seinen|seines)"
    r"|(?P<f>ihre|ihrer|ihrem|ihren|ihres))\b"
)
_LOOKBACK = 1  # only the word right before the name (titles skipped) carries the cue


def _adjective_gender(ending: str, article: str | None) -> str | None:
    """Gender of a nominalized adjective from its ending and the article before it."""
    if ending == "er":
        return FEMALE if article in ("der", "einer") else MALE  # "Beklagter", "ein Beklagter"
    if ending == "e":
        if article in ("die", "eine", "diese"):
            return FEMALE
        if article in ("der", "dieser"):
            return MALE
        return None
    if ending in ("en", "em"):
        if article in ("des", "dem", "den", "einem", "einen", "eines", "diesem", "diesen"):
            return MALE
        if article in ("der", "einer", "dieser"):
            return FEMALE
    return None


def _word_gender(word: str, article: str | None) -> str | None:
    low = word.casefold()
    if low in _FEMALE_WORDS:
        return FEMALE
    if low in _MALE_WORDS:
        return MALE
    adj = _ADJ_RE.search(low)
    if adj and word[:1].isupper():
        return _adjective_gender(adj.group(1), article.casefold() if article else None)
    if not word[:1].isupper() or len(word) < 4 or low in _NOT_PERSON:
        return None
    if _FEMALE_SUFFIX_RE.search(low):
        return FEMALE
    if _MALE_SUFFIX_RE.search(low):
        return MALE
    return None


def _cue(context: str) -> tuple[str | None, int]:
    """The gender cue before the name and how many words lie between (-1: none)."""
    words = _WORD_RE.findall(context[-80:])
    seen = 0
    for i in range(len(words) - 1, -1, -1):
        word = words[i]
        if word.casefold() in _SKIP or word.rstrip(".").isdigit():  # "Klägerin zu 1."
            continue
        article = words[i - 1] if i > 0 else None
        gender = _word_gender(word.rstrip("."), article)
        if gender is None and word.endswith("."):
            gender = _word_gender(word, article)  # "Hr.", "Fr."
        if gender is not None:
            return gender, seen
        seen += 1
        if seen >= _LOOKBACK:
            break
    return None, -1


def infer_gender(context: str, after: str | None = None) -> str | None:
    """``"f"``, ``"m"`` or ``None`` for the person named right after ``context``."""
    gender, _ = _cue(context)
    if gender is None and after:
        m = _AFTER_RE.match(after)
        if m:
            return MALE if m.group("m") else FEMALE
    return gender


def after_salutation(context: str) -> bool:
    """The name follows a salutation or role directly ("Herr", "Zeugin", "der Kläger"),
    where German uses the surname alone."""
    gender, distance = _cue(context)
    return gender is not None and distance == 0
