"""The net of a tuck box, computed in millimetres from the card size and the deck's thickness.

The box is a double tuck-end box: five panels side by side, **glue flap |
back | side | front | side**, with a lid and a tuck flap above the back, a
bottom lid and a tuck flap below the front, two dust flaps on each end of
the side panels and a thumb notch cut into the top of the front. Folds are
dashed, cuts solid (:mod:`printer.box.draw`). Origin at the top-left of the
net, x to the right, y down.

**Sizes.** The inside must hold the deck plus a clearance: ``width = card
width + clearance``, ``height = card height + clearance``, ``depth = deck
thickness + clearance``. A panel is measured between the middles of its two
folds; folded to 90 degrees, card stock of thickness ``t`` takes half its
thickness at each fold, so each panel is the inside plus ``t``. The tuck
flap is 0.8 x the depth, kept between :data:`TUCK_MIN` and :data:`TUCK_MAX`
(the common proportion of commercial tuck boxes); dust flaps are as high as
the depth (at most half the front's width); the glue flap is 0.6 x the
depth, between 8 and 12 mm; the thumb notch is a half circle of 0.12 x the
width, between 6 and 10 mm in radius.

A net too large for the page in either orientation is split in two pieces
at the fold between the first side and the front: **glue | back | side |
glue** and **front | side**; the second glue flap joins them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TUCK_MIN, TUCK_MAX = 12.0, 22.0
#: thickness of one card (mm): a common 300 g/m2 card stock, sleeveless
CARD_THICKNESS = 0.3
#: room added to the deck in every direction (mm)
CLEARANCE = 1.0
#: thickness of the box's card stock (mm)
PAPER_THICKNESS = 0.3
#: space kept between the net and the page edge (mm): home printers do not print closer
PAGE_MARGIN = 6.0
#: how far the glue flap's ends are cut back (mm)
GLUE_TAPER = 4.0


@dataclass(frozen=True)
class BoxSpec:
    """What the box holds: ``card`` (width, height) mm, ``depth`` of the deck mm, and the tolerances (mm)."""

    card: tuple[float, float]
    depth: float
    clearance: float = CLEARANCE
    paper: float = PAPER_THICKNESS

    @property
    def inside(self) -> tuple[float, float, float]:
        """The room the box must leave inside: width, height, depth (mm)."""
        return (self.card[0] + self.clearance, self.card[1] + self.clearance, self.depth + self.clearance)


@dataclass(frozen=True)
class Panel:
    """A panel of the net: ``name`` (``back``, ``front``, ``side``, ``glue``, ``lid``, ``tuck``, ``dust``), its box (mm)."""

    name: str
    x: float
    y: float
    w: float
    h: float
    piece: int = 0


@dataclass(frozen=True)
class Line:
    """A straight fold from (x1, y1) to (x2, y2), mm."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass
class NetPiece:
    """One piece to cut out: its closed cut ``outline`` (an SVG path in mm), ``folds``, ``panels`` and size (mm)."""

    outline: str
    folds: list[Line]
    panels: list[Panel]
    size: tuple[float, float]


