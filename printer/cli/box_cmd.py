"""``printer box GAME``: a tuck box for a game's deck, as a PDF to print, cut and fold."""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.cli.complete import complete_games
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report, usage_error, user_word_options


def _length(value: str | None, what: str, minimum: float, max_mm: float) -> float | None:
    return None if value is None else api.parse_length(value, what, "command line", minimum, max_mm)


@click.command()
@click.argument("game", shell_complete=complete_games)
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Size the box for this decklist's cards (default: all the game's cards, with their copies).",
)
@click.option("--thickness", default=None, metavar="MM", help="The deck's thickness, instead of counting cards.")
@click.option(
    "--card-thickness", default=None, metavar="MM", help="Thickness of one card, to count the deck (default 0.3)."
)
@click.option(
    "--paper", default=None, metavar="SIZE", help="A4, Letter or WxH mm (default from printer.toml, else A4)."
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Output folder (default: the project's build/).",
)
@click.option(
    "--lang",
    default=None,
    metavar="LANG",
    help="The box of the game's edition in this language (build/GAME-LANG-box.pdf; [games.<id>] languages).",
)
@user_word_options
@click.pass_context
def box(
    ctx: click.Context,
    game: str,
    deck_file: Path | None,
    thickness: str | None,
    card_thickness: str | None,
    paper: str | None,
    out_dir: Path | None,
    lang: str | None,
) -> None:
    """Write build/GAME-box.pdf: a tuck box that holds GAME's deck.

    The net (glue flap, back, side, front, side, lids, tuck flaps, dust
    flaps, a thumb notch) is computed from the game's card size and the
    deck's thickness: cards x 0.3 mm, or --thickness. Cut the solid lines,
    fold the dashed ones. It fits one A4 or Letter page for a 40-60 card
    deck; a deeper one is split in two pieces.
    """
    project = project_from(ctx)
    # lengths past the size_mm limit the run allows (--allow-limit raises it), as printer build's
    depth = _length(thickness, "--thickness", 0.1, project.limits.size_mm)
    card = _length(card_thickness, "--card-thickness", 0.05, project.limits.size_mm)
    if card is not None and card > 5:
        raise usage_error(f"--card-thickness {card_thickness} is not a card", "a card is about 0.3 mm thick")
    result = api.build_box(project, game, deck_file, depth, card, paper, out_dir, lang=lang)
    report(result.problems)
    if not result.ok:
        click.echo(f"{game}: box not written", err=True)
        ctx.exit(EXIT_INVALID)
    w, h, d = result.inside
    held = f"{result.cards} cards, " if result.cards is not None else ""
    click.echo(
        f"{result.target}: tuck box for {held}{result.depth:.1f} mm deep; inside {w:.1f} x {h:.1f} x {d:.1f} mm "
        f"({result.pieces} piece{'s' * (result.pieces != 1)} on {result.pages} page{'s' * (result.pages != 1)}, "
        f"{result.page[0]:g} x {result.page[1]:g} mm)"
    )
    for note in result.notes:
        click.echo(note)
    click.echo("print at 100 % (actual size), cut the solid lines, fold the dashed ones")
    ctx.exit(EXIT_OK)


COMMANDS = [box]
