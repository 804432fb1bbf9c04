"""Cutting machines: rounded card corners, cut outlines and print-then-cut registration marks, in mm.

Same conventions as :mod:`printer.sheets.layout`: origin at the sheet's
top-left corner, x to the right, y downwards, lengths in mm.

- *Corner radius*: each card's trim box with its four corners rounded by
  ``r`` mm (3 mm is usual on poker-size playing cards; 0 keeps square
  corners). :func:`outline_path` gives it as SVG path data, one closed path
  per card; :func:`outline_polyline` as a closed polyline with arc bulges
  (DXF ``LWPOLYLINE``).
- *Registration marks* (print-then-cut): a cutting machine's optical sensor
  finds marks printed on the sheet and lines its cut up with them.

  ``silhouette``: Silhouette Studio's three-mark set (its "Type 1", used by
  the Cameo and Portrait): a filled :data:`SILHOUETTE_SQUARE` mm square at
  the top-left corner and L-shaped brackets at the top-right and
  bottom-left corners, lines :data:`SILHOUETTE_LINE` mm thick, arms
  :data:`SILHOUETTE_ARM` mm long, each mark's outer corner
  :data:`SILHOUETTE_INSET` mm in from the sheet's edges (Studio refuses an
  inset under 10 mm; :data:`ASF_INSET` suits the Auto Sheet Feeder). The
  cards' trim boxes lie inside the rectangle the marks span, where Studio
  lets the machine cut, and, from layout version 2 on, out of the whole
  square each mark spans (Studio hatches it as a no-print zone around an L
  bracket, not just its two arms).

  ``cricut``: Cricut Design Space's Print Then Cut area, at most
  :data:`CRICUT_AREA` (6.75 x 9.25 in, turned with the sheet), centred on
  the sheet. The cards lie inside the area. Design Space prints its own
  marks round the image it is given, so from layout version 2 on printer
  prints none (version 1 drew a frame :data:`CRICUT_LINE` mm thick around
  the area and a filled square outside its top-left corner); the cards keep
  the places they had inside that frame, and the build writes each sheet's
  area as an image with its cut file (:mod:`.export.cricut`).

  Printed matter near a mark is misread by the sensor (a frequent complaint
  of print-then-cut users), so no card and no bleed comes within
  :data:`CLEARANCE` mm of any mark, and crop marks there are left out.
  :func:`fit_registered` finds the largest grid that keeps clear, moving it
  off centre when that saves a row or column, and shrinks it otherwise.

Sources: Silhouette Studio's registration-mark settings (Page Setup >
Registration Marks: type, length, thickness, inset, least inset 10 mm;
https://www.silhouetteamerica.com/); Cricut's Print Then Cut help pages
(largest printable image 6.75 x 9.25 in on Letter and A4;
https://help.cricut.com/). Print at 100 % scale ("actual size"): a sheet scaled
to fit the printer's margins moves every card away from its cut line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from printer.problems import Problem, UsageError
from printer.sheets.layout import (
    EPS,
    MM_PER_IN,
    Box,
    SheetLayout,
    Slot,
    _count,
    orient,
)
from printer.sheets.plan.names import REGISTRATIONS

SILHOUETTE_INSET = 10.0  # mm from each sheet edge to the mark's outer corner (Studio's least inset)
SILHOUETTE_SQUARE = 5.0  # mm, side of the filled top-left square
SILHOUETTE_LINE = 1.0  # mm, thickness of the bracket lines
SILHOUETTE_ARM = 20.0  # mm, length of each bracket arm
CRICUT_AREA = (6.75 * MM_PER_IN, 9.25 * MM_PER_IN)  # Print Then Cut's largest image, portrait (171.45 x 234.95 mm)
CRICUT_LINE = 1.0  # mm, thickness of the frame drawn around the area
CRICUT_SQUARE = 5.0  # mm, the filled square at the frame's top-left corner
CLEARANCE = 3.0  # mm of blank paper kept between any mark and any printed card (bleed included)
ASF_INSET = 0.625 * MM_PER_IN  # 15.875 mm: the inset silhouette-card-maker users give the Auto Sheet Feeder

#: Versions of the registration layout geometry (what the marks keep clear, hence where the cards go). A layout once
#: printed and cut keeps cutting the same after an upgrade when its version is given (``layout_version``):
#: 1 keeps cards ``CLEARANCE`` mm from each mark's ink; 2 (the default) from the whole square each Silhouette mark
#: spans (Studio hatches it as a no-print zone: an L bracket's whole ``SILHOUETTE_ARM`` square, not its two arms).
LAYOUT_VERSIONS = (1, 2)
LAYOUT_VERSION = 2

#: The 4 x 90 degree arc bulge of a DXF polyline vertex (tan of a quarter of the angle; negative: clockwise)
QUARTER_BULGE = math.tan(math.radians(90) / 4)


@dataclass(frozen=True)
class Registration:
    """The registration marks of one sheet.

    ``ink``: the filled rectangles that make the marks; ``keep_out``: where
    no card may print (each mark grown by :data:`CLEARANCE`); ``area``: the
    box every trim box must lie in. All in mm on a ``page`` (width, height).
    """

    kind: str
    page: tuple[float, float]
    ink: tuple[Box, ...]
    keep_out: tuple[Box, ...]
    area: Box
    version: int = LAYOUT_VERSION
    inset: float = SILHOUETTE_INSET

    def clear(self, box: Box) -> bool:
        """Whether ``box`` (a card's bleed box) touches no keep-out zone (sharing an edge is allowed)."""
        return not any(_overlap(box, zone) for zone in self.keep_out)

    def inside(self, box: Box) -> bool:
        """Whether ``box`` (a trim box) lies in the area the machine cuts."""
        a = self.area
        return box.x0 >= a.x0 - EPS and box.y0 >= a.y0 - EPS and box.x1 <= a.x1 + EPS and box.y1 <= a.y1 + EPS


def _overlap(a: Box, b: Box) -> bool:
    return a.x0 < b.x1 - EPS and b.x0 < a.x1 - EPS and a.y0 < b.y1 - EPS and b.y0 < a.y1 - EPS


def _grow(box: Box, by: float) -> Box:
    return Box(box.x0 - by, box.y0 - by, box.x1 + by, box.y1 + by)


def registration_marks(
    kind: str, page: tuple[float, float], inset: float | None = None, version: int = LAYOUT_VERSION
) -> Registration | None:
    """The ``silhouette`` or ``cricut`` marks on a ``page`` (width, height mm); ``None`` for ``none``.

    ``inset`` (mm, Silhouette only; default :data:`SILHOUETTE_INSET`) is
    each mark's outer corner's distance from the sheet's edges, e.g.
    :data:`ASF_INSET` for the Auto Sheet Feeder. ``version`` is the layout
    geometry (:data:`LAYOUT_VERSIONS`). Raises :class:`UsageError` for an
    unknown kind or version, an inset under Studio's least, or a page too
    small to hold the marks.
    """
    W, H = page
    if kind == "none":
        return None
    if version not in LAYOUT_VERSIONS:
        message = f"layout-version: {version!r} is not one of {', '.join(map(str, LAYOUT_VERSIONS))}"
        raise UsageError(message, [Problem("command line", message, code="usage")])
    if kind == "silhouette":
        i = SILHOUETTE_INSET if inset is None else inset
        s, t, a = SILHOUETTE_SQUARE, SILHOUETTE_LINE, SILHOUETTE_ARM
        if i < SILHOUETTE_INSET - EPS:
            message = f"registration-inset: {i:g} mm is less than the {SILHOUETTE_INSET:g} mm Silhouette Studio accepts"
            raise UsageError(
                message, [Problem("command line", message, "0.625in for the Auto Sheet Feeder", code="usage")]
            )
        if W < 2 * (i + a) or H < 2 * (i + a):
            raise _too_small(kind, page)
        square = Box(i, i, i + s, i + s)
        top_right = (Box(W - i - a, i, W - i, i + t), Box(W - i - t, i, W - i, i + a))
        bottom_left = (Box(i, H - i - t, i + a, H - i), Box(i, H - i - a, i + t, H - i))
        ink = (square, *top_right, *bottom_left)
        zones = ink if version == 1 else (square, Box(W - i - a, i, W - i, i + a), Box(i, H - i - a, i + a, H - i))
        keep_out = tuple(_grow(b, CLEARANCE) for b in zones)
        return Registration(kind, page, ink, keep_out, Box(i, i, W - i, H - i), version, i)
    if kind == "cricut":
        aw, ah = orient(CRICUT_AREA, "portrait" if W <= H else "landscape")
        t, s = CRICUT_LINE, CRICUT_SQUARE
        if W < aw + 2 * (t + s) or H < ah + 2 * (t + s):
            raise _too_small(kind, page)
        x0, y0 = (W - aw) / 2, (H - ah) / 2
        x1, y1 = x0 + aw, y0 + ah
        frame = (
            Box(x0 - t, y0 - t, x1 + t, y0),
            Box(x0 - t, y1, x1 + t, y1 + t),
            Box(x0 - t, y0, x0, y1),
            Box(x1, y0, x1 + t, y1),
        )
        square = Box(x0 - t - s, y0 - t - s, x0 - t, y0 - t)
        drawn: tuple[Box, ...] = (*frame, square)
        keep_out = tuple(_grow(b, CLEARANCE) for b in drawn)  # where the frame was: the cards keep their places
        if version >= 2:  # Design Space prints its own marks round the image: printer prints none
            drawn = ()
        return Registration(kind, page, drawn, keep_out, Box(x0, y0, x1, y1), version)
    message = f"registration: {kind!r} is not one of {', '.join(REGISTRATIONS)}"
    raise UsageError(message, [Problem("command line", message, code="usage")])


def _too_small(kind: str, page: tuple[float, float]) -> UsageError:
    message = f"{kind} registration marks do not fit on a {page[0]:g} x {page[1]:g} mm sheet"
    return UsageError(message, [Problem("command line", message, "use Letter or A4", code="usage")])


def layout_clear(layout: SheetLayout, reg: Registration, count: int | None = None) -> bool:
    """Whether the first ``count`` slots (default all) keep clear of ``reg``'s marks and inside its area."""
    slots = layout.slots()[:count] if count is not None else layout.slots()
    return all(reg.inside(layout.trim_box(s)) and reg.clear(layout.bleed_box(s)) for s in slots)


def _positions(lo: float, hi: float, step: float = 0.5) -> list[float]:
    """Positions from ``lo`` to ``hi``, the middle one first, then outwards (for placing a block off centre)."""
    if hi < lo + EPS:
        return [(lo + hi) / 2]
    middle = (lo + hi) / 2
    n = int((hi - lo) / 2 / step)
    found = [middle]
    for k in range(1, n + 1):
        found += [middle - k * step, middle + k * step]
    return found + [lo, hi]


def fit_registered(  # noqa: PLR0913  mirrors fit_grid's geometry arguments, plus the mark kind, inset and version
    page: tuple[float, float],
    card: tuple[float, float],
    kind: str,
    gutter: float = 0.0,
    margin: float = 5.0,
    bleed: float = 0.0,
    orientation: str = "auto",
    inset: float | None = None,
    version: int = LAYOUT_VERSION,
) -> SheetLayout:
    """The largest grid of ``card`` (mm) on ``page`` that keeps clear of ``kind``'s registration marks.

    Every trim box lies inside the marks' area and at least ``margin`` from
    the sheet edge; no bleed box comes within :data:`CLEARANCE` mm of a
    mark (with ``version`` 2, of the square a Silhouette mark spans), for the
    marks at ``inset`` (:func:`registration_marks`). The block of cards is centred when it can be, else moved off
    centre (0.5 mm steps) as little as it takes. ``orientation`` is
    ``portrait``, ``landscape``, ``auto`` (more cards; portrait on a tie) or
    ``as-given``. Raises :class:`UsageError` when no card fits.
    """
    if orientation == "auto":
        pages = [orient(page, "portrait"), orient(page, "landscape")]
    elif orientation in ("portrait", "landscape"):
        pages = [orient(page, orientation)]
    else:
        pages = [page]
    w, h = card
    best: SheetLayout | None = None
    for P in pages:
        reg = registration_marks(kind, P, inset, version)
        if reg is None:  # "none": no marks to keep clear of
            raise ValueError("fit_registered needs silhouette or cricut")
        a = reg.area
        fx0, fy0 = max(a.x0, margin), max(a.y0, margin)
        fx1, fy1 = min(a.x1, P[0] - margin), min(a.y1, P[1] - margin)
        max_cols, max_rows = _count(fx1 - fx0, w, gutter), _count(fy1 - fy0, h, gutter)
        sizes = sorted(
            ((c, r) for c in range(1, max_cols + 1) for r in range(1, max_rows + 1)), key=lambda cr: -cr[0] * cr[1]
        )
        for cols, rows in sizes:
            if best is not None and cols * rows <= best.per_sheet:
                break
            found = _place(P, card, (cols, rows), gutter, margin, bleed, reg, (fx0, fy0, fx1, fy1))
            if found is not None:
                best = found
                break
    if best is None:
        message = f"a {w:g} x {h:g} mm card does not fit between the {kind} registration marks on a {page[0]:g} x {page[1]:g} mm sheet"
        raise UsageError(message, [Problem("command line", message, "choose a larger paper size", code="usage")])
    return best


def without_slot_by_mark(layout: SheetLayout, reg: Registration) -> SheetLayout:
    """``layout`` with the slot nearest the top-left mark (where the sensor starts reading) left empty.

    The other slots keep their places (an explicit layout of the rest,
    :class:`~printer.sheets.layout.SheetLayout`), so the cut and the backs
    stay where they were. A layout of one slot is returned as it is.
    """
    slots = layout.slots()
    if len(slots) < 2:
        return layout
    mark = reg.ink[0] if reg.ink else reg.keep_out[0]
    cx, cy = (mark.x0 + mark.x1) / 2, (mark.y0 + mark.y1) / 2

    def gap(slot: Slot) -> float:
        box = layout.trim_box(slot)
        dx = max(box.x0 - cx, cx - box.x1, 0.0)
        dy = max(box.y0 - cy, cy - box.y1, 0.0)
        return math.hypot(dx, dy)

    nearest = min(slots, key=gap)
    kept = tuple(s for s in slots if s is not nearest)
    return replace(layout, explicit=kept)


def _place(
    page: tuple[float, float],
    card: tuple[float, float],
    grid: tuple[int, int],
    gutter: float,
    margin: float,
    bleed: float,
    reg: Registration,
    frame: tuple[float, float, float, float],
) -> SheetLayout | None:
    """A ``grid`` (cols, rows) block placed inside ``frame`` clear of the marks, nearest the centre; ``None`` if none is."""
    cols, rows = grid
    w, h = card
    gw, gh = cols * w + (cols - 1) * gutter, rows * h + (rows - 1) * gutter
    fx0, fy0, fx1, fy1 = frame
    if gw > fx1 - fx0 + EPS or gh > fy1 - fy0 + EPS:
        return None
    for y in _positions(fy0, fy1 - gh):
        for x in _positions(fx0, fx1 - gw):
            layout = SheetLayout(page, card, cols, rows, gutter, margin, bleed, area=(x, y, x + gw, y + gh))
            if layout_clear(layout, reg):
                return layout
    return None


# -- cut outlines --------------------------------------------------------------------------------------------------


def outline_path(box: Box, radius: float = 0.0, fmt: str = "{:.4f}") -> str:
    """SVG path data (mm) of ``box`` with corners rounded by ``radius``: one closed path, clockwise from the top-left.

    ``radius`` is clamped to half the smaller side. Square corners give
    four straight lines; rounded ones four lines and four quarter arcs.
    """
    r = max(0.0, min(radius, box.width / 2, box.height / 2))
    x0, y0, x1, y1 = (fmt.format(v) for v in (box.x0, box.y0, box.x1, box.y1))
    if r <= EPS:
        return f"M {x0} {y0} H {x1} V {y1} H {x0} Z"
    f = fmt.format
    R = f(r)
    return (
        f"M {f(box.x0 + r)} {y0} H {f(box.x1 - r)} A {R} {R} 0 0 1 {x1} {f(box.y0 + r)} "
        f"V {f(box.y1 - r)} A {R} {R} 0 0 1 {f(box.x1 - r)} {y1} "
        f"H {f(box.x0 + r)} A {R} {R} 0 0 1 {x0} {f(box.y1 - r)} "
        f"V {f(box.y0 + r)} A {R} {R} 0 0 1 {f(box.x0 + r)} {y0} Z"
    )


def outline_polyline(box: Box, radius: float, page_height: float) -> list[tuple[float, float, float]]:
    """``(x, y, bulge)`` vertices of the closed outline for a DXF ``LWPOLYLINE``, y turned upwards.

    DXF's y axis points up, so ``y`` here is ``page_height - y`` on the
    sheet: the drawing lies as on the sheet with its origin at the sheet's
    bottom-left corner. A vertex's bulge shapes the segment to the next
    vertex (``-tan(22.5 deg)``: a clockwise quarter circle; 0: straight).
    """
    r = max(0.0, min(radius, box.width / 2, box.height / 2))
    H = page_height
    x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
    if r <= EPS:
        return [(x0, H - y0, 0.0), (x1, H - y0, 0.0), (x1, H - y1, 0.0), (x0, H - y1, 0.0)]
    b = -QUARTER_BULGE
    return [
        (x0 + r, H - y0, 0.0),
        (x1 - r, H - y0, b),
        (x1, H - y0 - r, 0.0),
        (x1, H - y1 + r, b),
        (x1 - r, H - y1, 0.0),
        (x0 + r, H - y1, b),
        (x0, H - y1 + r, 0.0),
        (x0, H - y0 - r, b),
    ]


def sheet_slots(layout: SheetLayout, n_items: int) -> list[list[Slot]]:
    """The front slots used on each sheet when ``n_items`` cards are printed on ``layout``, sheet by sheet."""
    slots = layout.slots()
    per = layout.per_sheet
    return [slots[: min(per, n_items - start)] for start in range(0, n_items, per)]