@dataclass
class Net:
    """A box net: ``pieces`` (one, or two when split), the panel sizes (mm) and the flap sizes (mm)."""

    spec: BoxSpec
    pieces: list[NetPiece]
    panel_width: float
    panel_height: float
    panel_depth: float
    tuck: float
    dust: float
    glue: float
    notch: float
    notes: list[str] = field(default_factory=list)


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def _f(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


class _Path:
    """An SVG path built point by point (absolute coordinates, mm)."""

    def __init__(self, x: float, y: float):
        self.parts = [f"M {_f(x)} {_f(y)}"]
        self.at = (x, y)

    def line(self, x: float, y: float) -> None:
        if (abs(x - self.at[0]) > 1e-9) or (abs(y - self.at[1]) > 1e-9):
            self.parts.append(f"L {_f(x)} {_f(y)}")
        self.at = (x, y)

    def arc(self, r: float, x: float, y: float, sweep: int) -> None:
        self.parts.append(f"A {_f(r)} {_f(r)} 0 0 {sweep} {_f(x)} {_f(y)}")
        self.at = (x, y)

    def close(self) -> str:
        return " ".join(self.parts + ["Z"])


def box_net(spec: BoxSpec, split: bool = False) -> Net:
    """The net for ``spec``: one piece, or two with ``split`` (see the module docstring)."""
    iw, ih, idp = spec.inside
    pw, ph, pd = iw + spec.paper, ih + spec.paper, idp + spec.paper
    tuck = clamp(0.8 * pd, TUCK_MIN, TUCK_MAX)
    dust = clamp(pd, 6.0, pw / 2)
    glue = clamp(0.6 * pd, 8.0, 12.0)
    notch = clamp(0.12 * pw, 6.0, 10.0)
    columns = [("glue-left", glue), ("back", pw), ("side", pd), ("front", pw), ("side", pd)]
    groups = [columns[:3] + [("glue-right", glue)], columns[3:]] if split else [columns]
    net = Net(spec, [], pw, ph, pd, tuck, dust, glue, notch)
    for index, group in enumerate(groups):
        net.pieces.append(_piece(group, index, pw, ph, pd, tuck, dust, notch))
    if split:
        net.notes.append("split in two pieces: glue the second glue flap under the front's free edge")
    return net


def _piece(
    columns: list[tuple[str, float]],
    index: int,
    pw: float,
    ph: float,
    pd: float,
    tuck: float,
    dust: float,
    notch: float,
) -> NetPiece:
    top = max(_top_extent(kind, pd, tuck, dust) for kind, _ in columns)
    bottom = max(_bottom_extent(kind, pd, tuck, dust) for kind, _ in columns)
    b0, b1 = top, top + ph
    xs = [0.0]
    for _, width in columns:
        xs.append(xs[-1] + width)
    panels: list[Panel] = []
    folds: list[Line] = []
    first_kind = columns[0][0]
    path = _Path(0.0, b0 + GLUE_TAPER if first_kind == "glue-left" else b0)
    for (kind, width), x in zip(columns, xs):
        _top_profile(path, kind, x, width, b0, pd, tuck, dust, notch)
    last_kind = columns[-1][0]
    path.line(xs[-1], b1 - GLUE_TAPER if last_kind == "glue-right" else b1)
    for (kind, width), x in reversed(list(zip(columns, xs))):
        _bottom_profile(path, kind, x, width, b1, pd, tuck, dust)
    outline = path.close()
    for i, ((kind, width), x) in enumerate(zip(columns, xs)):
        name = "glue" if kind.startswith("glue") else kind
        panels.append(Panel(name, x, b0, width, ph, index))
        if i:
            folds.append(Line(x, b0, x, b1))
        if kind == "back":
            folds += [Line(x, b0, x + width, b0), Line(x, b0 - pd, x + width, b0 - pd)]
            panels += [Panel("lid", x, b0 - pd, width, pd, index), Panel("tuck", x, b0 - pd - tuck, width, tuck, index)]
        elif kind == "front":
            folds += [Line(x, b1, x + width, b1), Line(x, b1 + pd, x + width, b1 + pd)]
            panels += [Panel("lid", x, b1, width, pd, index), Panel("tuck", x, b1 + pd, width, tuck, index)]
        elif kind == "side":
            folds += [Line(x, b0, x + width, b0), Line(x, b1, x + width, b1)]
            panels += [Panel("dust", x, b0 - dust, width, dust, index), Panel("dust", x, b1, width, dust, index)]
    return NetPiece(outline, folds, panels, (xs[-1], b1 + bottom))


def _top_extent(kind: str, pd: float, tuck: float, dust: float) -> float:
    return {"back": pd + tuck, "side": dust}.get(kind, 0.0)


def _bottom_extent(kind: str, pd: float, tuck: float, dust: float) -> float:
    return {"front": pd + tuck, "side": dust}.get(kind, 0.0)


def _taper(width: float, dust: float) -> float:
    return min(0.5 * dust, 0.4 * width)


def _top_profile(
    path: _Path, kind: str, x: float, width: float, b0: float, pd: float, tuck: float, dust: float, notch: float
) -> None:
    """The cut along the top of one column, left to right, ending at its right fold."""
    right = x + width
    if kind == "glue-left":
        path.line(right, b0)
    elif kind == "glue-right":
        path.line(x, b0)
        path.line(right, b0 + GLUE_TAPER)
    elif kind == "back":
        r = min(tuck * 0.4, 5.0)
        top = b0 - pd - tuck
        path.line(x, top + r)
        path.arc(r, x + r, top, 1)
        path.line(right - r, top)
        path.arc(r, right, top + r, 1)
        path.line(right, b0)
    elif kind == "side":
        t = _taper(width, dust)
        path.line(x + min(2.0, width * 0.15), b0 - dust)
        path.line(right - t, b0 - dust)
        path.line(right, b0 - 0.4 * dust)
        path.line(right, b0)
    elif kind == "front":
        centre = x + width / 2
        path.line(centre - notch, b0)
        path.arc(notch, centre + notch, b0, 0)
        path.line(right, b0)


def _bottom_profile(
    path: _Path, kind: str, x: float, width: float, b1: float, pd: float, tuck: float, dust: float
) -> None:
    """The cut along the bottom of one column, right to left, ending at its left fold."""
    if kind == "glue-right":
        path.line(x, b1)
    elif kind == "glue-left":
        path.line(x, b1 - GLUE_TAPER)
    elif kind == "back":
        path.line(x, b1)
    elif kind == "side":
        t = _taper(width, dust)
        right = x + width
        path.line(right, b1 + 0.4 * dust)
        path.line(right - t, b1 + dust)
        path.line(x + min(2.0, width * 0.15), b1 + dust)
        path.line(x, b1)
    elif kind == "front":
        r = min(tuck * 0.4, 5.0)
        right = x + width
        bottom = b1 + pd + tuck
        path.line(right, bottom - r)
        path.arc(r, right - r, bottom, 1)
        path.line(x + r, bottom)
        path.arc(r, x, bottom - r, 1)
        path.line(x, b1)


def fits(size: tuple[float, float], page: tuple[float, float], margin: float = PAGE_MARGIN) -> str | None:
    """``portrait`` or ``landscape`` when a piece of ``size`` mm fits ``page`` (portrait, mm) inside ``margin``."""
    w, h = size
    W, H = min(page), max(page)
    if w <= W - 2 * margin and h <= H - 2 * margin:
        return "portrait"
    if w <= H - 2 * margin and h <= W - 2 * margin:
        return "landscape"
    return None


def deck_depth(cards: int, card_thickness: float = CARD_THICKNESS) -> float:
    """The thickness of a deck of ``cards`` cards (mm), at least one card's."""
    return max(1, cards) * card_thickness
