"""The answering commands: ask, chat, eval, ui."""

from __future__ import annotations

from pathlib import Path

import click

from assistant.settings import LLM_CHOICES, SETTINGS_PAGE

from .cli_common import (CONTEXT, WHERE_HELP, assistant_for, fail_cleanly, question_options,
                         print_json, where_from)
from .terminal import print_answer

LLM_OPTION = click.option("--llm", type=click.Choice(LLM_CHOICES), default=None,
                          help="who writes the answer: auto (Ollama if running, else local), ollama, local, none "
                               "[env ASSISTANT_LLM, default auto]")


@click.command(context_settings=CONTEXT)
@click.argument("question", required=False)
@LLM_OPTION
@click.option("--k", type=click.IntRange(min=1), default=None, help="cite at most this many papers [default 5]")
@question_options("question")
def ask(ctx, question, llm, k, batch, where, as_json, page, show_all):
    """Answer QUESTION from the abstracts, citing the papers used, each with its evidence sentence.

    \b
    Examples:
      assistant ask "which papers reduce reasoning token usage"
      assistant ask "what is LASER-D?" --llm none --json
      assistant ask --batch questions.txt --json --llm local
      assistant ask "which papers use Lean?" --page 2

    \b
    A batch file holds one question per line, or JSON Lines: {"question": ...}, or
    {"conversation": ["question", "follow-up", ...]}, whose turns run in one conversation
    (with --json, one line {"conversation": [answer, ...]} each).
    """
    from assistant.batch import Item, read_items

    if bool(question) == bool(batch):
        raise click.UsageError("give either a QUESTION or --batch FILE")
    assistant = assistant_for(ctx)
    filters = where_from(where, ())
    options = dict(llm=llm, k=k, where=filters, page=page, page_size=None if show_all else SETTINGS_PAGE)
    incomplete = False
    for item in (read_items(batch) if batch else [Item([{"question": question}])]):
        conversation = assistant.conversation() if item.conversation else None
        answers = []
        for turn in item.turns:
            if as_json:
                answers.append(assistant.ask(turn["question"], conversation=conversation, **options).as_dict())
                continue
            if item.conversation:
                click.echo(click.style(f"> {turn['question']}", fg="cyan"))
            answer = print_answer(assistant.stream(turn["question"], conversation=conversation, **options))
            incomplete = incomplete or not answer.complete
        if as_json:
            print_json({"conversation": answers} if item.conversation else answers[0])
    if incomplete:
        ctx.exit(1)


@click.command(context_settings=CONTEXT)
@LLM_OPTION
@click.option("--k", type=click.IntRange(min=1), default=None, help="papers per answer [default 5]")
@click.option("--where", "where", multiple=True, help=WHERE_HELP)
@click.option("--source", multiple=True, help="only papers found in this file name (repeatable)")
@click.pass_context
@fail_cleanly
def chat(ctx, llm, k, where, source):
    """Chat in the terminal: answers stream in; follow-ups like "what about the second one?" work.

    \b
    Commands inside: /sources /show N /k N /llm NAME /filter F=V /reset /export FILE /help /quit
    Ctrl-C stops the answer being written; Ctrl-D or /quit leaves.
    """
    from .repl import Repl

    where_from(where, source)  # a bad filter stops here, with its fix
    Repl(assistant_for(ctx), llm=llm, k=k, filters=(*where, *(f"file={s}" for s in source))).run()


@click.command(name="eval", context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@LLM_OPTION
@click.option("--k", type=click.IntRange(min=1), default=None, help="papers per answer [default 5]")
@click.option("--no-answers", is_flag=True, help="measure retrieval and abstention only (fast)")
@click.option("--json", "as_json", is_flag=True, help="print the metrics as JSON")
@click.pass_context
@fail_cleanly
def evaluate(ctx, file, llm, k, no_answers, as_json):
    """Measure retrieval and answers on FILE: JSON Lines of {"question", "relevant": [substring, ...], "type"},
    or {"conversation": [{"question", "relevant"}, ...]} whose turns run in one conversation.

    \b
    Reports recall@5, MRR@10, citation precision/recall/F1, abstention, dangling [n] and seconds per
    question, overall and per type (and per turn of conversations).
    Example:
      assistant eval tests/data/dev.jsonl --llm none
    """
    from assistant.batch import read_eval_set
    from assistant.evaluation import evaluate as run_eval
    from ui.progress import progress_bar

    with progress_bar() as progress:
        report = run_eval(assistant_for(ctx), read_eval_set(file), llm=llm, k=k, answers=not no_answers, progress=progress)
    if as_json:
        print_json(report)
        return
    for key, value in report["metrics"].items():
        click.echo(f"{key:<22} {value:.3f}" if isinstance(value, float) else f"{key:<22} {value}")
    if report["by_type"]:
        click.echo()
        click.echo(type_table(report["by_type"]))


def type_table(rows: list[dict]) -> str:
    """The per-type metrics as a Markdown table (the README shows it as printed)."""
    def cell(value):
        return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)

    head = ["type", "questions", "citation P", "citation R", "citation F1", "abstention", "dangling [n]", "s/question"]
    keys = ["type", "questions", "citation_precision", "citation_recall", "citation_f1", "abstention",
            "dangling_citations", "seconds_per_question"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(row.get(key)) for key in keys) + " |" for row in rows]
    for row in rows:
        if "comparison_quoted" in row and " turn " not in row["type"]:
            lines.append(f"\n{row['type']}: {row['comparison_quoted']:.0%} of the answers have a comparison table "
                         "whose approach and result cells are quoted from the cited abstracts")
    return "\n".join(lines)


@click.command(context_settings=CONTEXT)
@click.option("--port", type=int, default=7860, show_default=True, help="port on 127.0.0.1")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to bind; keep 127.0.0.1 unless you know why")
@click.option("--mcp", is_flag=True, help="also serve the /chat and /search endpoints as MCP tools")
@click.option("--no-ingest", is_flag=True, help="do not load the bundled corpus into an empty store at start")
@click.pass_context
@fail_cleanly
def ui(ctx, port, host, mcp, no_ingest):
    """Open the browser chat (Gradio) on http://127.0.0.1:7860, loading the bundled corpus if the store is empty."""
    from .web import serve

    serve(assistant_for(ctx), host=host, port=port, mcp=mcp, ingest_if_empty=not no_ingest)


def register(group: click.Group) -> None:
    for command in (ask, chat, evaluate, ui):
        group.add_command(command)
