"""Components that are not cards: tokens, tiles and boards, each kind with its own trim size and shape.

A game declares them in its ``printer.toml`` table, one sub-table per component kind::

    [games.mygame.components.tile]
    kind = "tile"              # token, tile or board
    shape = "hex"              # token: round | square; tile: square | hex; board: rect
    size = "60x51.96mm"        # the trim box (a hex's and a round token's bounding box), WxH
    when = { type = "Tile" }   # the cards it holds: card field -> value (or a list of values)
    copies_field = "count"     # optional: the card field giving how many to print (default: the card's copies)
    per_player = true          # optional: print them all once per player (printer.sheets.players)
    overlap = 10               # boards only: mm shared by neighbouring pages (default 10)

Cards matching a declaration leave the card sheets and print in ``<game>-components.pdf``:

- *Tokens and tiles* of every size are packed together on sheets by rectpack (Apache-2.0; its offline
  global best-fit packing, no rotation), ``gap`` mm apart (twice the bleed, at least 2 mm, so each piece
  keeps its full bleed), inside the sheet's margins. Each front sheet is followed by its back sheet;
  every back lies behind its front under the duplex flip, piece by piece, computed by the same
  :meth:`printer.sheets.layout.SheetLayout.back_slot` as the cards' backs. The cut line of each piece
  follows its shape: a rectangle, a circle (``round``) or a hexagon (``hex``: flat-topped when the box is
  wider than tall, pointy-topped otherwise; the box must have the regular hexagon's proportions,
  height = width x sqrt(3)/2 or the reverse).
- *Boards* (player mats, maps) may be larger than a sheet: a board is cut into a grid of pages, each
  holding a window of the printable area; neighbouring windows share ``overlap`` mm. On each page a
  dashed guide marks where the neighbouring page's window starts (trim one page along it and lay it over
  the other), and alignment crosses sit in the middle of each overlap strip, at the same board
  positions on both pages, so the pages can be taped together in register. A board prints without a back
  (a blank page follows each board page when printing duplex, so no board page lands on another's back).

Every face is laid out once at its own trim size plus the bleed and imposed on the sheets like the
cards' faces (:mod:`printer.sheets.impose`), through the same face cache. Lengths are mm; the origin is
the sheet's top-left corner, y downwards (as in :mod:`printer.sheets.layout`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from printer.limits import hint as limit_hint
from printer.problems import Problem
from printer.sheets.layout import EPS, Box, Segment, SheetLayout, Slot
from printer.sheets.placed import Face, Sheet, card_bleed
from printer.sheets.words import board_caption
from printer.units import parse_length, parse_size

#: the component kinds and the shapes each may have (the first is the default)
KINDS: dict[str, tuple[str, ...]] = {"token": ("round", "square"), "tile": ("square", "hex"), "board": ("rect",)}
#: hexagon proportions: the short side of a regular hexagon's bounding box over the long one
HEX_RATIO = math.sqrt(3) / 2
#: how far off the regular proportions a hex box may be (0.5 %)
HEX_TOLERANCE = 0.005
#: packing unit: rectpack works on integers, so sizes are packed in hundredths of a mm
UNIT = 100
#: length of each arm of a board's alignment cross (mm)
CROSS = 4.0


@dataclass(frozen=True)
class Component:
    """One declared component kind: ``name`` (its table's key), ``kind``, ``shape``, trim ``size`` (w, h mm),
    ``when`` (card field -> accepted values), ``copies_field``, a board's ``overlap`` (mm) and ``per_player``
    (printed once per player, :mod:`printer.sheets.players`)."""

    name: str
    kind: str
    shape: str
    size: tuple[float, float]
    when: tuple[tuple[str, tuple[str, ...]], ...] = ()
    copies_field: str | None = None
    overlap: float = 10.0
    per_player: bool = False

    def holds(self, data: Mapping[str, Any]) -> bool:
        """True when a card's data matches every ``when`` field."""
        return bool(self.when) and all(str(data.get(f)) in values for f, values in self.when)

    def view(self) -> dict[str, Any]:
        """What templates see as ``component``: name, kind, shape, width and height (mm)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "shape": self.shape,
            "width": self.size[0],
            "height": self.size[1],
        }


def read_components(
    table: Any, game_id: str, where: str, page: tuple[float, float], margin: float, max_size: float = 2000.0
) -> tuple[list[Component], list[Problem]]:
    """The ``[games.<id>.components.*]`` tables of ``printer.toml`` (``where``) as :class:`Component` s.

    ``page`` is the sheet (mm) and ``margin`` the sheet margin: a token or tile must fit inside it, and a
    board's overlap must leave room on a page; no side may pass ``max_size`` mm (the ``size_mm`` limit of
    :mod:`printer.limits`). Returns ``(components, problems)``; each problem names the
    table and key (``printer.toml: [games.g.components.c] shape``) and says what would be accepted.
    """
    components: list[Component] = []
    problems: list[Problem] = []
    if table is None:
        return components, problems
    if not isinstance(table, dict):
        return [], [
            Problem(f"{where}: [games.{game_id}] components", "must be a table of component kinds", code="component")
        ]
    for name, spec in table.items():
        at = f"{where}: [games.{game_id}.components.{name}]"

        def bad(key: str, message: str, hint: str, at: str = at) -> None:
            problems.append(Problem(f"{at} {key}".rstrip(), message, hint, code="component"))

        component = _read_component(str(name), spec, page, margin, max_size, bad)
        if component is not None:
            components.append(component)
    return components, problems


#: ``bad(key, message, hint)`` reports a problem with a key of the component's table
_Bad = Callable[[str, str, str], None]


def _read_component(
    name: str, spec: Any, page: tuple[float, float], margin: float, max_size: float, bad: _Bad
) -> Component | None:
    """One component table as a :class:`Component`, or ``None`` once ``bad`` is told what is wrong with it."""
    if not isinstance(spec, dict):
        bad(
            "",
            "must be a table (kind, shape, size, when)",
            'e.g. kind = "token", shape = "round", size = "25x25mm"',
        )
        return None
    kind = spec.get("kind")
    if kind not in KINDS:
        bad("kind", f"unknown component kind {kind!r}", "one of " + ", ".join(KINDS))
        return None
    shape = spec.get("shape", KINDS[kind][0])
    if shape not in KINDS[kind]:
        bad("shape", f"a {kind} cannot be {shape!r}", f"a {kind} is " + " or ".join(KINDS[kind]))
        return None
    size = _component_size(spec, kind, shape, max_size, bad)
    if size is None:
        return None
    overlap = _component_room(spec, kind, size, page, margin, max_size, bad)
    if overlap is None:
        return None
    when = spec.get("when")
    if not isinstance(when, dict) or not when:
        bad(
            "when",
            "says which cards are this component: a table of card field = value",
            'e.g. when = { type = "Token" }',
        )
        return None
    pairs = tuple(
        (str(f), tuple(str(v) for v in (values if isinstance(values, list) else [values])))
        for f, values in when.items()
    )
    copies = spec.get("copies_field")
    each = spec.get("per_player", False)
    if not isinstance(each, bool):
        bad("per_player", f"must be true or false, not {each!r}", "per_player = true prints them once per player")
        return None
    return Component(name, kind, shape, size, pairs, str(copies) if copies else None, overlap, each)


def _component_size(
    spec: dict[str, Any], kind: str, shape: str, max_size: float, bad: _Bad
) -> tuple[float, float] | None:
    """A component's ``size`` (mm), or ``None`` once ``bad`` is told it is no size or not its shape's box."""
    try:
        size = parse_size(str(spec.get("size", "")), {}, "component size", max_size)
    except Exception as exc:  # a UsageError naming the text
        bad("size", f"not a size: {spec.get('size')!r} ({exc})", 'give width x height with a unit, e.g. "25x25mm"')
        return None
    w, h = size
    if max(w, h) > max_size:
        bad("size", f"{w:g} x {h:g} mm is over the {max_size:g} mm limit on a side", limit_hint("size_mm"))
        return None
    if shape == "round" and abs(w - h) > EPS:
        bad("size", f"a round {kind} needs a square box, not {w:g} x {h:g} mm", f'e.g. "{w:g}x{w:g}mm"')
        return None
    if shape == "hex" and abs(min(w, h) / max(w, h) - HEX_RATIO) > HEX_TOLERANCE:
        bad(
            "size",
            f"{w:g} x {h:g} mm is not a regular hexagon's box",
            f'the short side is the long one x 0.866: e.g. "{w:g}x{w * HEX_RATIO:.2f}mm" (flat-topped)',
        )
        return None
    return size


def _component_room(
    spec: dict[str, Any],
    kind: str,
    size: tuple[float, float],
    page: tuple[float, float],
    margin: float,
    max_size: float,
    bad: _Bad,
) -> float | None:
    """A component's board overlap (mm; 10 for what is not a board), or ``None`` once ``bad`` is told that a
    token or tile does not fit on the sheet or a board's overlap leaves no room on a page."""
    w, h = size
    W, H = page
    room = (W - 2 * margin, H - 2 * margin)
    if kind != "board" and (w > room[0] + EPS or h > room[1] + EPS):
        bad(
            "size",
            f"a {w:g} x {h:g} mm {kind} fits no {W:g} x {H:g} mm sheet with {margin:g} mm margins",
            f"at most {room[0]:g} x {room[1]:g} mm; declare it a board to tile it over several pages",
        )
        return None
    overlap = 10.0
    if kind == "board":
        try:
            overlap = parse_length(spec.get("overlap", 10), "overlap", max_mm=max_size)
        except Exception as exc:
            bad("overlap", f"not a length: {exc}", "e.g. overlap = 10 (mm)")
            return None
        if not 0 <= overlap < min(room) / 2:
            bad(
                "overlap",
                f"an overlap of {overlap:g} mm leaves no room on a page",
                f"less than {min(room) / 2:g} mm",
            )
            return None
    return overlap


