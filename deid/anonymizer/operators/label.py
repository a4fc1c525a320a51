"""Categorization: the span becomes its type, "[PERSON]", or with ``indexed`` its entity
number, "[PERSON_1]", so a reader can still tell two parties apart. The type is the coarse
one (``deid.schema.coarse_label``): an IBAN reads "[ID]" and a street address "[STREET]"
wherever it was found (rules, model, a reviewer), so the CLI, the flows, the service and the
review page write one spelling."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from deid.anonymizer.operators.base import Operator, OperatorParams, Target
from deid.schema import coarse_label

_DOT_SPACE_RE = re.compile(r"\s*([.\-])\s*")


def entity_key(surface: str) -> str:
    """Spelling-insensitive identity of a mention: Unicode (NFC/NFD), case, runs of
    whitespace and spaces around dots and hyphens do not matter ("A. G." = "a.g.")."""
    text = " ".join(unicodedata.normalize("NFC", surface).split())
    return _DOT_SPACE_RE.sub(r"\1", text).rstrip(".").casefold()


@dataclass(frozen=True)
class LabelParams(OperatorParams):
    """``indexed``: number entities per label in order of first appearance."""

    indexed: bool = False

    def validate(self) -> None:
        if not isinstance(self.indexed, bool):
            raise TypeError("label: indexed must be true or false")


class LabelOperator(Operator):
    """Same label and same ``entity_key`` = same entity = same index within the document."""

    NAME = "label"
    PARAMS = LabelParams
    params: LabelParams

    def __init__(self, params: LabelParams | None = None, **kwargs) -> None:
        super().__init__(params, **kwargs)
        self._index: dict[tuple[str, str], int] = {}
        self._count: dict[str, int] = {}

    def operate(self, target: Target) -> str:
        label = coarse_label(target.label)
        if not self.params.indexed:
            return f"[{label}]"
        key = (label, entity_key(target.surface))
        if key not in self._index:
            self._count[label] = self._count.get(label, 0) + 1
            self._index[key] = self._count[label]
        return f"[{label}_{self._index[key]}]"
