"""The `assistant` command. Every subcommand builds one Settings, one Assistant, and prints."""

from __future__ import annotations

import os
from pathlib import Path

import click

from assistant.settings import SETTINGS_PAGE
from assistant.latex import plain

from .cli_answer import register
from .cli_common import CONTEXT, WHERE_HELP, assistant_for, fail_cleanly, print_json, question_options, where_from
from .terminal import labels_text, paper_line, print_more


@click.group(context_settings=CONTEXT)
@click.option("--home", type=click.Path(file_okay=False, path_type=Path), envvar="ASSISTANT_HOME",
              help="data folder of the embedded store [env ASSISTANT_HOME]")
@click.option("--chroma-url", envvar="ASSISTANT_CHROMA_URL", help="use a Chroma server, e.g. http://127.0.0.1:8000 [env ASSISTANT_CHROMA_URL]")
@click.version_option(package_name="research-assistant")
def cli(home, chroma_url):
    """Search ICLR abstracts and answer questions about them with citations, all on this machine.

    \b
    Quick start:
      assistant ingest                       # load the bundled ICLR 2026 abstracts
      assistant search "token pruning for video LLMs"
      assistant ask "which papers reduce reasoning token usage?"
      assistant chat                         # terminal chat
      assistant ui                           # browser chat on http://127.0.0.1:7860
    """
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":  # https://no-color.org
        click.get_current_context().color = False  # subcommands' contexts inherit it


@cli.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="print one JSON object with the counts and what was skipped")
@click.option("--rebuild", is_flag=True, help="drop the store, then ingest PATHS (default: the bundled abstracts) from scratch; after a change of model, chunking or version")
@click.option("--openreview", "venue_id", metavar="VENUE_ID",
              help="download VENUE_ID's submissions from OpenReview into the data folder (an interrupted download "
                   "resumes), then ingest them [server: env ASSISTANT_OPENREVIEW_URL]")
@click.option("--openreview-page-size", type=click.IntRange(1, 1000), default=None, hidden=True)  # tests: many pages
@click.pass_context
@fail_cleanly
def ingest(ctx, paths, as_json, rebuild, venue_id, openreview_page_size):
    """Add abstracts from files or folders (.txt, .jsonl, .csv, or gzipped: .jsonl.gz). With no PATH: the bundled
    ICLR 2026 corpus.

    Unchanged abstracts are skipped before embedding, so re-running is fast. Exit code 1 if anything was skipped.

    \b
    Examples:
      assistant ingest
      assistant ingest papers/ openreview.jsonl --json
      assistant ingest ../shared/corpus/iclr2026.jsonl.gz
      assistant ingest --openreview ICLR.cc/2026/Conference
    """
    from .interrupts import stoppable
    from .progress import progress_bar

    if venue_id is not None and paths:
        raise click.UsageError("give either PATHS or --openreview VENUE_ID")
    assistant = assistant_for(ctx)
    fetched = None
    with stoppable() as pressed, progress_bar() as bar:
        def progress(done: int, total: int, stage: str) -> None:
            if pressed.is_set():  # a Ctrl-C that could not raise where it landed (a finalizer)
                raise KeyboardInterrupt
            bar(done, total, stage)

        if venue_id is not None:
            fetched, report = assistant.ingest_openreview(venue_id, progress=progress, rebuild=rebuild,
                                                          page_size=openreview_page_size)
        else:
            report = assistant.ingest(list(paths) or None, progress=progress, rebuild=rebuild)
        if pressed.is_set():
            raise KeyboardInterrupt
    if as_json:
        print_json({**report.as_dict(), **({"download": fetched.as_dict()} if fetched else {})})
    else:
        if fetched:
            resumed = f", resuming after {fetched.resumed_from}" if fetched.resumed_from else ""
            click.echo(f"Downloaded {fetched.notes} submissions of {venue_id}{resumed} into {fetched.path}.")
        relabelled = f" ({report.relabelled} given new contribution labels)" if report.relabelled else ""
        click.echo(f"{report.added} added, {report.updated} updated, {report.removed} removed, "
                   f"{report.unchanged} unchanged{relabelled} in {report.seconds:.1f}s; "
                   f"the store holds {report.papers} papers in {report.chunks} chunks.")
        for item in report.skipped:
            click.echo(f"skipped {item.path}: {item.reason}", err=True)
    if report.skipped:
        ctx.exit(1)


