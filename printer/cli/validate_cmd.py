"""``printer validate``: check card files against their game's schema and across files."""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.api import counted
from printer.cli.complete import complete_games
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report, user_word_options


@click.command(epilog="Exit codes: 0 valid, 1 invalid (with --strict: or any warning), 2 usage error.")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--game", metavar="GAME", shell_complete=complete_games, help="Game of cards whose file and folder do not say."
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--no-render", is_flag=True, help="Check the card data only; do not render the templates.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Processes that render the cards' templates (default: one per core; 1: in this process).",
)
@user_word_options
@click.pass_context
def validate(
    ctx: click.Context, paths: tuple[Path, ...], game: str | None, strict: bool, no_render: bool, jobs: int | None
) -> None:
    """Check card files (default: every game's card folder).

    Reports every problem: syntax errors as file:line:col, schema errors as
    file::$.json.path, spreadsheet cells as file.xlsx:Sheet1!C7, each with a
    hint. Then renders every card's template to HTML (as build does, without
    the PDF) so that a template error, an unknown icon or missing art shows
    here rather than at build time.

    For each game with more than one language (languages in printer.toml),
    prints a line a translated language: how many cards are translated,
    missing and stale (warnings; errors with --strict).
    """
    result = api.validate(project_from(ctx), paths, game, render=not no_render, jobs=jobs)
    problems = result.problems
    n_errors, n_warnings = report(problems, strict)
    total = result.cards
    summary = ", ".join(f"{gid}: {len(s)}" for gid, s in sorted(result.sets.items()))
    failing = n_errors + (n_warnings if strict else 0)
    if failing:
        click.echo(f"{counted(total, 'card')}, {counted(failing, 'problem')}")
    else:
        click.echo(f"{total} valid card{'s' * (total != 1)}" + (f" ({summary})" if summary else ""))
    for line in result.translations.summary_lines() if result.translations else ():
        click.echo(line)  # <game> ja: 60 translated, 3 missing, 2 stale
    ctx.exit(EXIT_INVALID if n_errors else EXIT_OK)


COMMANDS = [validate]
