"""Deterministic train/eval split of surrogate material.

Evaluation must measure entities the model never saw as surrogates in training, so every
gazetteer entry belongs to exactly one pool. The pool is a pure function of the entry
(stable hash of its case-folded form), so the split is the same on every machine and run,
and spelling variants of one entry ("toom Gartencenter"/"Toom Gartencenter") fall together.
"""

from __future__ import annotations

import hashlib

POOLS: tuple[str, ...] = ("all", "train", "eval")
EVAL_PERCENT = 20  # share of entries reserved for rewritten test sets


def pool_of(entry: str) -> str:
    """``"eval"`` for about ``EVAL_PERCENT`` % of entries, ``"train"`` for the rest."""
    key = " ".join(entry.casefold().split()).encode("utf-8")
    bucket = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") % 100
    return "eval" if bucket < EVAL_PERCENT else "train"


def in_pool(entry: str, pool: str) -> bool:
    """Whether ``entry`` may be used by a generator restricted to ``pool``."""
    if pool == "all":
        return True
    if pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r}; expected one of {POOLS}")
    return pool_of(entry) == pool
