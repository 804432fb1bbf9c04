"""The checks of a print-on-demand preset's faces (:mod:`printer.sheets.export.presets`): text inside the vendor's
safe area (:func:`safe_area_report`) and art into the bleed (:func:`bleed_report`), each a warning naming the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pypdfium2
from PIL import Image, ImageChops, ImageStat

from printer.problems import WARNING, Problem
from printer.sheets.faces.registry import owner_where
from printer.sheets.job import SheetJob
from printer.sheets.layout import MM_PER_IN, SheetLayout

if TYPE_CHECKING:
    from printer.sheets.export.presets import Preset

#: how far (mm) a glyph may cross the safe-area line before it is reported (glyph boxes are not exact)
SAFE_TOLERANCE_MM = 0.2
PT_PER_MM = 72 / MM_PER_IN


def _card_names(pjob: SheetJob, key: str) -> list[str]:
    """The card names that print face ``key`` (for warnings)."""
    return list(dict.fromkeys(name for _, name, _ in pjob.faces.owners.get(key, ())))


def possessive(name: str) -> str:
    """``MB Print's``, ``MakePlayingCards'``."""
    return name + ("'" if name.endswith("s") else "'s")


def _who(pjob: SheetJob, key: str) -> str:
    """``"Card name: "`` for a warning's message, or nothing when the place already names it (a player aid)."""
    names = ", ".join(_card_names(pjob, key)) or key
    return "" if names == _where(pjob, key) else names + ": "


def _where(pjob: SheetJob, key: str) -> str:
    owners = pjob.faces.owners.get(key, ())
    return str(owner_where(owners[0])) if owners else key


def safe_area_report(
    pdf: bytes, keys: Sequence[str], layout: SheetLayout, pjob: SheetJob, preset: Preset
) -> list[Problem]:
    """A warning per face (one page each in ``pdf``) whose text crosses the preset's safe area, naming its cards.

    The safe area is the trim box less ``preset.safe`` mm on every side; each
    glyph's box is read from the PDF (pypdfium2) and compared with it.
    """
    slot = layout.slots()[0]
    w, h = layout.card
    x0, y0, x1, y1 = slot.x + preset.safe, slot.y + preset.safe, slot.x + w - preset.safe, slot.y + h - preset.safe
    problems = []
    document = pypdfium2.PdfDocument(pdf)
    try:
        for index, key in enumerate(keys):
            page = document[index]
            height = page.get_height()
            text = page.get_textpage()
            worst = 0.0
            for i in range(text.count_chars()):
                if text.get_text_range(i, 1).isspace():
                    continue
                left, bottom, right, top = text.get_charbox(i)
                if right <= left or top <= bottom:
                    continue
                box = (left / PT_PER_MM, (height - top) / PT_PER_MM, right / PT_PER_MM, (height - bottom) / PT_PER_MM)
                worst = max(worst, x0 - box[0], y0 - box[1], box[2] - x1, box[3] - y1)
            text.close()
            page.close()
            if worst > SAFE_TOLERANCE_MM:
                problems.append(
                    Problem(
                        _where(pjob, key),
                        f"{_who(pjob, key)}text runs {worst:.1f} mm outside {possessive(preset.name)} safe area "
                        f"({preset.safe:g} mm inside the trim)",
                        "keep text inside var(--safe) in the template (class safe)",
                        WARNING,
                        "outside-safe-area",
                    )
                )
    finally:
        document.close()
    return problems


def _white(image: Image.Image) -> float:
    """The share of ``image``'s pixels (RGB) whose every channel is at least 245: white paper."""
    r, g, b = image.split()
    lowest = ImageChops.darker(ImageChops.darker(r, g), b)
    return ImageStat.Stat(lowest.point(lambda v: 255 if v >= 245 else 0)).mean[0] / 255


def bleed_report(
    images: dict[str, Image.Image], layout: SheetLayout, pjob: SheetJob, px: tuple[int, int]
) -> list[Problem]:
    """A warning per face whose bleed is white along a side where the edge just inside the trim is not.

    That is art or background stopping at the trim: a cut a little outside
    the line would show a white edge. Reads bands of about 0.5 mm (at least
    one pixel) at the outer edge of the bleed and just inside the trim.
    """
    slot = layout.slots()[0]
    w, h = layout.card
    W, H = layout.page
    sx, sy = px[0] / W, px[1] / H  # px per mm
    problems = []
    for key, image in images.items():
        rgb = image.convert("RGB")
        band = max(1, round(0.5 * sx))
        tl = (round(slot.x * sx), round(slot.y * sy))
        br = (round((slot.x + w) * sx), round((slot.y + h) * sy))
        if min(tl) < band + 1:
            continue  # no bleed to check
        sides = {
            "left": ((0, tl[1], band, br[1]), (tl[0] + 1, tl[1], tl[0] + 1 + band, br[1])),
            "right": ((px[0] - band, tl[1], px[0], br[1]), (br[0] - 1 - band, tl[1], br[0] - 1, br[1])),
            "top": ((tl[0], 0, br[0], band), (tl[0], tl[1] + 1, br[0], tl[1] + 1 + band)),
            "bottom": ((tl[0], px[1] - band, br[0], px[1]), (tl[0], br[1] - 1 - band, br[0], br[1] - 1)),
        }
        short = [
            side
            for side, (outer, inner) in sides.items()
            if _white(rgb.crop(outer)) > 0.5 and _white(rgb.crop(inner)) < 0.5
        ]
        if short:
            problems.append(
                Problem(
                    _where(pjob, key),
                    f"{_who(pjob, key)}the art stops at the trim on the {', '.join(short)} "
                    f"(the bleed is white there): a cut a little off the line shows a white edge",
                    "paint the background or art into the bleed (class bleed, or the root .card's background)",
                    WARNING,
                    "no-bleed",
                )
            )
    return problems
