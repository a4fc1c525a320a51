"""Gold sets scored under an anonymization profile (deid.anonymizer.profiles).

Every gold set declares the profile of the courts it comes from (:data:`GOLD_PROFILES`): the
LER sets ``federal`` (the federal courts printed what they kept), the hand-rewritten Bavarian
set and the saved reviews ``strict``. Scoring a set under a profile moves its spans by the
profile's table, the same table the product runs:

* a gold sensitive span (a court's placeholder) stays sensitive when the profile neutralizes
  its type and role (deid.words.roles gives the role from its context: "Rechtsanwalt K.",
  "Landratsamt E."); under another profile than the set's own it may become a keep span;
* a keep span with a role (an LER lawyer, an authority's seat) becomes sensitive when the
  profile neutralizes that role ("the LER set under strict"); a town or street the court
  printed keeps its type and gets the role its context gives, like a sensitive span;
* a firm's sensitive span runs on over the rest of its name and the legal form written after
  it (deid.words.firms, as the chain's ``legal_form`` step): the policy neutralizes the whole
  firm, and issue 26 counts a form left in clear against recall (not as a leak: deid.
  evaluation.metrics), though the courts often blanked only the name ("T. Dienstleistungs GmbH",
  "H AG");
* where the set's own court did what its profile would not (a big city among the Bavarian
  set's placeholders, a seat it blanked, a party's town, an accident's street or a date of
  birth or death that a federal court printed), the span is a *disagreement*: listed apart, scored
  neither for nor against the model (predictions overlapping it are set aside too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deid.anonymizer.profiles import (
    DEFAULT_PROFILE,
    FEDERAL,
    STRICT,
    check_profile,
    outcome,
    row_of,
)
from deid.schema import LABELS, Document, Span
from deid.words.firms import extend_firms
from deid.words.roles import role_label

# the profile each gold set's courts follow (by the gate's set names)
GOLD_PROFILES: Mapping[str, str] = {
    "ler": FEDERAL, "ler_novel": FEDERAL, "bavaria": STRICT, "bavaria_scratch": STRICT,
    "bavaria_scratch_dev": STRICT, "reviews": STRICT,
}  # fmt: skip
# the version of a firm's extent (deid.words.firms) the gold sets are scored with: version 3
# adds only the rest of a legal form a span stops inside, which no gold span does
GOLD_FIRM_EXTENT = 2
# the bundled gold files by set name
GOLD_FILES: Mapping[str, str] = {
    "ler": "data/gold/ler_rewritten.jsonl",
    "ler_novel": "data/gold/ler_rewritten_novel.jsonl",
    "bavaria": "data/gold/bavaria/rewritten.jsonl",
    "bavaria_scratch": "data/gold/bavaria_scratch/rewritten.jsonl",  # written from scratch: report only
    "bavaria_scratch_dev": "data/gold/bavaria_scratch_dev/rewritten.jsonl",  # its dev set: rules are chosen on it
}


def gold_profile(name: str) -> str:
    """The declared profile of the gold set ``name``; a set of one's own: the default one."""
    return GOLD_PROFILES.get(name, DEFAULT_PROFILE)


def profile_of_file(path: str | Path) -> str:
    """The declared profile of a bundled gold file (by its path's end), else the default."""
    posix = Path(path).as_posix()
    return next((gold_profile(n) for n, f in GOLD_FILES.items() if posix.endswith(f)), DEFAULT_PROFILE)


@dataclass
class ProfiledGold:
    """Gold documents as a profile sees them, and per document the spans set aside."""

    profile: str
    docs: list[Document]
    disagreements: dict[str, list[Span]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """Counts of the spans set aside (ids and labels only)."""
        spans = [s for found in self.disagreements.values() for s in found]
        return {"spans": len(spans), "documents": sum(bool(v) for v in self.disagreements.values()),
                "by_label": dict(sorted(Counter(s.label for s in spans).items()))}  # fmt: skip


def under_profile(docs: Sequence[Document], profile: str, own_profile: str) -> ProfiledGold:
    """``docs`` (a gold set whose courts follow ``own_profile``) scored under ``profile``."""
    check_profile(profile)
    check_profile(own_profile)
    out, aside = [], {}
    for doc in docs:
        sensitive, keep, disagree = [], [], []
        for span in doc.spans:
            label = role_label(doc.text, span, dates=True, pages=True) if span.label in LABELS else span.label
            new = outcome(profile, label, doc.text[span.start : span.end])
            if new is not None:
                sensitive.append(span.with_label(new))
            elif profile == own_profile:
                disagree.append(span.with_label(label))
            else:
                keep.append(span.with_label(label))
        for span in doc.keep:
            # a printed place or street (deid.rewrite.gold.keep_labels.PRINTED_PLACES) has the
            # role its context gives, as a sensitive span has: an authority's seat or a place
            label = role_label(doc.text, span) if span.label in LABELS else span.label
            span = span.with_label(label)
            new = outcome(profile, label, doc.text[span.start : span.end]) if row_of(label) else None
            if new is None:
                keep.append(span)
            elif profile == own_profile:
                disagree.append(span)
            else:
                sensitive.append(span.with_label(new))
        # a firm's gold span is its whole name with the legal form, whatever the court
        # blanked ("T. Dienstleistungs GmbH"): the policy's one definition of its extent
        sensitive = extend_firms(doc.text, sensitive, version=GOLD_FIRM_EXTENT)
        out.append(replace(doc, spans=sorted(sensitive), keep=sorted(keep)))
        aside[doc.id] = sorted(disagree)
    return ProfiledGold(profile, out, aside)


def set_aside(predicted: Mapping[str, list[Span]], gold: ProfiledGold) -> dict[str, list[Span]]:
    """Predictions without those that touch a disagreement: they count neither way."""
    out = {}
    for doc_id, spans in predicted.items():
        aside = gold.disagreements.get(doc_id, [])
        out[doc_id] = [s for s in spans if not any(s.overlaps(a) for a in aside)] if aside else list(spans)
    return out
