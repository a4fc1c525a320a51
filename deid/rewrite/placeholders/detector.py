"""Placeholder detection over a whole document: candidates → context rules → document
consistency → merged, typed character spans."""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from deid.rewrite.placeholders import cues as lx
from deid.rewrite.placeholders.candidates import Candidate, find_candidates
from deid.rewrite.placeholders.context import QuoteIndex, Window, make_window
from deid.rewrite.placeholders.rules import Verdict, infer_type, judge
from deid.schema import DATE, ORGANIZATION, OTHER, PERSON, STREET, Span

_HOUSE_NUMBER = re.compile(r"^\s?(?:\d{1,4}\s?[a-z]?(?![\w.,]\d)|…|\.\.\.)(?![\w])")
_STREET_NEXT = re.compile(r"^\s?-?\s?([A-ZÄÖÜa-zäöüß][\w.\-]*)")
_SCORES = {"obvious": 1.0, "strong": 0.9, "weak": 0.7}


@dataclass
class _Hit:
    start: int
    end: int
    label: str
    strong: bool
    rule: str
    obvious: bool
    surface_key: str


def _key(surface: str) -> str:
    return re.sub(r"\s+", "", surface)


def detect_placeholders(text: str) -> list[Span]:
    """Find the courts' placeholders in ``text``; spans are typed and non-overlapping."""
    quotes = QuoteIndex(text)
    abbreviations = [(m.start(), m.end()) for m in lx.ABBREVIATIONS.finditer(text)]
    abbr_starts = [s for s, _ in abbreviations]
    hits: list[_Hit] = []
    undecided: list[tuple[Candidate, Window]] = []
    last_end = -1
    for cand in find_candidates(text):
        if cand.start < last_end:
            continue
        if not cand.obvious and _inside(abbreviations, abbr_starts, cand.start, cand.end):
            continue
        cand = _after_abbreviation(text, cand, abbreviations, abbr_starts)
        window = make_window(text, cand.start, cand.end, quotes)
        verdict = judge(cand, window)
        if (
            not verdict.accept
            and cand.kind == "ellipsis"
            and hits
            and text[hits[-1].end : cand.start].strip() == ""
            and "\n" not in text[hits[-1].end : cand.start]
        ):
            verdict = Verdict(True, "adjacent-ellipsis", hits[-1].label, hits[-1].strong)  # "T. ... …"
        if verdict.rule == "omission-brackets" and hits and cand.start - hits[-1].end <= 3:
            verdict = Verdict(True, "bracketed-after-placeholder", OTHER, False)  # "Kulturzentrum ... (...)"
        if cand.kind == "zero_number" and hits and _house_number_list(text, hits[-1], cand):
            verdict = Verdict(True, "house-number-list", STREET, True)
        if hits and _coordinated(text, hits[-1], cand, verdict):
            if not verdict.accept:
                verdict = Verdict(True, "coordination", hits[-1].label, hits[-1].strong)
            elif not verdict.strong_type:
                verdict = Verdict(True, verdict.rule + "+coordination", hits[-1].label, hits[-1].strong)
        if verdict.accept:
            hits.append(_hit(cand, window, verdict))
            last_end = cand.end
        elif verdict.rule in ("letter-no-evidence", "short-form-without-role"):
            undecided.append((cand, window))
    hits += _consistent_letters(hits, undecided)
    _harmonize_types(hits)
    hits.sort(key=lambda h: h.start)
    return [_to_span(h) for h in _merge(text, hits)]


_COORDINATION_GAP = re.compile(r"^[\s“”\"‘]*(?:,|und|oder|bzw\.|sowie|/)[\s„\"‚]*$")
_COORDINABLE = frozenset(
    {"letter-no-evidence", "letter-list", "quoted-letter", "noun-designation", "short-form-without-role", "code-list"}
)


def _coordinated(text: str, last: _Hit, cand: Candidate, verdict: Verdict) -> bool:
    """"Rettungswachen in G, P, S", "Grundstücke F und G", "Firmen „S“ und „D“": a letter in
    a list right after an accepted placeholder of the same shape is one too."""
    if cand.kind not in ("letter", "initials"):
        return False
    if not verdict.accept and verdict.rule not in _COORDINABLE:
        return False
    if last.obvious or not any(ch.isalpha() for ch in last.surface_key):
        return False
    if len(last.surface_key.rstrip(".")) > 3:
        return False
    return bool(_COORDINATION_GAP.match(text[last.end : cand.start]))


def _after_abbreviation(
    text: str, cand: Candidate, ranges: list[tuple[int, int]], starts: list[int]
) -> Candidate:
    """"Oberstleutnant a. D. K.": initials that begin inside an abbreviation start after it."""
    i = bisect.bisect_right(starts, cand.start) - 1
    if cand.kind != "initials" or i < 0 or not (ranges[i][0] <= cand.start < ranges[i][1] < cand.end):
        return cand
    start = ranges[i][1]
    while start < cand.end and text[start] in " -":
        start += 1
    return Candidate(start, cand.end, cand.kind, cand.obvious) if start < cand.end else cand


_LIST_GAP = re.compile(r"^\s*(?:,|und|oder|bis|/)\s*$")
_PLOT_WORDS = re.compile(r"(?:Grundstücke?|Grundstücks|Anwesen|Hausnummern?|Hausnr\.)\s+$")


