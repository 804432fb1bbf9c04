"""``printer export cards GAME --to FILE``: a game's cards as a spreadsheet (XLSX, CSV, ODS)."""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.api import counted
from printer.cli.complete import complete_games
from printer.cli.output import EXIT_INVALID, EXIT_OK, cards_dir_option, project_from, report, user_word_options
from printer.cli.translations_cmd import export_translations


@click.group()
def export() -> None:
    """Write project data out in other formats."""


@export.command("cards", epilog="Exit codes: 0 written, 1 the cards have errors (nothing written), 2 usage error.")
@click.argument("game", shell_complete=complete_games)
@click.option(
    "--to",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="The spreadsheet to write: FILE.xlsx, FILE.csv or FILE.ods.",
)
@cards_dir_option
@user_word_options
@click.pass_context
def export_cards_cmd(ctx: click.Context, game: str, out: Path, cards_dir: Path | None) -> None:
    """Write GAME's cards to a spreadsheet, one card per row.

    Columns follow the schema, nested fields get dotted headers (cost.gold),
    lists are joined with ';'. XLSX gets a frozen header row, dropdowns for
    fields with a fixed list of values and one sheet per card type when the
    types have different fields. The file reads back to the same cards when
    put in cards/GAME/.
    """
    result = api.export_cards(project_from(ctx), game, out, cards_dir)
    n_errors, _ = report(result.problems)
    if n_errors:
        ctx.exit(EXIT_INVALID)
    click.echo(f"{counted(result.count, 'card')} written to {out}")
    ctx.exit(EXIT_OK)


export.add_command(export_translations)

COMMANDS = [export]
