"""``printer validate``: check card files against their game's schema and across files."""

from __future__ import annotations

from pathlib import Path

import click

from printer.cards.catalog import load_cards
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report, usage_error


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
    project = project_from(ctx)
    if game is not None:
        project.game(game)  # raises a usage error naming the closest game
    targets = list(paths) or [g.cards for g in project.games.values() if g.cards.is_dir()]
    if not targets:
        raise usage_error("no card files to validate", "pass PATHS or add cards under cards/<game>/")
    sets, problems = load_cards(project, targets, game)
    n_errors, _ = report(problems, strict)
    total = sum(len(s) for s in sets.values())
    summary = ", ".join(f"{gid}: {len(s)}" for gid, s in sorted(sets.items()))
    click.echo(f"{total} valid card{'s' * (total != 1)}" + (f" ({summary})" if summary else ""))
    ctx.exit(EXIT_INVALID if n_errors else EXIT_OK)


COMMANDS = [validate]
