"""Document-level consistency (deid.anonymizer.consistency) on long documents: the same spans as before
its cost was made linear in the document's length, and a 3 MB decision in seconds."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from deid.anonymizer.consistency import propagate
from deid.anonymizer.policy import keep_zones
from deid.schema import Document, Span
from deid.sources.io import read_jsonl
from tests.conftest import ROOT, read_source

GOLD = [
    ROOT / "data" / "gold" / "ler_rewritten.jsonl",
    ROOT / "data" / "gold" / "bavaria" / "rewritten.jsonl",
]
_CAPITALIZED = re.compile(r"\b[A-ZÄÖÜ][\w.\-]{2,}(?: [A-ZÄÖÜ]\w+)?")
# sha256 of propagate's output on both rewritten gold sets (gold spans as confident model
# spans; every 7th capitalized word or pair as a noisy model would give, with and without the
# vote), computed on the code before mentions were indexed instead of searched per variant;
# renewed when statute keep zones stopped at the line end (c6c86cc: 36 zones changed); the zones
# are keep_zones version 2's, so newer keep zones leave this test of propagate alone
_GOLDEN = "bb7da4a7c3d20226dec2b2874b904e7a32fd526aca9b252f040c38266c18356b"


def _noisy(text: str, every: int) -> list[Span]:
    """Confident model spans on capitalized words, PERSON and ORGANIZATION in turn."""
    return [
        Span(m.start(), m.end(), "PERSON" if i % 2 else "ORGANIZATION", 0.9, "model")
        for i, m in enumerate(_CAPITALIZED.finditer(text))
        if i % every == 0
    ]


@pytest.mark.slow
def test_spans_on_the_gold_sets_are_unchanged() -> None:
    docs = [Document.from_dict(r) for path in GOLD for r in read_jsonl(path)]
    assert len(docs) > 200
    digest, count = hashlib.sha256(), 0
    for doc in docs:
        zones = keep_zones(doc.text, version=2)
        gold = [Span(s.start, s.end, s.label, 0.95, "model") for s in doc.spans]
        noisy = _noisy(doc.text, 7)
        for spans, vote in ((gold, True), (noisy, True), (noisy, False)):
            kwargs = {"min_score": 0.7, "min_share": 0.25} if vote else {}
            out = propagate(doc.text, spans, blocked=zones, **kwargs)
            count += len(out)
            digest.update(str([(s.start, s.end, s.label, s.score, s.source) for s in out]).encode())
    assert count > 50_000
    assert digest.hexdigest() == _GOLDEN


@pytest.mark.timeout(60)  # linear: seconds; a search per variant and range took minutes
@pytest.mark.slow
def test_a_3_mb_decision_with_a_span_on_every_other_capitalized_word(sources: Path) -> None:
    decisions = "\n".join(
        read_source(p.relative_to(sources).as_posix())
        for p in sorted((sources / "decisions").glob("*/*.txt.xz"))
    )
    text = "\n".join([decisions] * (3_000_000 // len(decisions) + 1))[:3_000_000]
    spans = _noisy(text, 2)
    zones = keep_zones(text)
    assert len(spans) > 40_000 and len(zones) > 5_000
    out = propagate(text, spans, blocked=zones, min_score=0.7, min_share=0.25)
    added = [s for s in out if s.source == "consistency"]
    assert added and all(text[s.start : s.end] == text[s.start : s.end].strip() for s in added)
    assert all(a.end <= b.start for a, b in pairwise(added))  # never two on one mention


# --- every mention (issue 27, item 2): canaries in real decisions ---------------------------------


def _canary_run(
    version: int,
    found: str = "Jana Wolkenhammer",
    split: bool = False,
    without: tuple[str, ...] = (),
    recognizers: int = 9,
) -> list[tuple[int, str]]:
    """The rule chain (recognizers ``recognizers``, keep zones, filters, consistency
    ``version``; ``without`` the steps named) on the seven planted decisions, the model having
    found ``found`` once in each (at its introduction, score 0.9; ``split``: one span per word),
    then the ``label`` operator: per decision, the canary mentions left and the anonymized text.
    The recognizers are those of version 9 by default: from version 10 a recognizer reads "Die
    Klägerin Jana Wolkenhammer" itself (role_name), and its fine label wins the merge with the
    model's span; consistency spreads a fine label as its type only from version 4."""
    from dataclasses import replace as with_changes

    from deid.anonymizer.operators import anonymize_text
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline
    from tests.code import canaries

    config = PipelineConfig.rules_only().without(*without)
    versions = {"consistency": version, "recognizers": recognizers}
    chain = tuple(with_changes(s, version=versions[s.name]) if s.name in versions else s for s in config.chain)
    pipeline = build_pipeline(config=with_changes(config, chain=chain))
    texts = [canaries.planted(d) for d in canaries.DECISIONS]
    model = []
    for text in texts:
        at = text.index(found, text.index(canaries.FIRST) if found in canaries.FIRST else 0)
        # split: the model tagged each word as a name of its own ("Jana" "Wolkenhammer")
        words = [(at + m.start(), at + m.end()) for m in re.finditer(r"\S+", found)] if split else [(at, at + len(found))]
        model.append([Span(a, b, "PERSON", 0.9, "model") for a, b in words])
    out = []
    for text, spans in zip(texts, pipeline.analyze_many(texts, model)):
        anonymized = anonymize_text(text, spans, "label", doc_id="canary").text
        out.append((canaries.count(anonymized), anonymized))
    return out


