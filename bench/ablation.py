"""Rule-layer ablation on the validation split: does each layer still earn its place on top of
the model?

    python -m bench.ablation --model models/latest --corpus data/dataset \\
        --placeholders data/work/placeholders.jsonl --params params.yaml \\
        --output reports/ablation_validation.json [--max-documents N] [--unit windows|documents]

The validation texts are built exactly as training builds them (``deid.training.job.
source_documents`` + ``validation_texts`` with ``validation_seed``: the validation documents
rewritten once with fixed surrogates and packed into model-sized windows). The model runs
once per text; every variant of the rule chain then runs on those cached model spans
(``Pipeline.analyze_many(texts, model_spans=...)``):

* ``full``: the saved pipeline as configured;
* one row per rule layer removed: each component of the saved chain (deid.anonymizer.chain) taken out
  of the list;
* ``model only``: every component removed.

Metrics are element level (``deid.sources.elements``), as in training's validation. A layer *earns
its place* when switching it off lowers F2 or lowers recall. Removing a layer that does
neither is a candidate cut; a layer whose removal only moves F2 inside the bootstrap interval
is not evidence either way. ``--unit documents`` joins each document's windows into one text,
as production sees it (consistency and the signature block act on whole documents).

Only counts, ids and scores are written: no document text, no entity string.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from deid.anonymizer.chain import component, registry
from deid.anonymizer.components import COMMON_NOUNS, PLAIN_COMPOUNDS, PUBLIC_WORDS
from deid.anonymizer.components import RECOGNIZERS as RECOGNIZERS_STEP
from deid.anonymizer.pipeline import Pipeline, PipelineConfig, build_pipeline
from deid.schema import Span
from deid.sources.elements import Confusion, element_confusion, element_flags, text_elements
from deid.sources.io import read_documents
from deid.training.data import LabelledText, pack_paragraphs
from deid.training.job import load_placeholders, source_documents, validation_texts
from deid.training.settings import load_settings

logger = logging.getLogger(__name__)

UNSURE_WORD_STEPS = (PUBLIC_WORDS, COMMON_NOUNS, PLAIN_COMPOUNDS)
BETA = 2.0
BOOTSTRAP = 1000
_EPS = 1e-12


def layers(cfg: PipelineConfig) -> dict[str, str]:
    """The rule layers of a saved configuration: its chain's components (deid.anonymizer.chain) in
    order, with their registered descriptions; not the model, whose spans every row shares."""
    found = {s.name: component(s.name, s.version) for s in cfg.chain}
    return {name: c.description for name, c in found.items() if not c.batched}


def switched_off(cfg: PipelineConfig, names: tuple[str, ...]) -> PipelineConfig:
    """``cfg`` with the components ``names`` removed from its chain (the model is not run:
    its spans are passed in)."""
    return cfg.without(*names, "model")


def recognizer_variants(cfg: PipelineConfig) -> list[tuple[str, PipelineConfig]]:
    """One variant per enabled recognizer with that recognizer disabled (its config entry
    ``enabled: false``, see :func:`deid.anonymizer.recognizers.build_recognizers`)."""
    from deid.anonymizer.recognizers import RECOGNIZERS, build_recognizers

    entry = cfg.step(RECOGNIZERS_STEP)
    if entry is None:
        return []
    settings = {"min_score": entry.config.min_score, "recognizers": dict(entry.config.recognizers)}
    enabled = {r.name for r in build_recognizers(settings, entry.version)}
    out: list[tuple[str, PipelineConfig]] = []
    for name in RECOGNIZERS:
        if name not in enabled:
            continue
        entries = dict(settings["recognizers"])
        own = entries.get(name, {})
        entries[name] = {**({"enabled": own} if isinstance(own, bool) else own), "enabled": False}
        variant = cfg.configured(RECOGNIZERS_STEP, recognizers=entries)
        out.append((name, switched_off(variant, ())))
    return out


def is_active(cfg: PipelineConfig, name: str) -> bool:
    """Whether the saved configuration runs the component at all (else its row is skipped):
    it is in the chain, and an ordinary-word filter has a score that keeps anything."""
    entry = cfg.step(name)
    if entry is None:
        return False
    return not (name in UNSURE_WORD_STEPS and entry.config.min_score <= 0)


def validation_items(args: argparse.Namespace, tokenizer) -> list[LabelledText]:
    if args.gold:  # whole rewritten documents with gold spans (e.g. the validation split
        # rewritten with made-up names: deid rewrite auto --surrogates novel)
        gold = read_documents(args.gold)[: args.max_documents or None]
        return [LabelledText(d.id, d.text, tuple(d.spans)) for d in gold]
    settings = load_settings(args.params)
    placeholders = load_placeholders(args.placeholders)
    docs = source_documents(read_documents(Path(args.corpus) / "validation.jsonl"), placeholders)
    if args.max_documents:
        docs = docs[: args.max_documents]  # the first N in file order
    items = validation_texts(docs, settings, tokenizer)
    if args.unit == "documents":  # each document's windows joined back into one text
        by_doc: dict[str, list[LabelledText]] = defaultdict(list)
        for it in items:
            by_doc[it.doc_id].append(it)
        items = [pack_paragraphs(parts, tokenizer, 10**12)[0] for parts in by_doc.values()]
    return items


def confusions(items: list[LabelledText], predictions: list[list[Span]]) -> list[Confusion]:
    return [
        element_confusion(text_elements(it.text), it.spans, pred)[0]
        for it, pred in zip(items, predictions)
    ]


def metrics(conf: Confusion) -> dict[str, float | int]:
    return {
        "recall": round(conf.recall, 4),
        "precision": round(conf.precision, 4),
        "f2": round(conf.f_beta(BETA), 4),
        "tp": conf.tp,
        "fp": conf.fp,
        "fn": conf.fn,
    }


def _sum(confs: list[Confusion]) -> Confusion:
    total = Confusion()
    for c in confs:
        total = total + c
    return total


def bootstrap_delta(
    doc_ids: list[str], full: list[Confusion], variant: list[Confusion], seed: int = 0
) -> tuple[float, float]:
    """95% interval of F2(variant) - F2(full), resampling documents (windows stay together)."""
    per_doc_full: dict[str, Confusion] = defaultdict(Confusion)
    per_doc_var: dict[str, Confusion] = defaultdict(Confusion)
    for d, a, b in zip(doc_ids, full, variant):
        per_doc_full[d] = per_doc_full[d] + a
        per_doc_var[d] = per_doc_var[d] + b
    ids = sorted(per_doc_full)
    rng = random.Random(seed)
    deltas = []
    for _ in range(BOOTSTRAP):
        sample = [rng.choice(ids) for _ in ids]
        f = _sum([per_doc_full[i] for i in sample]).f_beta(BETA)
        v = _sum([per_doc_var[i] for i in sample]).f_beta(BETA)
        deltas.append(v - f)
    deltas.sort()
    return round(deltas[int(0.025 * BOOTSTRAP)], 4), round(deltas[int(0.975 * BOOTSTRAP) - 1], 4)


def changed_elements(items: list[LabelledText], a: list[list[Span]], b: list[list[Span]]) -> int:
    """Elements whose sensitive/not-sensitive call differs between two runs."""
    n = 0
    for it, pa, pb in zip(items, a, b):
        els = text_elements(it.text)
        n += sum(x != y for x, y in zip(element_flags(els, pa), element_flags(els, pb)))
    return n


def run(args: argparse.Namespace) -> dict[str, Any]:
    full_pipeline = build_pipeline(args.model, device=args.device)
    cfg = full_pipeline.config
    items = validation_items(args, full_pipeline.classifier.tokenizer)
    texts = [it.text for it in items]
    doc_ids = [it.doc_id for it in items]
    logger.info("%d validation texts from %d documents", len(items), len(set(doc_ids)))

    started = time.perf_counter()
    model_spans = full_pipeline.model_spans(texts)
    model_seconds = time.perf_counter() - started
    logger.info("model: %d spans in %.0f s", sum(map(len, model_spans)), model_seconds)

    def evaluate(variant: PipelineConfig) -> tuple[list[list[Span]], list[Confusion], float]:
        t0 = time.perf_counter()
        preds = Pipeline(None, variant).analyze_many(texts, model_spans=model_spans)
        return preds, confusions(items, preds), time.perf_counter() - t0

    full_preds, full_confs, full_seconds = evaluate(switched_off(cfg, ()))
    full_total = _sum(full_confs)
    full_m = metrics(full_total)

    def compare(name: str, layer_name: str | None, variant: PipelineConfig) -> dict[str, Any]:
        preds, confs, seconds = evaluate(variant)
        total = _sum(confs)
        m = metrics(total)
        row: dict[str, Any] = {
            "variant": name,
            "layer": layer_name,
            **m,
            "delta_recall": round(m["recall"] - full_m["recall"], 4),
            "delta_precision": round(m["precision"] - full_m["precision"], 4),
            "delta_f2": round(m["f2"] - full_m["f2"], 4),
            "delta_f2_ci95": list(bootstrap_delta(doc_ids, full_confs, confs)),
            "changed_elements": changed_elements(items, full_preds, preds),
            "seconds": round(seconds, 1),
        }
        if layer_name is not None:
            # removing it lowers F2 or recall (unrounded): the layer stays
            row["earns_its_place"] = (
                total.f_beta(BETA) - full_total.f_beta(BETA) < -_EPS
                or total.recall - full_total.recall < -_EPS
            )
        logger.info("%s: F2 %.4f (%+.4f)", name, m["f2"], row["delta_f2"])
        return row

    rows: list[dict[str, Any]] = [
        {"variant": "full", "layer": None, **full_m, "seconds": round(full_seconds, 1)}
    ]
    chain = layers(cfg)
    active = [name for name in chain if is_active(cfg, name)]
    # registered components the saved chain does not run (or runs as a no-op)
    skipped = [name for name in registry() if name not in active]
    for name in active:
        rows.append(compare(f"-{name}", name, switched_off(cfg, (name,))))
    rows.append(compare("model only", None, switched_off(cfg, tuple(active))))

    # the recognizers one by one (only those whose removal changes anything are listed)
    recognizer_rows: list[dict[str, Any]] = []
    silent: list[str] = []
    for name, variant in recognizer_variants(cfg):
        row = compare(f"-{name}", name, variant)
        if row["changed_elements"]:
            recognizer_rows.append(row)
        else:
            silent.append(name)

    return {
        "model": str(args.model),
        "split": str(args.gold) if args.gold else "validation",
        "unit": args.unit,
        "documents": len(set(doc_ids)),
        "texts": len(items),
        "elements": full_total.tp + full_total.fp + full_total.fn + full_total.tn,
        "max_documents": args.max_documents or None,
        "threshold": cfg.model.threshold,
        "quantize": cfg.model.quantize,
        "beta": BETA,
        "bootstrap": BOOTSTRAP,
        "model_seconds": round(model_seconds, 1),
        "skipped_layers": skipped,  # off in the saved configuration already
        "layers": {name: chain[name] for name in active},
        "chain": [s.to_dict() for s in cfg.chain],  # names, versions, config overrides
        "rows": rows,
        "recognizer_rows": recognizer_rows,
        "recognizers_without_effect": silent,
    }


def markdown(report: dict[str, Any]) -> str:
    head = (
        f"Validation ablation ({report['unit']}, {report['documents']} documents, {report['texts']} texts, "
        f"{report['elements']} elements; threshold {report['threshold']}, quantize {report['quantize']})\n\n"
        "| variant | recall | precision | F2 | ΔR | ΔP | ΔF2 | ΔF2 95% CI | changed el. | earns its place |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for r in report["rows"]:
        if r["variant"] == "full":
            lines.append(
                f"| full | {r['recall']:.4f} | {r['precision']:.4f} | {r['f2']:.4f} | | | | | | |"
            )
        else:
            lines.append(_row(r))
    tail = f"\n\nskipped (off in the saved config): {', '.join(report['skipped_layers']) or 'none'}"
    if report.get("recognizer_rows"):
        tail += (
            "\n\nRecognizers one by one (those whose removal changes an element):\n\n"
            "| variant | recall | precision | F2 | ΔR | ΔP | ΔF2 | ΔF2 95% CI | changed el. | earns its place |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n"
        )
        tail += "\n".join(_row(r) for r in report["recognizer_rows"])
    if report.get("recognizers_without_effect"):
        tail += f"\n\nrecognizers without effect: {len(report['recognizers_without_effect'])}"
    return head + "\n".join(lines) + tail


def _row(r: dict[str, Any]) -> str:
    earns = {True: "yes", False: "**no**"}.get(r.get("earns_its_place"), "")
    lo, hi = r["delta_f2_ci95"]
    return (
        f"| {r['variant']} | {r['recall']:.4f} | {r['precision']:.4f} | {r['f2']:.4f} | "
        f"{r['delta_recall']:+.4f} | {r['delta_precision']:+.4f} | {r['delta_f2']:+.4f} | "
        f"[{lo:+.4f}, {hi:+.4f}] | {r['changed_elements']} | {earns} |"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="saved pipeline directory")
    ap.add_argument("--corpus", default="data/dataset", help="directory with validation.jsonl")
    ap.add_argument("--placeholders", default="data/work/placeholders.jsonl")
    ap.add_argument("--params", default="params.yaml")
    ap.add_argument("--output", default="reports/ablation_validation.json")
    ap.add_argument(
        "--max-documents", type=int, default=0, help="first N validation documents (0: all)"
    )
    ap.add_argument("--unit", choices=("windows", "documents"), default="windows",
                    help="windows: the texts training validates on; documents: each document joined")  # fmt: skip
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--gold", default=None,
                    help="rewritten documents with gold spans (JSONL) instead of the validation texts; "
                    "never a reserved test set: an ablation chooses rules")  # fmt: skip
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    report = run(args)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    table = markdown(report)
    out.with_suffix(".md").write_text(table + "\n", encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
