"""The anonymization engine: detected spans in, neutralized text out.

Detection and anonymization meet only at a span (Presidio): this module resolves the spans,
picks one operator per span (a default plus an optional per-label map) and rewrites the
text with ``deid.sources.textedit.apply_replacements``, so every character outside the spans stays
exactly as it was. It logs ids and counts only, never text, surrogates or the mapping.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from deid.anonymizer.operators.base import Operator, OperatorParams, Secret, Target, check_secret
from deid.anonymizer.operators.overlaps import merge_overlaps
from deid.anonymizer.operators.registry import OPERATORS
from deid.schema import Span, coarse_label
from deid.sources.textedit import apply_replacements

logger = logging.getLogger(__name__)

ParamsLike = OperatorParams | Mapping[str, Any] | None


@dataclass(frozen=True)
class OperatorConfig:
    """An operator by registry name with its parameters (a dataclass or a config mapping)."""

    name: str
    params: ParamsLike = None


@dataclass(frozen=True)
class AnonymizedText:
    """The new text; ``spans`` the neutralized spans at their offsets in it (sorted, disjoint,
    label/score/source of the resolved input span); ``operators`` the operator name that
    produced each of them; ``replaced`` the input spans they replaced (overlaps merged), at
    their offsets in the input text, same order."""

    text: str
    spans: list[Span]
    operators: list[str]
    replaced: list[Span] = field(default_factory=list)

    def replacements(self) -> list[tuple[Span, str]]:
        """``(input span, its replacement)`` pairs: what a document format's writer needs to
        rewrite the original file (``deid.sources.formats``) instead of the plain text."""
        return [(old, self.text[new.start : new.end]) for old, new in zip(self.replaced, self.spans)]


def _config(value: str | OperatorConfig, params: ParamsLike = None) -> OperatorConfig:
    if isinstance(value, OperatorConfig):
        return value
    return OperatorConfig(value, params)


def _params(cls: type[Operator], params: ParamsLike) -> OperatorParams:
    if params is None:
        return cls.PARAMS()
    if isinstance(params, Mapping):
        return cls.PARAMS.from_mapping(params)
    return params


class DocumentAnonymizer:
    """The operators of one document.

    ``anonymize_text`` uses one for a whole text; keep one yourself to anonymize a document
    in parts (paragraph by paragraph) with label indices and pseudonyms consistent across
    the parts. ``per_label`` maps a label to another operator; a fine label (``IBAN``) not in
    the map falls back to its coarse type's entry (``ID``), then to the default operator.
    """

    def __init__(
        self,
        operator: str | OperatorConfig = "label",
        *,
        doc_id: str,
        secret: Secret | None = None,
        params: ParamsLike = None,
        per_label: Mapping[str, str | OperatorConfig] | None = None,
    ) -> None:
        self.doc_id = doc_id
        self._secret = check_secret(secret)
        self._instances: dict[tuple[str, OperatorParams], Operator] = {}
        self._default = self._build(_config(operator, params))
        self._per_label = {
            label: self._build(_config(value)) for label, value in (per_label or {}).items()
        }

    def __repr__(self) -> str:
        return f"DocumentAnonymizer(doc_id={self.doc_id!r}, operators={sorted(self._instances)})"

    def _build(self, config: OperatorConfig) -> Operator:
        """One instance per (operator, params), shared by the labels that use it, built
        up front so a bad configuration fails before any text is touched."""
        cls = OPERATORS.get(config.name)
        if cls is None:
            raise ValueError(
                f"unknown operator {config.name!r}; expected one of {sorted(OPERATORS)}"
            )
        params = _params(cls, config.params)
        key = (config.name, params)
        if key not in self._instances:
            self._instances[key] = cls(params, doc_id=self.doc_id, secret=self._secret)
        return self._instances[key]

    def operator_for(self, label: str) -> Operator:
        op = self._per_label.get(label) or self._per_label.get(coarse_label(label))
        return op or self._default

    def anonymize(self, text: str, spans: Iterable[Span]) -> AnonymizedText:
        """Neutralize ``spans`` of ``text`` (overlaps merged, see ``merge_overlaps``)."""
        spans = list(spans)
        for span in spans:
            if span.end > len(text):
                raise ValueError(
                    f"document {self.doc_id}: span {span.start}..{span.end} lies outside "
                    f"the text ({len(text)} characters)"
                )
        resolved = merge_overlaps(spans)
        replacements: list[tuple[Span, str]] = []
        names: list[str] = []
        for span in resolved:
            op = self.operator_for(span.label)
            replacements.append((span, op.operate(Target(span, text))))
            names.append(op.NAME)
        new_text, new_spans, _ = apply_replacements(text, replacements)
        logger.debug(
            "document %s: %d spans in, %d neutralized", self.doc_id, len(spans), len(new_spans)
        )
        return AnonymizedText(new_text, new_spans, names, [span for span, _ in replacements])


def anonymize_text(
    text: str,
    spans: Iterable[Span],
    operator: str | OperatorConfig = "label",
    *,
    doc_id: str,
    secret: Secret | None = None,
    params: ParamsLike = None,
    per_label: Mapping[str, str | OperatorConfig] | None = None,
) -> AnonymizedText:
    """Anonymize one whole document's ``text``: each span replaced by its operator's output.

    ``operator``/``params``: the default operator (registry name) and its parameters;
    ``per_label``: label -> operator name or ``OperatorConfig`` (Presidio's entity map);
    ``secret``: the pseudonymization key (required by ``pseudonymize``, never empty).
    """
    anonymizer = DocumentAnonymizer(
        operator, doc_id=doc_id, secret=secret, params=params, per_label=per_label
    )
    return anonymizer.anonymize(text, spans)
