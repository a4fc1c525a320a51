"""Stage ``words``: the word lists bundled in ``deid/resources``, rebuilt from the training split.

The corpus' lowercase words and article nouns (``deid.words.vocabulary``) and the public
words (``deid.words.public``), built by ``deid.training.word_lists``, were rebuilt by hand before; as a stage they
follow the training split, and every stage that reads ``deid/resources`` follows them. The
library owns where the lists live (they ship with the package, committed to git, so DVC
keeps them out of its cache) and refuses reserved evaluation documents. Metrics: each
list's size and sha256, so a rebuild that changes a list shows in ``dvc metrics diff``.
``--resources DIR`` writes them to DIR instead of the package (the retrain flow on a project
that is not the checkout its code runs from).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipelines import logger, parser, setup_logging, write_json


def list_metrics(resources: Path | None = None) -> dict[str, dict[str, Any]]:
    """Each list's size and sha256, of the package's lists (or those in ``resources``) that
    exist: the stage's metrics, and what the retrain flow compares before and after a rebuild.
    Counts and hashes only, never the words."""
    from deid.sources.io import read_word_list
    from deid.training.word_lists import list_paths

    return {
        name: {"words": len(read_word_list(path)), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
        for name, path in list_paths(resources).items()
        if path.is_file()
    }


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "train", "metrics")
    p.add_argument("--resources", type=Path, default=None, help="write the lists here, not into the package")
    args = p.parse_args(argv)
    setup_logging()
    from deid.training.word_lists import build_public, build_vocabulary

    if not args.train.is_file():
        raise SystemExit(f"{args.train}: no training split")
    if args.resources is not None:
        args.resources.mkdir(parents=True, exist_ok=True)
    build_vocabulary(str(args.train), args.resources)
    build_public(str(args.train), args.resources)
    metrics = list_metrics(args.resources)
    write_json(args.metrics, metrics)
    logger.info("words: %s", {name: m["words"] for name, m in metrics.items()})


if __name__ == "__main__":
    main()
