"""deid.rewrite.gold.session (+ commands, view): the interactive tool's logic, driven directly on
real Bavarian decisions, the way a person would use it."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from deid.rewrite.gold.commands import execute
from deid.rewrite.gold.decisions import DONE, NOT_PLACEHOLDER, PLACEHOLDER, apply_decisions
from deid.rewrite.gold.plain import is_plain_element
from deid.rewrite.gold.session import Session, SessionError
from deid.rewrite.gold.store import DecisionStore
from deid.rewrite.gold.view import context_text, fit_lines, screen
from deid.rewrite.placeholders import detect_placeholders
from deid.schema import Document
from deid.sources.inputs import iter_input
from deid.sources.io import read_jsonl, write_documents
from tests.conftest import SOURCES

BAVARIA = SOURCES / "decisions" / "bavaria"


def _load(name: str) -> Document:
    return next(iter(iter_input(BAVARIA / f"{name}.txt.xz")))


@pytest.fixture(scope="module")
def doc() -> Document:
    """A detention case: a lawyer "Rechtsanwalt …" four times, places "M.", "S.", "H.";
    first come two case-number suffixes "116/22 (B)" that are no placeholders."""
    return _load("Y-300-Z-BECKRS-B-2023-N-47357")


@pytest.fixture(scope="module")
def medical() -> Document:
    """A medical liability case: doctors "Dr. E", "Dr. S", "Dr. H und S", a nurse "L"; the
    page references "(S. 10/11 des Gutachtens)" look like "S" but name nobody."""
    return _load("Y-300-Z-BECKRS-B-2023-N-43742")


@pytest.fixture(scope="module")
def garnishment() -> Document:
    """A garnishment case with a third-party debtor "H. S." named twice."""
    return _load("Y-300-Z-BECKRS-B-2024-N-9628")


def _session(docs: list[Document], tmp_path, **kwargs) -> Session:
    store = DecisionStore(tmp_path / "decisions.jsonl")
    return Session(docs, store.load(), store=store, output=tmp_path / "rewritten.jsonl", **kwargs)


@pytest.fixture
def session(doc, tmp_path) -> Session:
    return _session([doc], tmp_path)


@pytest.fixture
def medical_session(medical, tmp_path) -> Session:
    return _session([medical], tmp_path)


def do(session: Session, *commands: str) -> str:
    """Run commands as typed; each must succeed. Returns the last message."""
    message = ""
    for command in commands:
        outcome = execute(session, command)
        assert outcome.ok, f"{command!r}: {outcome.message}"
        message = outcome.message
    return message


def shown(session: Session) -> str:
    p = session.proposal
    assert p is not None
    return session.doc.text[p.start : p.end]


def current(session: Session) -> str:
    """The text of the current element."""
    el = session.element
    assert el is not None
    return session.doc.text[el.start : el.end]


def skip_to(session: Session, text: str, limit: int = 40) -> None:
    """Leave elements open ("j") until the current element is ``text``."""
    for _ in range(limit):
        if current(session) == text:
            return
        do(session, "j")
    raise AssertionError(f"{text!r} not reached")


def context_before(session: Session, n: int = 20) -> str:
    el = session.element
    return session.doc.text[max(0, el.start - n) : el.start]


def saved(tmp_path) -> list[dict]:
    return list(read_jsonl(tmp_path / "decisions.jsonl"))


def until(session: Session, predicate, limit: int = 40) -> None:
    """Press Enter (the default) until ``predicate(session)`` holds."""
    for _ in range(limit):
        if predicate(session):
            return
        do(session, "")
    raise AssertionError("state not reached")


# --- walking ------------------------------------------------------------------------------


def test_walk_shows_only_elements_that_need_a_decision(session, doc):
    state = session.doctext
    visited = []
    while not session.finished:
        visited.append(session.cursor)
        do(session, "")
    assert visited == state.needs
    detected = detect_placeholders(doc.text)
    touched = {
        i
        for i, el in enumerate(state.elements)
        if any(s.start < el.end and el.start < s.end for s in detected)
    }
    suggested = [i for i in visited if i in touched]
    unsuggested = [i for i in visited if i not in touched]
    assert suggested == sorted(touched)  # every element the detector marks is shown ...
    assert 0 < len(suggested) < len(visited)  # ... and some it does not mark, too:
    for i in unsuggested:
        assert session.suggestion_at(*state.elements[i]) is None
        assert not is_plain_element(doc.text, *state.elements[i])  # those are not plain words
    plain_total = sum(is_plain_element(doc.text, *el) for el in state.elements)
    assert plain_total > 1000  # the person never saw any of these
    book = DecisionStore(session.store.path).load()
    decided = book.get(doc.id)
    assert decided.done
    # Enter took every suggestion with the detector's span and type ...
    assert [(d.start, d.end, d.label) for d in decided.placeholders] == [
        (s.start, s.end, s.label) for s in detected
    ]
    assert all(d.suggested for d in decided.placeholders)
    # ... and said "not a placeholder" to the rest (no type, no earlier placeholder like it)
    rejected = [d for d in decided.decisions if d.decision == NOT_PLACEHOLDER]
    assert [(d.start, d.end) for d in rejected] == [
        (state.elements[i].start, state.elements[i].end) for i in unsuggested
    ]
    assert not any(d.suggested for d in rejected)


def test_first_proposal_is_the_suggestion_with_a_same_initial_surrogate(medical_session):
    session = medical_session
    assert current(session) == "E" and context_before(session, 4) == "Dr. "
    p = session.proposal
    suggestion = session.suggestion_at(p.start, p.end)
    assert suggestion is not None and (suggestion.start, suggestion.end) == (p.start, p.end)
    assert shown(session) == "E" and p.label == suggestion.label == "PERSON"
    assert p.origin == "proposed"
    assert p.surrogate and p.surrogate[0] == "E" and p.surrogate != "E"  # same initial
    pr = session.progress()
    assert (pr.doc_number, pr.doc_total, pr.position, pr.decided) == (1, 1, 1, 0)
    assert pr.needed == len(session.doctext.needs) > 1


def test_a_suggestion_is_proposed_without_punctuation(medical_session):
    skip_to(medical_session, "S,")  # "Vorgespräch mit Dr. S, der ..."
    p = medical_session.proposal
    assert shown(medical_session) == "S" and p.label == "PERSON"
    assert p.surrogate and p.surrogate[0] == "S" and p.surrogate != "S"


def test_an_unsuggested_element_is_proposed_without_brackets_or_type(session):
    assert current(session) == "(B)"  # the case number "116/22 (B)"
    p = session.proposal
    assert session.suggestion_at(session.element.start, session.element.end) is None
    assert shown(session) == "B" and p.label is None and p.surrogate is None
    pr = session.progress()
    assert (pr.position, pr.needed, pr.decided) == (1, len(session.doctext.needs), 0)
    do(session, "")  # Enter: not a placeholder
    (decision,) = session.decisions.decisions
    assert decision.decision == NOT_PLACEHOLDER and not decision.suggested


def test_accept_and_reject_record_decisions(medical_session, medical, tmp_path):
    session = medical_session
    skip_to(session, "S,")
    b = session.proposal
    assert session.suggestion_at(b.start, b.end) is not None
    do(session, "")  # accept the suggestion "S"
    skip_to(session, "(S.")  # "(S. 10/11 des Gutachtens)", a page
    assert session.suggestion_at(session.element.start, session.element.end) is None
    # not suggested, but the same text as the "S" just taken: proposed the same way
    assert shown(session) == "S."
    assert session.proposal.label == "PERSON" and session.proposal.surrogate == b.surrogate
    rejected = session.element
    do(session, "n")
    rows = [r for r in saved(tmp_path) if r["record"] == "decision"]
    doc = medical
    assert rows == [
        {
            "record": "decision",
            "doc_id": doc.id,
            "start": b.start,
            "end": b.end,
            "decision": PLACEHOLDER,
            "label": "PERSON",
            "surrogate": b.surrogate,
            "suggested": True,
        },
        {
            "record": "decision",
            "doc_id": doc.id,
            "start": rejected.start,
            "end": rejected.end,
            "decision": NOT_PLACEHOLDER,
            "label": None,
            "surrogate": None,
            "suggested": False,
        },
    ]
    assert session.progress().decided == 2


def test_reject_a_suggestion(medical_session):
    session = medical_session
    el = session.element
    assert session.suggestion_at(el.start, el.end) is not None
    do(session, "n")
    (decision,) = session.decisions.decisions
    assert decision.decision == NOT_PLACEHOLDER and decision.suggested
    assert (decision.start, decision.end) == (el.start, el.end)
    assert session.cursor != session.doctext.elements.index(el)


# --- shaping the proposal ---------------------------------------------------------------


def test_extend_and_shrink_by_elements(session):
    do(session, "", "n")
    assert shown(session) == "…" and context_before(session).endswith("Rechtsanwalt ")
    do(session, "<")
    assert shown(session) == "Rechtsanwalt …"
    assert session.proposal.last - session.proposal.first == 1
    do(session, ",")
    assert shown(session) == "…"
    do(session, ">2")
    assert shown(session) == "… wird zu"
    do(session, ".2")
    assert shown(session) == "…"
    assert not execute(session, ",").ok  # one element left: nothing to shrink


def test_set_span_inside_and_grow_to_full_initials(garnishment, tmp_path):
    session = _session([garnishment], tmp_path)
    until(session, lambda s: shown(s) == "H. S.")
    do(session, "s S.")
    assert shown(session) == "S." and session.proposal.label == "PERSON"
    do(session, "<")
    assert shown(session) == "H. S."
    assert not execute(session, "s Zwangsvollstreckungsgericht XYZ").ok


def test_type_and_surrogate_choices(session):
    do(session, "n")  # reject (B); now at "(B)," which has no suggestion
    assert session.proposal.surrogate is None
    do(session, "1")
    person = session.proposal.surrogate
    assert session.proposal.label == "PERSON" and person
    do(session, "3")
    assert session.proposal.label == "LOCATION" and session.proposal.surrogate != person
    do(session, "t per")
    assert session.proposal.label == "PERSON" and session.proposal.surrogate == person
    do(session, "e Bertold Brenneis")
    assert session.proposal.surrogate == "Bertold Brenneis" and session.proposal.origin == "edited"
    do(session, "r")
    redrawn = session.proposal.surrogate
    assert redrawn not in (person, "Bertold Brenneis") and session.proposal.origin == "redrawn"
    do(session, "y")
    assert session.decisions.placeholders[-1].surrogate == redrawn
    assert not execute(session, "t name").ok


def test_accept_needs_a_type(session):
    do(session, "n")  # at "(B),"
    outcome = execute(session, "y")
    assert not outcome.ok and "type" in outcome.message


# --- consistency -------------------------------------------------------------------------


def test_same_placeholder_gets_the_same_surrogate(session):
    while not session.finished:
        do(session, "")
    text = session.doc.text
    by_surface: dict[tuple[str, str], set[str]] = {}
    for d in session.decisions.placeholders:
        by_surface.setdefault((d.label, text[d.start : d.end]), set()).add(d.surrogate)
    assert len(by_surface[("PERSON", "…")]) == 1  # "Rechtsanwalt …", four times
    assert len(by_surface[("LOCATION", "M.")]) == 1
    surrogates = {s for v in by_surface.values() for s in v}
    assert len(surrogates) == len(by_surface)  # different placeholders, different surrogates


def test_the_type_chosen_once_is_proposed_for_the_same_text(session):
    until(session, lambda s: shown(s) == "M.")
    assert session.proposal.label == "LOCATION"  # the detector's type
    do(session, "1", "")  # the person says: a person
    taken = session.decisions.placeholders[-1]
    until(session, lambda s: shown(s) == "M.")
    assert session.suggestion_at(session.proposal.start, session.proposal.end).label == "LOCATION"
    assert session.proposal.label == "PERSON" and session.proposal.surrogate == taken.surrogate


def test_an_edited_surrogate_is_proposed_for_the_same_placeholder(session):
    do(session, "", "")
    assert shown(session) == "…"
    do(session, "e Dr. Kunibert Lanz", "")
    until(session, lambda s: shown(s) == "…")
    assert session.proposal.surrogate == "Dr. Kunibert Lanz"


def test_a_surname_follows_its_initials_also_after_resume(garnishment, tmp_path):
    session = _session([garnishment], tmp_path)
    until(session, lambda s: shown(s) == "H. S.")
    full = session.proposal.surrogate
    first, surname = full.split()[0], full.split()[-1]
    assert first[0] == "H" and surname[0] == "S"
    do(session, "")
    until(session, lambda s: shown(s) == "H. S.")
    assert session.proposal.surrogate == full
    do(session, "s S.")
    assert session.proposal.surrogate == surname
    do(session, "q")
    resumed = _session([garnishment], tmp_path)
    until(resumed, lambda s: shown(s) == "H. S.")
    do(resumed, "s S.")
    assert resumed.proposal.surrogate == surname


# --- undo, back, save, resume ------------------------------------------------------------


def test_undo_is_multi_level_and_saved(session, tmp_path):
    start = (session.cursor, session.proposal)
    do(session, "", "n", "<")
    assert shown(session) == "Rechtsanwalt …"
    do(session, "u")
    assert shown(session) == "…"
    do(session, "u")
    assert (
        session.decisions.decisions
        and session.doc.text[session.element.start : session.element.end] == "(B),"
    )
    do(session, "u")
    assert (session.cursor, session.proposal) == start
    assert not session.decisions.decisions
    assert not [r for r in saved(tmp_path) if r["record"] == "decision"]
    outcome = execute(session, "u")
    assert not outcome.ok and "nothing to undo" in outcome.message


def test_quit_and_resume_at_the_first_undecided_element(session, doc, tmp_path):
    do(session, "", "n", "g")  # jump: the second "…" etc. stay open
    jumped_over = session.cursor
    do(session, "")
    outcome = execute(session, "q")
    assert outcome.quit
    before = saved(tmp_path)
    resumed = _session([doc], tmp_path)
    assert resumed.cursor == session.doctext.needs[2] < jumped_over  # the skipped "…" first
    assert len(resumed.decisions.decisions) == 3
    assert saved(tmp_path) == before
    outcome = execute(resumed, "u")
    assert not outcome.ok  # no history after a resume ...
    do(resumed, "b")  # ... but b reopens the decision before the cursor
    assert resumed.cursor == resumed.doctext.needs[1] and resumed.proposal.origin == "proposed"
    assert len(resumed.decisions.decisions) == 2


def test_back_reopens_a_placeholder_with_its_surrogate(medical_session):
    session = medical_session
    do(session, "e Egon Eberle", "")
    assert session.decisions.placeholders[0].surrogate == "Egon Eberle"
    do(session, "b")
    assert shown(session) == "E" and session.proposal.surrogate == "Egon Eberle"
    assert session.proposal.origin == "decided" and not session.decisions.decisions


def test_skipped_elements_come_back_before_the_document_is_done(session):
    order = []
    do(session, "g")
    while not session.finished:
        order.append(session.cursor)
        do(session, "")
    needs = session.doctext.needs
    assert order[-2:] == needs[:2]  # "(B)" and "(B)," after the rest
    assert sorted(order) == needs


def test_skip_leaves_the_element_open(session):
    first = session.cursor
    do(session, "j")
    assert session.cursor != first
    assert not session.decisions.decisions


def test_resume_refuses_decisions_made_on_another_text(session, doc, tmp_path):
    do(session, "")
    changed = Document(id=doc.id, text=doc.text.replace("Rechtsanwalt", "Rechtsanwältin", 1))
    with pytest.raises(ValueError, match="different text"):
        _session([changed], tmp_path)


# --- corrections and the rewritten output -----------------------------------------------


def test_correction_near_the_element(session):
    do(session, "", "n")  # at "Rechtsanwalt …"
    do(session, "c Verfahrenskostenhilfe => Verfahrens-Kostenhilfe")
    (correction,) = session.decisions.corrections
    assert 1000 < correction.start < session.element.start  # the nearby one, not the header's
    assert correction.text == "Verfahrens-Kostenhilfe"
    do(session, "u")
    assert not session.decisions.corrections
    do(session, "c Verfahrenskostenhilfe => Verfahrens-Kostenhilfe", "c-")
    assert not session.decisions.corrections
    assert not execute(session, "c Kostenhilfeantrag XYZ => x").ok


def test_correction_may_not_touch_a_placeholder(session):
    do(session, "", "n", "")  # "Rechtsanwalt …" accepted
    outcome = execute(session, "c Rechtsanwalt … wird => x")
    assert not outcome.ok and "placeholder" in outcome.message


def test_apply_decisions_reproduces_the_output_exactly(session, doc, tmp_path):
    do(
        session,
        "",
        "n",
        "c Verfahrenskostenhilfe => Verfahrens-Kostenhilfe",
        "<",
        "e Rechtsanwalt Kunibert Lanz",
        "",
    )
    while not session.finished:
        do(session, "")
    out_path = tmp_path / "rewritten.jsonl"
    (written,) = list(read_jsonl(out_path))
    rebuilt = apply_decisions(doc, DecisionStore(tmp_path / "decisions.jsonl").load().get(doc.id))
    assert written == json.loads(json.dumps(rebuilt.to_dict()))
    write_documents(tmp_path / "again.jsonl", [rebuilt])
    assert (tmp_path / "again.jsonl").read_bytes() == out_path.read_bytes()
    assert written["meta"]["status"] == DONE and written["meta"]["corrections"] == 1
    text = written["text"]
    assert "Verfahrens-Kostenhilfe bewilligt. Rechtsanwalt Kunibert Lanz wird" in text
    decided = session.decisions.placeholders
    assert [text[s["start"] : s["end"]] for s in written["spans"]] == [d.surrogate for d in decided]
    assert "Rechtsanwalt …" not in text


def test_only_finished_documents_are_written(doc, garnishment, tmp_path):
    session = _session([doc, garnishment], tmp_path)
    while session.doc_index == 0:
        do(session, "")
    do(session, "w")
    assert [r["meta"]["source_id"] for r in read_jsonl(tmp_path / "rewritten.jsonl")] == [doc.id]
    assert session.progress().doc_number == 2


def test_walking_a_subset_keeps_other_documents_in_the_output(doc, garnishment, tmp_path):
    first = _session([doc, garnishment], tmp_path, ids=[doc.id])
    while not first.finished:
        do(first, "")
    second = _session([doc, garnishment], tmp_path, ids=[garnishment.id])
    assert second.doc.id == garnishment.id
    do(second, "w")
    assert [r["meta"]["source_id"] for r in read_jsonl(tmp_path / "rewritten.jsonl")] == [doc.id]
    with pytest.raises(SessionError):
        _session([doc], tmp_path, ids=["no-such-id"])


# --- commands and view ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["x", "e", "c", "t", "c no arrow", "<<", "y3"])
def test_unknown_or_incomplete_commands_change_nothing(session, command):
    before = (session.cursor, session.proposal, dict(session.book.docs))
    outcome = execute(session, command)
    assert not outcome.ok
    assert (session.cursor, session.proposal, dict(session.book.docs)) == before


def test_view_commands(session):
    assert execute(session, "?").show == "help"
    assert execute(session, "l").show == "list"
    assert execute(session, "m").show == "context"
    assert execute(session, "q").quit


def test_screen_shows_progress_context_and_proposal(medical_session):
    session = medical_session
    console = Console(record=True, width=100, color_system=None)
    console.print(screen(session, show="help"))
    out = console.export_text()
    assert "doc 1/1" in out and f"element 1/{len(session.doctext.needs)}" in out
    assert "[[E]] zeichnet" in out
    assert "Sachverständigen Dr. [[E]] zeichnet" in context_text(session).plain
    assert "suggested PERSON" in out and session.proposal.surrogate in out and "undo" in out
    surrogate = session.proposal.surrogate
    do(session, "<")  # the left edge moves to the element before, the right one stays
    assert shown(session) == "Dr. E"
    assert "Sachverständigen [[Dr. E]] zeichnet" in context_text(session).plain
    do(session, ",", "")
    console.print(screen(session, show="list"))
    out = console.export_text()
    assert "element 2/" in out and "placeholders 1" in out
    assert surrogate in out  # the list of decided placeholders


def test_screen_of_an_unsuggested_element(session):
    console = Console(record=True, width=100, color_system=None)
    console.print(screen(session))
    out = console.export_text()
    assert "116/22 ([[B]])" in out
    assert "no suggestion" in out and "none (1-9" in out and "not a placeholder" in out


def test_context_fits_a_small_pane(session):
    do(session, "", "n", "m")
    small = Console(width=40, height=15, color_system=None)
    text = context_text(session, wide=True)
    assert len(text.wrap(small, 40)) > 10
    fitted = fit_lines(text, small, 4)
    assert len(fitted.wrap(small, 40)) <= 4 and "[[…]]" in fitted.plain


def test_back_after_everything_is_done(session):
    while not session.finished:
        do(session, "")
    last = session.decisions.decisions[-1]
    assert not execute(session, "").ok  # nothing left to decide
    do(session, "b")
    assert not session.finished and session.proposal.start == last.start
    assert not session.decisions.done
    do(session, "")
    assert session.finished and session.decisions.done
