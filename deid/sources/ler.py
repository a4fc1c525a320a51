"""LER CoNLL → readable documents with the LER tags as character spans.

The LER corpus (Leitner et al. 2019) is a stream of pre-tokenized sentences per court,
without document markers. This module

1. parses ``token TAG`` lines (IOB2, blank line between sentences) into :class:`Sentence`;
2. rebuilds the decisions from the sentence stream (:func:`split_documents`, boundary rules
   per court: judges' signature blocks for BAG/BGH, juris title lines, Tenor, closing
   sentences and BPatG's "In der …sache" opening for the others);
3. detokenizes into readable German text (:func:`detokenize`) in which every token keeps an
   exact character span, so the LER entities become :class:`~deid.schema.Span` objects.

Tokens are never altered: only the whitespace between them is chosen, which is why
``text[start:end] == token`` holds for every token.
"""

from __future__ import annotations

import logging
import lzma
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from deid.schema import Document, Span

logger = logging.getLogger(__name__)

COURTS: tuple[str, ...] = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg", "bverwg")
# Courts whose decisions end with the judges' names (one B-RR line per judge).
JUDGE_COURTS: frozenset[str] = frozenset({"bag", "bgh"})


@dataclass(frozen=True)
class Sentence:
    """One LER sentence: its position in the court file, tokens and IOB2 tags."""

    index: int
    tokens: tuple[str, ...]
    tags: tuple[str, ...]

    @property
    def plain(self) -> str:
        """Tokens joined by single spaces: the form the boundary rules match against."""
        return " ".join(self.tokens)


# --- parsing ------------------------------------------------------------------------------


def parse_conll(lines: Iterable[str]) -> Iterator[Sentence]:
    """Yield sentences from ``token TAG`` lines; a blank line ends a sentence.

    The tag is the last space-separated field, so a token is everything before it.
    """
    tokens: list[str] = []
    tags: list[str] = []
    index = 0
    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip("\n").rstrip("\r")
        if not line.strip():
            if tokens:
                yield Sentence(index, tuple(tokens), tuple(tags))
                index += 1
                tokens, tags = [], []
            continue
        token, sep, tag = line.rpartition(" ")
        if not sep or not token:
            raise ValueError(f"line {lineno}: expected 'token TAG'")
        tokens.append(token)
        tags.append(tag)
    if tokens:
        yield Sentence(index, tuple(tokens), tuple(tags))


def read_conll(path: str | Path) -> list[Sentence]:
    """Read a ``.conll`` or ``.conll.xz`` file."""
    path = Path(path)
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return list(parse_conll(fh))


def court_of(path: str | Path) -> str:
    """``data/sources/ler/bgh.conll.xz`` → ``bgh``."""
    return Path(path).name.split(".")[0]


# --- detokenization -----------------------------------------------------------------------
# Only the whitespace between tokens is decided here; tokens stay byte-identical.

_CLOSING_START = frozenset(",.;:)]}>!?")  # a punctuation token starting with one glues left
_OPENERS = frozenset({"(", "[", "{", "<", "„", "‚", "»"})
_CLOSERS = frozenset({"”", "‘", "«", "´"})
_ELLIPSIS = re.compile(r"^(…|\.{2,})$")  # placeholders ("S … GmbH"): keep their spaces
_PUNCT_ONLY = re.compile(r"^[^\w\s]+$")
_CODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.]{0,11}$")  # parts of "EU : C : 2016 : 198"
_ECLI_STOP = frozenset({")", "]", ",", ";", "(", "[", "<", "-", "–"})


@lru_cache(maxsize=65536)
def _glues_left(tok: str) -> bool:
    if _ELLIPSIS.match(tok):
        return False
    if tok in _CLOSERS or tok == "/":
        return True
    return bool(_PUNCT_ONLY.match(tok)) and tok[0] in _CLOSING_START


def _glues_right(tok: str) -> bool:
    return tok in _OPENERS or tok == "/"


def _is_word(tok: str | None) -> bool:
    return tok is not None and tok[:1].isalnum()


