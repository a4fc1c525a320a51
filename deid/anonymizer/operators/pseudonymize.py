"""Pseudonymization: realistic surrogates of the span's type, keyed by a secret.

A surrogate is a pure function of HMAC(secret, document id, label, normalized surface)
(see ``deid.rewrite.surrogates.document``): re-runs with the same key agree, another key gives
other pseudonyms, the same entity gets the same pseudonym throughout the document, and the
same name in another document gets another one. Without the key nobody can recompute the
mapping from a list of candidate names, so a key is required.
"""

from __future__ import annotations

from dataclasses import dataclass

from deid.anonymizer.operators.base import Operator, OperatorParams, Target
from deid.rewrite.surrogates import POOLS, DocumentSurrogates, SurrogateGenerator
from deid.rewrite.surrogates.substitute import CONTEXT_WINDOW


@dataclass(frozen=True)
class PseudonymizeParams(OperatorParams):
    """``pool``: gazetteer pool ("all" in production); ``window``: characters of context
    on each side the generators may read (gender cues, "IBAN", "am")."""

    pool: str = "all"
    window: int = CONTEXT_WINDOW

    def validate(self) -> None:
        if self.pool not in POOLS:
            raise ValueError(f"pseudonymize: pool must be one of {POOLS}")
        if not isinstance(self.window, int) or self.window < 0:
            raise ValueError("pseudonymize: window must be a non-negative integer")


class PseudonymizeOperator(Operator):
    """Type-faithful surrogates: the generator follows the span label, fine labels (IBAN,
    PHONE) get their own generator, others fall back to their coarse type."""

    NAME = "pseudonymize"
    PARAMS = PseudonymizeParams
    params: PseudonymizeParams

    def __init__(
        self,
        params: PseudonymizeParams | None = None,
        *,
        doc_id: str,
        secret: bytes | None = None,
    ) -> None:
        super().__init__(params, doc_id=doc_id)
        if secret is None:
            raise ValueError("pseudonymize needs a secret key (secret=...)")
        generator = SurrogateGenerator(pool=self.params.pool)
        self._surrogates = DocumentSurrogates(generator, doc_id, secret=secret)

    def operate(self, target: Target) -> str:
        window = self.params.window
        return self._surrogates.surrogate(
            target.label, target.surface, target.before(window), target.after(window)
        )
