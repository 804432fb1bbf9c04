"""What a player sees: the faces on the printed sheets checked against the same faces laid out alone.

A build lays out each distinct face once, on a page of its own at the trim size plus the bleed, and imposes
those face pages on the sheets (:mod:`printer.sheets.impose`), under the sheets' marks and labels. This module
turns pages into pixels (pypdfium2, white paper behind) and finds what a player would not see:

- :func:`blank_faces` (every build, cheap): a face page that shows no text and is, in pixels, one flat colour
  (a blank back). Only faces whose HTML holds no text are turned into pixels, once each, at :data:`BLANK_DPI`;
  the rest cost a look at their HTML.
- :func:`check_sheets` (``printer check-print``, ``printer build --verify``): every sheet of the written PDF
  at ``dpi`` (px per inch), each face's trim box compared with the same face page alone, turned as on the
  sheet: a face that prints blank, text in the PDF that shows no ink where it sits (painted over, clipped
  away, or the colour of what is behind it), and a face whose picture differs from the face alone by more
  than ``tolerance`` (percent).

The difference of two pictures is measured in two ways, both in percent: the mean difference of their pixels
(0-255 per channel, the largest channel of each pixel), and the share of the trim box whose pixels differ by
more than :data:`CHANGED` once lines one pixel wide are set aside (a face placed a fraction of a pixel away
from the face alone differs along every edge by up to a pixel; a shape painted over it does not).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from printer.problems import WARNING, Location, Problem, Severity
from printer.units import MM_PER_IN

if TYPE_CHECKING:
    import pypdfium2
    from PIL import Image

    from printer.sheets.faces.items import PrintItem
    from printer.sheets.job import SheetJob
    from printer.sheets.parallel import FacePdf
    from printer.sheets.placed import Face, Sheet

#: the resolution (px per inch) a face page without text is turned into pixels at, to tell a blank one
BLANK_DPI = 24
#: what the check of the printed sheets renders at unless told (px per inch), and the difference it allows (percent)
DPI, TOLERANCE = 100, 2.0
#: a pixel this far (0-255, in any channel) from a face's main colour is ink that shows
INK = 24
#: a face with no more than this share of its pixels showing ink (percent) is blank
BLANK_SHARE = 0.1
#: a pixel of a face on the sheet this far from the face alone (0-255) has changed
CHANGED = 64
#: text whose box on the sheet spans less than this (0-255, grey) shows no ink
NO_INK = 24
#: the edge of a trim box left out of the comparisons (px): the cut line, shared with the neighbour
EDGE = 2

_HIDDEN_MARKUP = re.compile(r"<(style|script)\b.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
_TEXT_NODE = re.compile(r"(?:^|>)([^<]+)")


@dataclass(frozen=True)
class FaceName:
    """Who prints a face: ``where`` (a card's file and place, or a back's name) and ``label`` (a card, with its side)."""

    where: str | Location
    label: str


def face_names(job: SheetJob, items: Sequence[PrintItem]) -> dict[str, FaceName]:
    """Each face key of ``items`` with the first card that prints it and the side: ``Navigator Osei (back)``;
    a back several cards share names the back and how many cards it is behind."""
    fronts: dict[str, list[PrintItem]] = {}
    backs: dict[str, list[PrintItem]] = {}
    for item in items:
        fronts.setdefault(job.faces.front_key(item), []).append(item)
        if job.opts.duplex != "none":
            backs.setdefault(job.faces.back_key(item), []).append(item)
    names: dict[str, FaceName] = {}
    for key, users in backs.items():
        first = users[0]
        cards = sorted({u.name for u in users})
        behind = cards[0] + (f" and {len(cards) - 1} more" if len(cards) > 1 else "")
        kind, *rest = job.faces.back_ident(first)
        if kind == "back":
            where = f"templates/{job.renderer.game.id}/back.html.j2"
            shared = sorted({str(job.faces.back_ident(u)[1]) for u in users})
            also = f"; the same face as {', '.join(map(repr, shared[1:]))}" if len(shared) > 1 else ""
            names[key] = FaceName(where, f"the back {shared[0]!r} (behind {behind}{also})")
        elif kind == "card" and first.back_card is not None:
            names[key] = FaceName(first.back_card.where, f"the back of {behind} ({first.back_card.name})")
        else:
            names[key] = FaceName(first.card.where if first.card is not None else first.name, f"the back of {behind}")
    for key, users in fronts.items():
        first = users[0]
        names[key] = FaceName(first.card.where if first.card is not None else first.name, f"the front of {first.name}")
    return names


def _open(pdf: FacePdf) -> Any:
    """A pypdfium2 document of ``pdf`` (bytes or a file), opened under :data:`printer.sheets.export.faces.PDFIUM`."""
    import pypdfium2

    from printer.sheets.export.faces import PDFIUM

    with PDFIUM:
        return pypdfium2.PdfDocument(pdf if isinstance(pdf, (bytes, Path)) else bytes(pdf))


def _close(documents: Iterable[Any]) -> None:
    from printer.sheets.export.faces import PDFIUM

    with PDFIUM:
        for document in documents:
            document.close()


def has_text(html: str) -> bool:
    """Whether the face HTML ``html`` holds text to show: a text node that is not only white space (outside
    ``<style>``, ``<script>`` and comments; character references decoded). A few microseconds for a card front,
    whose first words end the search."""
    lowered = html.lower() if "<" in html else html
    if "<style" in lowered or "<script" in lowered or "<!--" in lowered:
        html = _HIDDEN_MARKUP.sub(" ", html)
    for match in _TEXT_NODE.finditer(html):
        text = match.group(1)
        if text.strip() and ("&" not in text or unescape(text).strip()):
            return True
    return False


def render(document: pypdfium2.PdfDocument, index: int, dpi: float, rotation: int = 0) -> Image.Image:
    """Page ``index`` of a pypdfium2 ``document`` as an RGB image at ``dpi``, white paper behind, turned by
    ``rotation`` degrees clockwise."""
    from printer.sheets.export.faces import PDFIUM

    with PDFIUM:
        page = document[index]
        try:
            box = left, bottom, right, top = page.get_cropbox()
            scale = dpi / 72
            page.set_cropbox(left, top - _whole(top - bottom, scale), left + _whole(right - left, scale), top)
            bitmap = page.render(scale=scale, rotation=rotation % 360, fill_color=(255, 255, 255, 255))
            page.set_cropbox(*box)
            image: Image.Image = bitmap.to_pil().convert("RGB")
            return image
        finally:
            page.close()


def render_at(
    document: pypdfium2.PdfDocument, index: int, dpi: float, rotation: int, bleed: float, at: tuple[float, float]
) -> tuple[Image.Image, tuple[int, int]]:
    """Face page ``index`` of a pypdfium2 ``document`` (``bleed`` mm round its trim box) as an RGB image at
    ``dpi``, turned by ``rotation`` degrees clockwise, moved by less than a pixel so that its trim box's top-left
    corner falls on the same fraction of a pixel as ``at`` (the corner on the sheet, in px): ``(image, corner)``,
    ``corner`` the whole pixel of the image the trim box starts in."""
    from printer.sheets.export.faces import PDFIUM

    scale = dpi / 72
    edge = bleed * 72 / MM_PER_IN  # pt from each edge of the face page to its trim box
    moves = []
    for fraction in (at[0] % 1, at[1] % 1):
        whole = max(0, int(edge * scale - fraction))
        moves.append((whole, max(0.0, edge - (fraction + whole) / scale)))
    (nx, dx), (ny, dy) = moves
    with PDFIUM:
        page = document[index]
        try:
            box = page.get_cropbox()
            turn = rotation % 360
            page.set_cropbox(*turned_crop(box, turn, (dx, dy), scale))
            bitmap = page.render(scale=scale, rotation=turn, fill_color=(255, 255, 255, 255))
            page.set_cropbox(*box)
            return bitmap.to_pil().convert("RGB"), (nx, ny)
        finally:
            page.close()


def turned_crop(
    box: tuple[float, float, float, float], turn: int, inset: tuple[float, float], scale: float
) -> tuple[float, float, float, float]:
    """The crop box (left, bottom, right, top, pt) that, rendered turned by ``turn`` degrees clockwise (0, 90,
    180, 270) at ``scale`` px per pt, starts ``inset`` (pt across, pt down) inside ``box`` at the image's top-left
    and spans a whole number of pixels across and down (a page rendered into a bitmap rounded up is stretched)."""
    left, bottom, right, top = box
    edges = [left, top, right, bottom]  # the page's edges, clockwise from the left
    inward = (1, -1, -1, 1)  # the sign that moves each edge into the page
    quarter = turn // 90

    def page_edge(image_edge: int) -> int:
        """The page edge that is the image's edge (0 left, 1 top, 2 right, 3 bottom) once turned."""
        return (image_edge - quarter) % 4

    for side, by in enumerate(inset):
        edge = page_edge(side)
        edges[edge] += inward[edge] * by
    for near in (0, 1):
        start, end = page_edge(near), page_edge(near + 2)
        edges[end] = edges[start] + inward[start] * _whole(abs(edges[end] - edges[start]), scale)
    left, top, right, bottom = edges
    return left, bottom, right, top


