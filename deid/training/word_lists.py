"""Rebuild the bundled word lists from the training split, refusing reserved evaluation data.

``python -m deid.training.word_lists public data/corpus/train.jsonl`` writes the public words
(:mod:`deid.words.public`), ``python -m deid.training.word_lists vocabulary data/corpus/train.jsonl``
the corpus' lowercase words and nouns (:mod:`deid.words.vocabulary`). The word lists
themselves know nothing of corpora and splits; which documents are reserved is the
corpus' knowledge (:mod:`deid.sources.corpus`), so the builders live here, above both.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from deid.schema import Document
from deid.sources.corpus import is_reserved, is_reserved_court
from deid.sources.io import read_documents, write_word_list
from deid.words import public, vocabulary


def _documents(path: str, reserved: Callable[[Document], bool], lists: str) -> list[Document]:
    """The documents at ``path``, refusing the whole file if one is evaluation data."""
    docs = read_documents(path)
    if any(reserved(d) for d in docs):
        raise SystemExit(f"refusing to build {lists} from reserved evaluation documents")
    return docs


def list_paths(resources: Path | None = None) -> dict[str, Path]:
    """The bundled lists by name: the package's own (what this code reads), or the files of
    the same names in ``resources`` (a project's ``deid/resources`` that is not this package's)."""
    paths = {"lowercase_words": vocabulary.RESOURCE, "nouns": vocabulary.NOUN_RESOURCE, "public_words": public.RESOURCE}
    return paths if resources is None else {name: Path(resources) / p.name for name, p in paths.items()}


def build_public(path: str, resources: Path | None = None) -> None:
    """The public words of the documents at ``path``, into the package (or ``resources``)."""
    docs = _documents(path, is_reserved, "public words")
    words = public.build(d.text for d in docs)
    write_word_list(list_paths(resources)["public_words"], words)
    public.public_words.cache_clear()  # a list rewritten in place is read anew by this process
    print(f"{len(words)} public words written")


def build_vocabulary(path: str, resources: Path | None = None) -> None:
    """The lowercase words and nouns of the documents at ``path``, into the package (or
    ``resources``); stricter about reserved courts than the public words, as it always was:
    see :func:`deid.sources.corpus.is_reserved_court`."""
    docs = _documents(path, is_reserved_court, "the vocabulary")
    paths = list_paths(resources)
    words = vocabulary.build(d.text for d in docs)
    write_word_list(paths["lowercase_words"], words)
    nouns = vocabulary.build_nouns(d.text for d in docs)
    write_word_list(paths["nouns"], nouns)
    vocabulary.lowercase_words.cache_clear()  # rewritten in place: read anew by this process
    vocabulary.noun_words.cache_clear()
    print(f"{len(words)} lowercase words, {len(nouns)} nouns written")


BUILDERS = {"public": build_public, "vocabulary": build_vocabulary}


def main(argv: list[str]) -> None:
    if len(argv) != 2 or argv[0] not in BUILDERS:
        raise SystemExit(f"usage: python -m deid.training.word_lists {{{'|'.join(BUILDERS)}}} TRAIN.jsonl")
    BUILDERS[argv[0]](argv[1])


if __name__ == "__main__":
    main(sys.argv[1:])
