"""``printer init DIR [--from GAME]``: start a new project."""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.cli.complete import complete_games


@click.command(epilog="Exit codes: 0 written, 2 usage error (DIR already holds a project, unknown GAME).")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--from",
    "from_game",
    metavar="GAME",
    shell_complete=complete_games,
    help="Start from a copy of one of printer's example games.",
)
@click.option("--game", "game_id", metavar="ID", help="The new game's id (default: from DIR's name).")
@click.option("--name", metavar="NAME", help="The new game's name (default: DIR's name; starfall -> Starfall).")
def init(folder: Path, from_game: str | None, game_id: str | None, name: str | None) -> None:
    """Create a printer project in DIR that works out of the box.

    It holds printer.toml, a card schema, card and back templates with CSS,
    example cards in a JSON file and a CSV spreadsheet, a format with a
    sample decklist and a rules chapter. Then, in DIR: printer validate,
    printer build, printer deck check decks/sample.txt --format GAME-standard,
    printer rules.
    """
    made = api.init_project(folder, from_game, game_id, name)
    click.echo(f"{len(made.written)} files written to {folder} (game {made.game!r})")
    click.echo(f"next: cd {folder} && printer validate && printer build")


COMMANDS = [init]
