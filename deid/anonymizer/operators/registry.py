"""The one explicit registry of operators by name (a module of its own, so that the engine,
which looks operators up here, and the package, which re-exports both, form no import cycle)."""

from __future__ import annotations

from deid.anonymizer.operators.base import Operator
from deid.anonymizer.operators.label import LabelOperator
from deid.anonymizer.operators.mask import MaskOperator
from deid.anonymizer.operators.pseudonymize import PseudonymizeOperator
from deid.anonymizer.operators.remove import RemoveOperator

OPERATORS: dict[str, type[Operator]] = {
    "remove": RemoveOperator,
    "label": LabelOperator,
    "pseudonymize": PseudonymizeOperator,
    "mask": MaskOperator,
}


def check_operator(name: str | None) -> None:
    """Refuse an operator name the registry does not know, before any input is read (else
    every document would fail on it and be quarantined). ``None``: the pipeline's default."""
    if name is not None and name not in OPERATORS:
        raise ValueError(f"unknown operator {name!r}: use one of {', '.join(sorted(OPERATORS))}")