def token_glue(sentences: Sequence[Sequence[str]]) -> list[list[tuple[bool, bool]]]:
    """For every token, whether it attaches to its left and to its right neighbour.

    Rules (German typography): no space before ``, . ; : ) ] } > ! ? “ ” ‘ ´`` and after
    ``( [ { < „ ‚``; ``/`` attaches on both sides (``BFH/NV``, ``Wort-/Bildmarke``);
    straight quotes are paired open/close (strong cues first: a quote before punctuation or
    at a sentence end closes, one at a sentence start or after an opener opens, otherwise
    the running parity decides); ``“`` closes an open ``„`` and otherwise opens an English
    ``“ … ”`` pair; ``'s``/``’s`` and ``d’un`` are apostrophes; ``6 : 2``, ``EU : C : 2016 :
    198`` and ``ECLI : DE : …`` lose their spaces; ellipses (``…``, ``...``) keep theirs
    because in these decisions they stand for removed names (``S … GmbH``); ``§ 8`` keeps its
    space. Quote state runs over the whole document because quotations span sentences.
    """
    out: list[list[tuple[bool, bool]]] = []
    open_double = False  # straight "
    open_single = False  # straight '
    open_low = False  # „ waiting for “
    for toks in sentences:
        n = len(toks)
        left = [_glues_left(t) for t in toks]
        right = [_glues_right(t) for t in toks]
        for i, tok in enumerate(toks):
            prev = toks[i - 1] if i else None
            nxt = toks[i + 1] if i + 1 < n else None
            if tok == "„":
                open_low = True
            elif tok == "“":
                if open_low:
                    open_low = False
                    left[i] = True
                elif "”" in toks[i + 1 :]:
                    left[i], right[i] = False, True
                else:
                    left[i] = True
            elif tok == "’":
                left[i] = True
                right[i] = nxt == "s" or (prev is not None and len(prev) == 1 and prev.isalpha())
            elif tok == "'" and _is_word(prev) and nxt == "s":
                left[i] = right[i] = True
            elif tok in ('"', "'"):
                is_open = open_double if tok == '"' else open_single
                if nxt is None or (_glues_left(nxt) and nxt != "/"):
                    opening = False
                elif prev is None or prev in _OPENERS or prev in (":", "-", "–"):
                    opening = True
                else:
                    opening = not is_open
                if opening:
                    right[i] = True
                else:
                    left[i] = True
                if tok == '"':
                    open_double = opening
                else:
                    open_single = opening
            elif tok == "°" and nxt in ("C", "F"):
                right[i] = True
            elif (
                tok == ":"
                and prev is not None
                and nxt is not None
                and (
                    (prev.isdigit() and nxt.isdigit())
                    or (_CODE.match(prev) and _CODE.match(nxt) and _in_code_chain(toks, i))
                )
            ):
                left[i] = right[i] = True
        _glue_ecli(toks, left, right)
        out.append(list(zip(left, right)))
    return out


def _in_code_chain(toks: Sequence[str], i: int) -> bool:
    """``EU : C : 2016 : 198``: a colon with another colon two tokens away on either side."""
    return (i >= 2 and toks[i - 2] == ":") or (i + 2 < len(toks) and toks[i + 2] == ":")


def _glue_ecli(toks: Sequence[str], left: list[bool], right: list[bool]) -> None:
    """``ECLI : DE : BVerwG : 2015 : 280515 U3C12 . 14.0`` → one identifier without spaces."""
    for start, tok in enumerate(toks):
        if tok != "ECLI":
            continue
        j = start + 1
        while j < len(toks) and toks[j] not in _ECLI_STOP and len(toks[j]) <= 16:
            left[j] = True
            j += 1


def detokenize(
    sentences: Sequence[Sequence[str]], new_line: Sequence[bool] | None = None
) -> tuple[str, list[list[tuple[int, int]]]]:
    """Join tokenized sentences into text; return ``(text, offsets)``.

    ``offsets[s][t]`` is the ``(start, end)`` of token ``t`` of sentence ``s`` and
    ``text[start:end]`` is exactly that token. ``new_line[s]`` puts sentence ``s`` on a new
    line (a paragraph break), otherwise sentences are separated by one space.
    """
    glue = token_glue(sentences)
    parts: list[str] = []
    offsets: list[list[tuple[int, int]]] = []
    pos = 0
    last_right = True  # nothing before the first token
    for s, toks in enumerate(sentences):
        spans: list[tuple[int, int]] = []
        for t, tok in enumerate(toks):
            glue_left, glue_right = glue[s][t]
            if pos and not (last_right or glue_left):
                sep = "\n" if t == 0 and new_line is not None and new_line[s] else " "
                parts.append(sep)
                pos += 1
            parts.append(tok)
            spans.append((pos, pos + len(tok)))
            pos += len(tok)
            last_right = glue_right
        offsets.append(spans)
    return "".join(parts), offsets


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


