"""``printer deck``: check decklists against a format (see the README section "Checking a deck").

``printer deck check DECK --format FORMAT [--cards DIR] [--json]`` exits 0
when the deck is legal, 1 when it is illegal or names cards the card data
lacks, 2 on a usage error or an unreadable decklist.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from printer.cards.catalog import load_cards
from printer.cli.output import EXIT_INVALID, EXIT_OK, EXIT_USAGE, project_from, report, usage_error
from printer.decks import available_formats, check, load_format, read_decklist
from printer.decks.report import DeckReport
from printer.problems import UsageError, errors
from printer.project import Game, Project, bundled_root, find_root


@click.group(name="deck")
def deck_group() -> None:
    """Check decklists against a deck-construction format."""


def _project(ctx: click.Context, game: str) -> Project:
    """The current project, or, outside any project, one holding just ``game`` with printer's bundled schema."""
    try:
        project = project_from(ctx)
    except UsageError as exc:
        if not any(p.code == "no-project" for p in exc.problems) or ctx.find_root().params.get("project"):
            raise
        schema = bundled_root() / "schema" / game / "card.schema.json"
        project = Project(Path.cwd(), {game: Game(game, game, schema, Path.cwd() / "cards" / game, [])})
    if game not in project.games:
        raise usage_error(
            f"the project has no game {game!r}, which the format is for",
            f"add [games.{game}] to printer.toml",
            str(project.root / "printer.toml"),
        )
    return project


def _roots(ctx: click.Context) -> list[Path]:
    """Where project formats are looked up: ``--project`` or the project above the current folder."""
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
    help="Format id (l5r-ivory-extended) or format file; default: the JSON deck's 'format'.",
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
    """Check DECK (plain text, .l5d or JSON) against FORMAT.

    Lists every broken rule with its decklist line, then the names that
    match no card, then a summary with the section sizes. Exit 0 legal,
    1 illegal or not fully resolved (with --strict: or any warning),
    2 usage error or unreadable deck.
    """
    decklist, read_problems = read_decklist(deck)
    format_ref = format_ref or decklist.format
    if not format_ref:
        known = ", ".join(sorted(available_formats()))
        raise usage_error("no format given", f"pass --format FORMAT ({known})")
    fmt = load_format(format_ref, _roots(ctx))
    if errors(read_problems):
        if as_json:
            click.echo(json.dumps(_unreadable(decklist, fmt, read_problems), indent=2, ensure_ascii=False))
        report(read_problems, strict)
        ctx.exit(EXIT_USAGE)
    project = _project(ctx, fmt.game)
    targets = list(card_dirs) or [project.games[fmt.game].cards]
    missing = [t for t in targets if not t.exists()]
    if missing:
        raise usage_error(f"card folder {missing[0]} not found", "pass --cards DIR with the game's card files")
    sets, card_problems = load_cards(project, targets, fmt.game)
    cards = sets.get(fmt.game)
    if cards is None or not len(cards):
        raise usage_error(
            f"no valid {fmt.game} cards under " + ", ".join(str(t) for t in targets),
            f"run printer validate {targets[0]} to see why" if card_problems else "pass --cards DIR",
        )
    n_bad = len(errors(card_problems))
    if n_bad:
        click.echo(
            f"{'error' if strict else 'warning'}: {n_bad} problem{'s' * (n_bad != 1)} in the card files; "
            f"those cards are left out (run printer validate {' '.join(str(t) for t in targets)})",
            err=True,
        )
    result = check(decklist, cards, fmt, read_problems)
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
    else:
        _print_groups(result, strict)
        for line in result.summary_lines():
            click.echo(line)
    strict_failed = strict and result.is_legal() and bool(result.warnings or n_bad)
    if strict_failed and not as_json:
        n = len(result.warnings) + n_bad
        click.echo(f"--strict: not accepted: {n} warning{'s' * (n != 1)} count as errors")
    ctx.exit(EXIT_INVALID if not result.is_legal() or strict_failed else EXIT_OK)


def _unreadable(decklist, fmt, problems) -> dict:
    """The JSON report of a decklist that could not be read (same keys as a checked one)."""
    from printer.decks.resolve import Resolution

    return DeckReport(
        decklist,
        fmt,
        Resolution([], []),
        read_errors=errors(problems),
        warnings=[p for p in problems if not p.is_error],
    ).as_dict()


@deck_group.command(name="formats")
@click.pass_context
def formats_command(ctx: click.Context) -> None:
    """List the formats --format accepts (the project's, then printer's bundled ones)."""
    for format_id, file in sorted(available_formats(_roots(ctx)).items()):
        try:
            name = load_format(file).name
        except UsageError:
            name = "(invalid format file)"
        click.echo(f"{format_id}\t{name}\t{file}")


COMMANDS = [deck_group]
