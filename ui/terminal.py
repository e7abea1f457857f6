"""Answers printed on a terminal, as they stream, with their sources: for `assistant ask` and the chat."""

from __future__ import annotations

import re
import sys

import click

from assistant.latex import plain
from assistant.schema import METHOD

from .interrupts import stoppable


def labels_text(labels, main: str | None = None, forms=(), savings=()) -> str:
    """A paper's kinds of contribution at the end of its line, with what form its method takes and what costs it
    cuts: "  [method (training-free), theory; mainly theory; cuts inference cost]" ("" if none)."""
    if not labels:
        return ""
    named = [f"{label} ({', '.join(forms)})" if label == METHOD and forms else label for label in labels]
    cuts = f"; cuts {' and '.join(savings)} cost" if savings else ""
    return f"  [{', '.join(named)}" + (f"; mainly {main}" if main and len(labels) > 1 else "") + cuts + "]"


def print_citations(answer, out=click.echo) -> None:
    if not answer.citations:
        return
    out(click.style("\nSources", bold=True))
    for c in answer.citations:
        where = ", ".join(f"{s['file']} #{s['position']}" for s in c.sources)
        out(f"[{c.n}] {plain(c.title)}  ({where})" + (f"  on {c.topic}" if c.topic else "")
            + labels_text(c.contributions, c.main_contribution, c.method_forms, c.savings))
        if paper_line(c):
            out(click.style(f"    {paper_line(c)}", dim=True))
        out(click.style(f"    evidence: \u201c{plain(c.evidence)}\u201d", dim=True))


def paper_line(paper) -> str:
    """What the data says of a paper (a ``PaperHit`` or a ``Citation``) on one line: its page, its primary area
    and its decision ("" when it says none)."""
    return "  ".join(filter(None, (paper.url, paper.primary_area and f"area: {paper.primary_area}",
                                   paper.decision and f"decision: {paper.decision}")))


_BOLD = re.compile(r"\*\*(.+?)\*\*")


def for_terminal(piece: str) -> str:
    """Markdown bold (titles, "On Lean:", numbers the abstracts stress) as bold text on a terminal that
    takes colours; piped or with NO_COLOR, the Markdown is left as it is. The LaTeX of quotes and titles
    is shown as plain text (``assistant.latex``), each piece between the bold marks on its own, so the marks
    (and the evidence they stress) stay where they were."""
    ctx = click.get_current_context(silent=True)
    styled = ctx.color if ctx is not None and ctx.color is not None else sys.stdout.isatty()
    out: list[str] = []
    last = 0
    for bold in _BOLD.finditer(piece):
        out.append(plain(piece[last:bold.start()]))
        inside = plain(bold.group(1))
        out.append(click.style(inside, bold=True) if styled else f"**{inside}**")
        last = bold.end()
    out.append(plain(piece[last:]))
    return "".join(out)


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


def comparison_table(answer, width: int | None = None) -> str:
    """The comparison as an aligned table whose cells wrap to the terminal's width."""
    import shutil
    import textwrap

    from assistant.answer import short_name
    from assistant.comparison import COLUMNS, HEADINGS

    width = width or shutil.get_terminal_size((120, 24)).columns
    titles = {c.n: f"[{c.n}] {short_name(c.title)}" for c in answer.citations}
    first = min(24, max(len(t) for t in titles.values()))
    column = max(16, (width - first - 3 * len(COLUMNS)) // len(COLUMNS))
    header = [("paper", first)] + [(HEADINGS[c], column) for c in COLUMNS]
    lines = [" | ".join(h.ljust(w) for h, w in header), "-+-".join("-" * w for _h, w in header)]
    for row in answer.comparison:
        cells = [textwrap.wrap(titles[row["n"]], first)] + [textwrap.wrap(row[c], column) or [""] for c in COLUMNS]
        for i in range(max(map(len, cells))):
            lines.append(" | ".join((cell[i] if i < len(cell) else "").ljust(w)
                                    for cell, (_h, w) in zip(cells, header)).rstrip())
        lines.append("-+-".join("-" * w for _h, w in header))
    return "\n".join(lines)


PAGE_HINT = "--page {page}, or --all"  # how `assistant ask` and `assistant search` show the next page


def print_more(result, how: str = PAGE_HINT) -> None:
    """Under a page of a list (an ``Answer`` or ``Found``): how many papers later pages list, and ``how``
    to see them (``{page}``: the next page)."""
    if result.more:
        click.echo(click.style(f"{result.more} more: {how.format(page=result.next_page)}", dim=True))


def print_answer(stream, *, more: str = PAGE_HINT, sources=print_citations, stoppable: bool = False):
    """Stream an answer to the terminal under its plan line, then its comparison table, its sources
    (``sources(answer)``), how many more papers later pages list (``more``: how to see them, as in
    ``print_more``) and who wrote it. Ctrl-C stops the answer, which ends incomplete; with ``stoppable``
    the answer is then printed to its end, else KeyboardInterrupt goes on to the caller."""
    click.echo(click.style(stream.plan.line(), dim=True))
    pieces = iter(stream)
    try:
        echo_pieces(pieces, stream.cancel)
    except KeyboardInterrupt:
        pieces.close()  # finalises the answer as incomplete
        if not stoppable:
            raise
        click.echo(click.style("\n(stopped)", dim=True))
    click.echo()
    answer = stream.answer
    if answer.comparison:
        click.echo()
        click.echo(for_terminal(comparison_table(answer)))
    sources(answer)
    print_more(answer, more)
    click.echo(click.style(f"\n— written by {answer.model}" + ("" if answer.complete else " (incomplete)")
                           + (f"; {answer.note}" if answer.note else ""), dim=True))
    return answer