def _print_hits(hits, first: int = 1) -> None:
    if not hits:
        click.echo("No paper in the store is relevant to that.")
    for rank, hit in enumerate(hits, first):
        if hit.topic and (rank == first or hits[rank - first - 1].topic != hit.topic):  # a question on several topics
            click.echo(click.style(f"On {hit.topic}:", underline=True))
        click.echo(click.style(f"{rank}. {plain(hit.title)}", bold=True) + f"  (relevance {hit.score:.2f})")
        click.echo(f"   {', '.join(hit.source_labels())}  id {hit.id}"
                   + labels_text(hit.contributions, hit.main_contribution, hit.method_forms, hit.savings))
        if paper_line(hit):
            click.echo(f"   {paper_line(hit)}")
        click.echo(f"   \u201c{plain(hit.passage.strip())}\u201d\n")


@cli.command(context_settings=CONTEXT)
@click.argument("query", required=False)
@click.option("--k", type=click.IntRange(min=1), default=None, help="at most this many papers [default 5]")
@click.option("--source", multiple=True, help="only papers found in this file name (repeatable)")
@question_options("query")
def search(ctx, query, k, source, batch, where, as_json, page, show_all):
    """Find the papers relevant to QUERY. Returns only papers judged relevant, so it can return none.

    \b
    Examples:
      assistant search "which papers reduce reasoning token usage" --k 5
      assistant search "tell me about PoLR" --json
      assistant search --batch questions.jsonl --json
    """
    from assistant.batch import read_questions

    if bool(query) == bool(batch):
        raise click.UsageError("give either a QUERY or --batch FILE")
    assistant = assistant_for(ctx)
    filters = where_from(where, source)
    size = None if show_all else SETTINGS_PAGE
    for question in (read_questions(batch) if batch else [query]):
        found = assistant.find(question, k=k, where=filters, page=page, page_size=size)
        if as_json:
            print_json({"question": question, **found.as_dict()})
            continue
        if batch:
            click.echo(click.style(f"# {question}", fg="cyan"))
        click.echo(click.style(found.plan.line(), dim=True))
        if found.none_on_all:  # no paper is on all the question combines: the nearest on each part follow
            from assistant.concepts import combined

            click.echo(f"No paper is on {combined(found.none_on_all)}; the nearest on each:")
        _print_hits(found.hits, first=found.plan.earlier + 1)
        print_more(found)


@cli.command(context_settings=CONTEXT)
@click.option("--where", "where", multiple=True, help=WHERE_HELP)
@click.option("--source", multiple=True, help="only papers found in this file name (repeatable)")
@click.option("--json", "as_json", is_flag=True, help="print a JSON array of papers")
@click.pass_context
@fail_cleanly
def papers(ctx, where, source, as_json):
    """List the papers in the store.

    \b
    Examples:
      assistant papers
      assistant papers --source 001_9830726e7dff0e98.txt --json
    """
    found = assistant_for(ctx).papers(where=where_from(where, source))
    if as_json:
        print_json([{k: v for k, v in p.as_dict().items() if k not in ("score", "passage")} for p in found])
        return
    for paper in found:
        click.echo(f"{paper.id}  {plain(paper.title)}  [{', '.join(paper.source_labels())}]")
    click.echo(f"{len(found)} papers", err=True)


register(cli)  # ask, chat, eval, ui: the answering commands live in their own module


def main() -> None:
    cli(prog_name="assistant")
