"""``printer build``: print card sheets to PDF."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import build as builder
from ..catalog import load_cards
from ..errors import Problem, errors
from ..layout import CARD_SIZES, PAPER_SIZES, fit_grid, parse_size
from .common import EXIT_INVALID, EXIT_OK, project_from, report, usage_error


@click.command()
@click.argument("games", nargs=-1)
@click.option("--cards", "cards_dir", type=click.Path(exists=True, path_type=Path), metavar="DIR",
              help="Print the cards in DIR instead of the game's card folder (e.g. an import).")
@click.option("--only", multiple=True, metavar="ID|TITLE", help="Print only these cards (repeatable).")
@click.option("--deck", "deck_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE",
              help="Print the cards of a decklist, each as many times as listed (proxies).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Output folder (default: the project's build/).")
@click.option("--paper", default=None, metavar="SIZE", help="Sheet size: A4, Letter, A3 or WxH mm (default from printer.toml).")
@click.option("--flip", type=click.Choice(["long-edge", "short-edge"]), default="long-edge", show_default=True,
              help="How your printer turns the sheet for duplex.")
@click.option("--strict", is_flag=True, help="Treat warnings (missing cards, missing art) as errors.")
@click.pass_context
def build(ctx, games, cards_dir, only, deck_file, out_dir, paper, flip, strict) -> None:
    """Print card sheets (fronts, then backs for duplex) to PDF.

    With no GAMES, prints every game of the project. Each game gives
    build/<game>.pdf (with --deck, build/<game>-<deck>.pdf).
    """
    project = project_from(ctx)
    chosen = [project.game(g) for g in games] if games else list(project.games.values())
    if not chosen:
        raise usage_error("the project has no games", "add a [games.<id>] table to printer.toml")
    if (cards_dir or deck_file or only) and len(chosen) != 1:
        raise usage_error("--cards, --deck and --only need exactly one game", "e.g. printer build l5r --deck FILE")
    paper_size = parse_size(paper or project.settings.get("paper", "A4"), PAPER_SIZES, "paper size")
    out_dir = out_dir or project.build_dir
    failed = False
    for game in chosen:
        source = cards_dir or game.cards
        sets, problems = load_cards(project, [source], game.id)
        if errors(problems):
            report(problems, strict)
            click.echo(f"{game.id}: not printed: fix the card files first", err=True)
            failed = True
            continue
        cards = sets.get(game.id)
        if cards is None or not len(cards):
            report(problems + [Problem(str(source), "no cards to print", code="empty")], strict)
            failed = True
            continue
        if deck_file:
            items, found = _deck_items(deck_file, cards)
            target = out_dir / f"{game.id}-{builder.slug(deck_file.stem)}.pdf"
        else:
            selected, found = builder.select(cards, only)
            items = builder.items_for_cards(selected, cards)
            target = out_dir / f"{game.id}.pdf"
        problems += found
        if errors(problems) or (strict and problems):
            report(problems, strict)
            click.echo(f"{game.id}: not printed", err=True)
            failed = True
            continue
        layout = fit_grid(paper_size, parse_size(game.card_size, CARD_SIZES, "card size"))
        n_sheets = -(-len(items) // layout.per_sheet)
        extra = [source.resolve()] + ([deck_file.resolve().parent] if deck_file else [])
        with click.progressbar(length=n_sheets, label=f"{game.id}: {len(items)} cards", file=sys.stderr,
                               show_pos=True) as bar:
            problems += builder.build_game(project, game, items, target, layout, extra, flip, progress=bar.update)
        n_errors, _ = report(problems, strict)
        if n_errors:
            failed = True
            target.unlink(missing_ok=True) if strict else None
            continue
        click.echo(f"{target}: {len(items)} cards on {n_sheets} sheet{'s' * (n_sheets != 1)} "
                   f"({layout.cols}x{layout.rows} per sheet, backs for {flip} flip)")
    ctx.exit(EXIT_INVALID if failed else EXIT_OK)


def _deck_items(deck_file: Path, cards):
    from ..decks import read_decklist, resolve

    deck, problems = read_decklist(deck_file)
    resolution = resolve(deck, cards)
    problems = list(problems) + [p for p in resolution.problems]
    entries = [(r.entry.count, r.card, r.entry.name) for r in resolution.entries]
    items = builder.items_for_counts(entries)
    # A card missing from the database prints as a placeholder: a warning here, an error with --strict.
    problems = [Problem(p.where, p.message, p.hint, "warning", p.code) if p.code in ("unknown-card", "ambiguous-card") else p
                for p in problems]
    return items, problems


COMMANDS = [build]