# --- document boundaries ------------------------------------------------------------------
# LER keeps the decisions in order but does not mark them. A decision is, in order: juris
# title line(s), Leitsätze, Tenor, Tatbestand/Gründe, closing sentences (costs, value in
# dispute, "Diese Entscheidung ist unanfechtbar."), and for BAG/BGH the judges' names.

_ENUM = re.compile(r"^(\(?\d+[a-z]?[.)]|\(?[a-zA-Z]{1,3}\)|[IVX]+\.?|[A-H]\.|\(\d+\)|[●•*-])$")
_TERMINAL = frozenset({".", "?", "!", ":", ";", ",", "…", "..."})
_QUOTES = frozenset({"“", '"', "”", "'", "‘", "’", "«", "»"})
_SIGNATURE_WORDS = frozenset(
    {"Dr.", "Prof.", "h.", "c.", "Dres.", "LL.M.", "Die", "Der", "Vorsitzende", ",", "und"}
)
_SIGNATURE_NOTE = re.compile(
    r"verhindert|gehindert|Urlaub|Unterschrift|unterschreiben|ausgeschieden|Vorsitzende"
)
_PLACE_DATE = re.compile(r"^[A-ZÄÖÜ][\w-]+ , (den )?\d{1,2}\. \w+ \d{4}$")

