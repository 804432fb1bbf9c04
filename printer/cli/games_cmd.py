"""``printer games``: the games installed (through the ``printer.games`` entry points), the project's own, and
their formats."""

from __future__ import annotations

import click

from printer.api import UsageError
from printer.cli.output import EXIT_OK, project_from


@click.command(name="games", epilog="Exit codes: 0 ok, 2 usage error.")
@click.pass_context
def games(ctx: click.Context) -> None:
    """List the games: id, name, where from, their formats, checks, importers and decklist files.

    The installed games first, then the games the project's printer.toml declares that no plugin provides.
    """
    from printer import api

    try:
        project = project_from(ctx)
    except UsageError as exc:  # outside any project: the installed games only
        if not any(p.code == "no-project" for p in exc.problems) or ctx.find_root().params.get("project"):
            raise
        project = None
    for game in api.list_games(project):
        click.echo(f"{game.id}\t{game.name}\t{game.source}")
        for label, values in (
            ("formats", game.formats),
            ("checks", game.checks),
            ("import", game.importers),
            ("decklists", game.decklists),
        ):
            if values:
                click.echo(f"  {label}: " + ", ".join(values))
    ctx.exit(EXIT_OK)


COMMANDS = [games]