@pytest.mark.slow
def test_a_name_found_once_is_neutralized_in_every_mention() -> None:
    """A made-up surname in seven real decisions, 105 mentions: after titles and roles,
    inflected, possessive, in capitals, hyphenated. The model finds the full name once per
    decision; consistency version 2 takes every other mention, none stays in clear."""
    from tests.code import canaries

    assert sum(canaries.count(canaries.planted(d)) for d in canaries.DECISIONS) >= 100
    results = _canary_run(2)
    assert [left for left, _ in results] == [0] * len(canaries.DECISIONS)
    assert "[PERSON" in results[0][1] and "Jana" not in results[0][1]
    titled = _canary_run(2, found="Frau Wolkenhammer")  # the span the model gave holds the title
    assert [left for left, _ in titled] == [0] * len(canaries.DECISIONS)
    newest = _canary_run(6, recognizers=10)  # the newest chain: a recognizer's name spreads as a person
    assert [left for left, _ in newest] == [0] * len(canaries.DECISIONS)


@pytest.mark.slow
def test_a_name_the_model_split_in_two_is_still_a_name_in_full() -> None:
    """A first name and a surname tagged as two names (what a small model trained on
    surnames alone does): version 3 takes them as the name in full and neutralizes every
    mention; version 2 saw two lone words, and a made-up surname that looks like a compound
    of ordinary words stayed in clear elsewhere. The extent step (a first name before a
    person span joins it) makes one name of them before consistency runs, so version 2 is
    run without it here; with it, version 2 neutralizes every mention too."""
    from tests.code import canaries

    assert [left for left, _ in _canary_run(3, split=True)] == [0] * len(canaries.DECISIONS)
    assert all(left > 0 for left, _ in _canary_run(2, split=True, without=("extent",)))
    assert [left for left, _ in _canary_run(2, split=True)] == [0] * len(canaries.DECISIONS)


@pytest.mark.slow
def test_consistency_version_1_left_mentions_in_clear() -> None:
    """What issue 27 found: version 1 propagates the exact string only, so the genitive, the
    capitals and a name found after its title stayed in clear."""
    left = [n for n, _ in _canary_run(1)]
    assert all(n > 0 for n in left), left
    assert all(n > 0 for n, _ in _canary_run(1, found="Frau Wolkenhammer"))


def _through_chain(text: str, found: list[tuple[str, str]], version: int) -> list[str]:
    """What the rule chain (recognizers@4, consistency at ``version``) neutralizes when the model
    found ``found`` (surface, label) once each, in order of the text."""
    from deid.anonymizer.chain import step
    from deid.anonymizer.pipeline import PipelineConfig, build_pipeline

    base = PipelineConfig.rules_only()
    chain = tuple(step("consistency", version) if s.name == "consistency" else s for s in base.chain)
    pipeline = build_pipeline(config=replace(base, chain=chain))
    model = [Span(text.index(s), text.index(s) + len(s), label, 0.99, "model") for s, label in found]
    return [text[s.start : s.end] for s in pipeline.analyze_many([text], [model])[0]]


