"""`assistant chat`: a terminal chat with streaming answers, readline history and slash commands."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from assistant.errors import AssistantError
from assistant.filters import Filter
from assistant.latex import plain
from assistant.settings import LLM_CHOICES

from .terminal import paper_line, print_answer, print_citations

HELP = """\
Ask a question about the papers, or use a command:
  /sources        the sources of the last answer, with their evidence
  /show N         the full abstract of source N (and its row of a comparison)
  /compare N M .. compare sources N, M, ... of the last answer side by side
  /more           the next page of the last list answer, under its filters
  /k N            cite at most N papers per answer (now {k})
  /llm NAME       who writes answers: auto, ollama, local, none (now {llm})
  /filter F=V ... only papers matching: file, year, venue, decision (or accepted,
                  oral, withdrawn...), area (or a part of one), keyword
                  (now {filters}); /filter off clears
  /reset          start a new conversation
  /export FILE    save this conversation as Markdown with references
  /help           this help
  /quit           leave (or Ctrl-D)
Ctrl-C stops the answer being written."""


class Repl:
    def __init__(self, assistant, *, llm: str | None = None, k: int | None = None,
                 filters: tuple[str, ...] = ()) -> None:
        self.assistant = assistant
        self.llm = llm or assistant.settings.llm
        self.k = k or assistant.settings.k
        self.filters = tuple(filters)  # "FIELD=VALUE" pairs, checked by Filter.parse before they are kept
        Filter.parse(pairs=self.filters)
        self.conversation = assistant.conversation()
        self.answers: list = []  # every Answer of this conversation, for /sources, /show and /export

    # -- the loop --------------------------------------------------------------------
    def run(self) -> None:
        self._setup_readline()
        papers = self.assistant.stats()["papers"]
        click.echo(f"Research assistant: {papers:,} papers in the store. {self._writer_line()} "
                   "Ask a question; /help for commands.")
        if papers == 0:
            click.echo("The store is empty: run `assistant ingest` first (or /quit).")
        while True:
            try:
                line = input("\n› ").strip()
            except EOFError:
                click.echo()
                return
            except KeyboardInterrupt:
                click.echo()
                continue
            if not line:
                continue
            if line.startswith("/"):
                if self.command(line) == "quit":
                    return
                continue
            self.ask(line)

    def _writer_line(self) -> str:
        """Who writes the answers, said once (and after /llm), not at the end of every answer."""
        try:
            backend, note = self.assistant.backend(self.llm)
        except AssistantError as exc:
            return f"Answers: {self.llm} is unavailable ({exc.message})."
        writer = backend.name if backend is not None else "none (quotes from the abstracts)"
        return f"Answers written by {writer}" + (f" ({note})." if note else ".")

    def ask(self, question: str, plan=None, page: int | None = None) -> None:
        """Answer ``question`` in this conversation under the chat's filters; or, given ``plan`` (``/compare``,
        ``/more``), answer that plan, at ``page``, under the filters it records. Ctrl-C stops only the answer."""
        try:
            if plan is None:
                stream = self.assistant.stream(question, conversation=self.conversation, llm=self.llm, k=self.k,
                                               where=self._where())
            else:
                stream = self.assistant.stream(plan.question, llm=self.llm, k=self.k, plan=plan, page=page)
        except AssistantError as exc:
            click.echo(click.style(f"error: {exc}", fg="red"))
            return
        self.answers.append(print_answer(stream, more="/more", sources=sources_line, stoppable=True))

    # -- commands ----------------------------------------------------------------------
    def command(self, line: str) -> str | None:
        try:
            name, *args = shlex.split(line)
        except ValueError as exc:
            click.echo(f"error: {exc}")
            return None
        name = name.lower()
        last = self.answers[-1] if self.answers else None
        if name in ("/quit", "/exit", "/q"):
            return "quit"
        if name == "/help":
            click.echo(HELP.format(k=self.k, llm=self.llm, filters=self._filters_label()))
        elif name == "/sources":
            if last is None or not last.citations:
                click.echo("No sources yet: ask a question first.")
            else:
                print_citations(last)
        elif name == "/show":
            self._show(last, args)
        elif name == "/compare":
            self._compare(last, args)
        elif name == "/more":
            self._more(last)
        elif name == "/k":
            most = self.assistant.settings.max_k
            if len(args) == 1 and args[0].isdigit() and 1 <= int(args[0]) <= most:
                self.k = int(args[0])
                click.echo(f"Answers now cite at most {self.k} papers.")
            else:
                click.echo(f"Usage: /k N, with N from 1 to {most} (ASSISTANT_MAX_K).")
        elif name == "/llm":
            self._switch_llm(args)
        elif name == "/reset":
            self.conversation.reset()
            self.answers.clear()
            click.echo("New conversation.")
        elif name == "/export":
            self._export(args)
        elif name == "/filter":
            self._filter(args)
        else:
            click.echo(f"Unknown command {name}. /help lists the commands.")
        return None

    def _filter(self, args: list[str]) -> None:
        if args in ([], ["show"]):
            click.echo(f"Filters: {self._filters_label()}. Usage: /filter year=2026 file=a.txt, or /filter off.")
            return
        if args in (["off"], ["clear"], ["none"]):
            self.filters = ()
        else:
            try:
                self.assistant.filters(Filter.parse(pairs=args))  # an unknown area or decision is refused now
            except AssistantError as exc:
                click.echo(click.style(f"error: {exc}", fg="red"))
                return
            self.filters = tuple(args)
        click.echo(f"Answers now use {self._filters_label()}.")

    def _where(self):
        return Filter.parse(pairs=self.filters)

    def _filters_label(self) -> str:
        return "only papers with " + ", ".join(self.filters) if self.filters else "all papers"

    def _show(self, last, args: list[str]) -> None:
        if last is None or not last.citations:
            click.echo("No sources yet: ask a question first.")
            return
        if len(args) != 1 or not args[0].isdigit():
            click.echo("Usage: /show N, where N is a source number of the last answer.")
            return
        citation = next((c for c in last.citations if c.n == int(args[0])), None)
        if citation is None:
            click.echo(f"The last answer has sources 1 to {len(last.citations)}.")
            return
        where = ", ".join(f"{s['file']} #{s['position']}" for s in citation.sources)
        click.echo(click.style(f"[{citation.n}] {plain(citation.title)}", bold=True) + f"  ({where})")
        click.echo("  ".join(filter(None, (paper_line(citation), citation.tldr and f"TL;DR: {plain(citation.tldr)}")))
                   + "\n")
        # the evidence is found in the stored abstract; each piece is shown as plain text on its own
        before, found, after = citation.text.partition(citation.evidence) if citation.evidence else (citation.text, "", "")
        click.echo(plain(before) + (click.style(plain(found), underline=True) if found else "") + plain(after))
        row = next((r for r in last.comparison if r["n"] == citation.n), None)
        if row is not None:
            from assistant.comparison import COLUMNS, HEADINGS

            click.echo()
            for column in COLUMNS:
                click.echo(click.style(f"{HEADINGS[column]}: ", bold=True) + row[column])

    def _compare(self, last, args: list[str]) -> None:
        numbers = {c.n: c for c in last.citations} if last is not None else {}
        if len(args) < 2 or not all(a.isdigit() and int(a) in numbers for a in args):
            click.echo("Usage: /compare N M ..., with two or more source numbers of the last answer"
                       + (f" ({min(numbers)} to {max(numbers)})." if numbers else "."))
            return
        chosen = [numbers[int(a)] for a in dict.fromkeys(args)]
        why = "sources " + ", ".join(f"[{c.n}]" for c in chosen) + " of the last answer"
        try:
            plan = self.assistant.compare_plan([c.id for c in chosen], why, where=self._where())
        except AssistantError as exc:
            click.echo(click.style(f"error: {exc}", fg="red"))
            return
        self.ask(plan.question, plan=plan)

    def _more(self, last) -> None:
        if last is None or last.next_page is None:
            click.echo("Nothing more: /more shows the next page of a list answer.")
            return
        self.ask(last.question, plan=last.plan, page=last.next_page)  # under the filters of the pages before

    def _switch_llm(self, args: list[str]) -> None:
        if len(args) != 1 or args[0] not in LLM_CHOICES:
            click.echo(f"Usage: /llm NAME, with NAME one of {', '.join(LLM_CHOICES)}.")
            return
        try:
            backend, note = self.assistant.backend(args[0])
        except AssistantError as exc:
            click.echo(click.style(f"error: {exc}", fg="red"))
            return
        self.llm = args[0]
        click.echo(f"Answers are now written by {backend.name if backend else 'no LLM (quotes from the abstracts)'}."
                   + (f" ({note})" if note else ""))

    def _export(self, args: list[str]) -> None:
        if len(args) != 1:
            click.echo("Usage: /export FILE.md")
            return
        if not self.answers:
            click.echo("Nothing to export yet.")
            return
        path = Path(args[0]).expanduser()
        try:
            path.write_text(to_markdown(self.answers), encoding="utf-8")
        except OSError as exc:
            click.echo(click.style(f"error: cannot write {path}: {exc.strerror}", fg="red"))
            return
        click.echo(f"Saved {len(self.answers)} answers to {path}.")

    def _setup_readline(self) -> None:
        try:
            import readline
        except ImportError:  # not on every platform; the chat works without history
            return
        history = self.assistant.settings.home / "chat_history"
        try:
            history.parent.mkdir(parents=True, exist_ok=True)
            if history.exists():
                readline.read_history_file(history)
        except OSError:
            return
        readline.set_history_length(1000)
        import atexit

        atexit.register(_save_history, readline, history)


def _save_history(readline, path: Path) -> None:
    try:
        readline.write_history_file(path)
    except OSError:
        pass


def sources_line(answer) -> None:
    """The sources of an answer on one quiet line (``/sources`` shows them with their evidence)."""
    if answer.citations:
        click.echo(click.style("Sources: " + "; ".join(f"[{c.n}] {plain(c.title)}" for c in answer.citations), dim=True))


def to_markdown(answers) -> str:
    """The conversation as Markdown: each question, its answer, and its numbered references."""
    out = ["# Conversation with the research assistant", ""]
    for number, answer in enumerate(answers, 1):
        out += [f"## {number}. {answer.question}", "", answer.answer.strip(), ""]
        if not answer.complete:
            out += ["_This answer is incomplete._", ""]
        if answer.citations:
            out += ["References:", ""]
            for c in answer.citations:
                where = ", ".join(f"{s['file']} #{s['position']}" for s in c.sources)
                out += [f"{c.n}. **{c.title}** ({where}), id `{c.id}`", f"   > {c.evidence}", ""]
        out += [f"_Written by {answer.model}._", ""]
    return "\n".join(out)
