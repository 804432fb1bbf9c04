"""Sheet geometry in millimetres: trim sizes, paper, the n-up grid, bleed, marks, duplex backs.

Everything here is plain arithmetic on mm, with the origin at the top-left
corner of the sheet, x to the right and y downwards (as in CSS). This is
the one place printer computes where things go on a sheet; the renderer
and the exports only draw what it says.

- *Trim size*: the finished card (``poker`` is 63 x 88 mm).
- *Bleed*: art and background printed past the trim (default 3 mm) so a
  cut a little off the line shows no white edge. With a gutter of zero,
  neighbouring cards share a cut line and have no bleed between them; with
  a gutter each card has its own bleed, up to half the gutter.
- *Safe area*: the trim box less a margin (default 3 mm) where text stays.
- *Sheet*: one printed page (A4 is 210 x 297 mm), portrait or landscape.
- *Margin*: the least space between the sheet edge and any card's trim;
  the bleed may reach into it.
- *Slot*: where one card's trim box sits on the sheet, possibly turned by
  90, 180 or 270 degrees (clockwise); its *footprint* is the trim box as
  it lies on the sheet (turned 90 or 270, a 63 x 88 card lies 88 x 63).
- *Crop marks*: short lines outside the trim, in line with its edges,
  starting ``offset`` mm from the corner and ``length`` mm long; a mark
  that would run into a card or its bleed is cut short or left out.
- *Cut lines*: full-length lines across the sheet at every trim edge, for
  guillotines and cutting machines.
- *Long-edge flip* (duplex): the sheet turns over its long edge. On a
  portrait sheet that axis is vertical, so the back of a card at ``x``
  lies at ``W - x - w``; on a landscape sheet it is horizontal.
- *Short-edge flip*: the sheet turns over its short edge: on a portrait
  sheet the back lies at ``H - y - h`` and is turned 180 degrees.
- *Fold-over*: for printers without duplex, fronts on one half of the
  sheet and backs mirrored on the other half; fold along the middle.

A card turned by ``t`` degrees has its back turned by ``-t`` (mirror axis
vertical) or ``180 - t`` (axis horizontal): the back must read upright
when the cut card is turned over its own vertical axis, like a book page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

# the sizes and their parsers are part of the layout's interface too (re-exported)
from printer.units import CARD_SIZES as CARD_SIZES
from printer.units import EPS as EPS
from printer.units import FLIPS as FLIPS
from printer.units import MM_PER_IN as MM_PER_IN
from printer.units import ORIENTATIONS as ORIENTATIONS
from printer.units import PAPER_SIZES as PAPER_SIZES
from printer.units import _usage
from printer.units import parse_length as parse_length
from printer.units import parse_offset as parse_offset
from printer.units import parse_size as parse_size


def orient(page: tuple[float, float], orientation: str) -> tuple[float, float]:
    """``page`` turned ``portrait`` (taller than wide) or ``landscape``; ``auto`` leaves it as given."""
    w, h = page
    if orientation == "portrait":
        return (min(w, h), max(w, h))
    if orientation == "landscape":
        return (max(w, h), min(w, h))
    return page


@dataclass(frozen=True)
class Slot:
    """One card position: trim footprint top-left ``(x, y)`` in mm, grid ``row``/``col``, ``rotate`` degrees clockwise."""

    x: float
    y: float
    row: int = 0
    col: int = 0
    rotate: int = 0


@dataclass(frozen=True)
class Box:
    """A rectangle in mm: ``x0 < x1``, ``y0 < y1``."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(frozen=True)
class Segment:
    """A straight line from ``(x1, y1)`` to ``(x2, y2)`` in mm."""

    x1: float
    y1: float
    x2: float
    y2: float


def _turned(card: tuple[float, float], rotate: int) -> tuple[float, float]:
    return (card[1], card[0]) if rotate % 180 == 90 else card