_RECOURSE = (
    r"(Nichtzulassungs|Rechts|Verfassungs|Wahlprüfungs|Verzögerungs|sofortige |weitere )?"
    r"(Beschwerden?|Revision(en)?|Anschlussrevision|Berufung|Anhörungsrüge|Erinnerung|"
    r"Gegenvorstellung|Klagen?|Anträge?|Antrag\w*|Vorlage|Richtervorlage|Ablehnungsgesuch)"
)
_TENOR = re.compile(
    r"^(\d+\. |I+\. )?("
    rf"Auf (die|den) (\w+ )*?{_RECOURSE}\b"
    r"|(Die|Der|Das|Dem) .{0,400}? (wird|werden) .{0,400}?"
    r"(zurückgewiesen|verworfen|aufgehoben|abgelehnt|angenommen|abgewiesen|eingestellt|"
    r"geändert|abgeändert|festgesetzt|zurückverwiesen|verwiesen|zugelassen|bestimmt|erklärt|"
    r"vorgelegt|ersucht|berichtigt|wiederholt|untersagt|aufgegeben)( \.$| ,| und| wird \.$)"
    r"|(Die|Der|Das) .{0,300} (ist|sind) (gegenstandslos|wirkungslos|erledigt) \.$"
    r"|(§|Artikel|Art\.) .{0,400} (ist|sind) .{0,300}(unvereinbar|vereinbar|nichtig)\b"
    r"|(Das Urteil|Der Beschluss|Die Entscheidung) .{0,300} verletz"
    r"|Dem Gerichtshof der Europäischen Union"
    r"|Es wird festgestellt"
    r")"
)
_CLOSING = re.compile(
    r"Kostenentscheidung .{0,60}?(beruht|folgt|ergibt|stützt|bleibt)|ist unanfechtbar \.$"
    r"|Streitwert(festsetzung|entscheidung|es|s)? (beruht|folgt|ergibt|stützt|gründet)"
    r"|Festsetzung des (Werts|Wertes|Streitwerts|Streitwertes|Gegenstandswerts) .{0,80}"
    r"(beruht|folgt|ergibt|stützt|gründet|Grundlage)"
    r"|Gegenstandswert(es|s)? (ergibt|beruht|folgt)|Gerichtskosten werden .{0,40}nicht erhoben"
    r"|(Auslagenerstattung|Entscheidung über die (Auslagen|Kosten)).{0,200}(beruht|folgt|ergibt)"
    r"|Kosten .{0,80}vorbehalten \.$"
    r"|Kosten .{0,100}zu (entscheiden|befinden) haben \.$"
    r"|(weiteren|weitergehenden) (Begründung|Darstellung) .{0,120}(abgesehen|ab\b)"
    r"|Entscheidung ist mit .{1,30} Stimmen ergangen"
    r"|(Entscheidung|Beschluss) ergeht .{0,160}ohne mündliche"
    r"|vorläufige Vollstreckbarkeit"
    r"|^(\d+\. )?(Die|Der) (Aussetzung|Gerichtskostenfreiheit|Gebührenfreiheit|Kostenfreiheit)\b"
    r".{0,40}(beruht|folgt|ergibt)"
)
# Closing sentences may be followed by more of the same decision's cost reasoning: a sentence
# about costs that continues ("Danach …", "Hinsichtlich …") or cites a cost provision.
_CLOSING_TAIL = re.compile(r"Kosten|Streitwert|Gegenstandswert|GKG|RVG|Auslagen|§ 193 SGG")
_TAIL_START = re.compile(
    r"^(Da|Danach|Dies|Diese|Dieser|Sie|Er|Es|Hinsichtlich|Insoweit|Soweit|Dabei|Hierbei|"
    r"Deshalb|Daher|Dementsprechend|Im Übrigen|Eine Kostenentscheidung|Der Senat hat)\b"
)
_TAIL_LAW = re.compile(r"VwGO|GKG|RVG|SGG|ZPO|FGO|BVerfGG|Streitwertkatalog|Kostenverzeichnis")
_CLOSING_GAP = 3  # closing sentences this close together form one closing block
_BPATG_OPENING = re.compile(
    r"^[Ii]n (der|dem|den) (\w+ )?\w*(sachen?|verfahren|[Ss]treitsache)\b( betreffend| wegen| über|$)"
    r"|^In Sachen\b|\. In der \w*sache betreffend"
)
# juris title of a BPatG decision: "Markenbeschwerdeverfahren – " CADLAB " – …"
_BPATG_TITLE = re.compile(r"^(\( )?[A-ZÄÖÜ]\w*verfahren [–-] ")
_FUNCTION_WORDS = _wordset(
    "dass und oder der die das des dem den ein eine einen einer mit von zu ob wenn "
    "auf für in im bei nach aus durch über sowie als"
)
# Sentence starts that make a line without final punctuation a fragment, not a title.
_NOT_TITLE_START = _wordset(
    "Der Die Das Dem Den Des Es Er Sie Damit Dies Etwas In Auf Im Vielleicht Mangels "
    "Frei Verordnung Art. Nach Mit Bei Wenn Ob Dass Gemäß Soweit Weil"
)
# BVerwG decisions on a Nichtzulassungsbeschwerde open their reasons (no Tenor in LER) with
# one short verdict sentence.
_BVERWG_OPENING = re.compile(
    r"^Die (\w+ |[^.]{0,120} )?(Nichtzulassungsb|B)eschwerde( des \w+| der \w+)? "
    r"(bleibt ohne Erfolg|hat keinen Erfolg|kann keinen Erfolg haben|"
    r"ist (zulässig , aber )?(unbegründet|unzulässig|begründet)) \.$"
)
# WBO/WDO decisions end with who bears the costs and expenses, citing the WBO/WDO
# (cost-only decisions discuss costs throughout, without that citation at every step).
_BVERWG_CLOSING = re.compile(
    r"^[A-Z0-9].{0,200}(Kosten|Aufwendungen|Auslagen)\b.{0,200}(WBO|WDO).{0,200}"
    r"(aufzuerlegen|zu entlasten)\b.{0,200}\.$"
    r"|^[A-Z0-9].{0,160} trägt seine Kosten selbst \.$"
)
# First sentence of a statement of facts, and the verdict that opens the reasons.
_BVERWG_FACTS = re.compile(
    r"^(Der|Die) (\.\.\. )?(Kläger|Klägerin|Kläger zu \d|Antragsteller|Antragstellerin|"
    r"Beteiligten)( , [^,]{1,100} ,)? (wendet sich gegen|wenden sich gegen|begehrt|begehren|"
    r"erstrebt|streiten)\b|^Der Rechtsstreit betrifft\b"
)
_VERDICT = re.compile(
    r"^(\d+\. )?(Die|Der) ([\w-]+ ){0,3}(Revision|Beschwerde|Nichtzulassungsbeschwerde|Klage|"
    r"Antrag|Anträge|Berufung|Rechtsbeschwerde)\b.{0,80} (ist|sind|hat|haben|bleibt|bleiben|kann) "
    r".{0,40}(unbegründet|begründet|unzulässig|zulässig|Erfolg)"
)
# End of the facts ("… beantragt , die Revision zurückzuweisen .") before the reasons.
_FACTS_END = re.compile(
    r"beantragt|verteidigt|tritt .{0,60}entgegen|entgegengetreten|zurückzuweisen"
)


