"""Training data from anonymized decisions.

Placeholders with their inferred types become labelled spans. Every epoch, each placeholder
is replaced by a fresh surrogate of its type (document-consistent; Thunder-DeID's per-epoch
replacement), so the model sees real-looking names in real court language and never the
placeholders themselves. The thesis' masking schemes M1–M7 with or without candidate vectors
(Schamberger 2019, §5.4.2) are kept as an option to reproduce its experiment.

Documents are cut into paragraphs (structure removed), paragraphs of one document are packed
up to the model's length, longer ones are cut into overlapping windows; token labels (BIO)
are derived from character spans through the fast tokenizer's offset mapping.
"""

from __future__ import annotations

import copy
import logging
import random
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from transformers import PreTrainedTokenizerFast

from deid.anonymizer.features import token_features, word_bounds
from deid.anonymizer.ner import encode_windows
from deid.rewrite.surrogates import DocumentSurrogates, SurrogateGenerator, substitute
from deid.schema import COURT, JUDGE, PUBLIC_ENTITY, Span
from deid.sources.elements import text_elements
from deid.sources.paragraphs import Paragraph, extract_paragraphs
from deid.sources.textedit import apply_replacements
from deid.training.augment import swap_nouns
from deid.training.documents import SourceDocument  # re-exported: defined with the data stages
from deid.training.tokenizer import PLACEHOLDER_TOKEN
from deid.words.roles import role_label

logger = logging.getLogger(__name__)

IGNORE_INDEX = -100
PUBLIC_NAME_LABELS = frozenset({PUBLIC_ENTITY, COURT, JUDGE})  # keep types that look like names
# "Not sensitive, but which insensitive type is unknown": a token of a document without
# entity annotation. The loss takes the sum of O and every keep type (a partial label).
NOT_SENSITIVE_INDEX = -2

# Thesis table 5.4: share of candidates treated placeholder-only / random token / [MASK].
MASKING_SCHEMES: dict[str, tuple[float, float, float]] = {
    "M1": (1.0, 0.0, 0.0),
    "M2": (0.1, 0.9, 0.0),
    "M3": (0.0, 1.0, 0.0),
    "M4": (0.25, 0.25, 0.5),
    "M5": (0.25, 0.15, 0.6),
    "M6": (0.0, 0.2, 0.8),
    "M7": (0.0, 0.0, 1.0),
}


@dataclass(frozen=True)
class LabelledText:
    """Text with typed gold spans; ``loss_spans`` restrict the loss (candidate vectors);
    ``keep`` are insensitive entities, known only where ``keep_known``."""

    doc_id: str
    text: str
    spans: tuple[Span, ...]
    loss_spans: tuple[Span, ...] | None = None
    keep: tuple[Span, ...] = ()
    keep_known: bool = False


@dataclass
class Window:
    """One model input: token ids and BIO label ids (``-100`` where no loss applies)."""

    input_ids: list[int]
    labels: list[int]
    doc_id: str = ""
    has_entity: bool = False
    has_public_name: bool = False  # a name that stays in clear (a public place, body, court or judge)
    token_type_ids: list[int] | None = None  # word features (deid.anonymizer.features), if the model uses them

    def __len__(self) -> int:
        return len(self.input_ids)


@dataclass(frozen=True)
class DataConfig:
    """How training text is made; defaults favour the surrogate mode of this product."""

    mode: str = "surrogate"  # surrogate | masking
    scheme: str = "M3"  # masking scheme (thesis) when mode == masking
    candidates: bool = True  # masking: loss only on candidates (positives + random negatives)
    candidate_rate: float = 0.02
    max_length: int = 256
    stride: int = 32
    negative_window_rate: float = 1.0  # share of windows without any entity that is kept
    # share of those windows kept when they hold a name that stays public (PUBLIC_ENTITY, COURT,
    # JUDGE): the hard negatives that teach which places and bodies courts print (None: as above)
    public_name_window_rate: float | None = None
    surrogate_pool: str = "train"
    noun_swap_rate: float = 0.0  # share of ordinary capitalized words replaced by rare nouns per epoch
    seed: int = 13
    vocabulary_words: tuple[str, ...] = field(default_factory=tuple)  # for "random token"


