"""Bundled gazetteers as filtered, pooled, weighted samplers.

Loading is lazy and cached per pool (nothing is read at import time); after the first use
every draw is a bisect into a precomputed cumulative weight list, and prefix-restricted
samplers ("surnames starting with Sch") are derived once and cached, so generating tens of
thousands of surrogates per second is cheap.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect
from collections.abc import Callable, Iterable, Sequence
from functools import cache, cached_property, lru_cache
from itertools import accumulate
from random import Random

from deid.rewrite.surrogates.commonwords import COMMON_WORDS
from deid.rewrite.surrogates.pools import in_pool, pool_of
from deid.words.gazetteer import read_lines

FEMALE = "f"
MALE = "m"
GENDERS: tuple[str, ...] = (FEMALE, MALE)
_GAZETTEER_GENDER = {"w": FEMALE, "m": MALE}

# Latin letters only (names in other scripts or with digits/punctuation are list noise).
_L = "A-Za-zÀ-ÖØ-öø-ÿĀ-ſ"
_NAME_RE = re.compile(rf"^[{_L}][{_L}]+(?:-[{_L}][{_L}]+)?$")
_PLACE_RE = re.compile(rf"^[{_L}][{_L}.' ]*(?:-[{_L}][{_L}.' ]*)*[{_L}.]$")
_COMPANY_RE = re.compile(rf"^[{_L}][{_L}&.' -]*[{_L}.]$")
# Patronymics and list artefacts in the first-name statistics ("Ivanovna", "Vatersname)").
_PATRONYMIC_RE = re.compile(
    r"(?:ovna|evna|ivna|ična|inična|ovič|evič|ovych|ovich|evich|ogly|oglu|kyzy|qizi)$"
)
FIRST_NAME_MIN_COUNT = 5  # rarer names in the Berlin statistics are mostly noise
GENDER_DOMINANCE = 0.9  # a name counts as female/male only if ≥ 90 % of its bearers are
_FIRST_NAME_WEIGHT_EXPONENT = 0.75  # flatter than raw counts: realistic but varied
_PLACE_JUNK_RE = re.compile(r"\b(?:OT|HBF|Gewerbegebiet|Industriegebiet)\b")  # districts, sites
_VOWEL_RE = re.compile(r"[aeiouyäöüéèáàóíAEIOUYÄÖÜ]")  # "Schl", "Brgm" are abbreviations
_CAMEL_RE = re.compile(r"[a-zäöüß][A-ZÄÖÜ]")  # glued list artefacts ("AdresseFuchshofener")
# The surname list has no counts and many English entries; names that look German are
# drawn this many times more often so surrogates read like names in German decisions.
_GERMAN_SURNAME_RE = re.compile(
    r"(?:mann|er|el|ner|inger|hoff?|bach|berg|ke|ow|ski|rich|hardt|holz|meier|meyer|mayer|"
    r"maier|hauer|huber|wald|feld|stein|haus|land|brink|kamp|hagen|dorf|thal|ler|ing|sen)$"
)
GERMAN_SURNAME_WEIGHT = 3.0
_UMLAUT_BASE = {"Ä": "A", "Ö": "O", "Ü": "U", "ä": "a", "ö": "o", "ü": "u"}


class Sampler:
    """Weighted draws from a fixed entry list, with cached prefix restrictions."""

    def __init__(self, entries: Sequence[str], weights: Sequence[float] | None = None) -> None:
        self.entries = list(entries)
        self._weights = list(weights) if weights is not None else None
        self._cum = list(accumulate(self._weights)) if self._weights is not None else None
        self._folded = [e.casefold() for e in self.entries]
        self._prefixed: dict[str, Sampler] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def sample(self, rng: Random) -> str:
        if self._cum is None:
            return self.entries[int(rng.random() * len(self.entries))]
        return self.entries[bisect(self._cum, rng.random() * self._cum[-1])]

    def with_prefix(self, prefix: str) -> Sampler:
        """Entries starting with ``prefix`` (case-insensitive); may be empty."""
        key = prefix.casefold()
        if not key:
            return self
        cached = self._prefixed.get(key)
        if cached is not None:
            return cached
        parent = self.with_prefix(key[:-1])
        keep = [i for i, folded in enumerate(parent._folded) if folded.startswith(key)]
        weights = [parent._weights[i] for i in keep] if parent._weights is not None else None
        child = Sampler([parent.entries[i] for i in keep], weights)
        with self._lock:
            self._prefixed.setdefault(key, child)
        return self._prefixed[key]

    def sample_initial(self, rng: Random, prefix: str, minimum: int = 1) -> str:
        """A draw keeping the initial letters ``prefix`` where the list allows: the whole
        prefix ("Sch"), else its first letter, else its umlaut's base ("Ö" -> "O"), else any.
        ``minimum`` avoids always drawing the same few entries of a tiny prefix list."""
        plain = self.unhyphenated  # "K." shows one name; "Müller-Lüdenscheidt" would be "M.-L."
        for candidate in (prefix, prefix[:1], _UMLAUT_BASE.get(prefix[:1], "")):
            if candidate:
                restricted = plain.with_prefix(candidate)
                if len(restricted) >= minimum:
                    return restricted.sample(rng)
        return plain.sample(rng) if plain else self.sample(rng)

    @cached_property
    def unhyphenated(self) -> Sampler:
        return self.where(lambda e: "-" not in e)

    def where(self, keep: Callable[[str], bool]) -> Sampler:
        """A new sampler over the entries for which ``keep`` holds (weights kept)."""
        idx = [i for i, e in enumerate(self.entries) if keep(e)]
        weights = [self._weights[i] for i in idx] if self._weights is not None else None
        return Sampler([self.entries[i] for i in idx], weights)


def _is_common_word(entry: str) -> bool:
    return any(part in COMMON_WORDS for part in entry.split("-"))


def clean_names(entries: Iterable[str]) -> list[str]:
    """Single-token personal names: letters (one hyphen at most), capitalized, not shouting,
    not an everyday word, deduplicated in order."""
    seen: set[str] = set()
    out: list[str] = []
    for entry in entries:
        if not (4 <= len(entry) <= 24) or not _NAME_RE.match(entry):
            continue
        if not entry[0].isupper() or entry.isupper() or not any(c.islower() for c in entry[1:3]):
            continue
        if _CAMEL_RE.search(entry) or not _VOWEL_RE.search(entry):
            continue
        if _is_common_word(entry) or entry in seen:
            continue
        seen.add(entry)
        out.append(entry)
    return out


def clean_places(entries: Iterable[str], pattern: re.Pattern[str] = _PLACE_RE) -> list[str]:
    """Place and company names: letters and a little punctuation, capitalized, no token in
    capitals (chains such as "TOOM"), not an everyday word."""
    seen: set[str] = set()
    out: list[str] = []
    for entry in entries:
        entry = " ".join(entry.split())
        if not (3 <= len(entry) <= 40) or not pattern.match(entry) or not entry[0].isupper():
            continue
        if any(len(tok) >= 3 and tok.isupper() for tok in re.split(r"[ \-&.]", entry)):
            continue
        if _CAMEL_RE.search(entry) or _PLACE_JUNK_RE.search(entry) or not _VOWEL_RE.search(entry):
            continue
        if entry in COMMON_WORDS or entry.casefold() in seen:
            continue
        seen.add(entry.casefold())
        out.append(entry)
    return out


def first_name_table(lines: Iterable[str]) -> dict[str, tuple[str, int]]:
    """name -> (dominant gender, total count) for names that pass the filters."""
    counts: dict[str, dict[str, int]] = {}
    for line in lines:
        parts = line.split("\t")
        if len(parts) != 3 or parts[1] not in _GAZETTEER_GENDER or not parts[2].isdigit():
            continue  # header or broken line
        per = counts.setdefault(parts[0], {FEMALE: 0, MALE: 0})
        per[_GAZETTEER_GENDER[parts[1]]] += int(parts[2])
    names = set(clean_names(counts))
    table: dict[str, tuple[str, int]] = {}
    for name in names:
        per = counts[name]
        total = per[FEMALE] + per[MALE]
        gender = FEMALE if per[FEMALE] >= per[MALE] else MALE
        if total < FIRST_NAME_MIN_COUNT or per[gender] < GENDER_DOMINANCE * total:
            continue
        if _PATRONYMIC_RE.search(name.casefold()):
            continue
        table[name] = (gender, total)
    return table


class Gazetteers:
    """All surrogate material of one pool (``all``, ``train`` or ``eval``)."""

    def __init__(self, pool: str = "all") -> None:
        in_pool("", pool)  # validates the pool name
        self.pool = pool

    def _pooled(self, name: str) -> list[str]:
        return _split(name)[self.pool]

    @cached_property
    def surnames(self) -> Sampler:
        names = self._pooled("surnames.txt.xz")
        weights = [GERMAN_SURNAME_WEIGHT if _GERMAN_SURNAME_RE.search(n) else 1.0 for n in names]
        return Sampler(names, weights)

    @cached_property
    def first_name_genders(self) -> dict[str, str]:
        """Gender of every known first name regardless of pool (to read a real name)."""
        return {name: g for name, (g, _) in _first_names_all().items()}

    @cached_property
    def first_names(self) -> dict[str, Sampler]:
        by_gender: dict[str, tuple[list[str], list[float]]] = {g: ([], []) for g in GENDERS}
        for name, (gender, count) in sorted(_first_names_all().items()):
            if in_pool(name, self.pool):
                names, weights = by_gender[gender]
                names.append(name)
                weights.append(count**_FIRST_NAME_WEIGHT_EXPONENT)
        return {g: Sampler(n, w) for g, (n, w) in by_gender.items()}

    @cached_property
    def cities(self) -> Sampler:
        return Sampler(self._pooled("cities.txt.xz"))

    @cached_property
    def unhyphenated_cities(self) -> Sampler:
        """Cities without a district suffix ("Bad Tölz", not "Aalen-Attenhofen"): a
        hyphen in a surrogate should come from a hyphenated placeholder."""
        return self.cities.unhyphenated

    @cached_property
    def simple_cities(self) -> Sampler:
        """One-word city names (for hyphenated pairs and "L.er"-style adjectives)."""
        return self.cities.where(lambda e: e.isalpha())

    @cached_property
    def streets(self) -> Sampler:
        return Sampler(self._pooled("streets.txt.xz"))

    @cached_property
    def companies(self) -> Sampler:
        return Sampler(self._pooled("companies.txt.xz"))

    def streets_ending(self, word: str, style: str) -> Sampler:
        """Streets written with ``word`` as ``glued`` ("Rosenstraße"), ``space``
        ("Gothaer Straße") or ``hyphen`` ("Goethe-Straße")."""
        return _streets_ending(self, word, style)


_CLEANERS: dict[str, Callable[[Iterable[str]], list[str]]] = {
    "surnames.txt.xz": clean_names,
    "cities.txt.xz": clean_places,
    "streets.txt.xz": clean_places,
    "companies.txt.xz": lambda entries: clean_places(entries, _COMPANY_RE),
}


@cache
def _split(name: str) -> dict[str, list[str]]:
    """A gazetteer cleaned once and split once into pools (shared by all pools' samplers)."""
    entries = _CLEANERS[name](read_lines(name))
    pools: dict[str, list[str]] = {"all": entries, "train": [], "eval": []}
    for entry in entries:
        pools[pool_of(entry)].append(entry)
    return pools


@cache
def _first_names_all() -> dict[str, tuple[str, int]]:
    return first_name_table(read_lines("first_names.tsv.xz"))


def first_name_counts() -> dict[str, int]:
    """How often each known first name was given (all pools: it reads real names)."""
    return {name: count for name, (_, count) in _first_names_all().items()}


@lru_cache(maxsize=512)
def _streets_ending(gaz: Gazetteers, word: str, style: str) -> Sampler:
    if style == "glued":
        pattern = re.compile(rf"^[^\s\-]*[a-zäöüß]{re.escape(word)}$")
    elif style == "space":
        pattern = re.compile(rf"^\S+ {re.escape(word)}$")
    else:
        pattern = re.compile(rf"^\S+-{re.escape(word)}$")
    return gaz.streets.where(lambda e: pattern.match(e) is not None)


@cache
def gazetteers(pool: str = "all") -> Gazetteers:
    """The shared, lazily loaded gazetteers of ``pool``."""
    return Gazetteers(pool)
