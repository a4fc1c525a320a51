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


def build_public(path: str) -> None:
    """The public words of the documents at ``path``."""
    docs = _documents(path, is_reserved, "public words")
    words = public.build(d.text for d in docs)
    write_word_list(public.RESOURCE, words)
    print(f"{len(words)} public words written")


def build_vocabulary(path: str) -> None:
    """The lowercase words and nouns of the documents at ``path`` (stricter about reserved
    courts than the public words, as it always was: see :func:`deid.sources.corpus.is_reserved_court`)."""
    docs = _documents(path, is_reserved_court, "the vocabulary")
    words = vocabulary.build(d.text for d in docs)
    write_word_list(vocabulary.RESOURCE, words)
    nouns = vocabulary.build_nouns(d.text for d in docs)
    write_word_list(vocabulary.NOUN_RESOURCE, nouns)
    print(f"{len(words)} lowercase words, {len(nouns)} nouns written")


BUILDERS = {"public": build_public, "vocabulary": build_vocabulary}


def main(argv: list[str]) -> None:
    if len(argv) != 2 or argv[0] not in BUILDERS:
        raise SystemExit(f"usage: python -m deid.training.word_lists {{{'|'.join(BUILDERS)}}} TRAIN.jsonl")
    BUILDERS[argv[0]](argv[1])


if __name__ == "__main__":
    main(sys.argv[1:])
