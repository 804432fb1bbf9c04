"""``printer align``: print the duplex alignment test page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from printer import api
from printer.cli.output import EXIT_OK, project_from, report, user_word_options
from printer.cli.sheet_options import cli_values, print_options


@click.command(
    epilog="Exit codes: 0 written, 1 the page could not be made (a template or stylesheet that fails, a file that "
    "cannot be written), 2 usage error."
)
@click.option(
    "--out",
    "out_file",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Output folder, as for build (default: the project's build/); the page is alignment-<paper>-<duplex>.pdf. "
    "A path ending in .pdf is taken as the file itself.",
)
@click.option(
    "--card-size",
    default=None,
    metavar="SIZE",
    help="Card size outlined on the page (default: the first game's, else poker).",
)
@print_options
@user_word_options
@click.pass_context
def align(ctx: click.Context, /, out_file: Path | None, card_size: str | None, **params: Any) -> None:
    """Print the duplex alignment test page: crosses on the front, scales on the back.

    Print it duplex as you print cards, hold the sheet up to a light (or
    push a pin through each cross) and read on the back's scales where the
    front's crosses fall; pass that reading as --back-offset X,Y. Printed
    with a --back-offset, the scales show what is left to correct.
    """
    outcome = api.align(project_from(ctx), cli_values(params), card_size, out_file)
    report(outcome.problems)
    x, y = outcome.back_offset
    click.echo(f"{outcome.target}: alignment test page ({outcome.backs}, back offset {x:g},{y:g} mm)")
    ctx.exit(EXIT_OK)


COMMANDS = [align]
