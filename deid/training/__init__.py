"""One training run: its settings (params.yaml), training windows with per-epoch surrogates, the
pretrained encoder, tokenizers, models, the loop and its threshold; the word lists built from
the training split."""
