"""What one very large or hostile document costs: a 2 MB decision (the bundled decisions
concatenated), the same text on a single line, a single token of 250 kB, 500 kB and 1 MB, 1 MB
of one letter and of one punctuation mark, a 1 MB hyphenated word, HTML nested 100,000 deep
(read by the HTML reader, then anonymized) and a 20 MB text, through the rules-only pipeline
and, given ``--model`` (a pipeline directory or MLflow URI) or ``--tiny`` (a random tiny model
with word features, for the cost of the model's side without a trained one), a model pipeline.

    python -m bench.large_document [--model PATH_OR_URI | --tiny] [--device cpu] [--threads N] [--no-budget]

With the default budget (deid.anonymizer.budget) the tokens and the letters are refused by
their longest word before any work and the 20 MB text by its characters: the rows show how
fast. ``--no-budget`` switches the budget off, to measure what each layer itself costs on
them: the time per character stays flat from 250 kB to 1 MB (linear). Each row runs in a
process of its own, so its peak RSS is its own: ``peak_rss_mb`` includes loading the pipeline,
``rss_loaded_mb`` is the RSS before the document. ``seconds`` is the document alone (the
pipeline warmed up on a short decision first). Writes ``reports/bench_large_document.json``
(``…_no_budget.json``); no document text is printed.
"""

from __future__ import annotations

import argparse
import json
import lzma
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DECISIONS = Path("data/sources/decisions")
REPORT = Path("reports/bench_large_document.json")
CASES = ("decision_2mb", "single_line_2mb", "single_token_250k", "single_token_500k", "single_token_1mb",
         "one_letter_1mb", "one_mark_1mb", "hyphenated_word_1mb", "nested_html_100k", "text_20mb")  # fmt: skip
SIZES = {"250k": 250_000, "500k": 500_000, "1mb": 1_000_000, "100k": 100_000}


def _decisions() -> str:
    paths = sorted(DECISIONS.glob("*/*.txt.xz"))
    return "\n".join(lzma.open(p, "rt", encoding="utf-8").read() for p in paths)


def _repeat(text: str, size: int) -> str:
    return (text * (size // len(text) + 1))[:size]


def document(case: str) -> str:
    """The text of a case, built from the bundled decisions."""
    text = _decisions()
    if case == "decision_2mb":
        return _repeat(text, 2_000_000)
    if case == "single_line_2mb":
        return _repeat(" ".join(text.split()), 2_000_000)
    size = SIZES.get(case.rsplit("_", 1)[-1], 0)
    if case.startswith("single_token_"):
        return "".join(re.findall(r"[^\W\d_]+", text))[:size].capitalize()
    if case == "one_letter_1mb":
        return "a" * size
    if case == "one_mark_1mb":
        return "." * size
    if case == "hyphenated_word_1mb":
        return "Gericht-" * 125_000
    if case == "nested_html_100k":
        return "<html><body>" + "<div>" * size + text[:3000] + "</div>" * size + "</body></html>"
    if case == "text_20mb":
        return _repeat(text, 20_000_000)
    raise ValueError(f"unknown case {case!r} ({', '.join(CASES)})")


def _tiny_pipeline() -> Any:
    """A random tiny model that reads word features: the model side's cost without weights."""
    import torch

    from deid.anonymizer.ner import TokenClassifier
    from deid.anonymizer.pipeline import Pipeline, PipelineConfig
    from deid.training.models import ModelSpec, build_model
    from deid.training.tokenizer import train_tokenizer

    torch.manual_seed(0)  # the same random weights, so the same spans, in every run
    tokenizer = train_tokenizer([_decisions()[:300_000]], vocab_size=2000, model_max_length=512)
    spec = ModelSpec(
        hidden_size=64, num_layers=2, num_heads=2, intermediate_size=128, max_length=512
    )
    classifier = TokenClassifier(build_model(spec, tokenizer), tokenizer, device="cpu")
    return Pipeline(classifier, PipelineConfig().override(max_length=512, stride=32))


NO_BUDGET = {"max_characters": 0, "max_tokens": 0, "max_word_characters": 0}


def _pipeline(kind: str, model: str | None, device: str, budget: bool) -> Any:
    from deid.anonymizer.pipeline import Pipeline, PipelineConfig, build_pipeline

    if kind == "rules":
        pipeline = build_pipeline(config=PipelineConfig.rules_only())
    elif kind == "tiny":
        pipeline = _tiny_pipeline()
    else:
        from deid.ops.model_store import resolve_model

        pipeline = build_pipeline(resolve_model(model), device=device)
    return pipeline if budget else Pipeline(pipeline.classifier, pipeline.config.override(**NO_BUDGET))


def _rss_mb() -> float | None:
    """The current resident set (Linux), in MB."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return round(pages * resource.getpagesize() / 2**20, 1)


def run_row(case: str, kind: str, model: str | None, device: str, budget: bool = True) -> dict[str, Any]:
    """One document through one pipeline, in this process (an HTML case read by its reader
    first, inside the timing)."""
    from deid.anonymizer.budget import OverBudget
    from deid.schema import Document
    from deid.sources import formats

    pipeline = _pipeline(kind, model, device, budget)
    pipeline.anonymize(Document("warm-up", _decisions()[:20_000]))
    text = document(case)
    loaded = _rss_mb()
    start = time.perf_counter()
    try:
        doc = (formats.read(text.encode("utf-8"), name=f"{case}.html") if "html" in case
               else Document(case, text))  # fmt: skip
        record = pipeline.anonymize(doc)
        outcome, spans = "anonymized", len(record["spans"])
    except OverBudget as exc:
        outcome, spans = f"quarantined: {exc}", None
    seconds = time.perf_counter() - start
    return {
        "pipeline": kind,
        "case": case,
        "characters": len(text),
        "outcome": outcome,
        "spans": spans,
        "seconds": round(seconds, 3),
        "characters_per_s": round(len(text) / seconds) if spans is not None else None,
        "rss_loaded_mb": loaded,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    model = ap.add_mutually_exclusive_group()
    model.add_argument("--model", help="pipeline directory or MLflow model URI")
    model.add_argument("--tiny", action="store_true", help="a random tiny model with word features")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--no-budget", action="store_true", help="switch the document budget off: what the layers cost")
    ap.add_argument("--row", nargs=2, metavar=("CASE", "PIPELINE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    if args.row:
        print(json.dumps(run_row(*args.row, args.model, args.device, budget=not args.no_budget)))
        return
    kinds = ["rules"] + (["model"] if args.model else ["tiny"] if args.tiny else [])
    rows = []
    for kind in kinds:
        for case in args.cases.split(","):
            cmd = [sys.executable, "-m", "bench.large_document", "--row", case, kind,
                   "--device", args.device, "--threads", str(args.threads)]  # fmt: skip
            cmd += ["--model", args.model] if args.model else []
            cmd += ["--no-budget"] if args.no_budget else []
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(json.dumps(rows[-1]), flush=True)
    report = {
        "model": args.model or ("tiny (random weights)" if args.tiny else None),
        "device": args.device,
        "budget": "off" if args.no_budget else "default",
        "machine": platform.machine(),
        "python": platform.python_version(),
        "rows": rows,
    }
    path = REPORT.with_name(REPORT.stem + "_no_budget.json") if args.no_budget else REPORT
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
