"""The keep policy (deid.policy) on long inputs: the same zones on real decisions as before
its patterns were bounded, and a 1 MB hyphenated word in linear time."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from deid.io import read_jsonl
from deid.policy import keep_zones
from deid.schema import PUBLIC_ENTITY
from tests.conftest import ROOT, read_source

GOLD = ("data/gold/ler_rewritten.jsonl", "data/gold/bavaria/rewritten.jsonl")
# sha256 of the keep zones of every bundled decision and both rewritten gold sets, computed
# before the web-address pattern's host labels were bounded to 63 characters
_GOLDEN = "ee9248b94d520d3d60946b1f31ca2ac58a62d28a10d9546fefd5bef9bc47b974"


def test_keep_zones_of_real_decisions_are_unchanged(sources: Path) -> None:
    paths = sorted((sources / "decisions").glob("*/*.txt.xz"))
    texts = [read_source(p.relative_to(sources).as_posix()) for p in paths]
    texts += [r["text"] for path in GOLD for r in read_jsonl(ROOT / path)]
    digest, count = hashlib.sha256(), 0
    for text in texts:
        zones = keep_zones(text)
        count += len(zones)
        digest.update(str([(z.start, z.end, z.label) for z in zones]).encode())
    assert (len(texts), count) == (354, 31098)
    assert digest.hexdigest() == _GOLDEN


@pytest.mark.timeout(120)  # linear: a second; the unbounded host pattern backtracked for hours
def test_a_1_mb_hyphenated_word_and_a_court_site_after_it() -> None:
    text = "Gericht-" * 125_000 + " siehe www.bverfg.de, Rn. 19"
    zones = keep_zones(text)
    site = text.index("www.bverfg.de")
    assert [(z.start, z.label) for z in zones if z.label == PUBLIC_ENTITY] == [
        (site, PUBLIC_ENTITY)
    ]
