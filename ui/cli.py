"""The `assistant` command. Every subcommand builds one Settings, one Assistant, and prints."""

from __future__ import annotations

import json
import os
import sys
from functools import wraps
from pathlib import Path

import click

from assistant.errors import AssistantError
from assistant.settings import Settings

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def fail_cleanly(func):
    """User mistakes end as one line on stderr and a non-zero exit, never a traceback."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except AssistantError as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)

    return wrapper


def _settings(ctx: click.Context, **overrides) -> Settings:
    root = ctx.find_root().params
    return Settings.from_env(home=root.get("home"), chroma_url=root.get("chroma_url"), **overrides)


def _assistant(ctx: click.Context, **overrides):
    from assistant import Assistant

    return Assistant(_settings(ctx, **overrides))


def _json(value) -> None:
    click.echo(json.dumps(value, ensure_ascii=False))


def _where(pairs: tuple[str, ...], source: tuple[str, ...]):
    from assistant.filters import Filter

    return Filter.parse(pairs=pairs, sources=source)


WHERE_HELP = ("filter as FIELD=VALUE (fields: file, year, venue, decision, keyword, contribution); repeat to combine, "
              "e.g. --where year=2026 --where decision=Accept")


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
@click.pass_context
@fail_cleanly
def ingest(ctx, paths, as_json, rebuild):
    """Add abstracts from files or folders (.txt, .jsonl, .csv). With no PATH: the bundled ICLR 2026 corpus.

    Unchanged abstracts are skipped before embedding, so re-running is fast. Exit code 1 if anything was skipped.

    \b
    Examples:
      assistant ingest
      assistant ingest papers/ openreview.jsonl --json
    """
    from ui.progress import progress_bar

    assistant = _assistant(ctx)
    with progress_bar() as progress:
        report = assistant.ingest(list(paths) or None, progress=progress, rebuild=rebuild)
    if as_json:
        _json(report.as_dict())
    else:
        click.echo(f"{report.added} added, {report.updated} updated, {report.removed} removed, "
                   f"{report.unchanged} unchanged in {report.seconds:.1f}s; "
                   f"the store holds {report.papers} papers in {report.chunks} chunks.")
        for item in report.skipped:
            click.echo(f"skipped {item.path}: {item.reason}", err=True)
    if report.skipped:
        ctx.exit(1)


def _print_hits(hits) -> None:
    if not hits:
        click.echo("No paper in the store is relevant to that.")
    for rank, hit in enumerate(hits, 1):
        if hit.topic and (rank == 1 or hits[rank - 2].topic != hit.topic):  # a question on several topics
            click.echo(click.style(f"On {hit.topic}:", underline=True))
        click.echo(click.style(f"{rank}. {hit.title}", bold=True) + f"  (relevance {hit.score:.2f})")
        click.echo(f"   {', '.join(hit.source_labels())}  id {hit.id}")
        click.echo(f"   \u201c{hit.passage.strip()}\u201d\n")


@cli.command(context_settings=CONTEXT)
@click.argument("query", required=False)
@click.option("--k", type=click.IntRange(1, 100), default=None, help="at most this many papers [default 5]")
@click.option("--batch", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="file with one query per line, or JSON Lines with a \"question\" field")
@click.option("--where", "where", multiple=True, help=WHERE_HELP)
@click.option("--source", multiple=True, help="only papers found in this file name (repeatable)")
@click.option("--json", "as_json", is_flag=True, help="print JSON (JSON Lines with --batch)")
@click.pass_context
@fail_cleanly
def search(ctx, query, k, batch, where, source, as_json):
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
    assistant = _assistant(ctx)
    filters = _where(where, source)
    if batch:
        for question in read_questions(batch):
            hits = assistant.search(question, k=k, where=filters)
            if as_json:
                _json({"question": question, "results": [h.as_dict() for h in hits]})
            else:
                click.echo(click.style(f"# {question}", fg="cyan"))
                _print_hits(hits)
        return
    hits = assistant.search(query, k=k, where=filters)
    if as_json:
        _json([h.as_dict() for h in hits])
    else:
        _print_hits(hits)


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
    found = _assistant(ctx).papers(where=_where(where, source))
    if as_json:
        _json([{k: v for k, v in p.as_dict().items() if k not in ("score", "passage")} for p in found])
        return
    for paper in found:
        click.echo(f"{paper.id}  {paper.title}  [{', '.join(paper.source_labels())}]")
    click.echo(f"{len(found)} papers", err=True)


from ui.cli_answer import register  # noqa: E402  (answer commands live in their own module)

register(cli)


def main() -> None:
    cli(prog_name="assistant")
