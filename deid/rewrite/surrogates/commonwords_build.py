"""Rebuild the common-word filter in ``commonwords.py`` from the LER corpus.

Gazetteers are noisy: the surname list holds "Herr", "Kläger", "Recht", the city list
"Grund", "Lage". A surrogate that is also an everyday word of court language confuses a
model ("Zeuge Recht"). A capitalized token the LER annotators tagged ``O`` at least
``min_count`` times, and at least twice as often as inside an entity, is such a word.
Only the non-reserved LER courts are read (bgh and bverwg are reserved for evaluation).

Run ``python -m deid.rewrite.surrogates.commonwords_build`` and paste its output into
``commonwords.py``; nothing here runs at import or in production.
"""

from __future__ import annotations

import lzma
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from deid.sources.corpus import RESERVED_LER
from deid.sources.ler import COURTS

NON_RESERVED_LER: tuple[str, ...] = tuple(c for c in COURTS if c not in RESERVED_LER)


def common_words(conll_paths: Iterable[Path], min_count: int = 3) -> set[str]:
    """Capitalized tokens mostly tagged ``O`` in the given IOB2 CoNLL files."""
    outside: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    for path in conll_paths:
        with lzma.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                parts = line.split()
                if len(parts) != 2:
                    continue
                token, tag = parts
                (outside if tag == "O" else inside)[token] += 1
    return {
        token
        for token, n in outside.items()
        if token[:1].isupper() and n >= min_count and n >= 2 * inside[token]
    }


def gazetteer_entries() -> set[str]:
    """Single-word entries of the name and city gazetteers (what the filter applies to)."""
    from deid.words.gazetteer import read_lines

    entries: set[str] = set()
    for name in ("surnames.txt.xz", "cities.txt.xz"):
        entries.update(read_lines(name))
    entries.update(line.split("\t", 1)[0] for line in read_lines("first_names.tsv.xz"))
    return {e for e in entries if " " not in e}


def main() -> None:
    root = Path(__file__).resolve().parents[3] / "data" / "sources" / "ler"
    words = common_words(root / f"{court}.conll.xz" for court in NON_RESERVED_LER)
    hits = sorted(words & gazetteer_entries())
    print(f"# {len(hits)} words (paste into GENERATED)")
    for i in range(0, len(hits), 8):
        print("    " + " ".join(f'"{w}",' for w in hits[i : i + 8]))


if __name__ == "__main__":
    main()
