"""Colour checks of ``printer preflight``: RGB where the vendor prints CMYK, total ink, and rich black.

Ink is read as the PDF gives it: the CMYK values of fills and strokes, and
the pixels of CMYK images (averaged over cells of about :data:`INK_CELL_MM`
mm, as a press spreads ink; a lone pixel does not fail a card). Images are
decoded with pikepdf and Pillow. No colour is converted here.

A full black set as a fill or stroke must be the vendor's rich black. In an
image (a photograph, a page flattened to pixels) the shadows an ICC profile
separates carry K 95 % and more with other inks in their own proportions: a
full black pixel must carry at least as much C+M+Y as the vendor's rich
black (a black of K alone, which prints grey, is what the rule is there to
catch); the total ink check bounds it from above.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import pikepdf
from PIL import Image, ImageChops

from printer.problems import Problem
from printer.sheets.export.preflight.profile import VendorProfile
from printer.sheets.export.preflight.walk import Facts, PlacedImage

#: the side (mm) of the cells an image's ink is averaged over
INK_CELL_MM = 0.5
#: a colour with this much black (percent) or more is a full black, which must be the profile's rich black
FULL_BLACK = 95.0
#: how far (percentage points) each colorant of a black may be from the profile's rich black
BLACK_TOLERANCE = 5.0


def _pct(values: Iterable[float]) -> tuple[float, ...]:
    return tuple(round(v * 100, 1) for v in values)


def rgb_problems(facts: Facts, where: str, profile: VendorProfile) -> list[Problem]:
    """An error per page and object that sets an RGB colour, draws an RGB image or groups in RGB, for a CMYK vendor."""
    if profile.colour != "cmyk":
        return []
    found: dict[tuple[int, str], int] = defaultdict(int)
    for colour in facts.colours:
        if colour.space in ("rgb", "indexed-rgb"):
            found[(colour.page, colour.where + " fill/stroke colour")] += 1
    for page, obj, space in facts.spaces:
        if space in ("rgb", "indexed-rgb", "lab"):
            found[(page, obj)] += 1
    problems = []
    for (page, obj), count in sorted(found.items()):
        times = f" ({count} times)" if count > 1 else ""
        problems.append(
            Problem(
                f"{where}:page {page} {obj}",
                f"RGB colour{times}: {profile.name} prints CMYK only",
                "convert the whole PDF to CMYK through an ICC profile (printer build --preset does, with Ghostscript)",
                code="preflight-rgb",
            )
        )
    return problems


def _as_stored(pil: Image.Image, dictionary: pikepdf.Object) -> Image.Image:
    """A CMYK JPEG's samples as the PDF gives them: Pillow inverts every CMYK JPEG (it assumes Photoshop's
    inverted files), pikepdf then leaves its ``/Decode`` alone; a PDF takes the samples as stored, through
    ``/Decode`` (``[1 0 1 0 1 0 1 0]``: inverted). Ghostscript writes them uninverted, without ``/Decode``."""
    if pil.format != "JPEG":
        return pil
    decode = dictionary.get("/Decode", dictionary.get("/D"))
    inverted = isinstance(decode, pikepdf.Array) and len(decode) == 8 and float(decode[0]) > float(decode[1])
    return pil if inverted else ImageChops.invert(pil)


def _cmyk_image(placed: PlacedImage) -> Image.Image | None:
    """The image's pixels reduced to cells of about :data:`INK_CELL_MM` mm, or ``None`` when not CMYK or unreadable."""
    image = placed.image
    dictionary = image.obj if isinstance(image, pikepdf.PdfInlineImage) else image
    size = [dictionary.get(k, 0) for k in ("/Width", "/Height", "/W", "/H")]
    pixels = int(max(size[0], size[2])) * int(max(size[1], size[3]))
    if Image.MAX_IMAGE_PIXELS is not None and pixels > Image.MAX_IMAGE_PIXELS:
        return None  # a decompression bomb is not decoded: its ink is not known
    try:
        if isinstance(placed.image, pikepdf.PdfInlineImage):
            pil = placed.image.as_pil_image()
        else:
            pil = pikepdf.PdfImage(placed.image).as_pil_image()  # type: ignore[arg-type]  # an image XObject
    except Exception:  # noqa: BLE001 - any codec failure: the image's ink is not known
        return None
    if pil.mode != "CMYK":
        return None
    pil = _as_stored(pil, dictionary)
    cells = (
        max(1, round(placed.width_pt / 72 * 25.4 / INK_CELL_MM)),
        max(1, round(placed.height_pt / 72 * 25.4 / INK_CELL_MM)),
    )
    if cells[0] < pil.width and cells[1] < pil.height:
        pil = pil.resize(cells, Image.Resampling.BOX)
    return pil


def ink_problems(facts: Facts, where: str, profile: VendorProfile) -> list[Problem]:
    """An error per page and object whose ink passes the profile's total, or whose full black is not its rich black."""
    if profile.max_ink is None and profile.rich_black is None:
        return []
    worst: dict[tuple[int, str], tuple[float, ...]] = {}
    blacks: dict[tuple[int, str], tuple[float, ...]] = {}

    def look(page: int, obj: str, cmyk: tuple[float, ...], pixel: bool = False) -> None:
        total = sum(cmyk)
        key = (page, obj)
        if profile.max_ink is not None and total > profile.max_ink + 0.5 and total > sum(worst.get(key, ())):
            worst[key] = cmyk
        black = profile.rich_black
        if black is not None and cmyk[3] >= FULL_BLACK and key not in blacks:
            if pixel:
                poorer = sum(cmyk[:3]) < sum(black[:3]) - BLACK_TOLERANCE
            else:
                poorer = any(abs(a - b) > BLACK_TOLERANCE for a, b in zip(cmyk, black))
            if poorer:
                blacks[key] = cmyk

    for colour in facts.colours:
        if colour.space == "cmyk" and len(colour.values) == 4:
            look(colour.page, colour.where + " fill/stroke colour", _pct(colour.values))
    for placed in facts.images:
        image = _cmyk_image(placed)
        if image is None:
            continue
        data = image.tobytes()
        for pixel in set(zip(data[0::4], data[1::4], data[2::4], data[3::4])):
            look(placed.page, placed.where, tuple(round(v / 2.55, 1) for v in pixel), pixel=True)
    problems = []
    for (page, obj), cmyk in sorted(worst.items()):
        problems.append(
            Problem(
                f"{where}:page {page} {obj}",
                f"total ink {sum(cmyk):.0f} % (C{cmyk[0]:g} M{cmyk[1]:g} Y{cmyk[2]:g} K{cmyk[3]:g}): "
                f"{profile.name} takes at most {profile.max_ink:g} %",
                "convert with an output profile limited to that ink (--icc), or lighten the darkest colours",
                code="preflight-ink",
            )
        )
    for (page, obj), cmyk in sorted(blacks.items()):
        want = profile.rich_black or (0, 0, 0, 0)
        problems.append(
            Problem(
                f"{where}:page {page} {obj}",
                f"black C{cmyk[0]:g} M{cmyk[1]:g} Y{cmyk[2]:g} K{cmyk[3]:g}: {profile.name} asks for rich black "
                f"C{want[0]:g} M{want[1]:g} Y{want[2]:g} K{want[3]:g}",
                "set full blacks to the vendor's rich black (printer build --preset does for pure black)",
                code="preflight-rich-black",
            )
        )
    return problems