# --- paragraphs and spans -----------------------------------------------------------------


def _para_offset(p: Paragraph, original: int) -> int | None:
    """Paragraph offset of an original offset, or None if that character was dropped."""
    origs = [o for _, o in p.runs]
    k = bisect_right(origs, original) - 1
    if k < 0:
        return None
    para_start, orig_start = p.runs[k]
    run_end = p.runs[k + 1][0] if k + 1 < len(p.runs) else len(p.text)
    offset = para_start + (original - orig_start)
    return offset if offset < run_end else None


def paragraph_chunks(text: str, spans: Sequence[Span]) -> list[tuple[str, list[Span]]]:
    """Text paragraphs (headings dropped) with the spans that lie inside each one."""
    paragraphs = [p for p in extract_paragraphs(text) if p.kind == "text" and p.text.strip()]
    starts = [p.start for p in paragraphs]
    inside: list[list[Span]] = [[] for _ in paragraphs]
    for span in sorted(spans):
        i = bisect_right(starts, span.start) - 1
        if i < 0 or span.end > paragraphs[i].end:
            continue  # crosses a paragraph boundary: rare, dropped rather than mislabelled
        p = paragraphs[i]
        s = _para_offset(p, span.start)
        e = _para_offset(p, span.end - 1)
        if s is None or e is None or e < s:
            continue
        inside[i].append(Span(s, e + 1, span.label, span.score, span.source))
    return [(p.text, sp) for p, sp in zip(paragraphs, inside)]


# --- surrogate and masking transformations ---------------------------------------------------


def surrogate_texts(
    doc: SourceDocument, generator: SurrogateGenerator, epoch: int, noun_swap_rate: float = 0.0
) -> list[LabelledText]:
    """The document's paragraphs with every placeholder replaced by a surrogate of its type,
    consistent across the document and different in every epoch, labelled with the role its
    context gives it (deid.words.roles)."""
    surrogates = DocumentSurrogates(generator, doc.id, epoch=epoch)
    out: list[LabelledText] = []
    keep_chunks = paragraph_chunks(doc.text, doc.keep) if doc.keep else None
    for i, (ptext, pspans) in enumerate(paragraph_chunks(doc.text, doc.placeholders)):
        pkeep = keep_chunks[i][1] if keep_chunks else []
        pkeep = [k for k in pkeep if not any(k.overlaps(p) for p in pspans)]
        if pspans:
            new_text, new_spans, new_keep = substitute(ptext, pspans, surrogates, carry=pkeep)
            # the role the placeholder's context gives it ("Rechtsanwalt K.", "Landratsamt O."),
            # read from the original text: the model learns roles, a profile decides on them
            new_spans = [new.with_label(role_label(ptext, old)) for new, old in zip(new_spans, pspans)]
        else:
            new_text, new_spans, new_keep = ptext, [], pkeep
        if noun_swap_rate > 0:
            rng = random.Random(f"swap:{doc.id}:{epoch}:{i}")
            new_text, new_spans, new_keep = swap_nouns(new_text, new_spans, new_keep, rng, noun_swap_rate)
        out.append(LabelledText(doc.id, new_text, tuple(new_spans), None, tuple(new_keep), doc.keep_known))
    return out


def masked_texts(doc: SourceDocument, cfg: DataConfig, rng: random.Random) -> list[LabelledText]:
    """The thesis' training input: placeholders (and candidate negatives) masked by scheme."""
    p_ph, p_rand, _ = MASKING_SCHEMES[cfg.scheme]
    words = cfg.vocabulary_words or ("Sache",)
    out: list[LabelledText] = []
    for ptext, pspans in paragraph_chunks(doc.text, doc.placeholders):
        candidates: list[tuple[Span, bool]] = [(s, True) for s in pspans]
        if cfg.candidates:
            for el in text_elements(ptext):
                if rng.random() < cfg.candidate_rate and not any(
                    s.start < el.end and el.start < s.end for s in pspans
                ):
                    candidates.append((Span(el.start, el.end, "O"), False))
        candidates.sort(key=lambda c: c[0].start)
        replacements: list[tuple[Span, str]] = []
        for span, positive in candidates:
            draw = rng.random()
            if draw < p_ph:
                new = PLACEHOLDER_TOKEN if positive else ptext[span.start : span.end]
            elif draw < p_ph + p_rand:
                new = rng.choice(words)
            else:
                new = "[MASK]"
            replacements.append((span, new))
        new_text, new_spans, _ = apply_replacements(ptext, replacements)
        positives = tuple(s for s, (_, pos) in zip(new_spans, candidates) if pos)
        loss = tuple(new_spans) if cfg.candidates else None
        out.append(LabelledText(doc.id, new_text, positives, loss))
    return out


