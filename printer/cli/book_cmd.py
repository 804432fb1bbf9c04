"""``printer rules``: print a game's rules reference (and its editions) from Markdown to PDF."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import click

from printer import api
from printer.cli.complete import complete_games
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report, user_word_options


@click.command()
@click.argument("game", required=False, shell_complete=complete_games)
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
@click.option(
    "--lang",
    default=None,
    metavar="LANG|all",
    help="Print only the editions in this language (rules.toml's lang; the main edition's default is the game's "
    "source language); all: those in every language the game declares.",
)
@user_word_options
@click.pass_context
def rules(
    ctx: click.Context,
    game: str | None,
    paths: tuple[Path, ...],
    out_dir: Path | None,
    paper: str | None,
    edition_name: str | None,
    cards_dir: Path | None,
    strict: bool,
    lang: str | None,
) -> None:
    """Print the rules reference of GAME (every game with rules when omitted) to PDF.

    Reads rules/<game>/*.md (or the Markdown files or folder PATHS) and
    writes build/<game>-rules.pdf, plus build/<game>-rules-<name>.pdf for
    each edition folder rules/<game>/<name>/ holding a rules.toml.
    """
    books = api.build_rules(
        project_from(ctx),
        game,
        paths,
        out_dir,
        paper,
        edition_name,
        cards_dir,
        strict,
        partial(_print_book, strict=strict),
        lang=lang,
    )
    ctx.exit(EXIT_OK if all(b.ok for b in books) else EXIT_INVALID)


def _print_book(book: api.BookBuild, strict: bool) -> None:
    report(book.problems, strict)
    if book.target is None:
        if book.problems and book.problems[0].code != "no-rules":
            click.echo(f"{book.game}: rules not printed", err=True)
        return
    click.echo(f"{book.target}: {book.pages} pages")


COMMANDS = [rules]
