"""A thin terminal front end for :class:`~deid.rewrite.gold.session.Session`.

Line-based on purpose: each step prints the context and the proposal and reads one command
line, so it works in any terminal size, over ssh, in tmux (``send-keys``) and from a script
file, with no full-screen mode to break. Everything is saved after every decision; Ctrl-C,
Ctrl-D and ``q`` all save before leaving.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from deid.rewrite.gold.commands import Outcome, execute
from deid.rewrite.gold.session import Session
from deid.rewrite.gold.store import ConflictError
from deid.rewrite.gold.view import screen

logger = logging.getLogger(__name__)

WELCOME = "Enter: default  ?: keys  q: save+quit"


class ScriptError(RuntimeError):
    """A scripted command failed: replay stops so later lines do not land on wrong elements."""


@dataclass
class _ViewState:
    wide: bool = False
    show: str | None = None


def _ask(console: Console, prompt: str, prefill: str = "") -> str:
    """Read a line; with readline, ``prefill`` is put on the line for editing."""
    try:
        import readline
    except ImportError:  # pragma: no cover - readline exists on the supported platforms
        return console.input(prompt)
    readline.set_startup_hook(lambda: readline.insert_text(prefill))
    try:
        return console.input(prompt)
    finally:
        readline.set_startup_hook()


def _complete(console: Console, session: Session, line: str) -> str:
    """Turn a bare ``e`` or ``c`` into a full command by asking for its argument."""
    cmd = line.strip()
    if cmd == "e" and session.proposal is not None and session.proposal.label is not None:
        new = _ask(console, "surrogate: ", session.proposal.surrogate or "")
        return f"e {new}"
    if cmd == "c":
        old = _ask(console, "wrong text (as it stands): ")
        new = _ask(console, "correct text: ", old)
        return f"c {old} => {new}"
    return line


def run(
    session: Session,
    *,
    console: Console | None = None,
    script: Iterator[str] | None = None,
    clear: bool = True,
    quiet: bool = False,
) -> int:
    """Run until the person quits; returns an exit status. When all documents are done the
    prompt stays, so ``b`` can still reopen a decision.

    With ``script`` the commands come from its lines (no prompts) and the run ends when all
    documents are done or the lines run out; the first failing command stops the replay
    with status 1, after saving.
    """
    console = console or Console(highlight=False)
    view = _ViewState()
    message = Text(WELCOME, style="dim")
    number = 0
    try:
        while True:
            if not quiet:
                if clear and script is None:
                    console.clear()
                fit = console if script is None and console.is_terminal else None
                console.print(
                    screen(session, wide=view.wide, show=view.show, message=message, fit=fit)
                )
            if session.finished and script is not None:
                session.save()
                return 0
            view.show = None
            try:
                if script is not None:
                    line = next(script)
                    number += 1
                    if not quiet:
                        console.print(Text(f"> {line.rstrip()}", style="dim"))
                else:
                    line = _complete(console, session, console.input("> "))
            except (EOFError, StopIteration):
                session.save()
                return 0
            except KeyboardInterrupt:
                session.save()
                console.print(Text("\ninterrupted: saved, resume any time", style="yellow"))
                return 0
            outcome = execute(session, line)
            if not outcome.ok and script is not None:
                session.save()
                raise ScriptError(f"script line {number}: {outcome.message}")
            message = _message(outcome)
            if outcome.show == "context":
                view.wide = not view.wide
            elif outcome.show is not None:
                view.show = outcome.show
            if outcome.quit:
                if not quiet:
                    console.print(message)
                return 0
    except ConflictError as exc:
        console.print(Text(str(exc), style="bold red"))
        logger.error("decisions file conflict; session state saved to a side file")
        return 2


def _message(outcome: Outcome) -> Text:
    return Text(outcome.message, style="green" if outcome.ok else "bold red")
