"""Operators neutralize already detected sensitive spans; they never detect anything.

The four neutralization methods (Schamberger 2019, 2.1, plus masking): ``remove`` (a
placeholder, as courts publish), ``label`` (the type, optionally numbered per entity),
``pseudonymize`` (keyed, type-faithful surrogates) and ``mask`` (the span's length in mask
characters). ``OPERATORS`` is the one explicit registry; ``anonymize_text`` the engine.
"""

from deid.operators.base import Operator, OperatorParams, Target
from deid.operators.label import LabelOperator, LabelParams
from deid.operators.mask import MaskOperator, MaskParams
from deid.operators.overlaps import merge_overlaps
from deid.operators.pseudonymize import PseudonymizeOperator, PseudonymizeParams
from deid.operators.remove import RemoveOperator, RemoveParams

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


# The engine looks operators up in OPERATORS, so it is imported once the registry exists.
from deid.operators.engine import (
    AnonymizedText,
    DocumentAnonymizer,
    OperatorConfig,
    anonymize_text,
)

__all__ = [
    "OPERATORS",
    "AnonymizedText",
    "DocumentAnonymizer",
    "LabelOperator",
    "LabelParams",
    "MaskOperator",
    "MaskParams",
    "Operator",
    "OperatorConfig",
    "OperatorParams",
    "PseudonymizeOperator",
    "PseudonymizeParams",
    "RemoveOperator",
    "RemoveParams",
    "Target",
    "anonymize_text",
    "check_operator",
    "merge_overlaps",
]
