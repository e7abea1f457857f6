"""HTML for the browser chat, built from plain text only.

Everything shown in the page (model output, abstracts, titles, file names, error messages)
goes through ``html.escape`` first; the only markup added afterwards is our own: ``**bold**``,
``_italic_``, `` `code` ``, list items and ``[n]`` citation badges. Markdown links and images
are never turned into elements, so an abstract or answer holding ``<img src=…>``,
``![x](http://…)`` or ``<script>`` renders as inert text and makes no request.

Nothing here imports gradio: the functions are plain and tested directly.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from assistant.answer import short_name
from assistant.comparison import COLUMNS, HEADINGS, NOT_STATED
from assistant.latex import plain
from assistant.schema import METHOD

_INLINE = re.compile(r"`(?P<code>[^`\n]+)`|\*\*(?P<bold>[^\n]+?)\*\*|(?<![\w])_(?P<em>[^_\n]+)_(?![\w])|\[(?P<cite>\d{1,3})\]")
_WS = re.compile(r"\s+")


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def source_id(turn: int, n: int) -> str:
    """The element id of citation ``n`` of turn ``turn`` in the sources panel."""
    return f"src-{turn}-{n}"


# -- answer text -> safe HTML --------------------------------------------------------------
def inline(text: str, turn: int = 0, citations: Sequence[Any] = (), _depth: int = 0) -> str:
    """One line of answer text as safe HTML: escaped, with our few inline marks."""
    by_n = {getattr(c, "n", i): c for i, c in enumerate(citations, 1)}  # a list's page 2 cites [21]..[40]
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(esc(plain(text[pos:m.start()])))  # quoted LaTeX read as text: "90\\%" as "90%"
        pos = m.end()
        if m.group("code") is not None:
            out.append(f"<code>{esc(m.group('code'))}</code>")
        elif m.group("bold") is not None:
            inner = inline(m.group("bold"), turn, citations, _depth + 1) if _depth < 2 else esc(m.group("bold"))
            out.append(f"<strong>{inner}</strong>")
        elif m.group("em") is not None:
            inner = inline(m.group("em"), turn, citations, _depth + 1) if _depth < 2 else esc(m.group("em"))
            out.append(f"<em>{inner}</em>")
        else:
            n = int(m.group("cite"))
            out.append(cite_badge(turn, n, by_n[n]) if n in by_n else esc(m.group(0)))
    out.append(esc(plain(text[pos:])))
    return "".join(out)


def cite_badge(turn: int, n: int, citation: Any) -> str:
    title = esc(getattr(citation, "title", ""))
    return (f'<a class="cite" href="#{source_id(turn, n)}" data-turn="{turn}" data-n="{n}" '
            f'title="{title}" aria-label="source {n}: {title}">{n}</a>')


def answer_html(text: str, turn: int = 0, citations: Sequence[Any] = ()) -> str:
    """Answer text (the library's light markdown) as safe HTML: paragraphs, bullet lists, badges."""
    blocks: list[str] = []
    items: list[str] = []
    para: list[str] = []

    def flush_para() -> None:
        if para:
            blocks.append("<p>" + "<br>".join(para) + "</p>")
            para.clear()

    def flush_items() -> None:
        if items:
            blocks.append("<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
            items.clear()

    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped:
            flush_para()
            flush_items()
        elif stripped.startswith(("- ", "* ")):
            flush_para()
            items.append(inline(stripped[2:], turn, citations))
        else:
            flush_items()
            para.append(inline(stripped, turn, citations))
    flush_para()
    flush_items()
    return "".join(blocks)


# -- sources -------------------------------------------------------------------------------
_BOLD = re.compile(r"\*\*([^*\n]{1,200}?)\*\*")


def prose(text: str) -> str:
    """Abstract text as safe HTML: its LaTeX as text (``latex.plain``: "O(\\sqrt{T})" as "O(√T)"), escaped,
    ``**bold**`` kept as bold (abstracts often carry it). The stored abstract is not changed."""
    out, pos = [], 0
    for m in _BOLD.finditer(text):
        out.append(esc(plain(text[pos:m.start()])) + f"<strong>{esc(plain(m.group(1)))}</strong>")
        pos = m.end()
    return "".join(out) + esc(plain(text[pos:]))


def highlight(text: str, evidence: str) -> str:
    """The abstract, escaped, with the evidence sentence inside ``<mark class="evidence">``."""
    evidence = (evidence or "").strip()
    if evidence:
        at = text.find(evidence)
        if at >= 0:
            return (prose(text[:at]) + f'<mark class="evidence">{prose(evidence)}</mark>'
                    + prose(text[at + len(evidence):]))
        # whitespace may differ: match on a whitespace-tolerant pattern
        words = evidence.split()
        if words:
            pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
            m = pattern.search(text)
            if m:
                return (prose(text[:m.start()]) + f'<mark class="evidence">{prose(m.group(0))}</mark>'
                        + prose(text[m.end():]))
    return prose(text)


def file_labels(sources: Iterable[dict]) -> list[str]:
    return [f"{s.get('file', '?')} #{s.get('position', '?')}" for s in sources]


def files_html(sources: Iterable[dict]) -> str:
    labels = file_labels(sources)
    if not labels:
        return ""
    chips = "".join(f'<span class="file-chip" title="{esc(lbl)}">{esc(lbl)}</span>' for lbl in labels)
    return f'<div class="files">{chips}</div>'


def topic_html(topic: str | None) -> str:
    """For a question on several topics ("papers on Lean or on robots"): the one this paper answers."""
    return f'<div class="topic">on <b>{esc(topic)}</b></div>' if topic else ""


def labels_html(labels: Sequence[str], main: str | None = None, forms: Sequence[str] = (),
                savings: Sequence[str] = ()) -> str:
    """A paper's kinds of contribution (ingest's labels), as small chips; its main one stands out when it has several;
    what form its method takes ("training-free") and what costs it cuts ("cuts inference cost") follow, chips of
    their own."""
    if not labels:
        return ""
    chips = [f'<span class="label main" title="main contribution">{esc(label)}</span>' if label == main and len(labels) > 1
             else f'<span class="label">{esc(label)}</span>' for label in labels]
    if METHOD in labels:
        chips += [f'<span class="label form" title="what form its method takes">{esc(form)}</span>' for form in forms]
    chips += [f'<span class="label form" title="what cost the paper says its work cuts">cuts {esc(phase)} cost</span>'
              for phase in savings]
    return '<div class="labels">' + "".join(chips) + "</div>"


_LABEL_KEYS = ("contributions", "main_contribution", "method_forms", "savings")  # what ``labels_html`` takes


_WEB_URL = re.compile(r"https?://[^\s\"'<>]+", re.I)


def title_html(title: str, url: str | None) -> str:
    """The title, escaped, as a link to the paper's page (its OpenReview forum) in a new tab when it has an
    http(s) one; any other url (``javascript:``, a file path) leaves it plain text."""
    if url and _WEB_URL.fullmatch(url.strip()):
        return (f'<a class="src-link" href="{esc(url.strip())}" target="_blank" rel="noopener noreferrer">'
                f'{esc(plain(title))}</a>')
    return esc(plain(title))


def paper_html(citation: Any) -> str:
    """What the data says of a paper: its primary area and decision as chips, and the authors' TL;DR."""
    area, decision, tldr = (getattr(citation, key, None) for key in ("primary_area", "decision", "tldr"))
    chips = "".join(f'<span class="label {kind}" title="{kind.replace("-", " ")}">{esc(value)}</span>'
                    for kind, value in (("primary-area", area), ("decision", decision)) if value)
    return ((f'<div class="labels paper-facts">{chips}</div>' if chips else "")
            + (f'<p class="tldr"><b>TL;DR:</b> {esc(tldr)}</p>' if tldr else ""))


def source_card(turn: int, citation: Any, open_: bool = False) -> str:
    """One cited paper: badge, title (a link to its page), files, its area, decision and TL;DR, the evidence
    sentence, and the full abstract (expandable)."""
    sid = source_id(turn, citation.n)
    return (f'<article class="src" id="{sid}">'
            f'<div class="src-head"><span class="badge">{citation.n}</span>'
            f'<h4 class="src-title">{title_html(citation.title, getattr(citation, "url", None))}</h4></div>'
            f'{topic_html(getattr(citation, "topic", None))}'
            f'{labels_html(*(getattr(citation, key, None) or () for key in _LABEL_KEYS))}'
            f'{paper_html(citation)}'
            f'{files_html(citation.sources)}'
            f'<blockquote class="quote">{prose(citation.evidence)}</blockquote>'
            f'<details class="abstract"{" open" if open_ else ""}><summary>Full abstract</summary>'
            f'<p class="abstract-text">{highlight(citation.text, citation.evidence)}</p></details>'
            f'</article>')


# -- the conversation ----------------------------------------------------------------------
@dataclass
class Turn:
    """One question and its answer as the page shows them."""

    number: int
    question: str
    text: str = ""
    citations: list = field(default_factory=list)
    model: str = ""
    note: str = ""
    complete: bool = True
    error: str = ""
    pending: bool = True
    stage: str = "Searching the abstracts…"
    scope: str = ""  # the filters it was answered under, e.g. "year 2026, file a.txt"; "" for every paper
    plan_line: str = ""  # the question plan in one quiet line ("list question: every paper on …")
    comparison: list = field(default_factory=list)  # a comparison's rows ({"n", "problem", ...})
    synthesized_by: str = ""  # the capable model whose checked paragraph opens the answer
    more: int = 0  # papers of a list answer on later pages ("Show more" lists them)
    plan: Any = None  # the plan its answer followed
    next_page: int | None = None  # the page of ``plan`` that "Show more" answers with


EMPTY_CHAT = ('<div class="chat-empty"><div class="chat-empty-title">Ask about the papers</div>'
              '<p>Answers quote the abstracts they come from and cite them as '
              '<span class="cite demo">1</span> badges. Click a badge to see the paper, with the sentence '
              'that supports the answer highlighted.</p>'
              '<p class="muted">Follow-ups work: try “tell me more about the second one”.</p></div>')

TYPING = '<span class="typing" aria-label="writing"><i></i><i></i><i></i></span>'


def shorten(text: str, limit: int = 400) -> str:
    """A long pasted question shown in full would bury the conversation."""
    if len(text) <= limit:
        return text
    return f"{text[:300].rstrip()}… ({len(text):,} characters)"


def turn_html(turn: Turn) -> str:
    parts = [f'<div class="turn" id="turn-{turn.number}">',
             f'<div class="q"><div class="bubble-q">{esc(shorten(turn.question))}</div></div>']
    classes = ["a"]
    if turn.pending:
        classes.append("pending")
    if turn.error:
        classes.append("error")
    elif not turn.complete:
        classes.append("incomplete")
    body = answer_html(turn.text, turn.number, turn.citations) if turn.text else ""
    if turn.comparison and not turn.pending:
        body += comparison_html(turn.number, turn.comparison, turn.citations)
    if turn.plan_line:
        body = f'<div class="plan-line">{esc(turn.plan_line)}</div>' + body
    if turn.pending and not turn.text:
        body = f'<p class="muted stage">{esc(turn.stage)}</p>'
    if turn.pending:
        body += TYPING
    if turn.error:
        body += f'<div class="error-box" role="alert"><strong>Could not answer.</strong> {esc(turn.error)}</div>'
    elif turn.scope and not turn.pending and not turn.citations:
        body += (f'<p class="muted filter-hint">Only papers with {esc(turn.scope)} were searched: clear the '
                 f'filters to search every paper.</p>')
    meta = []
    if not turn.pending and not turn.error:
        if turn.synthesized_by:
            meta.append(f"answers: synthesized by {esc(turn.synthesized_by)}")
        elif turn.model:
            meta.append(f"written by {esc(turn.model)}")
        n = len(turn.citations)
        meta.append("no sources" if n == 0 else f"{n} source{'s' if n != 1 else ''}")
        if turn.more:
            meta.append(f'<span class="more">{turn.more} more: press “Show more”</span>')
        if turn.scope:
            meta.append(f'<span class="scope">only {esc(turn.scope)}</span>')
        if turn.note:
            meta.append(esc(turn.note))
    meta_html = f'<div class="meta">{" · ".join(meta)}</div>' if meta else ""
    parts.append(f'<div class="{" ".join(classes)}"><div class="answer">{body}</div>{meta_html}</div></div>')
    return "".join(parts)


def comparison_html(turn: int, rows: Sequence[dict], citations: Sequence[Any]) -> str:
    """A comparison as a table: one row per paper, with its citation badge and short name (the full title on
    hover); every cell is quoted text."""
    by_n = {c.n: c for c in citations}
    head = "".join(f"<th>{HEADINGS[key]}</th>" for key in COLUMNS)
    body = []
    for row in rows:
        citation = by_n.get(row["n"])
        if citation is None:
            continue
        name = esc(short_name(citation.title))
        cells = "".join(f'<td class="{"not-stated" if row[key] == NOT_STATED else ""}">{prose(row[key])}</td>'
                        for key in COLUMNS)
        body.append(f'<tr><th scope="row" title="{esc(citation.title)}"><span class="paper-name">'
                    f'{cite_badge(turn, row["n"], citation)} {name}</span></th>{cells}</tr>')
    return (f'<div class="comparison-wrap"><table class="comparison"><thead><tr><th>Paper</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def chat_html(turns: Sequence[Turn]) -> str:
    if not turns:
        return f'<div class="chat">{EMPTY_CHAT}</div>'
    return '<div class="chat">' + "".join(turn_html(t) for t in turns) + "</div>"


EMPTY_SOURCES = ('<div class="sources"><div class="sources-empty">The papers an answer cites appear here: '
                 'title, source file and the full abstract, with the supporting sentence '
                 '<mark class="evidence">highlighted</mark>.</div></div>')


def sources_html(turns: Sequence[Turn]) -> str:
    """The sources of the latest answer on top; those of earlier answers folded below."""
    with_sources = [t for t in turns if t.citations]
    if not turns:
        return EMPTY_SOURCES
    latest = turns[-1]
    parts = ['<div class="sources">']
    if latest.citations:
        parts.append(f'<div class="sources-for">Sources for <q>{esc(shorten(latest.question, 120))}</q></div>')
        parts.extend(source_card(latest.number, c) for c in latest.citations)
    elif latest.pending:
        parts.append('<div class="sources-empty">Searching…</div>')
    else:
        parts.append('<div class="sources-empty">No paper cited for the last question.</div>')
    earlier = [t for t in reversed(with_sources) if t is not latest]
    if earlier:
        parts.append('<details class="earlier"><summary>Sources of earlier answers</summary>')
        for t in earlier:
            parts.append(f'<div class="sources-for">For <q>{esc(shorten(t.question, 120))}</q></div>')
            parts.extend(source_card(t.number, c) for c in t.citations)
        parts.append("</details>")
    parts.append("</div>")
    return "".join(parts)


# -- library -------------------------------------------------------------------------------
LIBRARY_LIMIT = 200


def filter_papers(papers: Sequence[Any], text: str = "", source: str | None = None) -> list[Any]:
    """Papers whose title or abstract holds ``text`` (case-insensitive), found in file ``source``."""
    needle = _WS.sub(" ", (text or "").strip().lower())
    out = []
    for p in papers:
        if source and all(s.get("file") != source for s in p.sources):
            continue
        if needle and needle not in p.title.lower() and needle not in _WS.sub(" ", p.text.lower()):
            continue
        out.append(p)
    return out


def library_html(papers: Sequence[Any], total: int, limit: int = LIBRARY_LIMIT) -> str:
    if total == 0:
        return ('<div class="library"><div class="sources-empty">The store is empty. Add abstracts in the '
                '<b>Add abstracts</b> tab (or run <code>assistant ingest</code>).</div></div>')
    shown = papers[:limit]
    head = (f"{len(papers)} of {total} papers" if len(papers) != total else f"{total} papers")
    if len(papers) > limit:
        head += f" · showing the first {limit}; refine the search to see the rest"
    rows = []
    for p in shown:
        rows.append(f'<details class="paper" id="paper-{esc(p.id)}"><summary>'
                    f'<span class="paper-title">{esc(p.title)}</span>'
                    f'<span class="paper-files">{esc(", ".join(sorted({s.get("file", "?") for s in p.sources})))}</span>'
                    f'</summary><p class="abstract-text">{prose(p.text)}</p>'
                    f'{files_html(p.sources)}<div class="muted small">id {esc(p.id)}</div></details>')
    if not papers:
        rows.append('<div class="sources-empty">No paper matches.</div>')
    return f'<div class="library"><div class="library-count">{esc(head)}</div>{"".join(rows)}</div>'


# -- filters -------------------------------------------------------------------------------
def filter_scope(chosen: dict[str, Sequence[Any]]) -> str:
    """``{"file": ["a.txt"], "year": ["2025", "2026"]}`` -> ``"file a.txt, year 2025 or 2026"`` (plain text)."""
    return ", ".join(f"{name} {' or '.join(str(v) for v in values)}" for name, values in chosen.items() if values)


def filters_label(scope: str) -> str:
    """The Filters box's title, so the active filters show even when it is folded."""
    return f"Filters · only {scope}" if scope else "Filters · all papers"


def source_files(papers: Sequence[Any]) -> list[str]:
    return sorted({s.get("file", "") for p in papers for s in p.sources if s.get("file")})


# -- ingest report -------------------------------------------------------------------------
def ingest_html(report: dict | None, files: Sequence[str], rejected: Sequence[tuple[str, str]],
                names: dict[str, str] | None = None) -> str:
    """What an upload did: counts, the files read, and each skipped file with its reason."""
    names = names or {}
    parts = ['<div class="ingest-report">']
    if report is not None:
        counts = [("added", report.get("added", 0)), ("updated", report.get("updated", 0)),
                  ("unchanged", report.get("unchanged", 0)), ("removed", report.get("removed", 0))]
        chips = "".join(f'<span class="count count-{k}"><b>{v}</b> {k}</span>' for k, v in counts)
        parts.append(f'<div class="counts">{chips}</div>')
        parts.append(f'<p class="muted">The library now holds {report.get("papers", 0)} papers '
                     f'in {report.get("chunks", 0)} chunks.</p>')
    if files:
        parts.append("<p>Read: " + ", ".join(f'<span class="file-chip">{esc(f)}</span>' for f in files) + "</p>")
    skipped = list(rejected)
    if report is not None:
        for item in report.get("skipped", []):
            path = str(item.get("path", ""))
            skipped.append((names.get(path, path.rsplit("/", 1)[-1]), str(item.get("reason", ""))))
    if skipped:
        parts.append('<div class="skipped"><b>Skipped</b><ul>'
                     + "".join(f"<li><span class=\"file-chip\">{esc(n)}</span> {esc(r)}</li>" for n, r in skipped)
                     + "</ul></div>")
    parts.append("</div>")
    return "".join(parts)


def header_html(papers: int, files: int) -> str:
    stats = (f"{papers:,} paper{'s' if papers != 1 else ''} from {files:,} file{'s' if files != 1 else ''}"
             if papers else "the store is empty")
    return ('<div class="app-header"><div class="app-title">Research assistant</div>'
            f'<div class="app-sub">Answers cite the paper abstracts they come from · {esc(stats)} · '
            'everything runs on this machine</div></div>')


def backend_status_html(rows: Sequence[tuple[str, bool, str, str]]) -> str:
    """rows: (choice, available, what to show: model name or why not, full detail for the tooltip)."""
    items = []
    for choice, ok, text, detail in rows:
        state = "ok" if ok else "off"
        items.append(f'<span class="backend backend-{state}" title="{esc(detail)}"><b>{esc(choice)}</b> '
                     f'{"" if ok else "✗ "}{esc(text)}</span>')
    return f'<div class="backends">{"".join(items)}</div>'