def shape_path(component: Component, box: Box) -> str:
    """The closed cut line of a piece whose trim box is ``box``: SVG path data in mm."""
    x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1

    def f(v: float) -> str:
        return f"{v:.4f}"

    if component.shape == "round":
        r = box.width / 2
        cy = (y0 + y1) / 2
        return f"M {f(x0)} {f(cy)} A {f(r)} {f(r)} 0 1 1 {f(x1)} {f(cy)} A {f(r)} {f(r)} 0 1 1 {f(x0)} {f(cy)} Z"
    if component.shape == "hex":
        points = hex_points(box)
        return "M " + " L ".join(f"{f(x)} {f(y)}" for x, y in points) + " Z"
    return f"M {f(x0)} {f(y0)} H {f(x1)} V {f(y1)} H {f(x0)} Z"


def hex_points(box: Box) -> list[tuple[float, float]]:
    """The six corners of the regular hexagon inscribed in ``box`` (flat-topped when wider than tall)."""
    x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if box.width >= box.height:
        q = box.width / 4
        return [(x0 + q, y0), (x1 - q, y0), (x1, cy), (x1 - q, y1), (x0 + q, y1), (x0, cy)]
    q = box.height / 4
    return [(cx, y0), (x1, y0 + q), (x1, y1 - q), (cx, y1), (x0, y1 - q), (x0, y0 + q)]