def test_an_address_found_with_its_number_spreads_the_street_it_names() -> None:
    """A neighbours' dispute names the street of the plaintiffs' home with its number once and
    without it later ("Am Kirchplatz 4" … "in den Kirchplatz münden" … "des Kirchplatzes"), and
    a lawyer's postal code names the town again: version 4 takes every mention, a big city's
    postal code does not make an authority's seat sensitive; version 3 left them in clear
    (a street address was no type it spread, a street word an everyday word)."""
    text = (
        "Die Kläger sind Eigentümer des Grundstücks FlNr. 1183/2 (Am Kirchplatz 4). Die Zufahrt zur "
        "Tiefgarage soll in den Kirchplatz münden. Das Anwesen ist dem Verkehr des Kirchplatzes "
        "ausgesetzt. Die Zeugin wohnt Dorfstraße 11, 93083 Obertraubling; die Dorfstraße ist schmal, "
        "und in Obertraubling gibt es keinen Gehweg. Ihr Anwalt, Ludwigstraße 6, 93047 Regensburg, "
        "wandte sich an das Landratsamt Regensburg. Am Ring 5 ist ein Ring zu sehen."
    )
    new = _through_chain(text, [], 4)
    assert new == ["1183/2", "Am Kirchplatz 4", "Kirchplatz", "Kirchplatzes", "Dorfstraße 11",
                   "93083 Obertraubling", "Dorfstraße", "Obertraubling", "Ludwigstraße 6", "93047 Regensburg",
                   "Am Ring 5"]  # fmt: skip
    old = _through_chain(text, [], 3)
    # version 3 spread neither; "Dorfstraße" alone is street_name.v1's (recognizers@4)
    assert old == ["1183/2", "Am Kirchplatz 4", "Dorfstraße 11", "93083 Obertraubling", "Dorfstraße",
                   "Ludwigstraße 6", "93047 Regensburg", "Am Ring 5"]  # fmt: skip


def test_a_house_number_found_in_an_address_stands_for_it_again() -> None:
    """The Bavarian dev half's neighbours' dispute: "Ziegeleiweg 8, 10, 12, 14" found with the
    street, the later "Die Grundstücke 10, 12, 14" are the same houses (its gold marks them), and
    "das Anwesen Nr. 12" too. A number the document's addresses do not hold, one that is a
    plot's ("10/2") or counts something ("Haus 8 Tage"), stays; version 4 left them all."""
    text = (
        "Der Kläger ist Eigentümer der Grundstücke mit der Anschrift Ziegeleiweg 8, 10, 12, 14, "
        "96482 Ahorn. Die Grundstücke 10, 12, 14 sind teilweise mit Garagen bebaut. Das Anwesen Nr. 12 "
        "grenzt an die Grundstücke 20 und 10/2. Er blieb im Haus 8 Tage lang."
    )
    new = _through_chain(text, [], 5)
    old = _through_chain(text, [], 4)
    assert old == ["Ziegeleiweg 8", "10", "12", "14", "96482 Ahorn"]
    assert new == [*old, "10", "12", "14", "12"]


def test_a_surname_that_is_an_ordinary_word_spreads_after_a_persons_role() -> None:
    """The from-scratch dev set's tenancy dispute: the expert "Dipl.-Ing. (FH) Raimund Schäffler"
    is found in full, the later "des Sachverständigen Schäffler" is the same man, though
    "Schäffler" (a cooper) is an ordinary word; version 5 blocked it everywhere. Where no role
    stands before it ("der Schäffler tanzte"), the word stays."""
    text = (
        "Das Gericht hat ein Gutachten des Sachverständigen Dipl.-Ing. (FH) Raimund Schäffler eingeholt. "
        "Nach dem Gutachten des Sachverständigen Schäffler beruht der Schimmel auf einer Wärmebrücke. "
        "Beim Volksfest tanzte der Schäffler vor dem Rathaus."
    )
    found = [("Raimund Schäffler", "PERSON")]
    assert _through_chain(text, found, 5) == ["Raimund Schäffler"]
    assert _through_chain(text, found, 6) == ["Raimund Schäffler", "Schäffler"]


def _spread(text: str, found: list[tuple[str, str, str]], **version_7: bool) -> list[tuple[str, str]]:
    """``propagate`` as consistency@6 runs it, with version 7's flags; ``found`` holds
    (surface, label, source) of one span each, at the surface's last occurrence when the
    source is the model's (a partial reading of a later mention)."""
    spans = []
    for surface, label, source in found:
        start = text.rindex(surface) if source == "model" else text.index(surface)
        spans.append(Span(start, start + len(surface), label, 0.99, source))
    out = propagate(text, spans, every_mention=True, adjacent_names=True, addresses=True, house_numbers=True,
                    role_mentions=True, **version_7)  # fmt: skip
    return [(text[s.start : s.end], s.label) for s in out]