def _is_judge_line(s: Sentence) -> bool:
    """A line of the judges' signature block: only judge names (RR) plus titles."""
    if not any(t.endswith("-RR") for t in s.tags):
        return False
    others = [tok for tok, tag in zip(s.tokens, s.tags) if not tag.endswith("-RR")]
    return len(others) <= 3 and all(tok in _SIGNATURE_WORDS for tok in others)


def _is_signature_note(s: Sentence) -> bool:
    """A note inside the judges' block: "Richter X ist verhindert …", "Karlsruhe , den …"."""
    if any(t.endswith("-RR") for t in s.tags) and len(s.tokens) <= 25:
        return bool(_SIGNATURE_NOTE.search(s.plain)) or len(s.tokens) <= 4
    return bool(_PLACE_DATE.match(s.plain))


def _is_title(s: Sentence, min_tokens: int = 3) -> bool:
    """A juris title line: no sentence-final punctuation, a few real words, no enumeration."""
    toks = s.tokens
    if len(toks) < min_tokens or _ends_sentence(toks):
        return False
    first = toks[0]
    if _ENUM.match(first) or not (first[0].isupper() or first in ("(", "§", "§§")):
        return False
    if first == "(" and toks[1][:1].isdigit():
        return False  # "( 2 ) Absatz 1 gilt nicht …": a quoted statute
    if first in ("§", "§§"):
        # statute headings ("§ 19 Feststellung …") are not titles; juris titles about a
        # provision are long and dash-separated ("§ 67 … verfassungswidrig - …")
        if len(toks) < 10 or "-" not in toks:
            return False
    elif first[0].isdigit() or re.match(r"^[A-Z]\d", first):
        return False
    return sum(1 for tok in toks if len(tok) >= 4 and tok[0].isalpha()) >= min(2, min_tokens)


def _ends_sentence(toks: Sequence[str]) -> bool:
    """Whether the last token (before closing quotes) is sentence-final punctuation."""
    k = len(toks) - 1
    while k > 0 and toks[k] in _QUOTES:
        k -= 1
    last = toks[k]
    return last in _TERMINAL or (last.endswith(".") and len(last) > 1) or last in _QUOTES


def _is_tenor(s: Sentence) -> bool:
    return bool(_TENOR.match(s.plain))


def _is_closing(s: Sentence) -> bool:
    return bool(_CLOSING.search(s.plain))


@dataclass(frozen=True)
class Segment:
    """Sentences ``[start, end)`` of one decision and the cue that opened it."""

    start: int
    end: int
    cue: str


def split_documents(sentences: Sequence[Sentence], court: str) -> list[Segment]:
    """Cut a court's sentence stream into decisions (see :func:`document_starts`)."""
    starts = document_starts(sentences, court)
    bounds = sorted(starts) + [len(sentences)]
    return [Segment(a, b, starts[a]) for a, b in pairwise(bounds) if b > a]


def document_starts(sentences: Sequence[Sentence], court: str) -> dict[int, str]:
    """Sentence index → cue for every sentence that opens a decision.

    BAG and BGH: a decision ends with its judges' signature block. The other courts have no
    judges' lines; there a decision opens with a juris title line followed by Leitsätze and
    the Tenor, or (without title) with the Tenor / BPatG's "In der …sache" right after the
    previous decision's closing sentences; BVerwG (no Tenor in LER) ends with its cost and
    value-in-dispute sentences.
    """
    if not sentences:
        return {}
    if court in JUDGE_COURTS:
        return _starts_after_judges(sentences)
    return _starts_by_cues(sentences, court)


def _starts_after_judges(sentences: Sequence[Sentence]) -> dict[int, str]:
    """Close a decision after each judges' block; notes inside the block stay in it."""
    starts = {0: "file_start"}
    n = len(sentences)
    judge = [_is_judge_line(s) for s in sentences]
    i = 0
    while i < n:
        if not judge[i]:
            i += 1
            continue
        end = i + 1  # one past the last judge line of this block
        j = end
        while j < n:
            if judge[j]:
                end = j = j + 1
            elif j - end < 2 and _is_block_filler(sentences[j]):
                j += 1
            else:
                break
        if end < n and not sentences[end].plain.startswith("Berichtigungsbeschluss"):
            starts[end] = "after_judges"  # a correction order belongs to its decision
        i = end
    return starts


