"""Document-level consistency (Biesner et al. 2020): a string found sensitive once is
sensitive everywhere in the document, including surname-only mentions of a person.

``every_mention`` (the chain's consistency version 2) follows a name into every form a
decision prints it in: after a title or role the span may have included ("Herr
Wolkenhammer", "Zeugin Wolkenhammer": the name is the evidence), inflected and possessive
("Wolkenhammers", "Wolkenhammer's"), in capitals ("WOLKENHAMMER"), and as a part of a
hyphenated name or compound ("Müller-Wolkenhammer": the whole word is taken)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, pairwise

from deid.schema import ID, LOCATION, MODEL_SOURCE, ORGANIZATION, PERSON, STREET, Span, coarse_label
from deid.words.firms import name_part
from deid.words.gazetteer import is_big_city
from deid.words.ordinary import is_ordinary_word, known_name
from deid.words.roles import after_person_role
from deid.words.shape_cues import is_role
from deid.words.vocab import STREET_WORD

_PROPAGATED = frozenset({PERSON, ORGANIZATION, LOCATION, STREET})
_BRAND = "BRAND_NAME"  # a party's mark or product (deid.anonymizer.recognizers.quoted_name): version 7 spreads it
_TITLES = frozenset("Dr. Prof. Dres. von van de zu vom Herr Herrn Frau".split())
_MIN_LEN = 3


def _common_word(variant: str, surname: bool = False) -> bool:
    """A single everyday German word ("Angeklagten", "Straße", any noun of the lexicon), or
    one shaped like a common noun (a compound of common words, "Waisengeld"; a derivation,
    "Begnadigungen"; an unknown word ending in a noun, "Erstbeurteiler"), is not propagated:
    one wrong prediction must not become a wrong prediction in every sentence. Known surnames
    and places are the exception however frequent or compound-like they are ("Müller",
    "Hartleben", "Celle"): their later mentions are exactly what consistency is for. Role
    nouns never are ("Richter").

    The surname of a person named in full (``surname``) spreads even when it looks like a
    compound or derivation ("Jana Wolkenhammer" … "Frau Wolkenhammer"): the full name is the
    evidence. Ordinary words, role nouns and frequent words ("Will") still stay blocked."""
    if " " in variant:
        return False
    from deid.words.shapes import SHAPE_NONE, SHAPE_ROLE, plain_compound, word_shape, zipf

    if is_ordinary_word(variant):
        return True
    shape = word_shape(variant) if variant[:1].isupper() else SHAPE_NONE
    if shape != SHAPE_ROLE and known_name(variant):
        return False
    if surname:
        return shape == SHAPE_ROLE or zipf(variant) >= 3.5
    return zipf(variant) >= 3.5 or shape != SHAPE_NONE or plain_compound(variant)


# A street with its house number(s) ("Am Kirchplatz 4", "Ziegeleiweg 8, 10"), and a postal code
# with its town ("93083 Obertraubling"): the number is the evidence of an address.
_HOUSE_NUMBERS = re.compile(r"^(?P<name>\D+?)[ \u00a0]+\d[\w\s,./\-–]*$")
_POSTAL_TOWN = re.compile(r"^\d{5}[ \u00a0]+(?P<town>\S.*)$")
_STREET_PREPOSITION = re.compile(r"^(?:Am|An der|Auf der|Auf dem|Im|In der|Zum|Zur)[ \u00a0](?P<noun>\S+)$")


def address_names(surface: str, label: str) -> set[str]:
    """What an address or a firm found in full names by itself: a firm's name without its
    legal form ("Mayrhofer Kältetechnik" of "… GmbH"); the street ("Am Kirchplatz",
    and "Kirchplatz" after its preposition when that is a street word itself; "Dorfstraße" of
    "Dorfstraße 11"), or the town of a postal code ("Obertraubling"). A decision names the
    street of a party's home again without the number ("… in den Kirchplatz münden"), and a
    street word is no everyday word there: the address is the evidence (consistency version
    4). A bare street word ("Ring" of "Am Ring 5") names no street, a big city's name stays
    the policy's to keep."""
    surface = surface.strip()
    if label == STREET and (m := _HOUSE_NUMBERS.match(surface)) is not None:
        name = m.group("name").strip(" ,")
        out = {name}
        if (p := _STREET_PREPOSITION.match(name)) is not None:
            out.add(p.group("noun"))
        return {n for n in out if STREET_WORD.search(n) and len(n) > 6 or " " in n}
    if label == ORGANIZATION and (part := name_part(surface, Span(0, len(surface), label))).end < len(surface):
        # "Mayrhofer Kältetechnik GmbH" … "die Mayrhofer Kältetechnik": the name without its form
        name = surface[: part.end].strip(" -")
        return {name} if " " in name or not _common_word(name) else set()
    if label == LOCATION and (m := _POSTAL_TOWN.match(surface)) is not None:
        # a big city stays in clear where it is named alone (the policy); its postal code
        # does not make "Landratsamt Regensburg" a party's address
        return set() if is_big_city(m.group("town")) else {m.group("town")}
    return set()


