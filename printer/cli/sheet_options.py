"""The sheet options shared by ``printer build`` and ``printer align`` (each also settable in printer.toml)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from printer.sheets.plan import sheet_values
from printer.sheets.plan.names import DUPLEX, FLIPS, MARKS, ORIENTATIONS, REGISTRATIONS

_Command = TypeVar("_Command", bound=Callable[..., Any])  # a command function the options decorate


def print_options(f: _Command) -> _Command:
    """The sheet options shared by ``build`` and ``align`` (each also settable in printer.toml)."""
    options = [
        click.option(
            "--paper",
            default=None,
            metavar="SIZE",
            help="Sheet size: A4, Letter, A3, A5, Legal or WxH mm/in (default from printer.toml, else A4).",
        ),
        click.option(
            "--orientation",
            type=click.Choice(ORIENTATIONS),
            default=None,
            help="Sheet orientation (default auto: whichever holds more cards).",
        ),
        click.option(
            "--margin", default=None, metavar="MM", help="Least space between sheet edge and cards (default 5)."
        ),
        click.option(
            "--gutter", default=None, metavar="MM", help="Space between cards; 0 = shared cut lines (default 0)."
        ),
        click.option("--bleed", default=None, metavar="MM", help="Art and background past the trim (default 3)."),
        click.option(
            "--safe", default=None, metavar="MM", help="Safe area: text stays this far inside the trim (default 3)."
        ),
        click.option(
            "--marks",
            type=click.Choice(MARKS),
            default=None,
            help="Per-card crop marks, full-length cut lines, or none (default crop).",
        ),
        click.option("--mark-length", default=None, metavar="MM", help="Crop mark length (default 5)."),
        click.option(
            "--mark-offset",
            default=None,
            metavar="MM",
            help="Gap between trim corner and crop mark (default: the bleed, at least 1).",
        ),
        click.option(
            "--duplex",
            type=click.Choice(DUPLEX),
            default=None,
            help="Backs for long-edge or short-edge flip, fold-over (no duplex printer), or none (default long-edge).",
        ),
        click.option("--flip", type=click.Choice(FLIPS), default=None, help="Same as --duplex long-edge|short-edge."),
        click.option(
            "--back-offset",
            default=None,
            metavar="X,Y",
            help="Move every back by X,Y mm: the reading of the alignment page.",
        ),
        click.option(
            "--corner-radius",
            default=None,
            metavar="MM",
            help="Round the card corners (3mm is usual on poker cards): drawn with --marks cut, in cut files and PNG exports (default none).",
        ),
        click.option(
            "--registration",
            type=click.Choice(REGISTRATIONS),
            default=None,
            help="Print-then-cut registration marks for a Silhouette or Cricut cutting machine; cards keep clear of them (default none).",
        ),
        click.option(
            "--registration-inset",
            default=None,
            metavar="LENGTH",
            help="Inset of the Silhouette marks from the sheet edges (default 10mm; 0.625in for the Auto Sheet Feeder).",
        ),
        click.option(
            "--registration-empty-slot",
            "registration_empty_slot",
            is_flag=True,
            default=None,
            help="Leave the card slot nearest the top-left registration mark empty (the sensor reads there first).",
        ),
        click.option(
            "--layout-version",
            type=click.Choice(["1", "2"]),
            default=None,
            help="The registration layout geometry to keep (1: cards clear of the marks' ink, as printer laid them out "
            "before; 2, the default: clear of the whole square of each Silhouette mark).",
        ),
        click.option(
            "--sheet-layout",
            "sheet_layout",
            default=None,
            metavar="FILE",
            help="A sheet layout file (TOML) with explicit card slots.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def cli_values(params: dict[str, Any]) -> dict[str, Any]:
    """The sheet options among a command's ``params`` (:func:`printer.sheets.plan.sheet_values`)."""
    return sheet_values(params)
