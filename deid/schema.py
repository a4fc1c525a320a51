"""The data contract every part of deid shares: spans, documents and the label set.

Character offsets are the truth everywhere: a span's ``start``/``end`` index the document's
``text`` (Python string indices, end exclusive). Token labels, element labels and BIO tags are
all derived from spans, never stored as the primary form.

This module imports nothing from deid, so every other module may import it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

# --- sensitive types --------------------------------------------------------------------
# Coarse types: placeholder types inferred from context, model labels, gold span labels.
PERSON = "PERSON"
ORGANIZATION = "ORGANIZATION"
LOCATION = "LOCATION"
STREET = "STREET"  # street name, optionally with house number
DATE = "DATE"
MONEY = "MONEY"
ID = "ID"  # account, contract, file, permit, patent, tax numbers ...
CONTACT = "CONTACT"  # e-mail, phone, URL
OTHER = "OTHER"

LABELS: tuple[str, ...] = (
    PERSON,
    ORGANIZATION,
    LOCATION,
    STREET,
    DATE,
    MONEY,
    ID,
    CONTACT,
    OTHER,
)

# ``Span.source`` of token-classifier predictions (rules name themselves after their module).
MODEL_SOURCE = "model"

# Fine types produced by rule recognizers; each maps to one coarse type for evaluation
# and for the model's label space.
FINE_TO_COARSE: dict[str, str] = {
    "IBAN": ID,
    "BIC": ID,
    "TAX_ID": ID,
    "VAT_ID": ID,
    "SOCIAL_SECURITY_ID": ID,
    "LICENSE_PLATE": ID,
    "VEHICLE_ID": ID,
    "PATENT": ID,  # a party's own patent (the patent in suit)
    "UTILITY_MODEL": ID,  # ... its utility model
    "BRAND_NUMBER": ID,  # ... its trademark's register number
    "BRAND_NAME": OTHER,  # ... its mark's or product's name: die Marke „Bergkristall“
    "COMMERCIAL_REGISTER": ID,  # HRB 12345, VR 1234
    "LOCAL_BANK": ORGANIZATION,  # Sparkasse Deggendorf, Raiffeisenbank Freising-Nord eG
    "FIRM_NAME": ORGANIZATION,  # Gruber Hoch- und Tiefbau GmbH & Co. KG
    "OFFICER_NAME": PERSON,  # a police officer after the rank: PHM Gerstl
    "KIN_NAME": PERSON,  # a relative's first name after the kinship: ihre Kinder Jonas und Emilia
    "ROLE_NAME": PERSON,  # a full name after a noun naming the person: des Versicherungsvertreters …
    "PERMIT_NUMBER": ID,
    "CONTRACT_NUMBER": ID,
    "IP_ADDRESS": ID,  # über die IP-Adresse 84.153.27.196
    "PARCEL_NUMBER": ID,
    "STREET_ADDRESS": STREET,
    "STREET_NAME": STREET,  # a street without its number: "in der Lindenstraße"
    "POSTAL_TOWN": LOCATION,
    "PLACE_NAME": LOCATION,  # a village after its cue word: im Ortsteil Grub
    "EMAIL": CONTACT,
    "URL": CONTACT,
    "PHONE": CONTACT,
    "HANDLE": CONTACT,  # a user name on a platform: unter dem Nutzernamen „laaber_deals94“
    "DATE_OF_BIRTH": DATE,
    "DATE_OF_DEATH": DATE,
    "DATE_OF_MARRIAGE": DATE,
}

# --- insensitive ("keep") types ---------------------------------------------------------
# Entities a decision keeps in clear text: gold "keep" spans of the rewritten test sets.
JUDGE = "JUDGE"
COURT = "COURT"
LAW = "LAW"
CASE_REFERENCE = "CASE_REFERENCE"
LITERATURE = "LITERATURE"
PUBLIC_ENTITY = "PUBLIC_ENTITY"  # institutions, countries, public places and persons

KEEP_LABELS: tuple[str, ...] = (JUDGE, COURT, LAW, CASE_REFERENCE, LITERATURE, PUBLIC_ENTITY)

# --- roles that the anonymization profiles decide on (deid.anonymizer.profiles) -----------
# A name whose fate depends on the profile: neutralized under ``strict`` (as the type of
# ROLE_TYPES), kept under ``federal``, where the federal courts print them.
LAWYER = "LAWYER"  # lawyers, patent attorneys, tax advisers, insolvency administrators
SEAT = "SEAT"  # the place in the name of an authority or a lower court ("Landratsamt Ebersberg")
BRAND = "BRAND"  # a party's own marks, brands and products
ROLE_LABELS: tuple[str, ...] = (LAWYER, SEAT, BRAND)
ROLE_TYPES: dict[str, str] = {LAWYER: PERSON, SEAT: LOCATION, BRAND: OTHER}
# Roles that only the policy reads from a span's context (deid.words.roles): a date other than
# one of birth, death or marriage (a letter's, a hearing's), and a place in the court file
# ("Bl. 214", "Anlage K 3") that a model took for an identifier. Never predicted; both profiles
# keep them. And a web page's address with a path ("https://de.wikipedia.org/wiki/Lack"): a
# source the decision cites, or a party's media, which ``federal`` prints (not a profile on a
# social network, which is a handle).
EVENT_DATE = "EVENT_DATE"
FILE_REFERENCE = "FILE_REFERENCE"
WEB_PAGE = "WEB_PAGE"

# The anonymization policy's profiles (docs/anonymization-policy.md; their table:
# deid.anonymizer.profiles): ``strict``, the default, and ``federal``.
PROFILES: tuple[str, ...] = ("strict", "federal")

# What a token classifier predicts: the sensitive types, the insensitive entity types it
# learns to tell apart from them (a judge's name, a court, a law), and the roles a profile
# decides on. The first and the last are predicted as spans; the keep types give the model
# many more labelled examples of what names and legal references look like.
MODEL_LABELS: tuple[str, ...] = LABELS + KEEP_LABELS + ROLE_LABELS
# What a token classifier reports as spans: everything a profile may neutralize.
SPAN_LABELS: tuple[str, ...] = LABELS + ROLE_LABELS

# Who reviewed (a saved review, a registry move): one word of letters, digits, ". _ @ -", at
# most 64 characters, so it is a name and not a sentence.
REVIEWER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")


def coarse_label(label: str) -> str:
    """Map a fine recognizer label (``IBAN``) to its coarse type (``ID``); coarse stays."""
    return FINE_TO_COARSE.get(label, label)


# Every label a span may carry anywhere (analysis, the API, the review page, saved reviews):
# the coarse types and the fine ones that map to them. The one vocabulary; what a reader
# sees of a label ([ID] for an IBAN) is its coarse type.
SENSITIVE_LABELS: frozenset[str] = frozenset(LABELS) | frozenset(FINE_TO_COARSE)


def unknown_labels(labels: Iterable[str]) -> list[str]:
    """The labels of ``labels`` outside :data:`SENSITIVE_LABELS`, sorted, each once."""
    return sorted({label for label in labels if label not in SENSITIVE_LABELS})


def bio_labels(labels: Iterable[str] = LABELS) -> tuple[str, ...]:
    """The fixed BIO tag set for token classification: ``O`` then ``B-X``/``I-X`` per type.

    Fixed here (not derived from a data split) so a type missing from one split never
    renumbers the others.
    """
    tags = ["O"]
    for label in labels:
        tags += [f"B-{label}", f"I-{label}"]
    return tuple(tags)


@dataclass(frozen=True, order=True)
class Span:
    """A labelled character range ``text[start:end]``; carries no text on purpose."""

    start: int
    end: int
    label: str
    score: float | None = field(default=None, compare=False)
    source: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not (0 <= self.start <= self.end):
            raise ValueError(f"invalid span offsets {self.start}..{self.end}")

    @property
    def length(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def with_label(self, label: str) -> Span:
        return replace(self, label=label)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": self.start, "end": self.end, "label": self.label}
        if self.score is not None:
            out["score"] = round(float(self.score), 4)
        if self.source is not None:
            out["source"] = self.source
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Span:
        return cls(
            start=int(data["start"]),
            end=int(data["end"]),
            label=str(data["label"]),
            score=data.get("score"),
            source=data.get("source"),
        )


# Recognizers that only back the model up on names it may miss (recognizers@10: a relative's
# first name after the kinship, a full name after a noun naming the person): where the model
# found the name too, its label and source stand, with the role it gave ("LAWYER").
BACKUP_NAME_LABELS = frozenset({"KIN_NAME", "ROLE_NAME"})


def merge_spans(model_spans: Iterable[Span], rule_spans: Iterable[Span]) -> list[Span]:
    """Union of both sources as non-overlapping spans. Where they overlap, the range is the
    union and the label is the recognizer's (a validated identifier beats a token guess), but
    for a name of :data:`BACKUP_NAME_LABELS`, where the model's stands."""
    tagged = [(s, 0) for s in model_spans] + [(s, 1) for s in rule_spans]
    tagged.sort(key=lambda t: (t[0].start, -t[0].end))
    out: list[tuple[Span, int]] = []
    for span, prio in tagged:
        if out and span.start < out[-1][0].end:
            prev, pprio = out[-1]
            # the later span's label when it is the recognizer's, or the model's over a backup name
            take = (prio > pprio and span.label not in BACKUP_NAME_LABELS) or (
                pprio > prio and prev.label in BACKUP_NAME_LABELS
            )
            label = span.label if take else prev.label
            source = span.source if take else prev.source
            score = max(prev.score or 0.0, span.score or 0.0)
            out[-1] = (Span(prev.start, max(prev.end, span.end), label, score, source), max(prio, pprio))
            continue
        out.append((span, prio))
    return [s for s, _ in out]