def variants(surface: str, label: str, *, every_mention: bool = False) -> set[str]:
    """The strings whose other occurrences are the same entity. ``every_mention``: a
    person's name after a title or a role noun the span included ("Herr Müller", "Zeuge
    Müller") gives its surname like a name in full does."""
    surface = surface.strip()
    out = {surface} if len(surface) >= _MIN_LEN else set()
    if label == PERSON:
        all_words = re.split(r"\s+", surface)
        words = [w for w in all_words if w not in _TITLES and not (every_mention and is_role(w))]
        named = len(words) >= 2 or (every_mention and words and len(words) < len(all_words))
        if named and len(words[-1]) >= _MIN_LEN and words[-1][:1].isupper():
            out.add(words[-1])  # "Anton Müller" … "Müller"
    return out


_SUFFIXES = ("s", "S")  # the genitive of a name ("Wolkenhammers", "WOLKENHAMMERS")


def _forms(variant: str, label: str) -> tuple[str, ...]:
    """What ``every_mention`` looks for besides the variant: its capitals, and for one word
    of a person's name its genitive (a possessive "'s" or "'" needs no form of its own: the
    apostrophe ends the word)."""
    forms = [variant, variant.upper()]
    if label == PERSON and " " not in variant:
        forms += [variant + _SUFFIXES[0], variant.upper() + _SUFFIXES[1]]
    if label == STREET and " " not in variant and not variant.endswith(("straße", "strasse", "gasse")):
        forms += [variant + "es", variant + "s"]  # "des Kirchplatzes", "des Ziegeleiwegs"
    return tuple(dict.fromkeys(forms))


def _hyphenated(text: str, start: int, end: int) -> tuple[int, int]:
    """``start, end`` widened over the words a hyphen joins to them ("Müller-Wolkenhammer",
    "Wolkenhammer-Gutachten"): the part alone would leave the rest of the name in clear."""
    while start >= 2 and text[start - 1] == "-" and text[start - 2].isalnum():
        start -= 1
        while start > 0 and text[start - 1].isalnum():
            start -= 1
    while end + 1 < len(text) and text[end] == "-" and text[end + 1].isalnum():
        end += 1
        while end < len(text) and text[end].isalnum():
            end += 1
    return start, end


