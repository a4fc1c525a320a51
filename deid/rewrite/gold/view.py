"""What the person sees for the current element, as rich renderables (no terminal I/O).

The context is a window of the original text around the element: a few lines, capped in
characters because a paragraph of a decision is often one long line. In it the proposal is
highlighted, decided placeholders show their surrogate, pending suggestions are underlined
and corrections show old and new text, so the person judges the element as it will read.
"""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from deid.rewrite.gold.commands import HELP, TYPE_KEYS
from deid.rewrite.gold.session import Session

CONTEXT_CHARS = (350, 250)  # characters before / after the element
WIDE_CONTEXT_CHARS = (1200, 900)
CONTEXT_LINES = 2

_NONE, _SUGGESTION, _DECIDED, _CORRECTED, _ELEMENT, _PROPOSAL = range(6)
_STYLES = {
    _NONE: "",
    _SUGGESTION: "underline yellow",
    _DECIDED: "bold green",
    _CORRECTED: "strike red",
    _ELEMENT: "underline bold",
    _PROPOSAL: "bold black on yellow",
}
_LABEL_KEYS = {label: key for key, label in TYPE_KEYS.items()}


def context_window(
    text: str, start: int, end: int, chars: tuple[int, int], lines: int = CONTEXT_LINES
) -> tuple[int, int]:
    """Offsets of the context around ``start``..``end``: ``lines`` lines either side, at
    most ``chars`` characters, cut at whitespace."""
    a = start
    for _ in range(lines + 1):
        a = text.rfind("\n", 0, max(0, a - 1)) + 1 if a > 0 else 0
    if a < start - chars[0]:
        a = start - chars[0]
        space = text.find(" ", a, start)
        a = space + 1 if space != -1 else a
    b = end
    for _ in range(lines + 1):
        nl = text.find("\n", b + 1)
        b = len(text) if nl == -1 else nl
    if b > end + chars[1]:
        b = end + chars[1]
        space = text.rfind(" ", end, b)
        b = space if space != -1 else b
    return a, b


def context_text(session: Session, wide: bool = False) -> Text:
    """The highlighted context of the current proposal."""
    text = session.doc.text
    p = session.proposal
    el = session.element
    if p is None or el is None:
        return Text("")
    lo, hi = min(p.start, el.start), max(p.end, el.end)
    a, b = context_window(text, lo, hi, WIDE_CONTEXT_CHARS if wide else CONTEXT_CHARS)
    kinds = [_NONE] * (b - a)

    def mark(start: int, end: int, kind: int) -> None:
        for i in range(max(start, a), min(end, b)):
            kinds[i - a] = max(kinds[i - a], kind)

    for s in session.doctext.suggestions:
        mark(s.start, s.end, _SUGGESTION)
    decided = session.decisions
    inserts: dict[int, list[tuple[str, str]]] = {}
    for d in decided.placeholders:
        mark(d.start, d.end, _DECIDED)
        if a < d.end <= b:
            inserts.setdefault(d.end, []).append((f"⟨{d.surrogate}⟩", "green"))
    for c in decided.corrections:
        mark(c.start, c.end, _CORRECTED)
        if a < c.end <= b:
            inserts.setdefault(c.end, []).append((f"→{c.text}", "bold green"))
    mark(el.start, el.end, _ELEMENT)
    mark(p.start, p.end, _PROPOSAL)
    # brackets too, so the proposal stands out without colours (tmux capture, screen readers)
    inserts.setdefault(p.start, []).insert(0, ("[[", _STYLES[_PROPOSAL]))
    inserts.setdefault(p.end, []).insert(0, ("]]", _STYLES[_PROPOSAL]))
    out = Text("…" if a > 0 else "", style="dim")
    for chunk, style in inserts.get(a, []):
        out.append(chunk, style=style)
    i = a
    while i < b:
        j = i + 1
        while j < b and kinds[j - a] == kinds[i - a] and j not in inserts:
            j += 1
        out.append(text[i:j], style=_STYLES[kinds[i - a]])
        for chunk, style in inserts.get(j, []):
            out.append(chunk, style=style)
        i = j
    if b < len(text):
        out.append("…", style="dim")
    return out


