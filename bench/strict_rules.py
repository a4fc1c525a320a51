"""The rules the `strict` profile needs (issue 26), counted on the sets choices may be made on:
the validation split and the dev halves of the rewritten gold sets (never the sealed halves).

    python -m bench.strict_rules [--corpus data/corpus] [--output reports/strict_rules.json]

* ``recognizers``: per registered recognizer, its hits on each set, and on the gold sets how
  many of them overlap a gold sensitive span (a hit outside the gold is not wrong by itself:
  the federal courts print what `strict` neutralizes; read them before judging);
* ``judges``: the judges (LER ``RR`` annotations of the validation split, the LER gold's JUDGE
  keep spans) inside keep_zones' judge zones, per keep_zones version, and the sensitive spans
  (gold spans; LER ``PER``/``AN`` annotations) a judge zone touches;
* ``legal_form``: firm spans (gold ORGANIZATION spans; LER ``UN``/``ORG`` annotations) that end
  in a legal form, cut before it as the model's spans are, and restored exactly by the
  ``legal_form`` step; and the spans the step would extend beyond the gold (the federal
  courts' placeholders stop before the form: "H AG").

Only counts are written: no document text, no entity string.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from deid.words.firms import extend_firms
from deid.anonymizer.policy import KEEP_ZONES_VERSIONS, judge_zones
from deid.anonymizer.recognizers import RECOGNIZERS
from deid.evaluation.metrics import document_half
from deid.schema import JUDGE, ORGANIZATION, Document, Span
from deid.sources.io import read_documents
from deid.words.vocab import LEGAL_FORM_TAIL, PRACTICE_TAIL

GOLD = {"ler-dev": "data/gold/ler_rewritten.jsonl", "bavaria-dev": "data/gold/bavaria/rewritten.jsonl"}
_FORM_AT_END = re.compile(rf"(?:[ \u00a0]|[ \u00a0]?-)(?:{LEGAL_FORM_TAIL}|{PRACTICE_TAIL})$")


def choice_sets(corpus: Path) -> Iterator[tuple[str, Document, list[Span], list[Span], list[Span]]]:
    """(set, document, sensitive spans, judges, firms) of the validation split and the dev halves."""
    for doc in read_documents(corpus / "validation.jsonl"):
        ents = doc.entities
        yield (
            "validation", doc,
            [e for e in ents if e.label in ("PER", "AN")],
            [e for e in ents if e.label == "RR"],
            [e.with_label(ORGANIZATION) for e in ents if e.label in ("UN", "ORG")],
        )  # fmt: skip
    for name, path in GOLD.items():
        for doc in read_documents(path):
            if document_half(doc) == "dev":  # the sealed half is never read for a choice
                orgs = [s for s in doc.spans if s.label == ORGANIZATION]
                yield name, doc, list(doc.spans), [k for k in doc.keep if k.label == JUDGE], orgs


def _touches(a: Span, spans: list[Span]) -> bool:
    return any(s.start < a.end and a.start < s.end for s in spans)


def measure(corpus: Path) -> dict:
    recognizers = {name: cls(name=name, min_score=0.5) for name, cls in RECOGNIZERS.items()}
    hits: Counter = Counter()
    judges: Counter = Counter()
    firms: Counter = Counter()
    for name, doc, sensitive, judge_spans, org_spans in choice_sets(corpus):
        text = doc.text
        for rname, recognizer in recognizers.items():
            for hit in recognizer.analyze(text):
                hits[(rname, name, "hits")] += 1
                hits[(rname, name, "in gold")] += name != "validation" and _touches(hit, list(doc.spans))
        for version in KEEP_ZONES_VERSIONS:
            zones = judge_zones(text, version)
            judges[(name, version, "judges")] += len(judge_spans)
            judges[(name, version, "kept")] += sum(any(z.start <= j.start and j.end <= z.end for z in zones) for j in judge_spans)
            judges[(name, version, "sensitive touched")] += sum(_touches(s, zones) for s in sensitive)
        for org in org_spans:
            firms[(name, "firms")] += 1
            grown = extend_firms(text, [org])[0]
            firms[(name, "extended beyond the span")] += (grown.start, grown.end) != (org.start, org.end)
            form = _FORM_AT_END.search(text, org.start, org.end)
            if form and form.start() > org.start:
                firms[(name, "end in a form")] += 1
                back = extend_firms(text, [Span(org.start, form.start(), ORGANIZATION)])[0]
                firms[(name, "restored")] += (back.start, back.end) == (org.start, org.end)
    sets = ["validation", *GOLD]
    return {
        "recognizers": {
            r: {s: {k: hits[(r, s, k)] for k in ("hits", "in gold")} for s in sets} for r in recognizers
        },
        "judges": {
            s: {f"keep_zones@{v}": {k: judges[(s, v, k)] for k in ("judges", "kept", "sensitive touched")}
                for v in KEEP_ZONES_VERSIONS}
            for s in sets
        },  # fmt: skip
        "legal_form": {
            s: {k: firms[(s, k)] for k in ("firms", "end in a form", "restored", "extended beyond the span")}
            for s in sets
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="data/corpus", type=Path)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    report = json.dumps(measure(args.corpus), indent=1)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(report + "\n", encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