def _is_block_filler(s: Sentence) -> bool:
    """A line that may sit between two judges' names: a note or a bare name."""
    short = len(s.tokens) <= 3 and not _ends_sentence(s.tokens)
    return _is_signature_note(s) or short


_HEADER_WINDOW = 15  # title … Tenor: Senate decisions have up to about a dozen Leitsätze


def _starts_by_cues(sentences: Sequence[Sentence], court: str) -> dict[int, str]:
    if court == "bpatg":
        return _starts_bpatg(sentences)
    if court == "bverwg":
        return _starts_bverwg(sentences)
    n = len(sentences)
    title = [_is_title(s) for s in sentences]
    tenor = [_is_tenor(s) for s in sentences]
    closing = [_is_closing(s) for s in sentences]
    after_closing = _after_closing(sentences, closing)
    starts = {0: "file_start"}
    last = 0
    for i in range(1, n):
        cue = None
        if (title[i] and _anchor_follows(i, tenor, closing)) or (
            after_closing[i] and _is_title(sentences[i], min_tokens=2)
        ):
            cue = "title"
        elif (
            tenor[i]
            and not tenor[i - 1]
            and i - last > 5
            and any(after_closing[max(0, i - 2) : i + 1])
        ):
            cue = "tenor_after_closing"  # at most two sentences of cost reasoning between
        if cue is None:
            continue
        if cue != "title" and _in_header(last, i, title, tenor):
            continue
        starts[i] = cue
        last = i
    return starts


def _starts_bverwg(sentences: Sequence[Sentence]) -> dict[int, str]:
    """BVerwG (LER keeps almost no Tenor here): a decision ends with its cost and value
    sentences. One without them is found by its keyword title, by the one-sentence verdict on
    a Nichtzulassungsbeschwerde, by a Vorlage Tenor ("Das Verfahren wird ausgesetzt."), or by
    a new statement of facts ("Der Kläger wendet sich gegen …") after the previous decision's
    reasons have begun."""
    n = len(sentences)
    closing = [_is_closing(s) or bool(_BVERWG_CLOSING.search(s.plain)) for s in sentences]
    after_closing = _after_closing(sentences, closing)
    starts = {0: "file_start"}
    last = 0
    verdict_at = None  # the current decision's reasons begin here
    for i in range(1, n):
        s = sentences[i]
        cue, start = None, i
        if after_closing[i]:
            cue = "after_closing"
        elif _is_keyword_title(s) and i < n - 1:
            if _ends_sentence(sentences[i - 1].tokens) and _ends_sentence(sentences[i + 1].tokens):
                cue = "title"
        elif _BVERWG_OPENING.match(s.plain):
            before = sentences[i - 1]
            if not (_ENUM.match(before.tokens[0]) or _FACTS_END.search(before.plain)):
                cue = "verdict"
        elif s.plain == "Das Verfahren wird ausgesetzt .":
            cue = "vorlage"
            if sentences[i - 1].tokens[0] == "Zur":
                start = i - 1  # "Zur Klärung … wird … eingeholt": its heading
        elif verdict_at is not None and i - verdict_at > 5 and _BVERWG_FACTS.match(s.plain):
            cue, start = "facts", _facts_header_start(sentences, i, last)
        if cue is not None and start > last:
            starts[start] = cue
            last = start
            verdict_at = None
        if verdict_at is None and _VERDICT.match(s.plain):
            verdict_at = i
    return starts


def _facts_header_start(sentences: Sequence[Sentence], i: int, last: int) -> int:
    """Move a start found at the statement of facts back over its "I" marker and a numbered
    Leitsatz block ("1. …", "2. …") right before it."""
    j = i
    if j - 1 > last and sentences[j - 1].plain in ("I", "I."):
        j -= 1
    k = j - 1
    while k > last + 1 and k > j - 8 and sentences[k].tokens[0] != "1.":
        k -= 1
    if (
        k > last
        and sentences[k].tokens[0] == "1."
        and all(_ends_sentence(sentences[m].tokens) for m in range(k, j))
    ):
        return k
    return j


