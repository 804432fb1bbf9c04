"""``printer build``: print card sheets to PDF, and export PNG, Tabletop Simulator and print-shop files."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import click

from printer import api
from printer.api import BuildRequest, GameBuild
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report
from printer.cli.sheet_options import cli_values, print_options
from printer.problems import counted

EXPORTS = ("png", "tts", "tts-save", "print-shop")  # printer.sheets.export.EXPORTERS (not imported: loads WeasyPrint)
CUT_FILES = ("svg", "dxf")
PRESETS = ("mpc", "drivethrucards", "thegamecrafter", "printplaygames", "mbprint")  # .export.presets.PRESET_IDS


@click.command()
@click.argument("games", nargs=-1)
@click.option(
    "--cards",
    "cards_dir",
    type=click.Path(exists=True, path_type=Path),
    metavar="DIR",
    help="Print the cards in DIR instead of the game's card folder (e.g. an import).",
)
@click.option("--only", multiple=True, metavar="ID|TITLE", help="Print only these cards (repeatable).")
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Print the cards of a decklist, each as many times as listed (proxies).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Output folder (default: the project's build/).",
)
@print_options
@click.option(
    "--sort",
    default=None,
    metavar="FIELDS",
    help="Order of the fronts: 'listed' (default) or card fields, e.g. set,type,title.",
)
@click.option(
    "--export",
    "exports",
    multiple=True,
    type=click.Choice(EXPORTS),
    help="Also export: png (one PNG per card), tts (Tabletop Simulator sheets), tts-save (a Tabletop Simulator "
    "saved object), print-shop (one card per page). Repeatable.",
)
@click.option(
    "--cut-file",
    "cut_files",
    multiple=True,
    type=click.Choice(CUT_FILES),
    help="Also write a cut file per sheet for a cutting machine (svg, dxf), its paths on the cards' trim. Repeatable.",
)
@click.option(
    "--image-url-base",
    default=None,
    metavar="URL",
    help="tts-save: where you host the images for multiplayer (default file:/// URLs: local play only).",
)
@click.option(
    "--preset",
    type=click.Choice(PRESETS),
    default=None,
    help="Also write the files a print-on-demand vendor takes: mpc (MakePlayingCards), drivethrucards, "
    "thegamecrafter, printplaygames, mbprint (trim, bleed, dpi, colour and naming as the vendor asks; "
    "CMYK vendors need --icc).",
)
@click.option("--dpi", default=300, show_default=True, type=click.IntRange(36, 1200), help="Resolution of PNG exports.")
@click.option("--png-bleed", is_flag=True, help="PNG export: include the bleed (default: cut at the trim).")
@click.option(
    "--icc",
    "icc",
    default=None,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="PROFILE.icc",
    help="Write PDF/X-4 (CMYK) with this CMYK output profile; art is converted through it.",
)
@click.option(
    "--strict", is_flag=True, help="Treat warnings (missing cards, missing art, text that does not fit) as errors."
)
@click.option(
    "--no-aids", is_flag=True, help="Leave out the player aids (rules/<game>/aids/*.md) printed after the cards."
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Processes that lay the faces out (default: one per core; 1: in this process).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="tcp://HOST:PORT",
    help="Lay the faces out on this Dask distributed cluster instead (needs printer[dask]; "
    "the workers must see the project at the same path).",
)
@click.option(
    "--watch",
    is_flag=True,
    help="Build, then build again on every save in the project until Ctrl-C (one warm process).",
)
@click.option(
    "--no-cache", is_flag=True, help="Lay every face out again (default: take unchanged ones from build/.cache)."
)
@click.pass_context
def build(
    ctx,
    games,
    cards_dir,
    only,
    deck_file,
    out_dir,
    exports,
    preset,
    dpi,
    png_bleed,
    icc,
    strict,
    no_aids,
    jobs,
    scheduler,
    no_cache,
    watch,
    **params,
) -> None:
    """Print card sheets (fronts, then backs for duplex) to PDF.

    With no GAMES, prints every game of the project. Each game gives
    build/<game>.pdf (with --deck, build/<game>-<deck>.pdf). Every sheet
    option can also be set in printer.toml ([project] or [games.<id>]).
    """

    project = project_from(ctx)
    cut_files, url_base = params.pop("cut_files"), params.pop("image_url_base")
    request = BuildRequest(
        games,
        cards_dir,
        only,
        deck_file,
        out_dir,
        cli_values(params),
        exports,
        dpi,
        png_bleed,
        icc,
        strict,
        not no_aids,
        preset,
        jobs=jobs,
        scheduler=scheduler,
        cache=not no_cache,
        cut_files=cut_files,
        image_url_base=url_base,
    )
    if watch:
        click.echo(f"watching {project.root} (Ctrl-C to stop)", err=True)
        try:
            api.watch(project.root, request, partial(_print_game, strict=strict), partial(report, strict=strict))
        except KeyboardInterrupt:
            pass
        ctx.exit(EXIT_OK)
    result = api.build(project, request, progress=_progress_bar, on_game=partial(_print_game, strict=strict))
    ctx.exit(EXIT_OK if result.ok else EXIT_INVALID)


def _progress_bar(label: str, total: int):
    """A click progress bar on stderr for one game's sheets; closed when the last sheet is counted."""
    bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)
    bar.__enter__()
    done = [0]

    def update(n: int) -> None:
        bar.update(n)
        done[0] += n
        if done[0] >= total:
            bar.__exit__(None, None, None)

    if total <= 0:
        bar.__exit__(None, None, None)
    return update


def _print_game(outcome: GameBuild, strict: bool) -> None:
    report(outcome.problems, strict)
    if outcome.failure:
        click.echo(f"{outcome.game}: {outcome.failure}", err=True)
        return
    n, s = outcome.cards, outcome.sheets
    click.echo(
        f"{outcome.target}: {counted(n, 'card')} on {counted(s, 'sheet')} ({outcome.grid} per sheet, {outcome.backs})"
    )
    for line in outcome.exports + outcome.notes:
        click.echo(line)


COMMANDS = [build]
