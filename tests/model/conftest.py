"""The model every test of ``tests/model`` shares: trained once per session (a minute or two
on two cores), so a behavioural test costs only its own predictions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from deid.sources.io import write_jsonl
from deid.training.settings import load_settings
from tests.conftest import ROOT

FULL_NAMES = ("ler-bsg-0048", "ler-bsg-0032")


@pytest.fixture(scope="session")
def trained(tmp_path_factory) -> Path:
    """A 4-layer encoder fine-tuned for three short epochs on fourteen LER decisions of courts
    not reserved for evaluation: the six labour-court ones (of the first 60) with the most
    placeholders, the six social-court ones with the most person placeholders (the labour
    courts' are mostly companies, and a model that never saw a person cannot name one) and
    the two social-court ones whose placeholders give persons in full."""
    from deid.rewrite.placeholders import detect_placeholders
    from deid.sources.ler import load_ler_file
    from deid.training.encoder import import_encoder
    from deid.training.job import run_training
    from tests.conftest import SOURCES

    tmp = tmp_path_factory.mktemp("encoder_model")

    def top(court: str, count) -> list:
        docs = load_ler_file(SOURCES / "ler" / f"{court}.conll.xz")[:60]
        return sorted(docs, key=lambda d: (-count(detect_placeholders(d.text)), d.id))

    bag = top("bag", len)
    bsg = top("bsg", lambda found: sum(p.label == "PERSON" for p in found))
    # and the two whose placeholders give persons in full ("S. R.", "J. C."): a model that saw
    # surnames alone tags a first name and a surname as two names, or misses the first name
    in_full = [d for d in bsg if d.id in FULL_NAMES]
    train = bag[:6] + [d for d in bsg[:6] if d.id not in FULL_NAMES] + in_full
    validation = bag[6:7] + [d for d in bsg[6:] if d.id not in FULL_NAMES][:1]
    corpus = tmp / "corpus"
    write_jsonl(corpus / "train.jsonl", [d.to_dict() for d in train])
    write_jsonl(corpus / "validation.jsonl", [d.to_dict() for d in validation])
    encoder_dir = tmp / "encoder"
    import_encoder(encoder_dir, corpus_texts=[d.text for d in train], layers=4)
    settings = load_settings(ROOT / "params.yaml", "small")
    settings = replace(
        settings,
        base=str(encoder_dir),
        spec=replace(settings.spec, base_layers=4),
        # few windows without a placeholder, public names or not: three epochs must teach persons
        data=replace(settings.data, negative_window_rate=0.1, public_name_window_rate=None),
        train=replace(
            settings.train, epochs=3, windows_per_epoch=0, batch_size=8, learning_rate=5e-4, progress=False
        ),
    )
    run_training(corpus, tmp / "pipeline", settings)
    return tmp / "pipeline"
