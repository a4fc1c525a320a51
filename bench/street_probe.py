"""Streets a new user writes: how many of OpenStreetMap's street names the pipeline neutralizes
whole, in sentences written like a Bavarian decision's (issue 26: the sealed Bavarian half
finds 0.28 of its streets).

    python -m bench.street_probe --model models/champion [--streets 300] [--seed 29] \\
        [--pool eval] [--output reports/street_probe.json]

``--streets`` names are drawn from the bundled OpenStreetMap list (``--pool``: ``eval``, the
fifth no training surrogate came from, by default) and each is written into two of the frames
below, a house number or a town beside it as a decision writes them. The model runs once per
sentence; each chain variant then runs on those cached spans (``Pipeline.analyze_many``), so the
rows differ only in the rules:

* ``saved``: the pipeline's chain as it was gated;
* ``before``: the same chain with ``recognizers@5`` and ``extent@1`` (the chain before the tenth
  session's street rules), where the saved chain has newer ones;
* ``model only``: every rule removed.

Per row: ``whole`` (every character of the street's name inside a neutralized span), ``any``
(some character of it), and ``outside`` (neutralized spans that touch neither the street, its
number nor its town: words of the frame, false positives). The rules of ``extent@2`` and
``street_name.v2`` were chosen on probes of the train pool's streets in other frames (a local
instrument, docs/results.md); these frames were written after them and never tuned a rule.

Only counts are written: no sentence, no street name.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from deid.anonymizer.chain import step
from deid.anonymizer.components import EXTENT, MODEL, RECOGNIZERS
from deid.anonymizer.pipeline import Pipeline, PipelineConfig, build_pipeline
from deid.rewrite.surrogates.gazetteers import Gazetteers
from deid.schema import Span

# {street}, {number} and {town}: a frame where any street's name reads as German does ("Am
# Anger", "Alte Poststraße", "Rosenweg"), with or without its number
FRAMES: tuple[str, ...] = (
    "Der Kläger ist Eigentümer des Anwesens {street} {number} in {town}.",
    "Die Beklagte wohnt seit 2019 unter der Anschrift {street} {number}, {town}.",
    "Der Unfall ereignete sich im Einmündungsbereich {street} in {town}.",
    "Das streitgegenständliche Grundstück liegt an der Straße {street} am Ortsrand von {town}.",
    "Die Zeugin gab an, sie sei zu Fuß über die Kreuzung {street} gegangen, als das Fahrzeug kam.",
    "Der Angeklagte suchte die Wohnung des Geschädigten in {town}, {street} {number}, auf.",
    "Mit Bescheid vom 4. Mai 2021 untersagte die Stadt {town} die Nutzung des Gebäudes {street} {number}.",
    "Der Beigeladene betreibt auf dem Grundstück {street} {number} eine Gaststätte.",
)


def sentences(
    streets: Sequence[str], seed: int, towns: Sequence[str]
) -> list[tuple[str, Span, list[Span]]]:
    """Two sentences per street: the text, the street's span and the spans of its number and
    town (what a neutralized span may touch besides the street)."""
    rng = random.Random(seed)
    out: list[tuple[str, Span, list[Span]]] = []
    for street in streets:
        for frame in rng.sample(FRAMES, 2):
            values = {
                "street": street,
                "number": str(rng.randint(1, 120)),
                "town": rng.choice(towns),
            }
            text, spans = fill(frame, values)
            out.append((text, spans["street"], [s for k, s in spans.items() if k != "street"]))
    return out


def fill(frame: str, values: dict[str, str]) -> tuple[str, dict[str, Span]]:
    """``frame`` with its ``{key}`` placeholders filled from ``values``, and each value's span."""
    text, spans = "", {}
    for literal, key in _parts(frame):
        text += literal
        if key:
            spans[key] = Span(len(text), len(text) + len(values[key]), key.upper())
            text += values[key]
    return text, spans


def _parts(frame: str) -> list[tuple[str, str]]:
    """``frame`` as (literal, placeholder key) pairs; the last key may be empty."""
    parts, rest = [], frame
    while "{" in rest:
        literal, rest = rest.split("{", 1)
        key, rest = rest.split("}", 1)
        parts.append((literal, key))
    parts.append((rest, ""))
    return parts


def score(
    found: Sequence[list[Span]], probes: Sequence[tuple[str, Span, list[Span]]]
) -> dict[str, Any]:
    """Whole, any and outside counts of one chain's spans on the probe sentences."""
    whole = anyhit = outside = 0
    for spans, (_, street, others) in zip(found, probes):
        covered = set()
        for s in spans:
            covered.update(range(max(s.start, street.start), min(s.end, street.end)))
            if not any(s.start < o.end and o.start < s.end for o in (street, *others)):
                outside += 1
        whole += len(covered) == street.end - street.start
        anyhit += bool(covered)
    n = len(probes)
    return {"sentences": n, "whole": whole, "whole_share": round(whole / n, 3), "any": anyhit,
            "any_share": round(anyhit / n, 3), "outside": outside}  # fmt: skip


# the versions before the tenth session's street rules
BEFORE = {RECOGNIZERS: 5, EXTENT: 1}


def variants(config: PipelineConfig, versions: Mapping[str, int] = BEFORE) -> dict[str, PipelineConfig]:
    """The saved chain, the chain with the earlier ``versions`` (by default those before the
    street rules), and the model alone."""
    before = tuple(step(s.name, versions[s.name], **s.overrides()) if s.version > versions.get(s.name, s.version) else s
                   for s in config.chain)  # fmt: skip
    rules = [s.name for s in config.chain if s.name != MODEL]
    return {
        "saved": config,
        "before": replace(config, chain=before),
        "model only": config.without(*rules),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a saved pipeline directory")
    parser.add_argument("--streets", type=int, default=300)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--pool", default="eval", choices=("train", "eval"))
    parser.add_argument("--output", type=Path, default=Path("reports/street_probe.json"))
    args = parser.parse_args(argv)

    gazetteers = Gazetteers(args.pool)
    rng = random.Random(args.seed)
    streets = [gazetteers.streets.sample(rng) for _ in range(args.streets)]
    towns = [gazetteers.simple_cities.sample(rng) for _ in range(50)]
    probes = sentences(streets, args.seed, towns)
    pipeline = build_pipeline(args.model)
    rows, chains = run_rows(pipeline, [text for text, _, _ in probes], lambda found: score(found, probes))
    report = {"streets": args.streets, "seed": args.seed, "pool": args.pool, "frames": len(FRAMES),
              "profile": pipeline.config.profile, "chains": chains, "rows": rows}  # fmt: skip
    return write_report(report, args.output)


def run_rows(
    pipeline: Pipeline, texts: Sequence[str], scored: Callable[[list[list[Span]]], dict[str, Any]],
    versions: Mapping[str, int] = BEFORE,
) -> tuple[dict[str, Any], dict[str, str]]:  # fmt: skip
    """Each variant's counts (``scored`` of its spans) and chain, the model run once."""
    model_spans = pipeline.model_spans(texts)
    rows, chains = {}, {}
    for name, config in variants(pipeline.config, versions).items():
        rows[name] = scored(Pipeline(pipeline.classifier, config).analyze_many(texts, model_spans=model_spans))
        chains[name] = ",".join(f"{s.name}@{s.version}" for s in config.chain)
    return rows, chains


def write_report(report: dict[str, Any], output: Path) -> dict[str, Any]:
    """``report`` as JSON at ``output``; its rows printed."""
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report["rows"], indent=2))
    return report


if __name__ == "__main__":
    main()
