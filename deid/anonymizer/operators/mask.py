"""Masking: every character of the span becomes the mask character, so the layout (line
lengths, offsets after the span) stays as it was."""

from __future__ import annotations

from dataclasses import dataclass

from deid.anonymizer.operators.base import Operator, OperatorParams, Target

DEFAULT_MASK_CHAR = "█"


@dataclass(frozen=True)
class MaskParams(OperatorParams):
    """``char``: one visible character, repeated to the span's length (in code points)."""

    char: str = DEFAULT_MASK_CHAR

    def validate(self) -> None:
        if not isinstance(self.char, str) or len(self.char) != 1 or self.char.isspace():
            raise ValueError("mask: char must be exactly one visible character")


class MaskOperator(Operator):
    NAME = "mask"
    PARAMS = MaskParams
    params: MaskParams

    def operate(self, target: Target) -> str:
        return self.params.char * target.span.length
