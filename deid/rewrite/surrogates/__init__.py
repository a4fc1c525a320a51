"""Type-faithful, document-consistent German surrogates for placeholders and entities.

Used three ways: rewriting reserved decisions into test sets (``pool="eval"``), replacing
placeholders anew in every training epoch (``pool="train"``, a new ``epoch`` each time), and
pseudonymization in production (``DocumentSurrogates(..., secret=key)``). Importing this
package loads no gazetteer; the first surrogate does.
"""

from deid.rewrite.surrogates.document import DocumentSurrogates, derive_rng, keyed_rng
from deid.rewrite.surrogates.generator import SurrogateGenerator
from deid.rewrite.surrogates.pools import POOLS, pool_of
from deid.rewrite.surrogates.registry import GENERATORS, LABEL_GENERATORS, generator_name
from deid.rewrite.surrogates.substitute import substitute

__all__ = [
    "GENERATORS",
    "LABEL_GENERATORS",
    "POOLS",
    "DocumentSurrogates",
    "SurrogateGenerator",
    "derive_rng",
    "generator_name",
    "keyed_rng",
    "pool_of",
    "substitute",
]