def _whole(length: float, scale: float) -> float:
    """``length`` (pt) cut to a whole number of pixels at ``scale`` (px per pt), a hair under, in pt (the hair,
    a thousandth of a pixel, outlasts pdfium's single-precision page size, which is rounded up to whole pixels)."""
    return (int(length * scale) - 1e-3) / scale


def ink(image: Image.Image) -> tuple[float, str]:
    """The share of ``image`` (percent) whose pixels are more than :data:`INK` from its main colour, and that
    colour as ``#rrggbb``."""
    from PIL import Image, ImageChops  # here, not at the top: a build imports this module for a look at HTML

    small = image if image.width * image.height <= 40_000 else image.resize((200, 200 * image.height // image.width))
    colours = cast(list[tuple[int, tuple[int, ...]]], small.getcolors(small.width * small.height) or [])
    main = max(colours or [(0, (255, 255, 255))])[1]
    far = _far(ImageChops.difference(image, Image.new("RGB", image.size, main)), INK)
    return 100 * far / (image.width * image.height), "#" + "".join(f"{v:02x}" for v in main[:3])


def _far(difference: Image.Image, threshold: int) -> int:
    """How many pixels of an RGB difference image differ by more than ``threshold`` in some channel."""
    return _widest(difference).point(lambda v: 255 if v > threshold else 0).histogram()[255]


def _widest(difference: Image.Image) -> Image.Image:
    """The largest channel of each pixel of an RGB difference image, as a grey image."""
    from PIL import ImageChops

    bands = difference.split()
    widest = bands[0]
    for band in bands[1:]:
        widest = ImageChops.lighter(widest, band)
    return widest


def _trim(image: Image.Image, dpi: float, bleed: float, size: tuple[float, float]) -> Image.Image:
    """The trim box of a face page image (the face page has ``bleed`` mm all round; ``size`` is the trim box's
    width and height as the image shows it, mm), less :data:`EDGE` pixels at each edge."""
    px = dpi / MM_PER_IN
    left, top = round(bleed * px), round(bleed * px)
    right, bottom = round((bleed + size[0]) * px), round((bleed + size[1]) * px)
    return image.crop((left + EDGE, top + EDGE, right - EDGE, bottom - EDGE))


def blank_faces(
    job: SheetJob,
    items: Sequence[PrintItem],
    keys: Iterable[str],
    faces: Mapping[str, tuple[FacePdf, int]],
    severity: Severity = WARNING,
) -> list[Problem]:
    """A problem (at ``severity``) for each face of ``keys`` whose face page prints one flat colour and no text (a
    blank back), naming the card and the side. ``faces`` are the face pages
    (:func:`printer.sheets.assemble.build_sheets`). Only faces whose HTML holds no text (:func:`has_text`) are
    turned into pixels, at :data:`BLANK_DPI`: text that is there but does not show is left to :func:`check_sheets`."""
    quiet = [(*faces[key], key) for key in keys if not has_text(job.faces.html[key])]  # faces whose HTML holds no text
    if not quiet:
        return []
    w, h = job.opts.card
    blank: dict[str, str] = {}
    opened: dict[int, Any] = {}
    try:
        for pdf, index, key in quiet:
            document = opened.get(id(pdf)) or opened.setdefault(id(pdf), _open(pdf))
            image = _trim(render(document, index, BLANK_DPI), BLANK_DPI, job.opts.bleed, (w, h))
            share, colour = ink(image)
            if share <= BLANK_SHARE:
                blank[key] = colour
    finally:
        _close(opened.values())
    if not blank:
        return []
    names = face_names(job, items)
    return [
        _blank_problem(names.get(key, FaceName(key, f"face {key}")), colour, severity) for key, colour in blank.items()
    ]


def _blank_problem(name: FaceName, colour: str, severity: Severity = WARNING) -> Problem:
    return Problem(
        name.where,
        f"{name.label} prints blank: one flat colour ({colour}), no text or picture",
        "check the template and its stylesheet (a rule that paints over the face, text the colour of its "
        "background); printer check-print compares every face on the sheets with the face alone",
        severity,
        "blank-face",
    )


@dataclass(frozen=True)
class Verify:
    """What :func:`check_sheets` is asked for: ``dpi`` (px per inch), ``tolerance`` (percent), the problems'
    ``severity``; :class:`Checked` counts what it looked at."""

    dpi: float = DPI
    tolerance: float = TOLERANCE
    severity: Severity = WARNING


@dataclass
class Checked:
    """What :func:`check_sheets` looked at: ``faces`` (placed faces compared), ``pages`` (sheets turned into pixels)."""

    faces: int = 0
    pages: int = 0


def check_sheets(  # noqa: PLR0913  public check: dpi, tolerance, severity and memo are keywords with defaults
    job: SheetJob,
    items: Sequence[PrintItem],
    sheets: Sequence[Sheet],
    faces: Mapping[str, tuple[FacePdf, int]],
    target: Path,
    dpi: float = DPI,
    tolerance: float = TOLERANCE,
    severity: Severity = WARNING,
    checked: Checked | None = None,
) -> list[Problem]:
    """The faces of the written PDF ``target`` (one page per sheet of ``sheets``) checked against the face pages
    ``faces`` alone, at ``dpi``: a face that prints blank (``blank-face``), text that shows no ink on the sheet
    (``hidden-text``), and a face that differs from the face alone by more than ``tolerance`` percent
    (``face-differs``; see the module's docstring). Each problem names the card and the side, at ``severity``."""
    names = face_names(job, items)
    bleed = job.opts.bleed
    problems: list[Problem] = []
    alone: dict[tuple[str, int, float, float], tuple[Image.Image, tuple[int, int]]] = {}
    opened: dict[int, Any] = {}
    flagged: set[tuple[str, str]] = set()

    def name_of(key: str) -> FaceName:
        return names.get(key, FaceName(key, f"face {key}"))

    def add(key: str, code: str, problem: Problem) -> None:
        if (key, code) not in flagged:
            flagged.add((key, code))
            problems.append(problem)

    def face_alone(key: str, rotate: int, at: tuple[float, float]) -> tuple[Image.Image, tuple[int, int]]:
        place = (key, rotate, round(at[0] % 1, 2), round(at[1] % 1, 2))
        found = alone.get(place)
        if found is None:
            pdf, index = faces[key]
            document = opened.get(id(pdf)) or opened.setdefault(id(pdf), _open(pdf))
            found = alone[place] = render_at(document, index, dpi, rotate, bleed, at)
        return found

    sheet_pdf = _open(target)
    try:
        for number, sheet in enumerate(sheets):
            image = render(sheet_pdf, number, dpi)
            if checked is not None:
                checked.pages += 1
            px = dpi / MM_PER_IN
            for face in sheet.faces:
                if face.key not in faces:
                    continue
                if checked is not None:
                    checked.faces += 1
                placed, mine = _crops(image, face, px, face_alone)
                name = name_of(face.key)
                share, colour = ink(mine)
                if share <= BLANK_SHARE:
                    add(face.key, "blank-face", _blank_problem(name, colour, severity))
                    continue
                mean, changed = difference(placed, mine)
                if mean > tolerance or changed > tolerance:
                    where = f"{name.label} on sheet {sheet.number} ({sheet.side})"
                    add(
                        face.key,
                        "face-differs",
                        _differs_problem(name, where, (mean, changed), tolerance, dpi, severity),
                    )
            for face, words in _hidden_text(sheet_pdf, number, image, sheet):
                name = name_of(face.key)
                add(
                    face.key,
                    "hidden-text",
                    _hidden_problem(name, f"sheet {sheet.number} ({sheet.side})", words, severity),
                )
    finally:
        _close([sheet_pdf, *opened.values()])
    return problems


def _crops(
    image: Image.Image,
    face: Face,
    px: float,
    face_alone: Callable[[str, int, tuple[float, float]], tuple[Image.Image, tuple[int, int]]],
) -> tuple[Image.Image, Image.Image]:
    """``(on the sheet, alone)``: ``face`` as the sheet's ``image`` shows it (``px`` per mm) and as ``face_alone``
    lays it out at the same place, each less ``EDGE`` px all round."""
    turned = face.rotate % 180 == 90
    width, height = (face.h, face.w) if turned else (face.w, face.h)
    at = (face.x * px, face.y * px)
    picture, (nx, ny) = face_alone(face.key, face.rotate, at)
    w, h = int(width * px) - 2 * EDGE, int(height * px) - 2 * EDGE
    mine = picture.crop((nx + EDGE, ny + EDGE, nx + EDGE + w, ny + EDGE + h))
    left, top = int(at[0]) + EDGE, int(at[1]) + EDGE
    return image.crop((left, top, left + w, top + h)), mine


def _differs_problem(
    name: FaceName, where: str, differs: tuple[float, float], tolerance: float, dpi: float, severity: Severity
) -> Problem:
    """``face-differs``: the face ``name`` (``where``: its label, sheet and side) differs from the face alone by
    ``differs`` (mean difference, share changed; percent) over ``tolerance``, at ``dpi``."""
    mean, changed = differs
    return Problem(
        name.where,
        f"{where} differs from the face alone: "
        f"{mean:.1f}% mean difference, {changed:.1f}% of it changed (tolerance {tolerance:g}%, "
        f"at {dpi:g} dpi)",
        "something is painted over the face on the sheet (a stylesheet rule that reaches "
        "printer's sheets, marks over the card) or the face is not where it should be",
        severity,
        "face-differs",
    )


def _hidden_problem(name: FaceName, sheet: str, words: str, severity: Severity) -> Problem:
    """``hidden-text``: the face ``name`` on ``sheet`` (its number and side) has ``words`` that show no ink."""
    shown = words if len(words) <= 40 else words[:39] + "\u2026"
    return Problem(
        name.where,
        f"{name.label} on {sheet} has text that does not show: {shown!r}",
        "something is painted over it, it is clipped away, or it is the colour of what is behind it",
        severity,
        "hidden-text",
    )


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """How far apart two pictures of one size are, in percent: the mean difference of their pixels (the largest
    channel), and the share of pixels more than :data:`CHANGED` apart, lines one pixel wide set aside."""
    total = max(1, a.width * a.height)
    from PIL import ImageChops, ImageFilter

    widest = _widest(ImageChops.difference(a, b))
    solid = widest.filter(ImageFilter.MinFilter(3))  # a difference that is only an edge a pixel wide goes
    mean = sum(value * count for value, count in enumerate(solid.histogram())) / total / 255 * 100
    changed = solid.point(lambda v: 255 if v > CHANGED else 0).histogram()[255] / total * 100
    return mean, changed


def _hidden_text(
    sheet_pdf: pypdfium2.PdfDocument, number: int, image: Image.Image, sheet: Sheet
) -> list[tuple[Face, str]]:
    """The text of sheet ``number`` that shows no ink where it sits, with the face it is on."""
    from printer.sheets.export.faces import PDFIUM

    scale = image.width / 1  # px per pt, set below from the page's width
    grey = image.convert("L")
    found: list[tuple[Face, str]] = []
    mm = 72 / MM_PER_IN  # pt per mm
    with PDFIUM:
        page = sheet_pdf[number]
        text = page.get_textpage()
        try:
            scale = image.width / page.get_width()
            page_height = page.get_height()
            for i in range(text.count_rects()):
                left, bottom, right, top = text.get_rect(i)
                words = text.get_text_bounded(left, bottom, right, top).strip()
                if not words:
                    continue
                box = (
                    int(left * scale),
                    int((page_height - top) * scale),
                    -int(-right * scale // 1),
                    -int(-(page_height - bottom) * scale // 1),
                )
                if box[2] - box[0] < 1 or box[3] - box[1] < 1:
                    continue
                low, high = cast(tuple[int, int], grey.crop(box).getextrema())
                if high - low >= NO_INK:
                    continue
                face = _face_at(sheet, (left + right) / 2 / mm, (page_height - (top + bottom) / 2) / mm)
                if face is not None:
                    found.append((face, words))
        finally:
            text.close()
            page.close()
    return found


def _face_at(sheet: Sheet, x: float, y: float) -> Face | None:
    """The face of ``sheet`` whose trim footprint holds the point ``(x, y)`` (mm from the sheet's top-left)."""
    for face in sheet.faces:
        fw, fh = (face.h, face.w) if face.rotate % 180 == 90 else (face.w, face.h)
        if face.x <= x <= face.x + fw and face.y <= y <= face.y + fh:
            return face
    return None
