"""The command language of the interactive tool: one short line per action.

Single keys plus Enter, so a person types fast, tmux can drive it with ``send-keys`` and a
script file can replay a whole session. The TUI and ``--script`` both go through
:func:`execute`; this module knows nothing about terminals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deid.rewrite.gold.session import Session, SessionError
from deid.schema import LABELS

TYPE_KEYS: dict[str, str] = {str(i): label for i, label in enumerate(LABELS, 1)}

HELP: tuple[tuple[str, str], ...] = (
    ("Enter", "default: accept the proposal if it has a type, else 'not a placeholder'"),
    ("y", "it is a placeholder: accept span, type and surrogate"),
    ("n", "not a placeholder (every element of the span)"),
    ("1-9", "type: " + ", ".join(f"{k} {v}" for k, v in TYPE_KEYS.items())),
    ("t TYPE", "type by name or prefix (t org)"),
    ("< / >", "extend the span one element to the left / right (<3: three)"),
    (", / .", "shrink the span by one element from the left / right"),
    ("s TEXT", "set the span to TEXT near this element (e.g. s A of 'A-GbR')"),
    ("e TEXT", "edit the surrogate (e alone: edit the proposed one)"),
    ("r", "propose another surrogate"),
    ("c OLD => NEW", "text correction near this element (c Anw alt => Anwalt)"),
    ("c-", "remove the correction nearest to this element"),
    ("u", "undo (many levels, this session)"),
    ("b", "back: reopen the decision before this element (works after resume)"),
    ("g", "go to the next suggestion (skipped elements stay open)"),
    ("j", "leave this element open for now"),
    ("l", "list this document's placeholders and surrogates"),
    ("m", "more / less context"),
    ("w", "save"),
    ("q", "save and quit (resume later where you stopped)"),
    ("?", "this help"),
)

_REPEAT = re.compile(r"^([<>,.])(\d*)$")
_SIDES = {
    "<": ("extend", "left"),
    ">": ("extend", "right"),
    ",": ("shrink", "left"),
    ".": ("shrink", "right"),
}


@dataclass(frozen=True)
class Outcome:
    """What a command did: a message for the person, and what the UI should do next."""

    message: str
    ok: bool = True
    quit: bool = False
    show: str | None = None  # "help", "list" or "context" for the UI to toggle


def execute(session: Session, line: str) -> Outcome:
    """Carry out one command line; a command that cannot apply gives ``ok=False``."""
    try:
        return _dispatch(session, line)
    except SessionError as exc:
        return Outcome(str(exc), ok=False)


def _dispatch(session: Session, line: str) -> Outcome:
    raw = line.rstrip("\n")
    cmd = raw.strip()
    if cmd == "":
        return Outcome(session.default())
    head, _, rest = cmd.partition(" ")
    rest = rest.strip()
    simple = {
        "y": session.accept,
        "n": session.reject,
        "r": session.redraw,
        "u": session.undo,
        "b": session.back,
        "g": session.next_suggestion,
        "j": session.skip,
        "c-": session.remove_correction,
    }
    if cmd in simple:
        return Outcome(simple[cmd]())
    if cmd in TYPE_KEYS:
        return Outcome(session.set_label(TYPE_KEYS[cmd]))
    match = _REPEAT.match(cmd)
    if match:
        action, side = _SIDES[match.group(1)]
        count = int(match.group(2) or 1)
        return Outcome(getattr(session, action)(side, count))
    if head == "t" and rest:
        return Outcome(session.set_label(rest))
    if head == "s" and rest:
        return Outcome(session.set_span_text(_unquote(raw.strip()[2:])))
    if head == "e" and rest:
        return Outcome(session.edit_surrogate(rest))
    if head == "c" and "=>" in rest:
        old, _, new = raw.strip()[2:].partition("=>")
        return Outcome(session.correct(old.strip(), new.strip()))
    if cmd == "w":
        return Outcome(session.save())
    if cmd == "q":
        return Outcome(session.save(), quit=True)
    if cmd in ("?", "h", "help"):
        return Outcome("help", show="help")
    if cmd == "l":
        return Outcome("placeholders of this document", show="list")
    if cmd == "m":
        return Outcome("context size changed", show="context")
    if cmd in ("e", "c", "s", "t"):
        raise SessionError(f"{cmd} needs an argument; ? shows the help")
    raise SessionError(f"unknown command {cmd[:12]!r}; ? shows the help")


def _unquote(text: str) -> str:
    """``s "A "`` keeps the blank; plain ``s A`` is trimmed."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text