def pack(
    sizes: Sequence[tuple[float, float]], area: tuple[float, float, float, float], gap: float
) -> list[list[tuple[int, float, float]]]:
    """Pieces of ``sizes`` (w, h mm) packed on as few sheets as rectpack finds, ``gap`` mm apart, inside ``area``.

    Returns one list per sheet of ``(index into sizes, x, y)``: each piece's trim box top-left (mm). Pieces are
    not turned (a turned piece would need its back turned too; the art reads upright). Raises ``ValueError``
    when a piece is larger than ``area``.
    """
    from rectpack import PackingBin, PackingMode, newPacker

    x0, y0, x1, y1 = area
    g = round(gap * UNIT)
    bw, bh = round((x1 - x0) * UNIT) + g, round((y1 - y0) * UNIT) + g
    packer = newPacker(mode=PackingMode.Offline, bin_algo=PackingBin.Global, rotation=False)
    for i, (w, h) in enumerate(sizes):
        rw, rh = math.ceil(w * UNIT) + g, math.ceil(h * UNIT) + g
        if rw > bw or rh > bh:
            raise ValueError(f"a {w:g} x {h:g} mm piece does not fit in {x1 - x0:g} x {y1 - y0:g} mm")
        packer.add_rect(rw, rh, i)
    packer.add_bin(bw, bh, count=float("inf"))
    packer.pack()
    sheets: dict[int, list[tuple[int, float, float]]] = {}
    for b, x, y, _, _, i in packer.rect_list():
        sheets.setdefault(b, []).append((i, x0 + x / UNIT, y0 + y / UNIT))
    placed = sum(len(s) for s in sheets.values())
    if placed != len(sizes):
        raise ValueError(f"rectpack placed {placed} of {len(sizes)} pieces")
    return [sorted(sheets[b], key=lambda p: (round(p[2], 2), p[1])) for b in sorted(sheets)]


