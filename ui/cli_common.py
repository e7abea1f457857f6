"""What every `assistant` subcommand shares: click settings, clean failures, and building one ``Assistant``."""

from __future__ import annotations

import json
import sys
from functools import wraps

from pathlib import Path

import click

from assistant.errors import AssistantError
from assistant.settings import Settings

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
WHERE_HELP = ("filter as FIELD=VALUE (fields: file, year, venue, decision, area, keyword, contribution); repeat to "
              "combine, e.g. --where year=2026 --where decision=accepted --where 'area=reinforcement learning' "
              "(decision: a decision or accepted, oral, spotlight, poster, rejected, desk rejected, withdrawn; "
              "area: a primary area or a part of one)")


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


def settings_for(ctx: click.Context, **overrides) -> Settings:
    """The one ``Settings`` of this command: environment, then the root group's flags, then ``overrides``."""
    root = ctx.find_root().params
    return Settings.from_env(home=root.get("home"), chroma_url=root.get("chroma_url"), **overrides)


def assistant_for(ctx: click.Context, **overrides):
    from assistant import Assistant

    return Assistant(settings_for(ctx, **overrides))


def print_json(value) -> None:
    click.echo(json.dumps(value, ensure_ascii=False))


def where_from(pairs: tuple[str, ...], source: tuple[str, ...]):
    """The ``Filter`` of ``--where FIELD=VALUE`` and ``--source FILE`` flags."""
    from assistant.filters import Filter

    return Filter.parse(pairs=pairs, sources=source)


PAGE_OPTION = click.option("--page", type=click.IntRange(1, 10_000), default=1, show_default=True,
                           help="which page of a list question's papers (20 a page) [env ASSISTANT_PAGE_SIZE]")
ALL_OPTION = click.option("--all", "show_all", is_flag=True, help="every paper of a list question at once")


def paged(func):
    """``--page N`` and ``--all``, for the commands that answer list questions."""
    return PAGE_OPTION(ALL_OPTION(func))


def question_options(what: str):
    """What ``search`` and ``ask`` share after their own options: ``--batch``, ``--where``, ``--json``,
    ``--page``/``--all``, the context and the clean failure."""
    def apply(func):
        for decorator in reversed([batch_option(what),
                                   click.option("--where", "where", multiple=True, help=WHERE_HELP),
                                   click.option("--json", "as_json", is_flag=True,
                                                help="print JSON (JSON Lines with --batch)"),
                                   paged, click.pass_context, fail_cleanly]):
            func = decorator(func)
        return func
    return apply


def batch_option(what: str):
    return click.option("--batch", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                        help=f"file with one {what} per line, or JSON Lines with a \"question\" field")


