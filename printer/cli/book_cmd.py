"""``printer rules``: print a game's rules reference (and its editions) from Markdown to PDF."""

from __future__ import annotations

from pathlib import Path

import click

from printer.book import build_book, edition_for_paths, find_editions, read_edition, rules_folder
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report, usage_error
from printer.problems import Problem, errors
from printer.sheets.compose import allowed_roots
from printer.sheets.layout import PAPER_SIZES, parse_size


@click.command()
@click.argument("game", required=False)
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Output folder (default: the project's build/).",
)
@click.option(
    "--paper",
    default=None,
    metavar="SIZE",
    help="Page size: A4, Letter, A3, A5, Legal or WxH mm/in (default from printer.toml, else A4). "
    "A4 and Letter print two columns.",
)
@click.option(
    "--edition",
    "edition_name",
    default=None,
    metavar="NAME",
    help="Print only this edition, e.g. ja for rules/<game>/ja/ (the main edition is 'main').",
)
@click.option(
    "--cards",
    "cards_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="Read the cards (embeds, card index) from DIR instead of the game's card folder.",
)
@click.option("--strict", is_flag=True, help="Treat warnings (unknown cards or icons) as errors.")
@click.pass_context
def rules(ctx, game, paths, out_dir, paper, edition_name, cards_dir, strict) -> None:
    """Print the rules reference of GAME (every game with rules when omitted) to PDF.

    Reads rules/<game>/*.md (or the Markdown files or folder PATHS) and
    writes build/<game>-rules.pdf, plus build/<game>-rules-<name>.pdf for
    each edition folder rules/<game>/<name>/ holding a rules.toml.
    """
    project = project_from(ctx)
    if game is None:
        games = [g for g in project.games.values() if rules_folder(project, g).is_dir()]
        if not games:
            raise usage_error("no game of the project has rules", "write rules/<game>/*.md")
    else:
        games = [project.game(game)]
    if paths and len(games) != 1:
        raise usage_error("PATHS need a game", "e.g. printer rules l5r my-rules/")
    page = parse_size(paper or project.settings.get("paper", "A4"), PAPER_SIZES, "paper size")
    out_dir = out_dir or project.build_dir
    failed = False
    for chosen in games:
        editions = [edition_for_paths(chosen, list(paths))] if paths else find_editions(project, chosen)
        if edition_name:
            editions = [e for e in editions if (e.name or "main") == edition_name]
        if not editions:
            where = str(rules_folder(project, chosen))
            what = f"no edition {edition_name!r}" if edition_name else "no rules folder"
            report(
                [Problem(where, f"{chosen.id}: {what}", f"write the rules in {where}/*.md", code="no-rules")], strict
            )
            failed = True
            continue
        for edition in editions:
            problems = read_edition(edition)
            target = out_dir / edition.output_name()
            if not errors(problems):
                roots = allowed_roots(project, [p for p in [cards_dir, edition.folder] if p])
                problems += build_book(project, chosen, edition, target, page, roots, cards_dir, strict)
            n_errors, _ = report(problems, strict)
            if n_errors:
                click.echo(f"{chosen.id}: rules not printed", err=True)
                failed = True
                continue
            click.echo(f"{target}: {_pages(target)} pages")
    ctx.exit(EXIT_INVALID if failed else EXIT_OK)


def _pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(path).pages)


COMMANDS = [rules]