@dataclass
class Piece:
    """One printed piece: its ``component``, front and back HTML with their face keys, and a ``label``."""

    component: Component
    front: tuple[Any, str]
    back: tuple[Any, str] | None
    label: str


@dataclass
class ComponentSheets:
    """The sheets of a components PDF and what they hold (for the build's summary)."""

    sheets: list[Sheet] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    board_pages: int = 0
    #: the work done, as :attr:`printer.sheets.engine.documents.Engine.stats` counts it (``faces laid out``, ``faces from cache``)
    stats: dict[str, float] = field(default_factory=dict)
    #: the files the pieces' faces show (:func:`printer.sheets.output.cached.named_files`), found with a face cache
    named: list[Path] = field(default_factory=list)


def piece_sheets(  # noqa: PLR0913  sheet geometry as the options give it; defaults keep callers short
    pieces: Sequence[Piece],
    page: tuple[float, float],
    margin: float,
    bleed: float,
    safe: float,
    duplex: str,
    back_offset: tuple[float, float] = (0.0, 0.0),
    outlines: bool = True,
    number: int = 1,
) -> list[Sheet]:
    """Tokens and tiles packed on ``page``: a front sheet, then (unless ``duplex`` is ``none``) its back sheet.

    ``duplex`` is ``long-edge`` or ``short-edge`` (``fold`` prints backs as long-edge here: pieces of mixed
    sizes do not pair across a fold). Each back lies behind its front (:meth:`SheetLayout.back_slot`).
    """
    W, H = page
    gap = max(2 * bleed, 2.0)
    placed = pack([p.component.size for p in pieces], (margin, margin, W - margin, H - margin), gap)
    flip = "short-edge" if duplex == "short-edge" else "long-edge"
    sheets: list[Sheet] = []
    full = (bleed, bleed, bleed, bleed)
    for n, placements in enumerate(placed, number):
        front, back = Sheet("front", number=n), Sheet("back", number=n)
        for index, x, y in placements:
            piece = pieces[index]
            w, h = piece.component.size
            html, key = piece.front
            front.faces.append(Face(html, x, y, w, h, 0, piece.label, full, bleed, safe, key))
            if outlines:
                front.outlines.append(shape_path(piece.component, Box(x, y, x + w, y + h)))
            if piece.back is None or duplex == "none":
                continue
            one = SheetLayout(page, (w, h), 1, 1, explicit=(Slot(x, y),))
            slot, rotate = one.back_slot(one.slots()[0], flip, back_offset)
            html, key = piece.back
            back.faces.append(
                Face(html, slot.x, slot.y, w, h, rotate, piece.label, card_bleed(full, rotate), bleed, safe, key)
            )
        sheets += [front] + ([back] if duplex != "none" else [])
    return sheets


@dataclass(frozen=True)
class Window:
    """One page of a board: the part ``(x0, y0, x1, y1)`` of the board (mm from its top-left) it prints,
    its ``row`` and ``col`` in the grid of ``rows`` x ``cols`` pages."""

    x0: float
    y0: float
    x1: float
    y1: float
    row: int
    col: int
    rows: int
    cols: int


def _spans(length: float, room: float, overlap: float) -> list[tuple[float, float]]:
    if length <= room + EPS:
        return [(0.0, length)]
    count = math.ceil((length - overlap) / (room - overlap) - 1e-9)
    step = (length - overlap) / count  # equal windows: every page prints the same share of the board
    return [(i * step, i * step + step + overlap) for i in range(count)]


def board_windows(size: tuple[float, float], room: tuple[float, float], overlap: float) -> list[Window]:
    """The pages a board of ``size`` (mm) is cut into when a page prints ``room`` (mm), row by row.

    Neighbouring windows share exactly ``overlap`` mm; a board that fits one page is one window.
    """
    xs, ys = _spans(size[0], room[0], overlap), _spans(size[1], room[1], overlap)
    return [
        Window(x0, y0, x1, y1, r, c, len(ys), len(xs)) for r, (y0, y1) in enumerate(ys) for c, (x0, x1) in enumerate(xs)
    ]


def _cross(x: float, y: float) -> list[Segment]:
    return [Segment(x - CROSS, y, x + CROSS, y), Segment(x, y - CROSS, x, y + CROSS)]


