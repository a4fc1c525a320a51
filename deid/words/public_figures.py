"""Persons of public life named by their office or fame ("wonach Präsident Beji Caid Essebsi",
"unter dem derzeitigen Minister für Verteidigung Sergei Schoigu", "des Regimes von Ramsan
Kadyrow", "des Schauspielers Josh Duhamel"), and their later mentions.

No court anonymizes a head of state, a minister or an actor named in passing: the LER sets
keep them (the federal courts print them), and the written Bavarian-manner decisions mark them
kept (``data/written/conventions.md``, "people of public life"). The model, which learned
persons from the courts' placeholders, reads them as persons to neutralize (the LER dev half,
the LER validation split; the policy row in ``docs/anonymization-policy.md``).

Never a mayor or a district administrator ("Erster Bürgermeister", "Landrat": local officials
the strict gold sets neutralize), never a saint (a first name, the party's too), and never a
name the document also gives a party, witness or plain person ("der Kläger Putin", "Herr
Putin"): then the name stays neutralized everywhere, when in doubt.
"""

from __future__ import annotations

import re

from deid.schema import Span
from deid.words.lexicon import is_common_noun
from deid.words.ordinary import is_listed_name
from deid.words.roles import after_person_role
from deid.words.shapes import SHAPE_NONE, word_shape

_S = r"[ \u00a0]"
# a ministry's portfolio after the minister's word ("Minister für Verteidigung", "Ministerin
# der Justiz", "Minister des Innern und für Sport")
_PORTFOLIO = rf"(?:{_S}(?:für|des|der|und)(?:{_S}(?:und|für))?{_S}[A-ZÄÖÜ][\wäöüß\-]+){{0,3}}"
# the office or fame; never a word that is a surname too, which a judges' signature line puts
# before another surname ("Kaiser Berger", "Dr. Sänger Kugler", "Papst", "Kanzler")
_OFFICE = (
    r"(?:Staats|Bundes|Minister|Vize|Ex-)?[Pp]räsident(?:en|in)?"
    r"|Premierminister(?:s|in)?|(?:Bundes|Reichs|Vize)kanzler(?:s|in)?|Kanzlerin"
    rf"|(?:[A-ZÄÖÜ][\wäöüß]*)?[Mm]inister(?:s|in)?{_PORTFOLIO}"
    r"|Regierungschef(?:s|in)?|Staatschef(?:s|in)?|Machthaber(?:s|in)?|Diktator(?:s|in)?"
    r"|Obersten?[ \u00a0]Führer(?:s)?|Königin"
    rf"|Regimes?{_S}(?:von|unter)"
    r"|Schauspieler(?:s|in)?|Models?|Sängers|Sängerin|Werbefigur|Moderator(?:s|in)?|Rapper(?:s|in)?"
)
_PARTICLE = r"(?:von|van|de|del|da|di|al|el|bin|ibn|abu|la|le|ter)(?:[ \u00a0](?:der|den|la|le))?"
_PARTICLE_RE = re.compile(_PARTICLE)
_NAME_TOKEN = rf"(?:[A-ZÄÖÜ][\wäöüßéèáàíóúçñ'’\-]+|{_PARTICLE}(?={_S}[A-ZÄÖÜ]))"
_TITLE = r"(?:Dr\.|Prof\.)"
CUE = re.compile(
    rf"(?<![\w\-])(?:{_OFFICE})(?:{_S}{_TITLE})*{_S}(?P<name>{_NAME_TOKEN}(?:{_S}{_NAME_TOKEN}){{0,3}})"
)
# words that begin a clause, not a name ("Präsident Der …" at a heading's end)
_NOT_A_NAME = frozenset(
    "Der Die Das Den Dem Des Ein Eine Er Sie Es Und Am Im In Nach Für Mit Von Zu".split()  # noqa: SIM905
)


def public_figures(text: str) -> tuple[list[Span], set[str]]:
    """The names after a public office's or fame's word (the module's docstring) and the
    surfaces that name them alone: the name in full and, for a name of two words or more, its
    last word ("Kadyrow"). A name is left out where any of these surfaces also stands after
    a person's role or title in the text ("der Zeuge Kadyrow", "Herr Kadyrow")."""
    found: dict[str, list[Span]] = {}
    for m in CUE.finditer(text):
        words = m.group("name").rstrip("'’-").split()
        while words and (words[-1] in _NOT_A_NAME or _PARTICLE_RE.fullmatch(words[-1])):
            words.pop()
        if not words or words[0] in _NOT_A_NAME or not _name_word(words[-1]):
            continue
        name = m.group("name")[: len(" ".join(words))]  # one separator between words: as printed
        found.setdefault(name, []).append(
            Span(m.start("name"), m.start("name") + len(name), "PUBLIC_FIGURE")
        )
    if not found:  # most documents: no pass over their words
        return [], set()
    forms = {name: _forms(name) for name in found}
    conflicted = _after_role(text, forms)
    names = [span for name, spans in found.items() if name not in conflicted for span in spans]
    surfaces = {form for name in found if name not in conflicted for form in forms[name]}
    return names, surfaces


def _name_word(word: str) -> bool:
    """A surname, not a noun the office governs ("durch den Staatspräsidenten Gebrauch machen",
    "des Kanzlers von der Hochschulleitung"): no lexicon noun, derivation or compound of common
    words, unless a name list holds it ("Kirchhof")."""
    return is_listed_name(word) or not (is_common_noun(word) or word_shape(word) != SHAPE_NONE)


def _forms(name: str) -> set[str]:
    """A name in full and, for two words or more, its last word."""
    return {name} | ({name.split()[-1]} if " " in name else set())


_WORD = re.compile(r"[\wäöüß'’\-]+")


def _after_role(text: str, forms: dict[str, set[str]]) -> set[str]:
    """The names one of whose forms stands after a person's role somewhere in ``text``: one pass
    over the text's words, whatever the number of names (a form is at most a few words)."""
    by_first: dict[str, list[tuple[str, list[str]]]] = {}
    for name, surfaces in forms.items():
        for surface in surfaces:
            words = surface.split()
            by_first.setdefault(words[0], []).append((name, words))
    tokens = list(_WORD.finditer(text))
    conflicted: set[str] = set()
    for i, token in enumerate(tokens):
        for name, words in by_first.get(token.group(), ()):
            if name in conflicted or [t.group() for t in tokens[i : i + len(words)]] != words:
                continue
            if after_person_role(
                text, Span(token.start(), tokens[i + len(words) - 1].end(), "PERSON")
            ):
                conflicted.add(name)
    return conflicted
