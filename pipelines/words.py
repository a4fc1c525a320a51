"""Stage ``words``: the word lists bundled in ``deid/resources``, rebuilt from the training split.

The corpus' lowercase words and article nouns (``deid.words.vocabulary``) and the public
words (``deid.words.public``), built by ``deid.training.word_lists``, were rebuilt by hand before; as a stage they
follow the training split, and every stage that reads ``deid/resources`` follows them. The
library owns where the lists live (they ship with the package, committed to git, so DVC
keeps them out of its cache) and refuses reserved evaluation documents. Metrics: each
list's size and sha256, so a rebuild that changes a list shows in ``dvc metrics diff``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from pipelines import logger, parser, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "train", "metrics")
    args = p.parse_args(argv)
    setup_logging()
    from deid.sources.io import read_word_list
    from deid.training.word_lists import build_public, build_vocabulary
    from deid.words import public, vocabulary

    if not args.train.is_file():
        raise SystemExit(f"{args.train}: no training split")
    build_vocabulary(str(args.train))
    build_public(str(args.train))
    lists: dict[str, Path] = {
        "lowercase_words": vocabulary.RESOURCE,
        "nouns": vocabulary.NOUN_RESOURCE,
        "public_words": public.RESOURCE,
    }
    metrics = {
        name: {"words": len(read_word_list(path)), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
        for name, path in lists.items()
    }
    write_json(args.metrics, metrics)
    logger.info("words: %s", {name: m["words"] for name, m in metrics.items()})


if __name__ == "__main__":
    main()
