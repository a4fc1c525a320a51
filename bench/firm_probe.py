"""Firms a new user writes: how many of OpenStreetMap's business names, with a legal form after
them, the pipeline neutralizes whole, in sentences written like a Bavarian decision's (issue 26:
firms were found at 0.57 when it was filed, and "[ORGANIZATION] GmbH" left the form in clear).

    python -m bench.firm_probe --model models/champion [--firms 300] [--seed 31] \\
        [--pool eval] [--output reports/firm_probe.json]

``--firms`` names are drawn from the bundled OpenStreetMap list of businesses (``--pool``:
``eval``, the fifth no training surrogate came from, by default), each given a legal form and
written into one of the frames below, a town beside some. The model runs once per sentence; each
chain variant then runs on those cached spans, so the rows differ only in the rules:

* ``saved``: the pipeline's chain as it was gated;
* ``before``: the same chain with ``recognizers@6`` and ``legal_form@2`` (the chain before the
  eleventh session's rules), where the saved chain has newer ones;
* ``model only``: every rule removed.

Per row: ``whole`` (every character of the firm's name and legal form inside a neutralized
span), ``name`` (every character of the name, the form aside), ``any`` (some character of it),
and ``outside`` (neutralized spans that touch neither the firm nor its town). ``legal_form@3``
was chosen on a local probe of the train pool's businesses in other frames (docs/results.md);
these frames were written after it and never tuned a rule.

Only counts are written: no sentence, no firm's name.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.street_probe import fill, run_rows, write_report
from deid.anonymizer.components import LEGAL_FORM, RECOGNIZERS
from deid.anonymizer.pipeline import build_pipeline
from deid.rewrite.surrogates.gazetteers import Gazetteers
from deid.schema import Span

# {firm} and {town}: frames where a firm's name stands as a Bavarian decision writes it
FRAMES: tuple[str, ...] = (
    "Die Beklagte, die {firm}, wurde mit Schreiben vom 2. Februar 2022 zur Zahlung aufgefordert.",
    "Der Zeuge ist Geschäftsführer der {firm} mit Sitz in {town}.",
    "Am 14. Oktober 2021 schloss der Kläger mit der {firm} einen Werkvertrag über die Sanierung des Daches.",
    "Die Arbeitgeberin des Klägers, die {firm}, kündigte das Arbeitsverhältnis zum 30. Juni 2023.",
    "Ausweislich des Handelsregisters ist die {firm} seit 2017 im Raum {town} tätig.",
    "Die Lieferung erfolgte durch die {firm}, die die Ware am Folgetag in {town} auslieferte.",
    "Der Angeklagte hatte zuvor bei der {firm} eine Ausbildung zum Kaufmann abgebrochen.",
    "Gegen den Bescheid hat die {firm}, vertreten durch ihre Bevollmächtigten, Widerspruch eingelegt.",
)
# the legal forms a firm's name is given, as German decisions write them
FORMS: tuple[str, ...] = (
    "GmbH", "GmbH & Co. KG", "AG", "KG", "OHG", "GbR", "e.K.", "UG (haftungsbeschränkt)", "e.V.",
    "eG", "Ltd.", "mbH",
)  # fmt: skip

# a probe: the sentence, the firm's span with its form, its name's span, the town's spans
Probe = tuple[str, Span, Span, list[Span]]


def sentences(firms: Sequence[str], seed: int, towns: Sequence[str]) -> list[Probe]:
    """One sentence per firm: the name with a legal form in a frame, a town where it has one."""
    rng = random.Random(seed)
    out: list[Probe] = []
    for name in firms:
        form = rng.choice(FORMS)
        text, spans = fill(rng.choice(FRAMES), {"firm": f"{name} {form}", "town": rng.choice(towns)})
        firm = spans["firm"]
        out.append((text, firm, Span(firm.start, firm.start + len(name), "NAME"), [s for k, s in spans.items() if k != "firm"]))
    return out


def score(found: Sequence[list[Span]], probes: Sequence[Probe]) -> dict[str, Any]:
    """Whole, name, any and outside counts of one chain's spans on the probe sentences."""
    whole = named = anyhit = outside = 0
    for spans, (_, firm, name, others) in zip(found, probes):
        covered: set[int] = set()
        for s in spans:
            covered.update(range(max(s.start, firm.start), min(s.end, firm.end)))
            if not any(s.start < o.end and o.start < s.end for o in (firm, *others)):
                outside += 1
        whole += len(covered) == firm.end - firm.start
        named += covered >= set(range(name.start, name.end))
        anyhit += bool(covered)
    n = len(probes)
    return {"sentences": n, "whole": whole, "whole_share": round(whole / n, 3), "name": named,
            "name_share": round(named / n, 3), "any": anyhit, "outside": outside}  # fmt: skip


# the versions before the eleventh session's rules
BEFORE = {RECOGNIZERS: 6, LEGAL_FORM: 2}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a saved pipeline directory")
    parser.add_argument("--firms", type=int, default=300)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--pool", default="eval", choices=("train", "eval"))
    parser.add_argument("--output", type=Path, default=Path("reports/firm_probe.json"))
    args = parser.parse_args(argv)

    gazetteers = Gazetteers(args.pool)
    rng = random.Random(args.seed)
    firms = [gazetteers.companies.sample(rng) for _ in range(args.firms)]
    towns = [gazetteers.simple_cities.sample(rng) for _ in range(50)]
    probes = sentences(firms, args.seed, towns)
    pipeline = build_pipeline(args.model)
    texts = [text for text, *_ in probes]
    rows, chains = run_rows(pipeline, texts, lambda found: score(found, probes), BEFORE)
    report = {"firms": args.firms, "seed": args.seed, "pool": args.pool, "frames": len(FRAMES),
              "profile": pipeline.config.profile, "chains": chains, "rows": rows}  # fmt: skip
    return write_report(report, args.output)


if __name__ == "__main__":
    main()
