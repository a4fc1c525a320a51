"""How many surrogates per second one process makes after warm-up: the cost that training pays
anew in every epoch, when each placeholder of the corpus gets a fresh surrogate.

    python -m bench.surrogate_throughput [--documents 100] [--rounds 3]

Ten placeholders of every kind, in 100 documents (each with its own consistent map), best of
three rounds after one warm-up pass that loads the gazetteers and builds their indexes. Writes
``reports/bench_surrogate_throughput.json``; no surrogate is printed. Moved here from the test
suite, where a timed assertion failed on a loaded machine without anything being wrong.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from deid.rewrite.surrogates import DocumentSurrogates, SurrogateGenerator

REPORT = Path("reports/bench_surrogate_throughput.json")
# (label, placeholder, the words before it): one of each kind the corpus has
ITEMS = [("PERSON", "K.", "Der Zeuge "), ("PERSON", "A. G.", "Frau "), ("ORGANIZATION", "S …", "der "),
         ("LOCATION", "O.", "Landratsamt "), ("STREET", "R. straße ...", "der "), ("DATE", "xx.xx.2015", "am "),
         ("MONEY", "…", "von "), ("ID", "…", "IBAN "), ("CONTACT", "…", "Tel. "), ("PERSON", "…", "mit ")]  # fmt: skip


def run(documents: int, rounds: int) -> dict[str, object]:
    gen = SurrogateGenerator(seed=5, pool="train")
    for label, surface, context in ITEMS:  # warm-up: gazetteers, prefix indexes
        gen.generate(label, surface, context)
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for i in range(documents):
            doc = DocumentSurrogates(gen, f"doc-{i}", epoch=1)
            for item in ITEMS:
                doc.surrogate(*item)
        rates.append(documents * len(ITEMS) / (time.perf_counter() - start))
    return {"surrogates_per_second_best": round(max(rates)), "rounds": [round(r) for r in rates],
            "documents": documents, "placeholders_per_document": len(ITEMS),
            "python": platform.python_version(), "machine": platform.machine()}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    report = run(args.documents, args.rounds)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
