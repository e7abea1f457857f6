"""Answers printed on a terminal, as they stream, with their sources: for `assistant ask` and the chat."""

from __future__ import annotations

import re
import sys

import click

from .interrupts import stoppable


def print_citations(answer, out=click.echo) -> None:
    if not answer.citations:
        return
    out(click.style("\nSources", bold=True))
    for c in answer.citations:
        where = ", ".join(f"{s['file']} #{s['position']}" for s in c.sources)
        out(f"[{c.n}] {c.title}  ({where})" + (f"  on {c.topic}" if c.topic else ""))
        out(click.style(f"    evidence: \u201c{c.evidence}\u201d", dim=True))


_BOLD = re.compile(r"\*\*(.+?)\*\*")


def for_terminal(piece: str) -> str:
    """Markdown bold (titles, "On Lean:", numbers the abstracts stress) as bold text on a terminal that
    takes colours; piped or with NO_COLOR, the Markdown is left as it is."""
    ctx = click.get_current_context(silent=True)
    styled = ctx.color if ctx is not None and ctx.color is not None else sys.stdout.isatty()
    return _BOLD.sub(lambda m: click.style(m.group(1), bold=True), piece) if styled else piece


def echo_pieces(pieces, cancel=None) -> None:
    """Print an answer as it streams; Ctrl-C raises KeyboardInterrupt, even one pressed while the local
    model was inside a C callback (see ui.interrupts): ``cancel`` (the stream's) then stops the model
    at its next token, and nothing more is printed."""
    with stoppable(cancel) as pressed:
        for piece in pieces:
            if pressed.is_set():
                raise KeyboardInterrupt
            click.echo(for_terminal(piece), nl=False)
        if pressed.is_set():
            raise KeyboardInterrupt


def stream_to_terminal(stream) -> None:
    echo_pieces(stream, stream.cancel)
    click.echo()
