"""The options of ``printer build`` beyond the sheet options: exports, print-on-demand presets, and how it runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from printer.sheets.plan import CUT_FILES, EXPORTS, PRESETS, BuildRequest

_Command = TypeVar("_Command", bound=Callable[..., Any])  # a command function the options decorate

jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Processes that lay the faces out (default: one per core; 1: in this process).",
)
"""``--jobs``/``-j``: how many processes lay the faces out (``printer build`` and ``printer check-print``)."""


def output_options(f: _Command) -> _Command:
    """``--export``, ``--cut-file``, ``--image-url-base``, ``--preset``, ``--dpi``, ``--png-bleed``, ``--icc``."""
    for option in reversed(
        [
            click.option(
                "--export",
                "exports",
                multiple=True,
                type=click.Choice(EXPORTS),
                help="Also export: png (one PNG per card), tts (Tabletop Simulator sheets), tts-save (a Tabletop Simulator "
                "saved object), print-shop (one card per page), tabletopia, tabletop-playground, playingcards-io, screentop, "
                "cgs (online play tables: see docs/print-production.md), cut-test (a sheet with the registration marks only, "
                "and its cut file). Repeatable.",
            ),
            click.option(
                "--cut-file",
                "cut_files",
                multiple=True,
                type=click.Choice(CUT_FILES),
                help="Also write a cut file per sheet for a cutting machine (svg, dxf), its paths on the cards' trim. Repeatable.",
            ),
            click.option(
                "--image-url-base",
                default=None,
                metavar="URL",
                help="tts-save: where you host the images for multiplayer (default file:/// URLs: local play only).",
            ),
            click.option(
                "--preset",
                type=click.Choice(PRESETS),
                default=None,
                help="Also write the files a print-on-demand vendor takes: mpc (MakePlayingCards), drivethrucards, "
                "thegamecrafter, printplaygames, mbprint (trim, bleed, dpi, colour and naming as the vendor asks; "
                "CMYK vendors through --icc or Ghostscript's free profile), each PDF checked as printer preflight does.",
            ),
            click.option(
                "--dpi",
                default=300,
                show_default=True,
                type=click.IntRange(36, 1200),
                help="Resolution of PNG exports.",
            ),
            click.option("--png-bleed", is_flag=True, help="PNG export: include the bleed (default: cut at the trim)."),
            click.option(
                "--icc",
                "icc",
                default=None,
                type=click.Path(exists=True, dir_okay=False, path_type=Path),
                metavar="PROFILE.icc",
                help="Write PDF/X-4 (CMYK) with this CMYK output profile; art is converted through it. With --preset: "
                "the CMYK vendor's profile, which Ghostscript converts the vendor's PDF through.",
            ),
        ]
    ):
        f = option(f)
    return f


def run_options(f: _Command) -> _Command:
    """``--strict``, ``--no-aids``, ``--jobs``, ``--scheduler``, ``--watch``, ``--no-cache``, the budgets, ``--verify``."""
    for option in reversed(
        [
            click.option(
                "--strict",
                is_flag=True,
                help="Treat warnings (missing cards, missing art, text that does not fit) as errors.",
            ),
            click.option(
                "--no-aids",
                is_flag=True,
                help="Leave out the player aids (rules/<game>/aids/*.md) printed after the cards.",
            ),
            jobs_option,
            click.option(
                "--scheduler",
                default=None,
                metavar="tcp://HOST:PORT",
                help="Lay the faces out on this Dask distributed cluster instead (needs printer[dask]; "
                "the workers must see the project at the same path).",
            ),
            click.option(
                "--watch",
                is_flag=True,
                help="Build, then build again on every save in the project until Ctrl-C (one warm process).",
            ),
            click.option(
                "--no-cache",
                is_flag=True,
                help="Lay every face out again (default: take unchanged ones from build/.cache).",
            ),
            click.option(
                "--max-size",
                metavar="SIZE",
                help="Budget: no file written larger than this (e.g. 100MB; 200MB for office print shops); "
                "a file over it is an error naming it.",
            ),
            click.option(
                "--min-dpi",
                type=click.FloatRange(min=1),
                metavar="N",
                help="Budget: every image in the PDFs written prints at N dpi or more at its size (e.g. 300); "
                "an image below it is an error naming its page.",
            ),
            click.option(
                "--verify",
                is_flag=True,
                help="Check every face on the written sheets against the face alone, at 100 dpi with a 2% "
                "tolerance (warnings; errors with --strict; see printer check-print).",
            ),
        ]
    ):
        f = option(f)
    return f


def lang_option(what: str) -> Callable[[_Command], _Command]:
    """``--lang LANG|all``: ``what`` in one language the game declares, or in each (``all``)."""
    return click.option(
        "--lang",
        default=None,
        metavar="LANG|all",
        help=f"{what} in this language of the game ([games.<id>] languages in printer.toml: the cards' text from "
        "their translations, faces marked with the language), every file named with -LANG; all: once per "
        "language. Default: the cards as their files hold them.",
    )


def request_from(
    games: tuple[str, ...],
    cards_dir: Path | None,
    only: tuple[str, ...],
    deck_file: Path | None,
    out_dir: Path | None,
    params: dict[str, Any],
) -> BuildRequest:
    """The :class:`~printer.sheets.plan.BuildRequest` the command line asks for (``params``: every other option;
    each field of the request reads the option of its name, :meth:`~printer.sheets.plan.BuildRequest.from_options`)."""
    given = {"games": games, "cards_dir": cards_dir, "only": only, "deck_file": deck_file, "out_dir": out_dir}
    return BuildRequest.from_options({**params, **given})