def board_sheets(
    piece: Piece, page: tuple[float, float], margin: float, bleed: float, safe: float, duplex: str, number: int = 1
) -> list[Sheet]:
    """A board's pages: each window centred in the printable area, with its guides, crosses and trim edges.

    Each page draws the board face moved so that its window lies inside the margins and clipped to the
    window (the board's own edges keep their bleed). ``marks`` hold the board's trim edges on that page and
    the alignment crosses; ``guides`` the dashed lines where the neighbouring windows start. With
    ``duplex`` other than ``none`` a blank back follows each page.
    """
    W, H = page
    bw, bh = piece.component.size
    overlap = piece.component.overlap
    windows = board_windows((bw, bh), (W - 2 * margin, H - 2 * margin), overlap)
    html, key = piece.front
    sheets: list[Sheet] = []
    for n, win in enumerate(windows, number):
        ox = (W - (win.x1 - win.x0)) / 2 - win.x0  # sheet x of the board's left edge
        oy = (H - (win.y1 - win.y0)) / 2 - win.y0
        left = bleed if win.x0 <= EPS else -win.x0
        top = bleed if win.y0 <= EPS else -win.y0
        right = bleed if win.x1 >= bw - EPS else win.x1 - bw
        bottom = bleed if win.y1 >= bh - EPS else win.y1 - bh
        sheet = Sheet("front", number=n)
        sheet.board = (piece.label, win.row + 1, win.col + 1, win.rows, win.cols)
        sheet.caption = board_caption(*sheet.board)
        sheet.faces.append(Face(html, ox, oy, bw, bh, 0, piece.label, (left, top, right, bottom), bleed, safe, key))
        sx0, sy0, sx1, sy1 = ox + win.x0, oy + win.y0, ox + win.x1, oy + win.y1  # the window on the sheet
        edges = []
        if win.x0 <= EPS:
            edges.append(Segment(sx0, sy0, sx0, sy1))
        if win.x1 >= bw - EPS:
            edges.append(Segment(sx1, sy0, sx1, sy1))
        if win.y0 <= EPS:
            edges.append(Segment(sx0, sy0, sx1, sy0))
        if win.y1 >= bh - EPS:
            edges.append(Segment(sx0, sy1, sx1, sy1))
        crosses: list[Segment] = []
        guides: list[Segment] = []
        for at_start, at_end, lo, hi, vertical in (
            (win.x0 > EPS, win.x1 < bw - EPS, win.y0, win.y1, True),
            (win.y0 > EPS, win.y1 < bh - EPS, win.x0, win.x1, False),
        ):
            strips = []
            if at_start:  # the strip shared with the previous page
                start = win.x0 if vertical else win.y0
                strips.append((start, start + overlap))
            if at_end:
                end = win.x1 if vertical else win.y1
                strips.append((end - overlap, end))
            for a, b in strips:
                mid = (a + b) / 2
                for t in (lo + (hi - lo) / 4, lo + 3 * (hi - lo) / 4):
                    crosses += _cross(ox + mid, oy + t) if vertical else _cross(ox + t, oy + mid)
                line = b if (a, b) == strips[0] and at_start else a
                if vertical:
                    guides.append(Segment(ox + line, sy0, ox + line, sy1))
                else:
                    guides.append(Segment(sx0, oy + line, sx1, oy + line))
        sheet.marks = edges + crosses
        sheet.guides = guides
        sheets.append(sheet)
        if duplex != "none":
            sheets.append(Sheet("back", number=n))
    return sheets


def compose_components(
    groups: Sequence[tuple[Component, Sequence[Piece]]],
    page: tuple[float, float],
    margin: float,
    bleed: float,
    safe: float,
    duplex: str,
    back_offset: tuple[float, float] = (0.0, 0.0),
    outlines: bool = True,
) -> ComponentSheets:
    """Every sheet of a components PDF: tokens and tiles packed together (fronts, backs), then each board's pages."""
    result = ComponentSheets()
    small = [p for c, pieces in groups if c.kind != "board" for p in pieces]
    for c, pieces in groups:
        result.counts[c.name] = result.counts.get(c.name, 0) + len(pieces)
    if small:
        result.sheets += piece_sheets(small, page, margin, bleed, safe, duplex, back_offset, outlines)
    for c, pieces in groups:
        if c.kind != "board":
            continue
        for piece in pieces:
            number = sum(1 for s in result.sheets if s.side == "front") + 1
            pages = board_sheets(piece, page, margin, bleed, safe, duplex, number)
            result.board_pages += sum(1 for s in pages if s.side == "front")
            result.sheets += pages
    return result


