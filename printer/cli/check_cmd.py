"""``printer check-print``: build each game's sheets and check that every face prints as it looks alone."""

from __future__ import annotations

import click

from printer import api
from printer.api import counted
from printer.cli.build_options import jobs_option
from printer.cli.complete import complete_games
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report


@click.command(
    name="check-print",
    epilog="Exit codes: 0 every face prints as it looks alone, 1 a face does not (or the cards have errors), "
    "2 usage error.",
)
@click.argument("games", nargs=-1, shell_complete=complete_games)
@click.option(
    "--dpi",
    type=click.FloatRange(36, 600),
    default=None,
    metavar="DPI",
    help="Resolution the sheets and faces are compared at, px per inch (default 100).",
)
@click.option(
    "--tolerance",
    type=click.FloatRange(0, 100),
    default=None,
    metavar="PERCENT",
    help="How far a face on the sheet may differ from the face alone, in percent (default 2).",
)
@jobs_option
@click.pass_context
def check_print(
    ctx: click.Context, games: tuple[str, ...], dpi: float | None, tolerance: float | None, jobs: int | None
) -> None:
    """Check what a player sees on the printed card sheets.

    Builds each game's sheets as printer build does (into a temporary
    folder: build/ is left as it is) and compares every face on them with
    the same face laid out alone. A face that prints one flat colour (a
    blank back), text that does not show (painted over, clipped, or the
    colour of its background) and a face that differs from the face alone
    by more than the tolerance are errors, named by card and side.
    """
    project = project_from(ctx)
    failed = False

    def one(check: api.PrintCheck) -> None:
        nonlocal failed
        report(check.problems)
        if not check.ok:
            failed = True
        if check.faces == 0 and check.failure:
            click.echo(f"{check.game}: not checked ({check.failure})", err=True)
            return
        verdict = "print as they look alone" if check.ok else "do not all print as they look alone"
        click.echo(
            f"{check.game}: {counted(check.faces, 'face')} on {counted(check.sheets, 'sheet')} {verdict} "
            f"(compared at {check.dpi:g} dpi, tolerance {check.tolerance:g}%)"
        )

    api.check_print(project, games, dpi, tolerance, jobs, on_game=one)
    ctx.exit(EXIT_INVALID if failed else EXIT_OK)


COMMANDS = [check_print]
