"""What every operator shares: typed parameters, the span it neutralizes, the secret check.

Operators never detect anything: they get one already resolved span of the original text
and return the string that replaces it. One operator instance serves one document, so
stateful operators (indexed labels, pseudonyms) stay consistent within it.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deid.schema import Span

Secret = bytes | bytearray | str


@dataclass(frozen=True)
class OperatorParams:
    """Base of the per-operator parameter dataclasses (frozen, so hashable and shareable)."""

    def validate(self) -> None:
        """Raise ``ValueError`` for a setting the operator cannot honour."""

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> OperatorParams:
        """Parameters from a config section; unknown keys are an error, not ignored."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"{cls.__name__}: unknown parameters {unknown}; known {sorted(known)}")
        return cls(**values)


@dataclass(frozen=True)
class Target:
    """One span to neutralize, with read access to the original text around it.

    The text fields are left out of ``repr`` so a stray log line or traceback shows no
    document text.
    """

    span: Span
    text: str = field(repr=False)

    @property
    def label(self) -> str:
        return self.span.label

    @property
    def surface(self) -> str:
        return self.text[self.span.start : self.span.end]

    def before(self, window: int) -> str:
        return self.text[max(0, self.span.start - window) : self.span.start]

    def after(self, window: int) -> str:
        return self.text[self.span.end : self.span.end + window]


class Operator(ABC):
    """Turns one span into its replacement string. Subclasses set ``NAME`` and ``PARAMS``."""

    NAME: ClassVar[str]
    PARAMS: ClassVar[type[OperatorParams]]

    def __init__(
        self, params: OperatorParams | None = None, *, doc_id: str, secret: bytes | None = None
    ) -> None:
        self.params = params if params is not None else self.PARAMS()
        self.validate(self.params)
        self.doc_id = doc_id

    @classmethod
    def validate(cls, params: OperatorParams) -> None:
        """Check that ``params`` belong to this operator and make sense."""
        if not isinstance(params, cls.PARAMS):
            raise TypeError(
                f"operator {cls.NAME!r} takes {cls.PARAMS.__name__}, not {type(params).__name__}"
            )
        params.validate()

    @abstractmethod
    def operate(self, target: Target) -> str:
        """The replacement of ``target``'s span."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params!r}, doc_id={self.doc_id!r})"


def check_secret(secret: Secret | None) -> bytes | None:
    """The secret as bytes; an empty one is refused. Messages never quote the secret."""
    if secret is None:
        return None
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    elif isinstance(secret, (bytes, bytearray)):
        secret = bytes(secret)
    else:
        raise TypeError(f"the secret must be bytes or str, not {type(secret).__name__}")
    if not secret:
        raise ValueError("the secret key is empty; an empty key gives no protection")
    return secret