def _pieces(component: Component, items: Sequence[Any], job: Any) -> list[Piece]:
    """A piece per print item of ``component``, its faces (a board has no back) keyed under the component's name."""
    prefix = component.name + "/"
    pieces = []
    for item in items:
        html, key = job.faces.front(item)
        back = None
        if component.kind != "board":
            bhtml, bkey = job.faces.back(item)
            back = (bhtml, prefix + bkey)
        pieces.append(Piece(component, (html, prefix + key), back, item.name))
    return pieces


def build_components(
    groups: Sequence[tuple[Component, Sequence[Any]]],
    job_for: Callable[[Component], Any],
    page: tuple[float, float],
    target: Path,
    title: str,
    workers: Any = None,
    spec_for: Callable[[Component], Any] | None = None,
    cache: Any = None,
) -> tuple[ComponentSheets, list[Problem]]:
    """Print ``groups`` (each component with its print items) to the PDF ``target``; returns the sheets and problems.

    ``job_for(component)`` gives a :class:`~printer.sheets.job.SheetJob` whose options' card size is the
    component's trim size (and whose renderer shows the templates ``component``); ``spec_for(component)`` the
    :class:`~printer.sheets.parallel.JobSpec` its workers rebuild it from. Each component's distinct faces are
    laid out once at its own size (in this process or on ``workers``, through ``cache``), the sheets' chrome
    once, and the faces imposed (:func:`printer.sheets.impose.impose`, each face page with its own size).
    """
    from printer.fsutil import atomic_open
    from printer.sheets.export.faces import page_layout
    from printer.sheets.impose import impose
    from printer.sheets.output.cached import CachedFaces, named_files
    from printer.sheets.output.chrome import chrome_pdf
    from printer.sheets.parallel import lay_out_faces

    problems: list[Problem] = []
    pieces_by: list[tuple[Component, list[Piece]]] = []
    faces: dict[str, tuple[bytes | Path, int]] = {}
    geometry: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
    jobs = []
    named: list[Path] = []
    opts = None
    for component, items in groups:
        job = job_for(component)
        jobs.append(job)
        opts = job.opts
        prefix = component.name + "/"
        pieces = _pieces(component, items, job)
        pieces_by.append((component, pieces))
        keys = list(dict.fromkeys(k for p in pieces for k in ([p.front[1]] + ([p.back[1]] if p.back else []))))
        own = [k[len(prefix) :] for k in keys]
        cached = CachedFaces(job, cache) if cache is not None else None
        job.faces.use_cache(cache, cached.context() if cached is not None else None)
        found, more = cached.found(own) if cached is not None else ({}, [])
        named += named_files(job, items, own) if cached is not None else []
        todo = [k for k in own if k not in found]
        spec = spec_for(component) if spec_for else None
        laid_out, more2 = lay_out_faces(job, todo, title, workers, spec)
        if cached is not None and laid_out:
            cached.store(laid_out, more2)
        found.update(laid_out)
        problems += [p for p in more + more2 + job.fitter.fit_problems() + job.renderer.problems if p not in problems]
        job.engine.stats["faces from cache"] += len(own) - len(todo)
        job.engine.stats["faces laid out"] += len(todo)
        face_layout = page_layout(job, with_bleed=True)
        slot = face_layout.slots()[0]
        for k in own:
            faces[prefix + k] = found[k]
            geometry[prefix + k] = (face_layout.page, (slot.x, slot.y))
    assert opts is not None, "no component groups"
    result = compose_components(
        pieces_by, page, opts.margin, opts.bleed, opts.safe, opts.duplex, opts.back_offset, opts.marks != "none"
    )
    job = jobs[0]
    layout = SheetLayout(page, opts.card, 1, 1)
    chrome = [replace(sheet, faces=[]) for sheet in result.sheets]
    htmls = [job.renderer.document(chrome, layout, marks=False, title=title, css=job.engine.extra_css)]
    chrome_data, more = chrome_pdf(job, htmls, title)
    problems += [p for p in more if p not in problems]
    first = next(iter(geometry.values()))
    data, _ = impose(chrome_data, result.sheets, faces, first[0], first[1], page[1], geometry=geometry)
    for one in jobs:
        for name, value in one.engine.stats.items():
            result.stats[name] = result.stats.get(name, 0) + value
    with atomic_open(target) as handle:
        handle.write(data)
    result.named = sorted(set(named))
    return result, problems