def propagate(
    text: str,
    spans: Iterable[Span],
    *,
    blocked: Iterable[Span] = (),
    stopwords: frozenset[str] = frozenset(),
    min_score: float = 0.0,
    min_share: float = 0.0,
    every_mention: bool = False,
    adjacent_names: bool = False,
    addresses: bool = False,
    house_numbers: bool = False,
    role_mentions: bool = False,
    brands: bool = False,
    grow_inside: bool = False,
    id_shapes: bool = False,
) -> list[Span]:
    """``spans`` plus every further occurrence of their surfaces (whole words only), not
    overlapping existing spans or ``blocked`` zones (kept judges, courts …).

    A single word found on its own is spread only if at least ``min_share`` of its mentions
    outside the blocked zones are already found: consistency catches the mentions the model
    missed, but a word found once in 45 mentions ("BHKW", "Blatt") is more likely that one
    error than 44 misses. A name found in full ("Anton Müller") spreads its surname anyway.
    ``every_mention``: also the forms of :func:`_forms`, a name after a title or role
    (:func:`variants`), and whole hyphenated words (:func:`_hyphenated`).
    ``adjacent_names``: person spans only a space apart ("Jana" "Wolkenhammer", a first name
    and a surname the model tagged as two names) are evidence of a name in full too.
    ``addresses``: a recognizer's fine label spreads as its type does (a street address as a
    street, a local bank as a firm), and an address spreads the street or town it names
    (:func:`address_names`), which counts as found in full.
    ``house_numbers``: a house number found in an address stands for it again where a word for a
    house or plot comes right before it (:func:`bare_house_numbers`).
    ``role_mentions``: the surname of a name found in full that is an ordinary word too
    ("Raimund Schäffler", "Theresia Kranz") spreads where a person's role or title stands right
    before a mention ("der Sachverständige Schäffler", "Frau Kranz"), and nowhere else.
    ``brands``: a party's mark or product found in quotes (``BRAND_NAME``) spreads like a name
    ("unter der Bezeichnung „Kellerfürstin“ anzubieten" … "wird „Kellerfürstin“ allenfalls …").
    ``grow_inside``: a mention whose found spans all lie inside it takes their place ("der
    Lehner Agrar" where the model read "Lehner" of a firm found in full as "Lehner Agrar GmbH").
    ``id_shapes``: a recognizer's identifier of a distinctive shape stands for every token of
    exactly that shape (:func:`same_shape_ids`).
    """
    spans = sorted(spans)
    found_at = Ranges((s.start, s.end) for s in spans)
    blocked_at = Ranges((b.start, b.end) for b in blocked)
    added_at = bytearray(len(text))  # 1 where a span was added (they never overlap)
    found: dict[str, tuple[str, float]] = {}
    in_full: set[str] = set()  # variants of a span of several words
    after_role: set[str] = set()  # surnames that are ordinary words: only after a role (role_mentions)
    anywhere: set[str] = set()  # variants some span lets spread to every mention
    joined = _adjacent_names(text, spans) if adjacent_names else []
    evidence = {(j.start, j.end) for j in joined}  # never an output span: grow_inside skips their variants
    grown_from: set[str] = set()  # variants of a span of the output (grow_inside)
    for s in spans + joined:
        label = coarse_label(s.label) if addresses else s.label
        brand = brands and s.label == _BRAND
        if (label not in _PROPAGATED and not brand) or (s.score is not None and s.score < min_score):
            continue
        surface = text[s.start : s.end]
        several_words = len(surface.split()) > 1
        named = address_names(surface, label) if addresses else set()
        for v in variants(surface, label, every_mention=every_mention) | named:
            surname = several_words and label == PERSON and v != surface.strip()
            if v in stopwords:
                continue
            # a mark is a made-up word as often as not ("Kellerfürstin"): only an everyday word stays
            role_only = v not in named and (is_ordinary_word(v) if brand else _common_word(v, surname))
            if role_only and not (role_mentions and surname and " " not in v):
                continue
            (after_role if role_only else anywhere).add(v)
            if (s.start, s.end) not in evidence:
                grown_from.add(v)
            if several_words or v in named:
                in_full.add(v)
            score = s.score if s.score is not None else 1.0
            if v not in found or found[v][1] < score:
                found[v] = (label, score)
    added: list[Span] = []
    replaced: set[int] = set()  # indices of ``spans`` a mention grown over them took the place of (grow_inside)
    starts = [s.start for s in spans] if grow_inside else []
    longest = max((s.end - s.start for s in spans), default=0) if grow_inside else 0
    forms = {v: _forms(v, label) if every_mention else (v,) for v, (label, _) in found.items()}
    words = _WordIndex(text, [f for fs in forms.values() for f in fs])
    for v, (label, score) in sorted(found.items(), key=lambda kv: -len(kv[0])):
        mentions = sorted({m for f in forms[v] for m in words.mentions(f)})
        mentions = [(a, b) for a, b in mentions if not blocked_at.overlaps(a, b)]
        if v in after_role and v not in anywhere:
            mentions = [(a, b) for a, b in mentions if after_person_role(text, Span(a, b, label))]
        if v not in in_full and sum(found_at.overlaps(a, b) for a, b in mentions) < min_share * len(mentions):
            continue
        for mention in mentions:
            # the whole hyphenated word, else the mention alone when the rest is a span already
            tries = (_hyphenated(text, *mention), mention) if every_mention else (mention,)
            free = [(a, b) for a, b in tries if not (found_at.overlaps(a, b) or added_at.find(1, a, b) >= 0)]
            if not free and grow_inside and v in grown_from:
                a, b = tries[-1]
                inside = _inside(spans, starts, longest, a, b)
                if inside and added_at.find(1, a, b) < 0 and not replaced.intersection(inside):
                    replaced.update(inside)
                    free = [(a, b)]
            if not free or blocked_at.overlaps(*free[0]):  # mentions skip blocked
                continue
            a, b = free[0]
            added.append(Span(a, b, label, round(score * 0.95, 4), "consistency"))
            added_at[a:b] = b"\x01" * (b - a)
    if house_numbers:
        taken = Ranges([*((s.start, s.end) for s in spans), *((s.start, s.end) for s in added)])
        bare = bare_house_numbers(text, spans)
        added += [s for s in bare if not (taken.overlaps(s.start, s.end) or blocked_at.overlaps(s.start, s.end))]
    if id_shapes:
        taken = Ranges([*((s.start, s.end) for s in spans), *((s.start, s.end) for s in added)])
        same = same_shape_ids(text, spans)
        added += [s for s in same if not (taken.overlaps(s.start, s.end) or blocked_at.overlaps(s.start, s.end))]
    kept = [s for i, s in enumerate(spans) if i not in replaced]
    return sorted(kept + added)


