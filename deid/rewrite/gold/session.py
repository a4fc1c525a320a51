"""Interactive placeholder replacement as a state machine (thesis 5.5.1, improved).

The session walks the text elements of each document. Plain words are skipped (see
``deid.rewrite.gold.plain``) unless the detector suggests them; every other element gets a
*proposal* (span, type, surrogate) the person accepts, rejects or adjusts. Everything the
person decides lives in a :class:`~deid.rewrite.gold.decisions.DecisionBook`, saved after every
change, so quitting at any moment loses nothing and resuming starts at the first undecided
element. No terminal code here: the TUI and the tests drive the same methods.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from deid.rewrite.gold.decisions import (
    DONE,
    NOT_PLACEHOLDER,
    OPEN,
    PLACEHOLDER,
    Correction,
    Decision,
    DecisionBook,
    DocDecisions,
    DocumentRecord,
    apply_decisions,
    check_text,
)
from deid.rewrite.gold.doctext import Detector, DocText, NotFound
from deid.rewrite.gold.store import DecisionStore
from deid.rewrite.surrogates import DocumentSurrogates, SurrogateGenerator, derive_rng
from deid.rewrite.surrogates.surface import normalize
from deid.schema import LABELS, Document, Span
from deid.sources.elements import Element, element_flags
from deid.sources.io import text_hash, write_documents

logger = logging.getLogger(__name__)

DEFAULT_SEED = 13
POOL = "eval"
SEARCH_WINDOW = 1500  # how far from the current element "s TEXT" and "c OLD => NEW" look
MAX_UNDO = 500


class SessionError(ValueError):
    """A command that cannot be carried out here; the message tells the person why."""


@dataclass(frozen=True)
class Proposal:
    """What the session proposes for the current element: a span (character offsets, and the
    elements ``first``..``last`` it touches), a type and a surrogate."""

    start: int
    end: int
    first: int
    last: int
    label: str | None
    surrogate: str | None
    origin: str = "proposed"  # or "edited", "redrawn", "decided" (reopened): then it is kept
    redraws: int = 0

    @property
    def edited(self) -> bool:
        """The surrogate came from the person, not from the generator: keep it when the span
        changes."""
        return self.origin != "proposed"


@dataclass(frozen=True)
class Progress:
    doc_number: int  # 1-based
    doc_total: int
    doc_id: str
    position: int  # 1-based position of the current element among those to decide
    needed: int  # elements a person must decide in this document
    decided: int  # of those, decided
    placeholders: int


@dataclass(frozen=True)
class _Snapshot:
    docs: dict[str, DocDecisions]
    doc_index: int
    cursor: int | None
    proposal: Proposal | None


class Session:
    """Walk ``docs`` (or those of ``ids``), deciding element by element.

    ``store`` (a decisions file) is written after every change; ``output`` receives the
    rewritten documents of every finished input document on :meth:`save`.
    """

    def __init__(
        self,
        docs: Sequence[Document],
        book: DecisionBook | None = None,
        *,
        ids: Iterable[str] | None = None,
        seed: int = DEFAULT_SEED,
        pool: str = POOL,
        detect: Detector | None = None,
        store: DecisionStore | None = None,
        output: str | Path | None = None,
    ) -> None:
        self.all_docs = list(docs)
        wanted = list(ids) if ids is not None else [d.id for d in self.all_docs]
        by_id = {d.id: d for d in self.all_docs}
        missing = [i for i in wanted if i not in by_id]
        if missing:
            raise SessionError(f"{len(missing)} document ids not in the input: {missing[:5]}")
        self.docs = [by_id[i] for i in wanted]
        self.book = book if book is not None else DecisionBook()
        for doc in self.all_docs:
            check_text(doc, self.book.get(doc.id))
        self.seed = seed
        self.pool = pool
        self.generator = SurrogateGenerator(seed=seed, pool=pool)
        if detect is None:
            from deid.rewrite.placeholders import detect_placeholders

            detect = detect_placeholders
        self.detect = detect
        self.store = store
        self.output = Path(output) if output is not None else None
        self.doc_index = 0
        self.cursor: int | None = None
        self.proposal: Proposal | None = None
        self.finished = False
        self._texts: dict[str, DocText] = {}
        self._surrogates: dict[str, DocumentSurrogates] = {}
        self._flags: tuple[DocDecisions, list[bool]] | None = None
        self._history: list[_Snapshot] = []
        self._enter(self._first_open(0))

    # --- where we are -----------------------------------------------------------------

    @property
    def doc(self) -> Document:
        return self.docs[self.doc_index]

    @property
    def doctext(self) -> DocText:
        """Elements, suggestions and what needs deciding in the current document."""
        doc = self.doc
        if doc.id not in self._texts:
            self._texts[doc.id] = DocText.build(doc, self.detect)
        return self._texts[doc.id]

    @property
    def surrogates(self) -> DocumentSurrogates:
        """The current document's surrogates; on first use (also after a resume) it is fed
        the decided placeholders in order, so surnames stay linked to their initials."""
        doc = self.doc
        if doc.id not in self._surrogates:
            surrogates = DocumentSurrogates(self.generator, doc.id)
            for d in self.book.get(doc.id).placeholders:
                surrogates.surrogate(
                    d.label or "", doc.text[d.start : d.end], *self.doctext.context(d.start, d.end)
                )
            self._surrogates[doc.id] = surrogates
        return self._surrogates[doc.id]

    @property
    def decisions(self) -> DocDecisions:
        return self.book.get(self.doc.id)

    @property
    def element(self) -> Element | None:
        return None if self.cursor is None else self.doctext.elements[self.cursor]

    def progress(self) -> Progress:
        doctext = self.doctext
        flags = self._decided()
        position = (
            bisect.bisect_left(doctext.needs, self.cursor) + 1 if self.cursor is not None else 0
        )
        return Progress(
            doc_number=self.doc_index + 1,
            doc_total=len(self.docs),
            doc_id=self.doc.id,
            position=position,
            needed=len(doctext.needs),
            decided=sum(1 for i in doctext.needs if flags[i]),
            placeholders=len(self.decisions.placeholders),
        )

    def suggestion_at(self, start: int, end: int) -> Span | None:
        return self.doctext.suggestion_at(start, end)

    # --- decisions ----------------------------------------------------------------------

    def accept(self) -> str:
        """Record the proposal as a placeholder and move on."""
        p = self._need_proposal()
        if p.label is None:
            raise SessionError("pick a type first (1-9 or t TYPE)")
        if not p.surrogate:
            raise SessionError("the surrogate is empty; type one with e TEXT")
        if any(c.overlaps(p.start, p.end) for c in self.decisions.corrections):
            raise SessionError("the span overlaps a text correction; undo the correction first")
        self._push()
        suggested = self.suggestion_at(p.start, p.end) is not None
        decision = Decision(p.start, p.end, PLACEHOLDER, p.label, p.surrogate, suggested)
        replaced = sum(1 for d in self.decisions.decisions if d.overlaps(p.start, p.end))
        self._put(self.decisions.with_decision(decision))
        logger.debug("%s: placeholder %d..%d %s", self.doc.id, p.start, p.end, p.label)
        note = (
            f" (replacing {replaced} earlier decision{'s' if replaced > 1 else ''})"
            if replaced
            else ""
        )
        return self._advance(f"placeholder recorded{note}")

    def reject(self) -> str:
        """Record every element of the proposal as not a placeholder and move on."""
        p = self._need_proposal()
        self._push()
        decisions = self.decisions
        for i in range(p.first, p.last + 1):
            el = self.doctext.elements[i]
            suggested = self.suggestion_at(el.start, el.end) is not None
            decisions = decisions.with_decision(
                Decision(el.start, el.end, NOT_PLACEHOLDER, suggested=suggested)
            )
        self._put(decisions)
        return self._advance("not a placeholder")

    def default(self) -> str:
        """Enter: accept a proposal that has a type, otherwise "not a placeholder"."""
        p = self._need_proposal()
        return self.accept() if p.label is not None else self.reject()

    # --- shaping the proposal -----------------------------------------------------------

    def set_label(self, label: str) -> str:
        p = self._need_proposal()
        label = _resolve_label(label)
        self._push()
        self.proposal = self._with_surrogate(replace(p, label=label, origin="proposed", redraws=0))
        return f"type {label}"

    def extend(self, side: str, n: int = 1) -> str:
        """Grow the span by ``n`` elements to the ``left`` or ``right`` (first to the edge
        of a partly covered element: "A" in "A-GbR" grows to "A-GbR")."""
        p = self._need_proposal()
        elements = self.doctext.elements
        start, end, first, last = p.start, p.end, p.first, p.last
        for _ in range(n):
            if side == "left":
                if start > self.doctext.core(first)[0]:
                    start = self.doctext.core(first)[0]
                elif first > 0:
                    first -= 1
                    start = self.doctext.core(first)[0]
            else:
                if end < self.doctext.core(last)[1]:
                    end = self.doctext.core(last)[1]
                elif last + 1 < len(elements):
                    last += 1
                    end = self.doctext.core(last)[1]
        return self._reshape(p, start, end, first, last)

    def shrink(self, side: str, n: int = 1) -> str:
        """Drop ``n`` elements from the ``left`` or ``right`` end of the span."""
        p = self._need_proposal()
        start, end, first, last = p.start, p.end, p.first, p.last
        for _ in range(n):
            if first >= last:
                raise SessionError("the span is one element; cut inside it with s TEXT")
            if side == "left":
                first += 1
                start = self.doctext.core(first)[0]
            else:
                last -= 1
                end = self.doctext.core(last)[1]
        return self._reshape(p, start, end, first, last)

    def set_span_text(self, needle: str) -> str:
        """Make the span exactly ``needle``, found next to the current element ("A" of
        "A-GbR", or a name the courts forgot to anonymize a few words away)."""
        p = self._need_proposal()
        start, end = self._find(needle)
        first, last = self.doctext.element_range(start, end)
        return self._reshape(p, start, end, first, last)

    def edit_surrogate(self, text: str) -> str:
        p = self._need_proposal()
        text = " ".join(text.split())
        if not text:
            raise SessionError("the surrogate is empty")
        if p.label is None:
            raise SessionError("pick a type first (1-9 or t TYPE)")
        self._push()
        self.proposal = replace(p, surrogate=text, origin="edited")
        return "surrogate edited"

    def redraw(self) -> str:
        """Another surrogate of the same type and form (initials, gender) for this span."""
        p = self._need_proposal()
        if p.label is None:
            raise SessionError("pick a type first (1-9 or t TYPE)")
        self._push()
        n = p.redraws + 1
        surface = self.doc.text[p.start : p.end]
        before, after = self.doctext.context(p.start, p.end)
        rng = derive_rng(self.seed, "redraw", self.doc.id, p.label, normalize(surface), n)
        out = self.generator.generate(p.label, surface, before, rng, after=after)
        self.proposal = replace(p, surrogate=out, origin="redrawn", redraws=n)
        return "another surrogate"

    # --- corrections --------------------------------------------------------------------

    def correct(self, old: str, new: str) -> str:
        """Replace ``old`` (found next to the current element) by ``new`` in the rewritten
        text, e.g. a spacing mistake "Anw alt" → "Anwalt"."""
        self._need_element()
        if old == new:
            raise SessionError("old and new text are the same")
        start, end = self._find(old)
        decisions = self.decisions
        if any(d.is_placeholder and d.overlaps(start, end) for d in decisions.decisions):
            raise SessionError("that text overlaps a placeholder; change the placeholder instead")
        if any(c.overlaps(start, end) for c in decisions.corrections):
            raise SessionError("that text overlaps another correction")
        self._push()
        self._put(decisions.with_correction(Correction(start, end, new)))
        logger.debug("%s: correction %d..%d", self.doc.id, start, end)
        return "correction recorded"

    def remove_correction(self) -> str:
        """Drop the correction nearest to the current element (within the search window)."""
        el = self._need_element()
        near = [
            c
            for c in self.decisions.corrections
            if el.start - SEARCH_WINDOW <= c.start <= el.end + SEARCH_WINDOW
        ]
        if not near:
            raise SessionError("no correction near this element")
        target = min(near, key=lambda c: abs(c.start - el.start))
        self._push()
        self._put(self.decisions.without_correction(target))
        return "correction removed"

    # --- navigation and history ---------------------------------------------------------

    def undo(self) -> str:
        if not self._history:
            raise SessionError("nothing to undo in this session (b reopens earlier decisions)")
        snap = self._history.pop()
        changed = snap.docs.keys() != self.book.docs.keys() or any(
            self.book.docs[k] is not v for k, v in snap.docs.items()
        )
        self.book.docs = dict(snap.docs)
        self.doc_index, self.cursor, self.proposal = snap.doc_index, snap.cursor, snap.proposal
        self.finished = snap.cursor is None
        if changed:
            self._autosave()
        return "undone"

    def back(self) -> str:
        """Reopen the decision just before the current element (also across documents,
        which works after a resume too, when there is no undo history)."""
        if self.finished:
            j, limit = len(self.docs) - 1, None
        else:
            j, limit = self.doc_index, self._need_element().start
        before: list[Decision] = []
        while j >= 0:
            before = [
                d
                for d in self.book.get(self.docs[j].id).decisions
                if limit is None or d.start < limit
            ]
            if before:
                break
            j, limit = j - 1, None
        if not before:
            raise SessionError("no earlier decision to reopen")
        target = max(before, key=lambda d: (d.start, d.end))
        self._push()
        self.finished = False
        self.doc_index = j
        decisions = self.decisions
        if decisions.document is not None and decisions.done:
            decisions = decisions.with_status(OPEN)
        self._put(decisions.without_decision(target))
        first, last = self.doctext.element_range(target.start, target.end)
        self.cursor = first
        if target.is_placeholder:
            self.proposal = Proposal(
                target.start,
                target.end,
                first,
                last,
                target.label,
                target.surrogate,
                origin="decided",
            )
        else:
            self.proposal = self._propose(first)
        return "reopened the previous decision"

    def next_suggestion(self) -> str:
        """Jump to the next undecided element the detector suggests; the elements jumped
        over stay undecided and come back before the document is finished."""
        self._need_element()
        doctext, flags = self.doctext, self._decided()
        for i in doctext.needs:
            if i > self.cursor and not flags[i] and self.suggestion_at(*doctext.elements[i]):
                self._push()
                self.cursor, self.proposal = i, self._propose(i)
                return "next suggestion"
        raise SessionError("no further suggestion in this document")

    def skip(self) -> str:
        """Leave this element undecided for now (it comes back before the end)."""
        self._need_element()
        doctext, flags = self.doctext, self._decided()
        later = [i for i in doctext.needs if i > self.cursor and not flags[i]]
        earlier = [i for i in doctext.needs if i < self.cursor and not flags[i]]
        target = (later or earlier or [None])[0]
        if target is None:
            raise SessionError("this is the last open element of the document")
        self._push()
        self.cursor, self.proposal = target, self._propose(target)
        return "skipped for now"

    def save(self) -> str:
        """Write the decisions file and the rewritten documents of all finished documents."""
        written = self._autosave()
        if self.output is not None:
            docs = [
                apply_decisions(d, self.book.get(d.id))
                for d in self.all_docs
                if self.book.get(d.id).done
            ]
            write_documents(self.output, docs)
            logger.debug("wrote %d rewritten documents to %s", len(docs), self.output)
            return f"saved ({written} decision records, {len(docs)} finished documents)"
        return f"saved ({written} decision records)"

    # --- internals ----------------------------------------------------------------------

    def _decided(self) -> list[bool]:
        decisions = self.decisions
        if self._flags is None or self._flags[0] is not decisions:
            spans = [Span(d.start, d.end, d.decision) for d in decisions.decisions]
            self._flags = (decisions, element_flags(self.doctext.elements, spans))
        return self._flags[1]

    def _first_open(self, start: int) -> int | None:
        """The first unfinished document from ``start`` on, then from the beginning (a
        person may have gone back into an earlier one)."""
        n = len(self.docs)
        for j in list(range(start, n)) + list(range(min(start, n))):
            if not self.book.get(self.docs[j].id).done:
                return j
        return None

    def _enter(self, index: int | None) -> None:
        """Go to document ``index`` (``None``: all done) at its first undecided element."""
        while index is not None:
            self.doc_index = index
            decisions = self.decisions
            if decisions.document is None:
                record = DocumentRecord(text_hash(self.doc.text), OPEN, self.seed, self.pool)
                self._put(decisions.with_document(record))
            target = self._next_open(0)
            if target is not None:
                self.cursor, self.proposal = target, self._propose(target)
                return
            self._put(self.decisions.with_status(DONE))
            logger.debug("%s: done", self.doc.id)
            index = self._first_open(index + 1)
        self.finished = True
        self.cursor = self.proposal = None

    def _next_open(self, start: int) -> int | None:
        """First undecided element to decide at or after ``start``, else the first one."""
        flags = self._decided()
        needs = self.doctext.needs
        k = bisect.bisect_left(needs, start)
        for i in needs[k:] + needs[:k]:
            if not flags[i]:
                return i
        return None

    def _advance(self, message: str) -> str:
        target = self._next_open(self.cursor or 0)
        if target is not None:
            self.cursor, self.proposal = target, self._propose(target)
            return message
        finished = self.doc.id
        self._put(self.decisions.with_status(DONE))
        logger.debug("%s: done", finished)
        self._enter(self._first_open(self.doc_index + 1))
        self.save()  # the rewritten output grows document by document
        if self.finished:
            return f"{message}; document finished; all documents are done"
        return f"{message}; document finished, next document"

    def _propose(self, index: int) -> Proposal:
        el = self.doctext.elements[index]
        suggestion = self.suggestion_at(el.start, el.end)
        if suggestion is not None:
            # only the undecided elements of the suggestion around this one: never propose
            # to overwrite what the person already decided
            first, last = self.doctext.element_range(suggestion.start, suggestion.end)
            flags = self._decided()
            lo = hi = index
            while lo > first and not flags[lo - 1]:
                lo -= 1
            while hi < last and not flags[hi + 1]:
                hi += 1
            start = suggestion.start if lo == first else self.doctext.core(lo)[0]
            end = suggestion.end if hi == last else self.doctext.core(hi)[1]
            label = self._decided_label(start, end) or suggestion.label
            p = Proposal(start, end, lo, hi, label, None)
        else:
            start, end = self.doctext.core(index)
            p = Proposal(start, end, index, index, self._decided_label(start, end), None)
        return self._with_surrogate(p)

    def _decided_label(self, start: int, end: int) -> str | None:
        """The type of an earlier placeholder with the same text ("Gemarkung A." … "von A."):
        the detector may miss a repetition or type it otherwise; the person decided once."""
        text = self.doc.text
        key = normalize(text[start:end])
        if not key or not any(ch.isalnum() or ch == "…" for ch in key):
            return None
        for d in self.decisions.placeholders:
            if normalize(text[d.start : d.end]) == key:
                return d.label
        return None

    def _with_surrogate(self, p: Proposal) -> Proposal:
        """Fill in the document's surrogate for the proposal (unless the person edited it):
        the one already decided for the same placeholder, else a new consistent one."""
        if p.edited:
            return p
        if p.label is None:
            return replace(p, surrogate=None)
        text = self.doc.text
        surface = text[p.start : p.end]
        key = normalize(surface)
        for d in self.decisions.placeholders:
            if d.label == p.label and normalize(text[d.start : d.end]) == key:
                return replace(p, surrogate=d.surrogate)
        surrogate = self.surrogates.surrogate(
            p.label, surface, *self.doctext.context(p.start, p.end)
        )
        return replace(p, surrogate=surrogate)

    def _reshape(self, p: Proposal, start: int, end: int, first: int, last: int) -> str:
        if (start, end) == (p.start, p.end):
            raise SessionError("the span did not change")
        self._push()
        label = p.label
        if label is None:
            suggestion = self.suggestion_at(start, end)
            label = self._decided_label(start, end) or (suggestion.label if suggestion else None)
        self.proposal = self._with_surrogate(
            replace(p, start=start, end=end, first=first, last=last, label=label)
        )
        return "span changed"

    def _find(self, needle: str) -> tuple[int, int]:
        """``needle`` in or next to the current element (see :meth:`DocText.find_near`)."""
        el = self._need_element()
        if not needle:
            raise SessionError("give the text to look for")
        try:
            return self.doctext.find_near(needle, el, SEARCH_WINDOW)
        except NotFound:
            raise SessionError("not found near the current element") from None

    def _need_proposal(self) -> Proposal:
        if self.finished or self.proposal is None:
            raise SessionError("all documents are done")
        return self.proposal

    def _need_element(self) -> Element:
        el = self.element
        if self.finished or el is None:
            raise SessionError("all documents are done")
        return el

    def _push(self) -> None:
        self._history.append(
            _Snapshot(dict(self.book.docs), self.doc_index, self.cursor, self.proposal)
        )
        del self._history[:-MAX_UNDO]

    def _put(self, value: DocDecisions) -> None:
        self.book.put(value)
        self._autosave()

    def _autosave(self) -> int:
        if self.store is None:
            return sum(1 for _ in self.book.records())
        return self.store.save(self.book)


def _resolve_label(label: str) -> str:
    """A type from its name or an unambiguous prefix ("per", "org", "loc")."""
    wanted = label.strip().upper()
    if wanted in LABELS:
        return wanted
    matches = [lab for lab in LABELS if lab.startswith(wanted)] if wanted else []
    if len(matches) != 1:
        raise SessionError(f"unknown type; one of {', '.join(LABELS)}")
    return matches[0]