# --- packing and encoding ---------------------------------------------------------------------


def pack_paragraphs(
    items: Sequence[LabelledText], tokenizer: PreTrainedTokenizerFast, max_tokens: int
) -> list[LabelledText]:
    """Join consecutive paragraphs of a document ("\\n") while they fit in ``max_tokens``."""
    packed: list[LabelledText] = []
    # the backend tokenizer counts without the "sequence too long" warning of the wrapper
    encodings = tokenizer.backend_tokenizer.encode_batch([it.text for it in items], add_special_tokens=False)
    lengths = [len(e.ids) for e in encodings]
    buf: list[LabelledText] = []
    used = 0
    for item, n in zip(items, lengths):
        if buf and used + n + 1 > max_tokens:
            packed.append(_join(buf))
            buf, used = [], 0
        buf.append(item)
        used += n + 1
    if buf:
        packed.append(_join(buf))
    return packed


def _join(items: Sequence[LabelledText]) -> LabelledText:
    if len(items) == 1:
        return items[0]
    parts: list[str] = []
    spans: list[Span] = []
    keep: list[Span] = []
    loss: list[Span] | None = [] if any(it.loss_spans is not None for it in items) else None
    offset = 0
    for it in items:
        spans += [Span(s.start + offset, s.end + offset, s.label) for s in it.spans]
        keep += [Span(s.start + offset, s.end + offset, s.label) for s in it.keep]
        if loss is not None:
            if it.loss_spans is None:  # no restriction in this part: the whole part counts
                loss.append(Span(offset, offset + len(it.text), "O"))
            else:
                loss += [Span(s.start + offset, s.end + offset, s.label) for s in it.loss_spans]
        parts.append(it.text)
        offset += len(it.text) + 1
    return LabelledText(
        items[0].doc_id,
        "\n".join(parts),
        tuple(spans),
        tuple(loss) if loss is not None else None,
        tuple(keep),
        all(it.keep_known for it in items),
    )


def token_labels(
    offsets: Sequence[tuple[int, int]],
    spans: Sequence[Span],
    label2id: dict[str, int],
    special: Sequence[bool],
    loss_spans: Sequence[Span] | None = None,
    keep_known: bool = True,
) -> list[int]:
    """BIO label ids for tokens from character spans: B- on a span's first token, I- after.
    Outside every span a token is ``O`` where insensitive entities are annotated, else the
    partial label :data:`NOT_SENSITIVE_INDEX`."""
    ordered = sorted(spans)
    loss_ordered = sorted(loss_spans) if loss_spans is not None else None
    labels: list[int] = []
    j = 0
    k = 0
    prev_span: Span | None = None
    for (start, end), is_special in zip(offsets, special):
        if is_special or end <= start:
            labels.append(IGNORE_INDEX)
            continue
        while j < len(ordered) and ordered[j].end <= start:
            j += 1
        span = ordered[j] if j < len(ordered) and ordered[j].start < end else None
        if span is None:
            tag = "O"
        else:
            tag = ("I-" if prev_span is span else "B-") + span.label
        prev_span = span
        if loss_ordered is not None:
            while k < len(loss_ordered) and loss_ordered[k].end <= start:
                k += 1
            if not (k < len(loss_ordered) and loss_ordered[k].start < end):
                labels.append(IGNORE_INDEX)
                continue
        labels.append(label2id[tag] if (tag != "O" or keep_known) else NOT_SENSITIVE_INDEX)
    return labels