def spans_to_dicts(spans: Iterable[Span]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in sorted(spans)]


def spans_from_dicts(items: Iterable[dict[str, Any]] | None) -> list[Span]:
    return sorted(Span.from_dict(d) for d in (items or []))


@dataclass
class Document:
    """One decision. ``entities`` are source annotations (e.g. LER tags), ``spans`` gold
    sensitive spans, ``keep`` gold insensitive entities; all index ``text``."""

    id: str
    text: str
    court: str | None = None
    source: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    entities: list[Span] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    keep: list[Span] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "text": self.text, "meta": dict(self.meta)}
        if self.court is not None:
            out["court"] = self.court
        if self.source is not None:
            out["source"] = self.source
        for name in ("entities", "spans", "keep"):
            value = getattr(self, name)
            if value:
                out[name] = spans_to_dicts(value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Document:
        if "id" not in data or "text" not in data:
            raise ValueError("a document needs 'id' and 'text'")
        if not isinstance(data["text"], str):
            raise ValueError(f"document {data['id']!s}: 'text' must be a string")
        meta = dict(data.get("meta") or {})
        return cls(
            id=str(data["id"]),
            text=data["text"],
            court=data.get("court", meta.get("court")),
            source=data.get("source", meta.get("source")),
            meta=meta,
            entities=spans_from_dicts(data.get("entities")),
            spans=spans_from_dicts(data.get("spans")),
            keep=spans_from_dicts(data.get("keep")),
        )
