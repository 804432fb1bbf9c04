"""``printer validate``: check card files against their game's schema and across files."""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--game", metavar="GAME", help="Game of cards whose file and folder do not say.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.pass_context
def validate(ctx: click.Context, paths: tuple[Path, ...], game: str | None, strict: bool) -> None:
    """Check card files (default: every game's card folder).

    Reports every problem: syntax errors as file:line:col, schema errors as
    file::$.json.path, each with a hint. Exit 0 valid, 1 invalid, 2 usage.
    """
    result = api.validate(project_from(ctx), paths, game)
    n_errors, _ = report(result.problems, strict)
    summary = ", ".join(f"{gid}: {len(s)}" for gid, s in sorted(result.sets.items()))
    click.echo(f"{result.cards} valid card{'s' * (result.cards != 1)}" + (f" ({summary})" if summary else ""))
    ctx.exit(EXIT_INVALID if n_errors else EXIT_OK)


COMMANDS = [validate]