def _inside(spans: Sequence[Span], starts: Sequence[int], longest: int, a: int, b: int) -> set[int]:
    """Indices of the spans that overlap ``[a, b)`` if every one of them lies inside it and is
    shorter, else none (a span reaching out of the mention is another reading, not a part of it;
    one that is the mention leaves nothing to grow)."""
    out: set[int] = set()
    i = bisect_left(starts, b) - 1
    while i >= 0 and spans[i].start + longest > a:
        s = spans[i]
        if s.end > a:
            if s.start < a or s.end > b or (s.start, s.end) == (a, b):
                return set()
            out.add(i)
        i -= 1
    return out


# An identifier a recognizer found, of a shape no ordinary token has (ten characters or more,
# six digits, two separators: "32-5620.1-0412/21"), stands for every other token of exactly
# that shape in the document: an authority numbers its files alike ("Bescheide vom 21. April
# 2021 (Az. 32-5620.1-0412/21) und vom 8. Februar 2022 (Az. 32-5620.1-0093/22)"), where the
# second's cue is too far for the recognizer (consistency version 7)
_SHAPE_MIN_LENGTH = 10
_SHAPE_MIN_DIGITS = 6
_SHAPE_SEPARATORS = "-./"
_SHAPE_CLASSES = {"9": r"\d", "A": "[A-ZÄÖÜ]", "a": "[a-zäöüß]"}
_DATE_SHAPE = re.compile(r"\d{1,2}\.\d{1,2}\.\d{2,4}")  # a number written like a date never spreads to the dates


def _shape(token: str) -> str:
    return "".join("9" if c.isdigit() else "A" if c.isupper() else "a" if c.isalpha() else c for c in token)