_STREET_TAIL_LIST = re.compile(
    r"^[-\wäöüß.]*(?:\s*(?:\d{1,3}[a-z]?|,|und|oder|bis|/))*?\s*(?:,|und|oder|bis|/)\s*$"
)


def _house_number_list(text: str, last: _Hit, cand: Candidate) -> bool:
    """"Z-weg 01, 02, 03": anonymized house numbers listed after a street placeholder, or
    "die Grundstücke 02, 03": after a plot word."""
    if _PLOT_WORDS.search(text[max(0, cand.start - 20) : cand.start]):
        return True
    gap = text[last.end : cand.start]
    return last.label == STREET and len(gap) <= 40 and bool(_STREET_TAIL_LIST.match(gap))


def _inside(ranges: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    i = bisect.bisect_right(starts, start) - 1
    return i >= 0 and ranges[i][1] >= end


def _hit(cand: Candidate, window: Window, verdict: Verdict) -> _Hit:
    return _Hit(
        cand.start,
        cand.end,
        verdict.label,
        verdict.strong_type,
        verdict.rule,
        cand.obvious,
        _key(window.surface),
    )


def _consistent_letters(hits: list[_Hit], undecided: list[tuple[Candidate, Window]]) -> list[_Hit]:
    """A bare letter without local evidence is a placeholder if the same letter was introduced
    as one elsewhere in the document ("Herr K" … "K erklärte")."""
    strong: dict[str, Counter[str]] = defaultdict(Counter)
    for h in hits:
        if (h.strong or h.rule.startswith("short-form")) and not h.obvious:
            strong[h.surface_key.rstrip(".")][h.label] += 1
    out: list[_Hit] = []
    for cand, window in undecided:
        key = _key(window.surface)
        if key in strong and not window.line_alone:
            label, local_strong, _ = infer_type(window, cand)
            if not local_strong:
                label = strong[key].most_common(1)[0][0]
            out.append(_Hit(cand.start, cand.end, label, local_strong, "letter-consistency", False, key))
    return out


def _harmonize_types(hits: list[_Hit]) -> None:
    """Weakly typed placeholders take the majority type of the same surface in the document."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for h in hits:
        if h.strong and h.label != STREET and _is_named(h):
            votes[h.surface_key.rstrip(".")][h.label] += 1
    for h in hits:
        if not h.strong and _is_named(h) and h.surface_key.rstrip(".") in votes:
            h.label = votes[h.surface_key.rstrip(".")].most_common(1)[0][0]


def _is_named(h: _Hit) -> bool:
    """Letters and initials identify one entity per document; an ellipsis does not."""
    return any(ch.isalpha() for ch in h.surface_key)


def _merge(text: str, hits: list[_Hit]) -> list[_Hit]:
    """Join parts of one reference ("S …", "D P T S", "K … allee") and extend street
    placeholders over the street word and house number ("R. straße ...", "G. Straße 1")."""
    merged: list[_Hit] = []
    for h in hits:
        if merged:
            prev = merged[-1]
            gap = text[prev.end : h.start]
            if h.start >= prev.end and gap.strip(" -&") == "" and "\n" not in gap and len(gap) <= 3:
                prev.end = h.end
                prev.label = _merged_label(prev, h)
                prev.strong = prev.strong or h.strong
                prev.obvious = prev.obvious or h.obvious
                continue
        merged.append(h)
    for h in merged:
        if h.label == STREET:
            _extend_street(text, h)
        if h.rule.startswith("ellipsis-compound"):
            m = re.search(r"[\wäöüß]+-\s?$", text[max(0, h.start - 30) : h.start])
            if m:
                h.start -= len(m.group(0))  # "Auto- …": the visible half of the name is part of it
        if h.label == DATE:
            y = re.match(r"^\s?\d{4}\b", text[h.end : h.end + 6])
            if y and not re.search(r"\d", text[h.start : h.end]):
                h.end += y.end()  # "am ... 1943": day and month anonymized, the year belongs to it
    # extensions may now overlap the next hit: fold those in
    out: list[_Hit] = []
    for h in merged:
        if out and h.start < out[-1].end:
            out[-1].end = max(out[-1].end, h.end)
            continue
        out.append(h)
    return out


def _merged_label(a: _Hit, b: _Hit) -> str:
    labels = {a.label, b.label}
    if STREET in labels:
        return STREET
    if ORGANIZATION in labels and (a.strong or b.strong):
        return ORGANIZATION
    if a.strong or not b.strong:
        return a.label
    return b.label


def _extend_street(text: str, h: _Hit) -> None:
    rest = text[h.end : h.end + 40]
    m = _STREET_NEXT.match(rest)
    if m and lx.STREET_WORD.search(m.group(1)) and not lx.STREET_WORD.search(text[h.start : h.end]):
        h.end += m.end()
        rest = text[h.end : h.end + 20]
    elif m and m.group(0).startswith(("-", " -")) and lx.STREET_WORD.search(m.group(1)):
        h.end += m.end()
        rest = text[h.end : h.end + 20]
    n = _HOUSE_NUMBER.match(rest)
    if n:
        h.end += n.end()


def _to_span(h: _Hit) -> Span:
    kind = "obvious" if h.obvious else ("strong" if h.strong else "weak")
    return Span(h.start, h.end, h.label, _SCORES[kind], f"placeholder:{h.rule}")


def placeholder_label_counts(spans: list[Span]) -> dict[str, int]:
    return dict(Counter(s.label for s in spans))


__all__ = ["detect_placeholders", "placeholder_label_counts", "PERSON"]
