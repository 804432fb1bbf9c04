"""Card faces placed on sheets: a :class:`Face` (its HTML, place, turn and bleed), a :class:`Sheet` of them with its
marks, and the CSS that places them (:func:`face_style`, :func:`geometry_classes`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from markupsafe import Markup

from printer.sheets.layout import Box, Segment


@dataclass(slots=True)  # no dict of its own: a 9,000-card build holds 18,000 faces while it imposes them
class Face:
    """One card face placed on a sheet.

    ``(x, y)`` is the top-left of its trim *footprint* on the sheet (mm),
    ``(w, h)`` the card's trim size, ``rotate`` its turn in degrees
    clockwise (the footprint is ``h`` x ``w`` at 90 and 270). ``bleed`` is
    how far it paints past the trim on the card's own left, top, right and
    bottom (mm, already cut short towards neighbours), ``full_bleed`` the
    bleed setting (the CSS ``--bleed``), ``safe`` the safe-area margin.
    ``key`` names the distinct face, for text fitting.
    """

    html: Markup
    x: float
    y: float
    w: float
    h: float
    rotate: int = 0
    label: str = ""
    bleed: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    full_bleed: float = 0.0
    safe: float = 3.0
    key: str = ""

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The face element before its turn: left, top, width, height (mm) on the sheet."""
        l, t, r, b = self.bleed
        fw, fh = (self.h, self.w) if self.rotate % 180 == 90 else (self.w, self.h)
        cx, cy = self.x + fw / 2, self.y + fh / 2
        return (cx - l - self.w / 2, cy - t - self.h / 2, self.w + l + r, self.h + t + b)

    @property
    def origin(self) -> tuple[float, float]:
        """The turning point inside the face element: the trim box's centre (mm)."""
        return (self.bleed[0] + self.w / 2, self.bleed[1] + self.h / 2)


def face_style(face: Face) -> str:
    """The CSS declarations placing ``face``'s ``printer-face`` element on its sheet (mm), each ``!important`` (a
    game's stylesheet cannot move it)."""
    b, o = face.box, face.origin
    style = (
        f"left: {b[0]:.4f}mm !important; top: {b[1]:.4f}mm !important; width: {b[2]:.4f}mm !important; "
        f"height: {b[3]:.4f}mm !important; --bleed: {face.full_bleed:.4f}mm; --safe: {face.safe:.4f}mm; "
        f"--trim-width: {face.w}mm; --trim-height: {face.h}mm"
    )
    if face.rotate:
        style += (
            f"; transform-origin: {o[0]:.4f}mm {o[1]:.4f}mm !important; transform: rotate({face.rotate}deg) !important"
        )
    else:
        style += "; transform: none !important"
    return style


def trim_style(face: Face) -> str:
    """The CSS declarations placing ``face``'s ``printer-trim`` element in its ``printer-face`` element (mm)."""
    return (
        f"left: {face.bleed[0]:.4f}mm !important; top: {face.bleed[1]:.4f}mm !important; "
        f"width: {face.w}mm !important; height: {face.h}mm !important"
    )


def geometry_classes(sheets: Sequence[Sheet]) -> tuple[str, list[list[tuple[str, str]]]]:
    """Class rules for the faces' placements: ``(css, classes)``, ``classes[i][j]`` the ``printer-face`` and
    ``printer-trim`` class names of ``sheets[i].faces[j]``.

    Faces placed alike share one class (``printer-g0``, ``printer-g1``... for ``printer-face``, ``printer-t0``...
    for ``printer-trim``) instead of
    each carrying a ``style`` attribute. WeasyPrint (70, the version printer is tested with) computes the style
    of elements that match the same rules under the same parent style once per document, and a ``style``
    attribute gives an element, and its whole subtree, a style of its own. On face pages, where every face sits
    alike, the styles of a face's elements are thus computed once per document instead of once per face (a
    fifth less time for a cold build of 300 real cards).
    """
    tables: dict[str, dict[str, str]] = {"g": {}, "t": {}}  # per prefix: declarations -> class name
    rules: list[str] = []

    def name(prefix: str, selector: str, style: str) -> str:
        table = tables[prefix]
        if style not in table:
            table[style] = f"printer-{prefix}{len(table)}"
            rules.append(f"{selector}.{table[style]} {{ {style} }}")
        return table[style]

    classes = [
        [
            (name("g", "printer-face", face_style(face)), name("t", "printer-trim", trim_style(face)))
            for face in sheet.faces
        ]
        for sheet in sheets
    ]
    return "\n".join(rules), classes


def card_bleed(extents: tuple[float, float, float, float], rotate: int) -> tuple[float, float, float, float]:
    """Sheet-side bleed extents (left, top, right, bottom of the footprint) as the card's own sides."""
    l, t, r, b = extents
    return {0: (l, t, r, b), 90: (t, r, b, l), 180: (r, b, l, t), 270: (b, l, t, r)}[rotate % 360]


@dataclass
class Sheet:
    """One page of faces; ``side`` is ``front`` or ``back``; ``marks`` the crop marks or cut lines to draw.

    ``outlines`` are closed cut lines drawn as SVG path data in mm (one per
    card: rounded corners, cutting machines); ``fills`` filled rectangles
    (registration marks, :mod:`printer.sheets.cutting`); ``caption`` replaces the
    sheet label when set (a board's page: which part of the board it is), ``board`` the board's label and the
    page's place in it then (row and column from 1, rows, columns), for the caption in the build's language.
    """

    side: str
    faces: list[Face] = field(default_factory=list)
    number: int = 1
    marks: list[Segment] = field(default_factory=list)
    guides: list[Segment] = field(default_factory=list)
    outlines: list[str] = field(default_factory=list)
    fills: list[Box] = field(default_factory=list)
    caption: str = ""
    board: tuple[str, int, int, int, int] | None = None
