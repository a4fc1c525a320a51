"""Document-consistent surrogates: one mapping per document, derived from a seed (training,
test sets) or from a secret key (pseudonymization).

Each placeholder's surrogate comes from its own random stream, derived from (seed, epoch,
document, label, normalized surface) or HMAC(secret, document, label, normalized surface):
a new epoch gives new surrogates, a re-run with the same key the same pseudonyms, and a
surrogate does not depend on the other placeholders, except where the document links them
on purpose (a surname shared by "A. G." and "G.") or a collision forces a redraw.
"""

from __future__ import annotations

import hashlib
import hmac
from random import Random

from deid.rewrite.surrogates.generator import SurrogateGenerator
from deid.rewrite.surrogates.request import Memory
from deid.rewrite.surrogates.surface import normalize, shows_nothing
from deid.schema import CONTACT, DATE, ID, MONEY, coarse_label

MAX_COLLISION_TRIES = 20
_VALUE_LABELS = (DATE, MONEY, ID, CONTACT)
_SEP = "\x1f"


def derive_rng(*parts: object, key: bytes | None = None) -> Random:
    """A random stream that is a pure function of ``parts`` (and the secret ``key``)."""
    data = _SEP.join(str(p) for p in parts).encode("utf-8")
    if key is None:
        digest = hashlib.blake2b(data, digest_size=16).digest()
    else:
        digest = hmac.new(key, data, hashlib.sha256).digest()[:16]
    return Random(int.from_bytes(digest, "big"))


def keyed_rng(secret: bytes, doc_id: str, label: str, surface: str, attempt: int = 0) -> Random:
    """The pseudonymization stream of one entity: HMAC of key, document and surface."""
    return derive_rng(doc_id, label, normalize(surface), attempt, key=secret)


class DocumentSurrogates:
    """Surrogates of one document: the same placeholder (label + normalized surface) always
    gets the same surrogate, different placeholders different ones, and surname-only
    mentions reuse the surname of the full name with the same initials. Placeholders that
    show nothing ("…") are told apart by their role word or occurrence (see ``_key``)."""

    def __init__(
        self,
        generator: SurrogateGenerator,
        doc_key: str,
        epoch: int = 0,
        secret: bytes | None = None,
    ) -> None:
        if secret is not None and not secret:
            raise ValueError("an empty secret gives no protection")
        self.generator = generator
        self.doc_key = doc_key
        self.epoch = epoch
        self._secret = secret
        self._memory = Memory()
        self._by_key: dict[tuple[str, str], str] = {}
        self._owner: dict[str, tuple[str, str]] = {}  # folded surrogate -> key that owns it
        self._occurrences = 0

    def __len__(self) -> int:
        return len(self._by_key)

    def _rng(self, label: str, norm: str, attempt: int) -> Random:
        if self._secret is not None:
            return derive_rng(self.doc_key, label, norm, attempt, key=self._secret)
        return derive_rng(self.generator.seed, self.epoch, self.doc_key, label, norm, attempt)

    def _key(self, label: str, surface: str, context: str) -> str:
        """Normalized surface; for a placeholder that shows nothing ("…"), the role word
        before it for entities ("Rechtsanwalt …" recurs as one person), and the occurrence
        for values (every "… €" its own amount, every "Flur-Nr. …" its own number)."""
        norm = normalize(surface)
        if not shows_nothing(surface):
            return norm
        words = context.split()
        anchor = words[-1].strip(".,;:()[]„“\"'") if words else ""
        if coarse_label(label) not in _VALUE_LABELS and len(anchor) >= 3 and anchor[0].isupper():
            return f"{norm}{_SEP}{anchor}"
        self._occurrences += 1
        return f"{norm}{_SEP}#{self._occurrences}"

    def surrogate(
        self, label: str, surface: str, context: str = "", after: str | None = None
    ) -> str:
        """The document's surrogate for this placeholder (generated on first use)."""
        key = (label, self._key(label, surface, context))
        known = self._by_key.get(key)
        if known is not None:
            return known
        out = ""
        for attempt in range(MAX_COLLISION_TRIES):
            rng = self._rng(label, key[1], attempt)
            out = self.generator.generate(
                label, surface, context, rng, after=after, memory=self._memory
            )
            if out.casefold() not in self._owner:
                break
        self._by_key[key] = out
        self._owner.setdefault(out.casefold(), key)
        return out
