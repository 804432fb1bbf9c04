"""Sheet geometry in millimetres: trim sizes, paper, the n-up grid, duplex backs.

Everything here is plain arithmetic on mm, with the origin at the top-left
corner of the sheet, x to the right and y downwards (as in CSS).

- *Trim size*: the finished card (``poker`` is 63 x 88 mm).
- *Sheet*: one printed page (A4 is 210 x 297 mm).
- *Slot*: where one card's trim box sits on the sheet.
- *Long-edge flip* (duplex): the sheet turns over its long edge, so on a
  portrait sheet the back of a card at ``x`` lies at ``W - x - w``.
- *Short-edge flip*: the sheet turns over its short edge, so the back lies
  at ``H - y - h`` and is turned 180°.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .errors import UsageError, Problem, did_you_mean

MM_PER_IN = 25.4

#: Named card trim sizes, (width, height) in mm.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),      # standard CCG (2.5 x 3.5 in)
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "small": (59.0, 86.0),      # Japanese small size
    "mini": (44.0, 68.0),
    "square": (70.0, 70.0),
}

#: Named paper sizes, portrait (width, height) in mm.
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "A5": (148.0, 210.0),
    "Letter": (215.9, 279.4),
    "Legal": (215.9, 355.6),
}

_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*[xX×]\s*([0-9]+(?:\.[0-9]+)?)\s*(mm|in|cm)?\s*$")
_UNITS = {"mm": 1.0, "cm": 10.0, "in": MM_PER_IN, None: 1.0}


def parse_size(text: str, named: dict[str, tuple[float, float]], what: str) -> tuple[float, float]:
    """A size as ``(width, height)`` in mm from a name (``poker``, ``A4``) or ``WxH[mm|cm|in]``.

    Names are matched case-insensitively. Raises :class:`UsageError` with the
    closest name as a hint.
    """
    for name, size in named.items():
        if name.lower() == text.strip().lower():
            return size
    match = _SIZE.match(text)
    if match:
        factor = _UNITS[match.group(3)]
        width, height = float(match.group(1)) * factor, float(match.group(2)) * factor
        if width > 0 and height > 0:
            return (width, height)
    hint = did_you_mean(text, list(named)) or f"one of {', '.join(named)}, or WxH in mm or in, e.g. 63x88mm"
    raise UsageError(f"unknown {what} {text!r}", [Problem("command line", f"unknown {what} {text!r}", hint, code="usage")])


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet: trim box top-left ``(x, y)`` in mm, grid ``row``/``col``."""

    x: float
    y: float
    row: int
    col: int


@dataclass(frozen=True)
class SheetLayout:
    """An n-up grid of equal cards centred on a sheet.

    ``card`` and ``page`` are (width, height) in mm; ``gutter`` the space
    between neighbouring cards; ``margin`` the least space kept free at the
    sheet edges (for the printer's unprintable border and the crop marks).
    """

    page: tuple[float, float]
    card: tuple[float, float]
    cols: int
    rows: int
    gutter: float = 0.0
    margin: float = 5.0

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def grid_size(self) -> tuple[float, float]:
        w, h = self.card
        return (self.cols * w + (self.cols - 1) * self.gutter, self.rows * h + (self.rows - 1) * self.gutter)

    @property
    def origin(self) -> tuple[float, float]:
        """Top-left corner of the grid, centred on the sheet."""
        gw, gh = self.grid_size
        return ((self.page[0] - gw) / 2, (self.page[1] - gh) / 2)

    def slots(self) -> list[Slot]:
        """Every slot, row by row from the top-left."""
        ox, oy = self.origin
        w, h = self.card
        return [Slot(ox + c * (w + self.gutter), oy + r * (h + self.gutter), r, c)
                for r in range(self.rows) for c in range(self.cols)]

    def back_slot(self, slot: Slot, flip: str = "long-edge") -> tuple[Slot, int]:
        """Where the back of the card in ``slot`` goes, and its rotation in degrees.

        ``flip`` is ``long-edge`` or ``short-edge`` for a portrait sheet (the
        long edge is vertical, so long-edge flip mirrors left and right).
        """
        W, H = self.page
        w, h = self.card
        if flip == "long-edge":
            return Slot(W - slot.x - w, slot.y, slot.row, self.cols - 1 - slot.col), 0
        if flip == "short-edge":
            return Slot(slot.x, H - slot.y - h, self.rows - 1 - slot.row, slot.col), 180
        raise ValueError(f"unknown flip {flip!r}")

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of the vertical cut lines and y positions of the horizontal ones (mm)."""
        ox, oy = self.origin
        w, h = self.card
        xs, ys = [], []
        for c in range(self.cols):
            xs += [ox + c * (w + self.gutter), ox + c * (w + self.gutter) + w]
        for r in range(self.rows):
            ys += [oy + r * (h + self.gutter), oy + r * (h + self.gutter) + h]
        return sorted(set(round(x, 4) for x in xs)), sorted(set(round(y, 4) for y in ys))


def fit_grid(page: tuple[float, float], card: tuple[float, float], gutter: float = 0.0,
             margin: float = 5.0) -> SheetLayout:
    """The largest grid of ``card`` that fits on ``page`` inside ``margin``.

    Raises :class:`UsageError` when not even one card fits.
    """
    (W, H), (w, h) = page, card
    cols = math.floor((W - 2 * margin + gutter) / (w + gutter) + 1e-9)
    rows = math.floor((H - 2 * margin + gutter) / (h + gutter) + 1e-9)
    if cols < 1 or rows < 1:
        message = f"a {w:g} x {h:g} mm card does not fit on a {W:g} x {H:g} mm sheet with {margin:g} mm margins"
        raise UsageError(message, [Problem("command line", message, "choose a larger paper size", code="usage")])
    return SheetLayout(page, card, cols, rows, gutter, margin)
