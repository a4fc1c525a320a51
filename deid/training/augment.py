"""Unfamiliar ordinary words in training text, so novelty is no shortcut to "name".

Per-epoch surrogates make every name in the training text new each epoch while every
ordinary word recurs; a model then learns "a word I have not seen ⇒ a name" and flags the
first unfamiliar legal term of a new field ("Waisengeld", "Sperrmüll"). Replacing a share of
ordinary capitalized nouns, every epoch, by random rare German nouns (from wordfreq's
vocabulary, names and places excluded) shows the model as many unfamiliar non-names as
names, so it has to look at context and shape.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Sequence

from deid.schema import Span
from deid.sources.textedit import apply_replacements

_NOUN_SUFFIX = re.compile(
    r"(?:ung|ungen|heit|heiten|keit|keiten|schaft|schaften|tion|tionen|tät|täten|nis|nisse|tum|"
    r"ment|ments|ismus|geld|recht|rechte|gesetz|vertrag|verfahren|antrag|bescheid|stelle|amt|"
    r"gericht|haus|werk|zeug|mittel|gebiet|anlage|anlagen|fahrzeug|fahrzeuge|kosten|zahlung|"
    r"steuer|wert|zeit|raum|stoff|stoffe|müll|statut|arbeit|leistung|pflicht|gemeinschaft|"
    r"versicherung|behörde|vorschrift|ordnung|erlaubnis|betrieb|material|geräte?|system|"
    r"programm|produkt|prüfung|studium|ausbildung|schule|kammer)$"
)
_CANDIDATE = re.compile(r"(?<![\wäöüß.\-])[A-ZÄÖÜ][a-zäöüß]{3,}(?![\wäöüß\-])")


_AGENT_SUFFIX = re.compile(r"(?:er|or|eur|ist|ent|ant|ling)$")
_LINKED = re.compile(r"(?:ung|heit|keit|schaft|tion|tät|tum|ling)$")


@lru_cache(maxsize=1)
def noun_pool() -> tuple[str, ...]:
    """Rare-to-medium German nouns, capitalized; no surnames, first names or places. Three
    kinds: derivations and compounds with a noun suffix ("Verpuppung"); nouns for persons
    and roles that Wiktionary calls common nouns ("Überbringer", "Drogist"), which end like
    surnames ("-er") without being one, the shape behind "Beurteiler" flagged as a person;
    and compounds no dictionary knows (:func:`_compounds`)."""
    from wordfreq import top_n_list, zipf_frequency

    from deid.words.gazetteer import person_and_place_names
    from deid.words.lexicon import LEX_NOUN, lexical_class

    names = person_and_place_names()
    derived: list[str] = []
    agents: list[str] = []
    for word in top_n_list("de", 200_000):
        if len(word) < 6 or not word.isalpha() or not word.islower():
            continue
        is_derived, is_agent = bool(_NOUN_SUFFIX.search(word)), bool(_AGENT_SUFFIX.search(word))
        if not (is_derived or is_agent):
            continue
        noun = word[0].upper() + word[1:]
        if noun in names or not 1.0 <= zipf_frequency(word, "de") <= 3.8:
            continue
        if is_derived:
            derived.append(noun)
        if is_agent and lexical_class(noun) == LEX_NOUN:
            agents.append(noun)
    return (*derived, *agents, *_compounds(derived, agents))


def _compounds(modifiers: Sequence[str], heads: Sequence[str], n: int = 5000) -> list[str]:
    """Compounds no dictionary lists ("Verhandlungsüberbringer"): legal German coins them
    daily, and an unknown word must not look like a name for that alone. Fixed seed, so the
    pool is the same in every process."""
    rng = random.Random(0)
    short = [m for m in modifiers if len(m) <= 10]
    out = []
    for _ in range(n if short and heads else 0):
        mod, head = rng.choice(short), rng.choice(heads)
        out.append(mod + ("s" if _LINKED.search(mod) else "") + head.lower())
    return out


def swap_nouns(
    text: str,
    spans: Sequence[Span],
    keep: Sequence[Span],
    rng: random.Random,
    rate: float,
) -> tuple[str, list[Span], list[Span]]:
    """Replace about ``rate`` of the capitalized ordinary words outside every span."""
    if rate <= 0:
        return text, list(spans), list(keep)
    from deid.rewrite.placeholders import cues as lx
    from deid.words.shapes import SHAPE_ROLE, word_shape

    pool = noun_pool()
    taken = sorted((s.start, s.end) for s in (*spans, *keep))
    # the word right before a name is its context ("Zeuge", "Landratsamt"): never swapped
    context_ends = {s.start - 1 for s in spans} | {s.start - 2 for s in spans}
    replacements: list[tuple[Span, str]] = []
    for m in _CANDIDATE.finditer(text):
        if rng.random() >= rate:
            continue
        if any(a < m.end() and m.start() < b for a, b in taken) or m.end() in context_ends:
            continue
        word = m.group(0)
        if word_shape(word) == SHAPE_ROLE or lx.INSTITUTION_NOUN.search(word):
            continue
        if m.start() == 0 or text[m.start() - 2 : m.start()].strip() in ("", ".", "!", "?", ":"):
            continue  # sentence starts: keep the function words there
        replacements.append((Span(m.start(), m.end(), "O"), rng.choice(pool)))
    if not replacements:
        return text, list(spans), list(keep)
    new_text, _, carried = apply_replacements(text, replacements, [*spans, *keep])
    return new_text, carried[: len(spans)], carried[len(spans) :]
