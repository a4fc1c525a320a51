"""Operators neutralize already detected sensitive spans; they never detect anything.

The four neutralization methods (Schamberger 2019, 2.1, plus masking): ``remove`` (a
placeholder, as courts publish), ``label`` (the type, optionally numbered per entity),
``pseudonymize`` (keyed, type-faithful surrogates) and ``mask`` (the span's length in mask
characters). ``OPERATORS`` is the one explicit registry; ``anonymize_text`` the engine.
"""

from deid.anonymizer.operators.base import Operator, OperatorParams, Target
from deid.anonymizer.operators.engine import (
    AnonymizedText,
    DocumentAnonymizer,
    OperatorConfig,
    anonymize_text,
)
from deid.anonymizer.operators.label import LabelOperator, LabelParams
from deid.anonymizer.operators.mask import MaskOperator, MaskParams
from deid.anonymizer.operators.overlaps import merge_overlaps
from deid.anonymizer.operators.pseudonymize import PseudonymizeOperator, PseudonymizeParams
from deid.anonymizer.operators.registry import OPERATORS, check_operator
from deid.anonymizer.operators.remove import RemoveOperator, RemoveParams

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
