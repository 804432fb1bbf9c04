"""``printer games``: the games installed (through the ``printer.games`` entry points) and their formats."""

from __future__ import annotations

import click

from printer.cli.output import EXIT_OK


@click.command(name="games", epilog="Exit codes: 0 ok, 2 usage error.")
@click.pass_context
def games(ctx: click.Context) -> None:
    """List the installed games: id, name, where from, their formats, checks, importers and decklist files."""
    from printer.decks import available_formats
    from printer.plugins import installed_games

    formats = available_formats()
    for game in installed_games().values():
        click.echo(f"{game.id}\t{game.name}\t({game.source})")
        own = sorted(f for f, path in formats.items() if path.parent.parent.name == game.id)
        if own:
            click.echo("  formats: " + ", ".join(own))
        if game.checks:
            click.echo("  checks: " + ", ".join(f"{game.id}.{name}" for name in game.checks))
        if game.importers:
            click.echo("  import: " + ", ".join(i.name for i in game.importers))
        if game.decklist_suffixes:
            click.echo("  decklists: " + ", ".join(sorted(game.decklist_suffixes)))
    ctx.exit(EXIT_OK)


COMMANDS = [games]
