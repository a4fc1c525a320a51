"""Removal: the span becomes a placeholder that shows nothing, as courts publish ("…")."""

from __future__ import annotations

from dataclasses import dataclass

from deid.anonymizer.operators.base import Operator, OperatorParams, Target

DEFAULT_PLACEHOLDER = "…"


@dataclass(frozen=True)
class RemoveParams(OperatorParams):
    """``placeholder``: what every removed span becomes (``""`` deletes the span)."""

    placeholder: str = DEFAULT_PLACEHOLDER

    def validate(self) -> None:
        if not isinstance(self.placeholder, str):
            raise TypeError("remove: placeholder must be a string")


class RemoveOperator(Operator):
    NAME = "remove"
    PARAMS = RemoveParams
    params: RemoveParams

    def operate(self, target: Target) -> str:
        return self.params.placeholder