def same_shape_ids(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans for the tokens of exactly the shape of an identifier a recognizer found."""
    shapes: dict[str, Span] = {}
    for s in spans:
        token = text[s.start : s.end]
        if (coarse_label(s.label) != ID or s.source == MODEL_SOURCE or len(token) < _SHAPE_MIN_LENGTH
                or sum(c.isdigit() for c in token) < _SHAPE_MIN_DIGITS
                or sum(c in _SHAPE_SEPARATORS for c in token) < 2 or any(c.isspace() for c in token)
                or _DATE_SHAPE.fullmatch(token)):  # fmt: skip
            continue
        shapes.setdefault(_shape(token), s)
    out: list[Span] = []
    for shape, s in shapes.items():
        body = "".join(_SHAPE_CLASSES.get(c, re.escape(c)) for c in shape)
        for m in re.finditer(rf"(?<![\w./\-]){body}(?![\w]|[./\-]\w)", text):
            if (m.start(), m.end()) != (s.start, s.end):
                out.append(Span(m.start(), m.end(), s.label, round((s.score or 1.0) * 0.95, 4), "consistency"))
    return out


# A house's or plot's word right before its bare number, or a list of them ("Die Grundstücke
# 10, 12, 14", "das Anwesen Nr. 12", "den Häusern 3 und 5").
_HOUSE_NUMBER = r"\d{1,4}(?:[ \u00a0]?[a-z](?![\w]))?"
_HOUSE_WORDS = re.compile(
    r"(?<![\w-])(?:Anwesen|Anwesens|Grundstücke?s?|Grundstücken|Haus|Hauses|Häuser|Häusern|Hausnummer|"
    r"Hausnummern|Hausnr\.|Hs\.-?Nr\.)(?:[ \u00a0]Nrn?\.)?[ \u00a0]"
    rf"(?P<list>{_HOUSE_NUMBER}(?:(?:,[ \u00a0]|[ \u00a0](?:und|bis|u\.)[ \u00a0]){_HOUSE_NUMBER})*)"
    r"(?![\w/]|[.,]\d)(?![ \u00a0]?(?:%|Jahre|Jahren|Monate|Wochen|Tage|Tagen|Stunden|Euro|EUR|€|Uhr|m\b|km|qm|ha\b))"
)
_NUMBER_IN_ADDRESS = re.compile(rf"(?<![\w.,/])({_HOUSE_NUMBER})(?![\w/]|[.,]\d)")


def bare_house_numbers(text: str, spans: Sequence[Span]) -> list[Span]:
    """Street spans for the house numbers that stand alone for an address found in the document
    (consistency version 5): "Ziegeleiweg 8, 10, 12, 14" found, the later "Die Grundstücke 10, 12,
    14" are those houses. Only a number an address span holds, only after a house's word."""
    known: set[str] = set()
    for s in spans:
        if coarse_label(s.label) == STREET:
            known.update(m.group(1) for m in _NUMBER_IN_ADDRESS.finditer(text, s.start, s.end))
    if not known:
        return []
    out: list[Span] = []
    for m in _HOUSE_WORDS.finditer(text):
        for n in re.finditer(_HOUSE_NUMBER, text[m.start("list") : m.end("list")]):
            if n.group() in known:
                start = m.start("list") + n.start()
                out.append(Span(start, start + len(n.group()), STREET, 0.9, "consistency"))
    return out


_ONE_LINE_GAP = re.compile(r"[ \t\u00a0]+")


def _adjacent_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """Person spans that follow each other with only spaces between, joined (evidence only,
    never a span of the output) with the second one's score: the surname is what spreads,
    the name before it is the evidence that it was written in full."""
    return [
        Span(a.start, b.end, PERSON, b.score, "consistency")
        for a, b in pairwise(spans)
        if a.label == b.label == PERSON and _ONE_LINE_GAP.fullmatch(text, a.end, b.start)
    ]


class Ranges:
    """Fixed character ranges that answer "does any of you overlap ``[start, end)``?" in
    O(log n): a scan of every range per mention made long documents quadratic."""

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(ranges)
        self.starts = [a for a, _ in ordered]
        self.reach = list(accumulate((b for _, b in ordered), max))  # furthest end so far

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect_left(self.starts, end)  # the ranges that start before ``end``
        return i > 0 and self.reach[i - 1] > start


_WORD_RUN = re.compile(r"\w+")  # the characters the mention boundaries below exclude


class _WordIndex:
    """Where each variant occurs as a whole word, from one pass over the text that records
    the positions of the variants' first words (one regex scan of the whole text per variant
    made long documents quadratic)."""

    def __init__(self, text: str, variants: Iterable[str]) -> None:
        self.text = text
        firsts = {m.group() for v in variants if (m := _WORD_RUN.match(v))}
        self.at: dict[str, list[int]] = {}
        if firsts:
            for m in _WORD_RUN.finditer(text):
                if m.group() in firsts:
                    self.at.setdefault(m.group(), []).append(m.start())

    def mentions(self, variant: str) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of every non-overlapping whole-word occurrence, in order: what
        ``re.finditer`` with ``(?<![\\wäöüß])`` … ``(?![\\wäöüß])`` around it yields."""
        first = _WORD_RUN.match(variant)
        if first is None:  # starts with punctuation: rare, scan for it
            pattern = rf"(?<![\wäöüß]){re.escape(variant)}(?![\wäöüß])"
            yield from (m.span() for m in re.finditer(pattern, self.text))
            return
        text, last_end = self.text, 0
        for start in self.at.get(first.group(), ()):
            end = start + len(variant)
            if start < last_end or not text.startswith(variant, start):
                continue
            if end < len(text) and _WORD_RUN.match(text, end):
                continue
            last_end = end
            yield start, end