def _starts_bpatg(sentences: Sequence[Sentence]) -> dict[int, str]:
    """BPatG: a decision opens with its juris title ("Patentbeschwerdeverfahren – …") or, when
    it has none, with "In der …sache betreffend … hat der … Senat …", possibly preceded by a
    keyword title and Leitsätze."""
    starts = {0: "file_start"}
    prev = 0
    for i, s in enumerate(sentences):
        if i == 0:
            continue
        if _BPATG_TITLE.match(s.plain):
            if i - prev > 1:
                starts[i] = "title"
                prev = i
            continue
        if not _BPATG_OPENING.search(s.plain):
            continue
        if any(_BPATG_TITLE.match(sentences[j].plain) for j in range(prev, i)) and (
            i - prev <= _HEADER_WINDOW
        ):
            continue  # the opening of the decision whose title opened at ``prev``
        start, cue = i, "opening"
        for j in range(i - 1, max(prev, i - _HEADER_WINDOW), -1):
            if _is_keyword_title(sentences[j]):
                start, cue = j, "title"
                break
            if not _ends_sentence(sentences[j].tokens):
                break  # a list or table line: still the previous decision
        starts[start] = cue
        prev = start
    return starts


def _is_keyword_title(s: Sentence) -> bool:
    """A short keyword line above Leitsätze ("Unrichtiger Betrag bei SEPA-Lastschrift"):
    a noun phrase, not a sentence fragment cut off by the LER sentence splitter."""
    return (
        _is_title(s, min_tokens=2)
        and len(s.tokens) <= 25
        and s.tokens[-1] not in _FUNCTION_WORDS
        and s.tokens[0] not in _NOT_TITLE_START
        and ":" not in s.tokens
    )


def _after_closing(sentences: Sequence[Sentence], closing: Sequence[bool]) -> list[bool]:
    """True for the first sentence after a block of closing sentences and their cost tail."""
    n = len(sentences)
    out = [False] * n
    idx = [i for i in range(n) if closing[i]]
    for k, i in enumerate(idx):
        if (
            k + 1 < len(idx)
            and idx[k + 1] - i <= _CLOSING_GAP
            and not any(_opens(sentences[j]) for j in range(i + 1, idx[k + 1]))
        ):
            continue  # not the end of the closing block
        j = i + 1
        while j < n and _is_closing_tail(sentences[j]):
            j += 1
        if j < n:
            out[j] = True
    return out


def _opens(s: Sentence) -> bool:
    """A sentence that may open a decision: a title, a Tenor or a BVerwG verdict."""
    return _is_title(s, min_tokens=2) or _is_tenor(s) or bool(_BVERWG_OPENING.match(s.plain))


def _is_closing_tail(s: Sentence) -> bool:
    if _is_title(s) or _is_tenor(s) or not _CLOSING_TAIL.search(s.plain):
        return False
    return bool(_TAIL_START.match(s.plain) or _TAIL_LAW.search(s.plain))


def _anchor_follows(i: int, tenor: Sequence[bool], closing: Sequence[bool]) -> bool:
    """A Tenor within the header window after title ``i``, with no closing sentence between."""
    for j in range(i + 1, min(len(tenor), i + 1 + _HEADER_WINDOW)):
        if tenor[j]:
            return True
        if closing[j]:
            return False
    return False


def _in_header(last: int, i: int, title: Sequence[bool], tenor: Sequence[bool]) -> bool:
    """Whether ``i`` still belongs to the header (title, Leitsätze, Tenor) opened at ``last``."""
    if i - last > _HEADER_WINDOW:
        return False
    return not any(tenor[k] for k in range(last, i)) or all(
        title[k] or tenor[k] for k in range(last, i)
    )


# --- layout and documents -----------------------------------------------------------------

PARAGRAPH_CHARS = 700
_LINE_START = re.compile(
    r"^(\(?\d+[a-z]?[.)]|\d+(\.\d+)+\.?|\(?[a-z]{1,3}\)|[IVX]+\.?|[A-H]\.|\([a-z\d]+\)|[●•*–-])$"
)


def _starts_enumerated(tokens: Sequence[str]) -> bool:
    """ "1.", "a )", "( 2 )", "II.": LER splits "a)" and "(2)" into separate tokens."""
    head = "".join(tokens[:3])
    return bool(_LINE_START.match(tokens[0])) or any(
        _LINE_START.match(head[:n]) for n in (2, 3, 4, 5) if n <= len(head) and head[n - 1] == ")"
    )