def encode(
    items: Iterable[LabelledText],
    tokenizer: PreTrainedTokenizerFast,
    label2id: dict[str, int],
    max_length: int,
    stride: int,
    features: str | None = None,
) -> list[Window]:
    """Tokenize texts into overlapping windows with BIO labels."""
    items = list(items)
    if not items:
        return []
    enc = encode_windows(tokenizer, [it.text for it in items], max_length, stride)
    windows: list[Window] = []
    from deid.schema import SPAN_LABELS

    # a window with anything a profile may neutralize (a role too) is always kept
    sensitive_ids = {i for t, i in label2id.items() if t != "O" and t[2:] in SPAN_LABELS}
    public_ids = {i for t, i in label2id.items() if t[2:] in PUBLIC_NAME_LABELS}
    bounds: dict[int, list[tuple[int, int]]] = {}
    for w, sample in enumerate(enc["overflow_to_sample_mapping"]):
        item = items[sample]
        labels = token_labels(
            enc["offset_mapping"][w],
            _non_overlapping(item.spans, item.keep),
            label2id,
            [bool(x) for x in enc["special_tokens_mask"][w]],
            item.loss_spans,
            keep_known=item.keep_known,
        )
        has_entity = any(lab in sensitive_ids for lab in labels)
        has_public = any(lab in public_ids for lab in labels)
        types = None
        if features:
            if sample not in bounds:
                bounds[sample] = word_bounds(item.text)
            types = token_features(item.text, enc["offset_mapping"][w], features, bounds[sample])
        windows.append(Window(list(enc["input_ids"][w]), labels, item.doc_id, has_entity, has_public, types))
    return windows


def _non_overlapping(spans: Sequence[Span], keep: Sequence[Span]) -> list[Span]:
    """Sensitive spans plus the keep spans that do not touch any of them."""
    return list(spans) + [k for k in keep if not any(k.overlaps(s) for s in spans)]


# --- the per-epoch dataset ----------------------------------------------------------------------


class EpochData:
    """Makes the training windows of one epoch: new surrogates (or new masks) every time."""

    def __init__(
        self,
        docs: Sequence[SourceDocument],
        tokenizer: PreTrainedTokenizerFast,
        label2id: dict[str, int],
        cfg: DataConfig,
        features: str | None = None,
    ) -> None:
        self.features = features
        self.docs = list(docs)
        # its own copy: the training loop makes the next epoch's windows in a background
        # thread while validation tokenizes with the model's tokenizer, and a fast tokenizer
        # whose truncation is being set cannot be shared between threads ("Already borrowed")
        self.tokenizer = copy.deepcopy(tokenizer)
        self.label2id = label2id
        self.cfg = cfg
        self.generator = SurrogateGenerator(seed=cfg.seed, pool=cfg.surrogate_pool)

    def texts(self, epoch: int) -> Iterator[LabelledText]:
        rng = random.Random(f"{self.cfg.seed}:{epoch}")
        for doc in self.docs:
            if self.cfg.mode == "surrogate":
                paragraphs = surrogate_texts(doc, self.generator, epoch, self.cfg.noun_swap_rate)
            elif self.cfg.mode == "masking":
                paragraphs = masked_texts(doc, self.cfg, rng)
            else:
                raise ValueError(f"unknown data mode {self.cfg.mode!r} (surrogate | masking)")
            yield from pack_paragraphs(paragraphs, self.tokenizer, self.cfg.max_length - 2)

    def windows(self, epoch: int) -> list[Window]:
        rng = random.Random(f"windows:{self.cfg.seed}:{epoch}")
        out = encode(
            self.texts(epoch), self.tokenizer, self.label2id, self.cfg.max_length, self.cfg.stride, self.features
        )
        plain = self.cfg.negative_window_rate
        public = plain if self.cfg.public_name_window_rate is None else self.cfg.public_name_window_rate
        if plain < 1.0 or public < 1.0:
            out = [w for w in out if w.has_entity or rng.random() < (public if w.has_public_name else plain)]
        logger.info(
            "epoch %d: %d windows, %d with a placeholder, %d more with a public name",
            epoch, len(out), sum(w.has_entity for w in out), sum(w.has_public_name and not w.has_entity for w in out),
        )
        return out


def frequent_words(texts: Iterable[str], n: int = 5000) -> tuple[str, ...]:
    """The corpus' most frequent alphabetic words: the "random token" pool of masking."""
    from collections import Counter

    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", text))
    return tuple(w for w, _ in counts.most_common(n))
