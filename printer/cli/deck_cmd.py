"""``printer deck``: check decklists against a format (see the README section "Checking a deck").

``printer deck check DECK --format FORMAT [--cards DIR] [--json]`` exits 0
when the deck is legal, 1 when it is illegal or names cards the card data
lacks, 2 on a usage error or an unreadable decklist.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from printer import api
from printer.cli.output import EXIT_INVALID, EXIT_OK, EXIT_USAGE, project_from, report
from printer.problems import UsageError, counted

if TYPE_CHECKING:
    from printer.decks.report import DeckReport


@click.group(name="deck")
def deck_group() -> None:
    """Check decklists against a deck-construction format."""


def _roots(ctx: click.Context) -> list[Path]:
    """Where project formats are looked up: ``--project`` or the project above the current folder."""
    from printer.project import find_root

    root = ctx.find_root().params.get("project")
    found = Path(root) if root else find_root()
    return [found] if found else []


def _print_groups(result: DeckReport, strict: bool = False) -> None:
    """Problems on stderr, in three groups: rule violations, unresolved names, warnings (errors with ``strict``)."""
    groups = [
        ("rules broken:", [v.problem(result.deck) for v in result.violations]),
        ("cards not found in the card data (not counted in the rules above):", result.unresolved),
        ("warnings (errors with --strict):" if strict else "warnings:", result.warnings),
    ]
    for title, problems in groups:
        if problems:
            click.echo(title, err=True)
            report(problems, strict)


@deck_group.command(name="check")
@click.argument("deck", type=click.Path(path_type=Path, dir_okay=True))
@click.option(
    "--format",
    "format_ref",
    metavar="FORMAT",
    help="Format id (such as l5r-ivory-extended) or format file; default: the JSON deck's 'format'.",
)
@click.option(
    "--cards",
    "card_dirs",
    multiple=True,
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Card files or folders to resolve names against (repeatable); default: the game's card folder.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (shape in the README, 'JSON output').")
@click.option(
    "--strict",
    is_flag=True,
    help="Treat warnings (skipped lines, loosely matched names, unknown headers, "
    "invalid card files) as errors: a deck with any is not legal (exit 1).",
)
@click.pass_context
def check_command(
    ctx: click.Context, deck: Path, format_ref: str | None, card_dirs: tuple[Path, ...], as_json: bool, strict: bool
) -> None:
    """Check DECK (plain text, a text format a game registers such as .l5d, or JSON) against FORMAT.

    Lists every broken rule with its decklist line, then the names that
    match no card, then a summary with the section sizes. Exit 0 legal,
    1 illegal or not fully resolved (with --strict: or any warning),
    2 usage error or unreadable deck.
    """
    try:
        project = project_from(ctx)
    except UsageError as exc:  # outside any project: printer's bundled formats and schemas
        if not any(p.code == "no-project" for p in exc.problems) or ctx.find_root().params.get("project"):
            raise
        project = None
    (result,) = api.check_decks(project, [deck], format_ref, card_dirs)
    if not result.readable:
        if as_json:
            click.echo(json.dumps(result.report.as_dict(), indent=2, ensure_ascii=False))
        report(result.read_problems, strict)
        ctx.exit(EXIT_USAGE)
    n_bad = len(result.card_problems)
    if n_bad:
        targets = " ".join(str(t) for t in result.card_sources)
        click.echo(
            f"{'error' if strict else 'warning'}: {counted(n_bad, 'problem')} in the card files; "
            f"those cards are left out (run printer validate {targets})",
            err=True,
        )
    if as_json:
        click.echo(json.dumps(result.report.as_dict(), indent=2, ensure_ascii=False))
    else:
        _print_groups(result.report, strict)
        for line in result.report.summary_lines():
            click.echo(line)
    strict_failed = strict and result.legal and bool(result.report.warnings or n_bad)
    if strict_failed and not as_json:
        n = len(result.report.warnings) + n_bad
        click.echo(f"--strict: not accepted: {counted(n, 'warning')} count as errors")
    ctx.exit(EXIT_INVALID if not result.legal or strict_failed else EXIT_OK)


@deck_group.command(name="formats")
@click.pass_context
def formats_command(ctx: click.Context) -> None:
    """List the formats --format accepts (the project's, then printer's bundled ones)."""
    from printer.decks import available_formats, load_format

    for format_id, file in sorted(available_formats(_roots(ctx)).items()):
        try:
            name = load_format(file).name
        except UsageError:
            name = "(invalid format file)"
        click.echo(f"{format_id}\t{name}\t{file}")


COMMANDS = [deck_group]