def test_version_7_spreads_a_partys_mark_found_in_quotes() -> None:
    """A trademark suit names the defendant's beer after the words of an injunction once (the
    brand recognizer's cue) and later bare in quotes; the mark is a party's (strict neutralizes it)."""
    text = (
        "Der Beklagten wird untersagt, Bier unter der Bezeichnung „Kellerfürstin“ anzubieten. "
        "Der Verkehr wird „Kellerfürstin“ allenfalls als weibliche Variante verstehen."
    )
    found = [("Kellerfürstin", "BRAND_NAME", "brand_name")]
    assert _spread(text, found, brands=True) == [("Kellerfürstin", "BRAND_NAME"), ("Kellerfürstin", "OTHER")]
    assert _spread(text, found) == [("Kellerfürstin", "BRAND_NAME")]  # version 6 spreads no mark


def test_version_7_grows_a_mention_over_the_part_the_model_read() -> None:
    """A farm lease names the lessee in full, later without its legal form, where the model read
    only the founder's name: the firm's name takes the part's place."""
    text = (
        "Der Kläger verpachtete die Hopfengärten an die Lehner Agrar GmbH mit Sitz in Wolnzach. "
        "Die Beiträge wurden ihm von der Lehner Agrar vollständig erstattet."
    )
    found = [("Lehner Agrar GmbH", "FIRM_NAME", "firm_name"), ("Lehner", "ORGANIZATION", "model")]
    assert _spread(text, found, grow_inside=True) == [("Lehner Agrar GmbH", "FIRM_NAME"), ("Lehner Agrar", "ORGANIZATION")]
    assert _spread(text, found) == [("Lehner Agrar GmbH", "FIRM_NAME"), ("Lehner", "ORGANIZATION")]


def test_version_7_spreads_an_identifiers_shape() -> None:
    """An authority numbers its files alike: the second file number's cue is too far for the
    recognizer, its shape is the first one's. A date, a shorter number and a number the model
    found (no recognizer's evidence) spread nothing."""
    text = (
        "Das Landratsamt ordnete mit Bescheiden vom 21.04.2021 (Az. 32-5620.1-0412/21) und vom 8. Februar "
        "2022 (Az. 32-5620.1-0093/22) die Reinigung an; die Akte 32-5620.1-0093 ist beigezogen."
    )
    found = [("32-5620.1-0412/21", "PERMIT_NUMBER", "permit_number")]
    assert _spread(text, found, id_shapes=True) == [("32-5620.1-0412/21", "PERMIT_NUMBER"), ("32-5620.1-0093/22", "PERMIT_NUMBER")]
    assert _spread(text, found) == [("32-5620.1-0412/21", "PERMIT_NUMBER")]
    by_model = [("32-5620.1-0412/21", "ID", "model")]
    assert _spread(text, by_model, id_shapes=True) == [("32-5620.1-0412/21", "ID")]
    dated = "Die Kundennummer 12.03.2019 steht im Vertrag vom 14.04.2020."  # a number shaped like a date
    assert _spread(dated, [("12.03.2019", "CONTRACT_NUMBER", "contract_number")], id_shapes=True) == [
        ("12.03.2019", "CONTRACT_NUMBER")]  # fmt: skip


def test_version_8_gives_the_mentions_it_found_their_whole_extent() -> None:
    """The witness is named by surname first and in full later, where the model read nothing:
    consistency finds the surname again after extent has run, and version 8 takes the first
    name before it in (version 7 left "Hans-Jürgen" in clear)."""
    import deid.anonymizer.components  # noqa: F401  (registers the chain's steps)
    from deid.anonymizer.chain import Chain, step

    text = (
        "Der Zeuge Eberl bestätigte die Zahlen. Nach dem Gutachten des Wirtschaftsprüfers "
        "Dipl.-Kfm. Hans-Jürgen Eberl war der Wert zu hoch."
    )
    found = [Span(text.index("Eberl"), text.index("Eberl") + len("Eberl"), "PERSON", 0.95, "model")]
    spread = {v: [text[s.start : s.end] for s in Chain([step("consistency", v)])(text, found)] for v in (7, 8)}
    assert spread[8] == ["Eberl", "Hans-Jürgen Eberl"]
    assert spread[7] == ["Eberl", "Eberl"]  # version 7 keeps its meaning
