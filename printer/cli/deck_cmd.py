"""``printer deck``: check decklists against a format (see docs/decks.md, "Checking a deck").

``printer deck check DECK... --format FORMAT [--cards DIR] [--json]`` exits 0
when every deck is legal, 1 when one is illegal or names cards the card data
lacks, 2 on a usage error or (a single deck) an unreadable decklist.
"""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.api import UsageError
from printer.cli.complete import complete_formats
from printer.cli.deck_report import print_many, print_one
from printer.cli.output import project_from, report, user_word_options


@click.group(name="deck")
def deck_group() -> None:
    """Check decklists against a deck-construction format."""


def _roots(ctx: click.Context) -> list[Path]:
    """Where project formats are looked up: ``--project`` or the project above the current folder."""

    root = ctx.find_root().params.get("project")
    found = Path(root) if root else api.find_root()
    return [found] if found else []


@deck_group.command(name="check")
@click.argument("decks", metavar="DECK...", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "format_ref",
    metavar="FORMAT",
    shell_complete=complete_formats,
    help="Format id ('printer deck formats' lists them) or format file; default: the JSON deck's 'format', else the "
    "project's format when its games have one only.",
)
@click.option(
    "--cards",
    "card_dirs",
    multiple=True,
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Card files or folders to resolve names against (repeatable); default: the game's card folder.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the report as JSON (its shape: docs/decks.md, 'JSON output')."
)
@click.option(
    "--strict",
    is_flag=True,
    help="Treat warnings (skipped lines, loosely matched names, unknown headers, "
    "invalid card files) as errors: a deck with any is not legal (exit 1).",
)
@user_word_options
@click.pass_context
def check_command(
    ctx: click.Context,
    decks: tuple[Path, ...],
    format_ref: str | None,
    card_dirs: tuple[Path, ...],
    as_json: bool,
    strict: bool,
) -> None:
    """Check each DECK (plain text, a text format a game registers ('printer games' lists them), or JSON; a
    folder: every decklist in it) against FORMAT.

    One deck: every broken rule with its decklist line, then the names that
    match no card, then a summary with the section sizes. Several decks (or
    a folder): each deck's problems, then its verdict on one line, then a
    summary line; --json prints one array of reports. The cards are loaded
    once and kept in build/.cache/cards/ for the next check. Exit 0 every
    deck legal, 1 any deck illegal, not fully resolved or (several decks)
    unreadable (with --strict: or any warning), 2 usage error or (one deck)
    an unreadable deck.
    """
    try:
        project = project_from(ctx)
    except UsageError as exc:  # outside any project: printer's bundled formats and schemas
        if not any(p.code == "no-project" for p in exc.problems) or ctx.find_root().params.get("project"):
            raise
        project = None
    results = api.check_decks(project, list(decks), format_ref, card_dirs)
    if len(decks) == 1 and not decks[0].is_dir():
        ctx.exit(print_one(results[0], as_json, strict))
    ctx.exit(print_many(results, as_json, strict))


@deck_group.command(name="formats", epilog="Exit codes: 0 ok, 2 usage error.")
@click.pass_context
def formats_command(ctx: click.Context) -> None:
    """List the formats --format accepts (the project's, then printer's bundled ones).

    A format file that is a symbolic link out of the project is not read: it is reported (exit 1).
    """
    known, refused = api.find_formats(_roots(ctx))
    for format_id, file in sorted(known.items()):
        try:
            name = api.format_name(file)
        except UsageError:
            name = "(invalid format file)"
        click.echo(f"{format_id}\t{name}\t{file}")
    if refused:
        report(list(refused.values()))
        ctx.exit(1)


COMMANDS = [deck_group]