def line_breaks(sentences: Sequence[Sentence]) -> list[bool]:
    """Whether each sentence starts a new line (a paragraph) in the rebuilt decision.

    LER lost the paragraphs, so they are approximated the way decisions are laid out: a
    new paragraph at every enumerated point ("1.", "a)", "II."), around headings, table and
    list lines (no sentence-final punctuation, or a lead-in ending with ":"), at the Tenor
    and the closing sentences, and around each judge's name; other sentences continue the
    current paragraph until it reaches about :data:`PARAGRAPH_CHARS` characters (the length
    of a typical numbered paragraph), so that no paragraph runs over a whole section.
    """
    out = [False] * len(sentences)
    length = sum(len(t) + 1 for t in sentences[0].tokens) if sentences else 0
    for k in range(1, len(sentences)):
        s, prev = sentences[k], sentences[k - 1]
        out[k] = (
            length >= PARAGRAPH_CHARS
            or _starts_enumerated(s.tokens)
            or not _ends_sentence(s.tokens)
            or not _ends_sentence(prev.tokens)
            or prev.tokens[-1] == ":"
            or (_is_tenor(s) and not _is_tenor(prev))
            or (_is_closing(s) and not _is_closing(prev))
            or _is_judge_line(s)
            or _is_judge_line(prev)
        )
        size = sum(len(t) + 1 for t in s.tokens)
        length = size if out[k] else length + size
    return out


def render(sentences: Sequence[Sentence]) -> tuple[str, list[list[tuple[int, int]]]]:
    """A decision's text and every token's ``(start, end)`` (see :func:`detokenize`)."""
    return detokenize([s.tokens for s in sentences], line_breaks(sentences))


def entity_spans(tags: Sequence[str], offsets: Sequence[tuple[int, int]]) -> list[Span]:
    """IOB2 tags of one sentence → character spans (an ``I-X`` without ``B-X`` starts one)."""
    spans: list[Span] = []
    label: str | None = None
    start = end = 0
    for tag, (tok_start, tok_end) in zip(tags, offsets):
        prefix, _, kind = tag.partition("-")
        if prefix == "I" and kind == label:
            end = tok_end
            continue
        if label is not None:
            spans.append(Span(start, end, label, source="ler"))
            label = None
        if prefix in ("B", "I") and kind:
            label, start, end = kind, tok_start, tok_end
    if label is not None:
        spans.append(Span(start, end, label, source="ler"))
    return spans


def build_document(
    sentences: Sequence[Sentence], court: str, number: int, source: str, cue: str = ""
) -> Document:
    """One decision: detokenized text, LER entities as spans, provenance in ``meta``."""
    text, offsets = render(sentences)
    entities: list[Span] = []
    for s, offs in zip(sentences, offsets):
        entities.extend(entity_spans(s.tags, offs))
    meta = {
        "corpus": "ler",
        "first_sentence": sentences[0].index,
        "sentences": len(sentences),
        "tokens": sum(len(s.tokens) for s in sentences),
        "boundary": cue,
    }
    return Document(
        id=f"ler-{court}-{number:04d}",
        text=text,
        court=court,
        source=source,
        meta=meta,
        entities=entities,
    )


def load_ler_file(path: str | Path, court: str | None = None) -> list[Document]:
    """All decisions of one court file, numbered in file order from 1."""
    path = Path(path)
    court = court or court_of(path)
    sentences = read_conll(path)
    segments = split_documents(sentences, court)
    docs = [
        build_document(sentences[seg.start : seg.end], court, k, str(path), seg.cue)
        for k, seg in enumerate(segments, 1)
    ]
    logger.info("%s: %d sentences -> %d documents", court, len(sentences), len(docs))
    return docs


def load_ler(
    root: str | Path,
    courts: Iterable[str] = COURTS,
    progress: Callable[[str], None] | None = None,
) -> list[Document]:
    """Decisions of every court file under ``root`` (``<court>.conll.xz``), court by court;
    ``progress`` is called with ``ler/<court>`` after each file."""
    root = Path(root)
    docs: list[Document] = []
    for court in courts:
        path = root / f"{court}.conll.xz"
        if path.exists():
            docs.extend(load_ler_file(path, court))
        else:
            logger.warning("LER file missing: %s", path)
        if progress:
            progress(f"ler/{court}")
    return docs