def header(session: Session) -> Text:
    """One line, whatever the width: progress first, the (long) document id last."""
    pr = session.progress()
    text = Text.assemble(
        ("doc ", "dim"),
        (f"{pr.doc_number}/{pr.doc_total}", "bold"),
        ("  element ", "dim"),
        (f"{pr.position}/{pr.needed}", "bold"),
        (f"  decided {pr.decided}  placeholders {pr.placeholders}  ", "dim"),
        (pr.doc_id, "cyan"),
    )
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


def proposal_table(session: Session) -> Table:
    p = session.proposal
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim", justify="right")
    table.add_column()
    if p is None:
        return table
    text = session.doc.text
    suggestion = session.suggestion_at(p.start, p.end)
    elements = p.last - p.first + 1
    if suggestion is not None:
        source = (f"suggested {suggestion.label}", "yellow")
    elif p.label is not None and p.origin == "proposed":
        source = ("same text as an earlier placeholder", "yellow")
    else:
        source = ("no suggestion", "dim")
    span = Text.assemble(
        (f"»{text[p.start : p.end]}«", "bold"), (f"  ({elements})  ", "dim"), source
    )
    table.add_row("span", span)
    if p.label is None:
        table.add_row("type", Text("none (1-9 to pick one)", style="dim"))
    else:
        table.add_row(
            "type",
            Text.assemble(
                (p.label, "bold magenta"), (f"  [{_LABEL_KEYS.get(p.label, '')}]", "dim")
            ),
        )
        table.add_row(
            "surrogate",
            Text.assemble((p.surrogate or "", "bold green"), (f"  ({p.origin})", "dim")),
        )
    default = "accept as placeholder" if p.label is not None else "not a placeholder"
    table.add_row("Enter", Text.assemble((default, "bold"), ("   ? all keys", "dim")))
    return table


def help_table() -> Table:
    table = Table(
        title="keys (type the key, then Enter)", show_header=False, box=None, padding=(0, 2)
    )
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for key, what in HELP:
        table.add_row(key, what)
    return table


def placeholder_list(session: Session) -> Table:
    """This document's decided placeholders: where, type, original → surrogate."""
    table = Table(title=f"placeholders of {session.doc.id}", box=None, padding=(0, 2))
    for column in ("offset", "type", "original", "surrogate"):
        table.add_column(column)
    text = session.doc.text
    for d in session.decisions.placeholders:
        table.add_row(str(d.start), d.label or "", text[d.start : d.end], d.surrogate or "")
    return table


def fit_lines(text: Text, console: Console, max_lines: int) -> Text:
    """At most ``max_lines`` wrapped lines of ``text``, centred on the proposal, so header,
    proposal and prompt stay on screen in a small terminal pane."""
    lines = text.wrap(console, console.width)
    if len(lines) <= max_lines:
        return text
    mark = next((i for i, line in enumerate(lines) if "[[" in line.plain), 0)
    top = min(max(0, mark - max_lines // 2), len(lines) - max_lines)
    return Text("\n").join(lines[top : top + max_lines])


def _height(console: Console, part: RenderableType) -> int:
    return len(console.render_lines(part, console.options, pad=False))


def screen(
    session: Session,
    *,
    wide: bool = False,
    show: str | None = None,
    message: Text | None = None,
    fit: Console | None = None,
) -> RenderableType:
    """Everything for one step, top to bottom; the prompt follows it. With ``fit`` the
    context gets what that console's height leaves free, so nothing else scrolls away."""
    if session.finished:
        parts: list[RenderableType] = [
            Text(
                "All documents are done. b reopens the last decision, q quits.", style="bold green"
            )
        ]
        return Group(*parts, *([message] if message is not None else []))
    top = header(session)
    extra: list[RenderableType] = []
    if show == "help":
        extra = [help_table(), Text("")]
    elif show == "list":
        extra = [placeholder_list(session), Text("")]
    bottom: list[RenderableType] = [proposal_table(session)]
    if message is not None:
        bottom.append(message)
    context = context_text(session, wide)
    if fit is not None and not extra:
        used = sum(_height(fit, part) for part in [top, *bottom]) + 3  # 2 blank lines, prompt
        context = fit_lines(context, fit, max(3, fit.height - used))
    return Group(top, Text(""), context, Text(""), *extra, *bottom)