@dataclass(frozen=True)
class SheetLayout:
    """Where the cards of one sheet go: an n-up grid centred on the sheet, or explicit slots.

    ``card`` and ``page`` are (width, height) in mm; ``gutter`` the space
    between neighbouring cards; ``margin`` the least space kept between the
    sheet edge and every trim box; ``bleed`` how far art and background run
    past the trim (mm). ``area`` (x0, y0, x1, y1) is the part of the sheet
    the grid is centred in (default: the whole sheet). ``explicit`` holds
    the slots of a sheet layout file instead of a grid. ``fold`` is
    ``"vertical"`` or ``"horizontal"`` for a fold-over layout: the axis of
    the fold, across which the backs mirror the fronts on the same sheet.
    """

    page: tuple[float, float]
    card: tuple[float, float]
    cols: int
    rows: int
    gutter: float = 0.0
    margin: float = 5.0
    bleed: float = 0.0
    area: tuple[float, float, float, float] | None = None
    explicit: tuple[Slot, ...] | None = None
    fold: str | None = None
    _cache: dict[tuple[str, Slot], tuple[float, float, float, float]] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    @property
    def per_sheet(self) -> int:
        return len(self.explicit) if self.explicit is not None else self.cols * self.rows

    @property
    def portrait(self) -> bool:
        return self.page[0] <= self.page[1]

    @property
    def grid_size(self) -> tuple[float, float]:
        """Width and height of the block of trim boxes (mm)."""
        if self.explicit is not None:
            box = self._bounds()
            return (box.width, box.height)
        w, h = self.card
        return (self.cols * w + (self.cols - 1) * self.gutter, self.rows * h + (self.rows - 1) * self.gutter)

    @property
    def origin(self) -> tuple[float, float]:
        """Top-left corner of the block of trim boxes; a grid is centred on its area."""
        if self.explicit is not None:
            box = self._bounds()
            return (box.x0, box.y0)
        gw, gh = self.grid_size
        x0, y0, x1, y1 = self.area or (0.0, 0.0, self.page[0], self.page[1])
        return (x0 + (x1 - x0 - gw) / 2, y0 + (y1 - y0 - gh) / 2)

    def _bounds(self) -> Box:
        boxes = [self.trim_box(s) for s in self.slots()]
        return Box(
            min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes), max(b.y1 for b in boxes)
        )

    def slots(self) -> list[Slot]:
        """Every slot, row by row from the top-left (or in the layout file's order)."""
        if self.explicit is not None:
            return list(self.explicit)
        ox, oy = self.origin
        w, h = self.card
        return [
            Slot(ox + c * (w + self.gutter), oy + r * (h + self.gutter), r, c)
            for r in range(self.rows)
            for c in range(self.cols)
        ]

    def footprint(self, slot: Slot) -> tuple[float, float]:
        """The trim box's size as it lies on the sheet (width and height swap at 90 and 270 degrees)."""
        return _turned(self.card, slot.rotate)

    def trim_box(self, slot: Slot) -> Box:
        fw, fh = self.footprint(slot)
        return Box(slot.x, slot.y, slot.x + fw, slot.y + fh)

    # -- duplex ----------------------------------------------------------------

    def mirror_axis(self, flip: str) -> str:
        """``vertical`` or ``horizontal``: the axis the sheet turns over for ``flip``.

        ``long-edge`` is the long side's axis (vertical on a portrait sheet),
        ``short-edge`` the other; a fold-over layout mirrors across its fold.
        """
        if self.fold:
            return self.fold
        if flip not in FLIPS:
            raise ValueError(f"unknown flip {flip!r}")
        return "vertical" if (flip == "long-edge") == self.portrait else "horizontal"

    def back_slot(
        self, slot: Slot, flip: str = "long-edge", offset: tuple[float, float] = (0.0, 0.0)
    ) -> tuple[Slot, int]:
        """Where the back of the card in ``slot`` goes, and its rotation in degrees.

        The back lies exactly behind the front once the sheet is turned over
        (see the module docstring), then moved by ``offset`` (x, y) mm to
        correct a printer that shifts its back pages (``--back-offset``).
        """
        W, H = self.page
        fw, fh = self.footprint(slot)
        dx, dy = offset
        if self.mirror_axis(flip) == "vertical":
            rotate = (-slot.rotate) % 360
            col = self.cols - 1 - slot.col if self.explicit is None else slot.col
            return Slot(W - slot.x - fw + dx, slot.y + dy, slot.row, col, rotate), rotate
        rotate = (180 - slot.rotate) % 360
        row = self.rows - 1 - slot.row if self.explicit is None else slot.row
        return Slot(slot.x + dx, H - slot.y - fh + dy, row, slot.col, rotate), rotate

    # -- bleed -----------------------------------------------------------------

    def bleed_extents(self, slot: Slot) -> tuple[float, float, float, float]:
        """How far (mm) this card's bleed reaches past its trim on the left, top, right and bottom of the sheet.

        The full ``bleed``, except towards a neighbouring card closer than
        twice the bleed, where it stops half-way (zero when the cards touch:
        a shared cut line).
        """
        key = ("extents", slot)
        if key in self._cache:
            return self._cache[key]
        me = self.trim_box(slot)
        left = top = right = bottom = self.bleed
        for other in self.slots():
            if other == slot:
                continue
            box = self.trim_box(other)
            overlaps_y = box.y0 < me.y1 - EPS and box.y1 > me.y0 + EPS
            overlaps_x = box.x0 < me.x1 - EPS and box.x1 > me.x0 + EPS
            if overlaps_y and box.x0 >= me.x1 - EPS:
                right = min(right, max(0.0, (box.x0 - me.x1) / 2))
            if overlaps_y and box.x1 <= me.x0 + EPS:
                left = min(left, max(0.0, (me.x0 - box.x1) / 2))
            if overlaps_x and box.y0 >= me.y1 - EPS:
                bottom = min(bottom, max(0.0, (box.y0 - me.y1) / 2))
            if overlaps_x and box.y1 <= me.y0 + EPS:
                top = min(top, max(0.0, (me.y0 - box.y1) / 2))
        self._cache[key] = (left, top, right, bottom)
        return self._cache[key]

    def bleed_box(self, slot: Slot) -> Box:
        """The area this card paints: its trim box grown by :meth:`bleed_extents`."""
        box = self.trim_box(slot)
        left, top, right, bottom = self.bleed_extents(slot)
        return Box(box.x0 - left, box.y0 - top, box.x1 + right, box.y1 + bottom)

    # -- marks -----------------------------------------------------------------

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of the vertical cut lines and y positions of the horizontal ones (mm)."""
        xs, ys = set(), set()
        for slot in self.slots():
            box = self.trim_box(slot)
            xs |= {round(box.x0, 4), round(box.x1, 4)}
            ys |= {round(box.y0, 4), round(box.y1, 4)}
        return sorted(xs), sorted(ys)

    def cut_line_segments(self) -> list[Segment]:
        """Full-length cut lines: one across the whole sheet at every trim edge."""
        W, H = self.page
        xs, ys = self.cut_lines()
        return [Segment(x, 0.0, x, H) for x in xs] + [Segment(0.0, y, W, y) for y in ys]

    def crop_marks(self, length: float = 5.0, offset: float | None = None) -> list[Segment]:
        """Per-card crop marks: at each trim corner, a line in line with each edge, outside the card.

        Each mark starts ``offset`` mm from the corner (default: the bleed,
        at least 1 mm) and runs ``length`` mm outwards. A mark that would
        cross a card or its bleed is cut short there, and left out when less
        than 1 mm (or its start) remains; marks shared by two cards are
        drawn once.
        """
        if length <= 0:
            return []
        offset = max(self.bleed, 1.0) if offset is None else offset
        boxes = [self.bleed_box(s) for s in self.slots()]
        marks: dict[tuple[float, ...], Segment] = {}
        for slot in self.slots():
            t = self.trim_box(slot)
            for cx, cy, sx, sy in ((t.x0, t.y0, -1, -1), (t.x1, t.y0, 1, -1), (t.x0, t.y1, -1, 1), (t.x1, t.y1, 1, 1)):
                for dx, dy in ((sx, 0), (0, sy)):
                    start = (cx + dx * offset, cy + dy * offset)
                    reach = _free_run(start, (dx, dy), length, boxes)
                    if reach < min(1.0, length) - EPS:
                        continue
                    seg = Segment(start[0], start[1], start[0] + dx * reach, start[1] + dy * reach)
                    marks.setdefault(tuple(round(v, 3) for v in (seg.x1, seg.y1, seg.x2, seg.y2)), seg)
        return list(marks.values())


def _free_run(start: tuple[float, float], direction: tuple[int, int], length: float, boxes: list[Box]) -> float:
    """How far a line from ``start`` in ``direction`` (a unit axis vector) runs before entering a box.

    A line along a box's edge counts as inside it (a mark on the shared
    edge of two touching cards is inside both).
    """
    x, y = start
    dx, dy = direction
    near = 0.01
    reach = length
    for b in boxes:
        if dx:  # horizontal line at y
            if not (b.y0 < y + near and b.y1 > y - near):
                continue
            if b.x0 + EPS < x < b.x1 - EPS:
                return 0.0
            distance = ((b.x0 if dx > 0 else b.x1) - x) * dx
        else:
            if not (b.x0 < x + near and b.x1 > x - near):
                continue
            if b.y0 + EPS < y < b.y1 - EPS:
                return 0.0
            distance = ((b.y0 if dy > 0 else b.y1) - y) * dy
        if distance >= -EPS:
            reach = min(reach, max(0.0, distance))
    return reach


def _count(avail: float, size: float, gutter: float) -> int:
    return max(0, math.floor((avail + gutter) / (size + gutter) + 1e-9))


def fit_grid(
    page: tuple[float, float],
    card: tuple[float, float],
    gutter: float = 0.0,
    margin: float = 5.0,
    bleed: float = 0.0,
    orientation: str = "as-given",
    area: tuple[float, float, float, float] | None = None,
) -> SheetLayout:
    """The largest grid of ``card`` that fits on ``page`` inside ``margin``, centred.

    ``orientation`` is ``portrait``, ``landscape``, ``auto`` (whichever
    holds more cards; portrait on a tie) or ``as-given`` (``page`` as it
    is). The bleed may reach into the margin, so it does not change the
    count. Raises :class:`UsageError` when not even one card fits.
    """
    if orientation == "auto":
        tall, wide = orient(page, "portrait"), orient(page, "landscape")
        a = (
            fit_grid(
                tall,
                card,
                gutter,
                margin,
                bleed,
                "as-given",
                None,
            )
            if _fits(tall, card, gutter, margin)
            else None
        )
        b = fit_grid(wide, card, gutter, margin, bleed, "as-given", None) if _fits(wide, card, gutter, margin) else None
        fitting = [grid for grid in (a, b) if grid is not None]
        if not fitting:
            return fit_grid(tall, card, gutter, margin, bleed, "as-given")  # raises
        return max(fitting, key=lambda grid: grid.per_sheet)  # the first, portrait, on a tie
    if orientation in ("portrait", "landscape"):
        page = orient(page, orientation)
    (W, H), (w, h) = page, card
    x0, y0, x1, y1 = area or (margin, margin, W - margin, H - margin)
    cols, rows = _count(x1 - x0, w, gutter), _count(y1 - y0, h, gutter)
    if cols < 1 or rows < 1:
        message = f"a {w:g} x {h:g} mm card does not fit on a {W:g} x {H:g} mm sheet with {margin:g} mm margins"
        raise _usage(message, "choose a larger paper size or smaller margins")
    return SheetLayout(page, card, cols, rows, gutter, margin, bleed, area=area)


def _fits(page: tuple[float, float], card: tuple[float, float], gutter: float, margin: float) -> bool:
    return _count(page[0] - 2 * margin, card[0], gutter) >= 1 and _count(page[1] - 2 * margin, card[1], gutter) >= 1


def fold_layout(
    page: tuple[float, float],
    card: tuple[float, float],
    gutter: float = 0.0,
    margin: float = 5.0,
    bleed: float = 0.0,
    orientation: str = "auto",
    fold_gap: float | None = None,
) -> SheetLayout:
    """A fold-over layout: fronts in one half of the sheet, backs mirrored in the other.

    The fold runs along the middle of the sheet, vertical (fronts left) or
    horizontal (fronts on top), whichever holds more cards over the
    orientations allowed; ``fold_gap`` (default twice the bleed plus 2 mm)
    is kept free across the fold. Raises :class:`UsageError` when no card fits.
    """
    gap = 2 * bleed + 2.0 if fold_gap is None else fold_gap
    pages = (
        [orient(page, "portrait"), orient(page, "landscape")] if orientation == "auto" else [orient(page, orientation)]
    )
    best: SheetLayout | None = None
    for W, H in pages:
        for axis, area in (
            ("vertical", (margin, margin, W / 2 - gap / 2, H - margin)),
            ("horizontal", (margin, margin, W - margin, H / 2 - gap / 2)),
        ):
            cols = _count(area[2] - area[0], card[0], gutter)
            rows = _count(area[3] - area[1], card[1], gutter)
            if cols and rows and (best is None or cols * rows > best.per_sheet):
                best = SheetLayout((W, H), card, cols, rows, gutter, margin, bleed, area=area, fold=axis)
    if best is None:
        message = f"a {card[0]:g} x {card[1]:g} mm card does not fit on half a {page[0]:g} x {page[1]:g} mm sheet"
        raise _usage(message, "choose a larger paper size, or print with duplex backs")
    return best


def single_card_layout(
    card: tuple[float, float], bleed: float, canvas: tuple[float, float] | None = None
) -> SheetLayout:
    """One card per page: the page is the trim plus ``bleed`` all round (or ``canvas``, the card centred)."""
    w, h = card
    W, H = canvas or (w + 2 * bleed, h + 2 * bleed)
    slot = Slot((W - w) / 2, (H - h) / 2)
    return SheetLayout((W, H), card, 1, 1, 0.0, 0.0, max(bleed, (W - w) / 2, (H - h) / 2), explicit=(slot,))
