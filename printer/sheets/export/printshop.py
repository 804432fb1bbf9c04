"""``--export print-shop``: one card per page with bleed and no marks, for MakePlayingCards / DriveThruCards uploads.

- ``<stem>-print-shop.pdf``: every printed card (copies included) as a
  front page followed by its back page, each page the card's trim plus
  bleed, with the PDF ``TrimBox`` on the trim and ``BleedBox`` on the page,
  no crop marks (DriveThruCards style: one PDF of the deck).
- ``<stem>-print-shop/``: one PNG per distinct face at 300 dpi, named by
  card id (``back-<name>.png`` for shared backs), for shops that take
  images (MakePlayingCards style).

Canvas sizes: a poker card (63 x 88 mm) gets MakePlayingCards' poker
canvas, 822 x 1122 px at 300 dpi (69.60 x 95.00 mm, the card centred:
3.30 mm bleed left and right, 3.50 mm top and bottom); any other size gets
its trim plus the bleed setting on each side. Check your shop's template:
other shops and other card sizes have their own canvases.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import RectangleObject

from printer.fsutil import atomic_write_bytes
from printer.problems import Problem
from printer.sheets.export.faces import distinct_faces, face_images, face_pdf, page_layout, png_bytes, px_of
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import CARD_SIZES, MM_PER_IN, SheetLayout

DPI = 300
#: Print-shop canvases in px at 300 dpi, by trim size in mm.
CANVAS_PX: dict[tuple[float, float], tuple[int, int]] = {
    CARD_SIZES["poker"]: (822, 1122),  # MakePlayingCards poker size
}
PT_PER_MM = 72 / MM_PER_IN


def canvas_mm(card: tuple[float, float], bleed: float) -> tuple[float, float]:
    """The print-shop page for a card of ``card`` mm: a known shop canvas, else the trim plus ``bleed`` all round."""
    for size, px in CANVAS_PX.items():
        if abs(size[0] - card[0]) < 0.05 and abs(size[1] - card[1]) < 0.05:
            return (px[0] / DPI * MM_PER_IN, px[1] / DPI * MM_PER_IN)
    return (card[0] + 2 * bleed, card[1] + 2 * bleed)


def export_print_shop(
    job: SheetJob, items: Sequence[PrintItem], folder: Path, strict: bool = False
) -> tuple[Path, list[Problem]]:
    """Write ``<folder>.pdf`` and the PNGs in ``folder``; returns ``(pdf path, problems)``.

    With ``strict`` and any problem, nothing is written.
    """
    folder = Path(folder)
    target = folder.with_suffix(".pdf")
    canvas = canvas_mm(job.opts.card, job.opts.bleed)
    layout = page_layout(job, True, canvas)
    keys = []
    for item in items:
        keys.append(job.faces.front_key(item))
        if job.opts.duplex != "none":
            keys.append(job.faces.back_key(item))
    data, problems = face_pdf(job, keys, layout, "print shop")
    if strict and problems:
        return target, problems
    atomic_write_bytes(target, with_trim_boxes(data, layout))
    faces = distinct_faces(job, items)
    names = {f.key: f.name for f in faces}
    for key, image in face_images(job, [f.key for f in faces], layout, px_of(canvas, DPI)):
        atomic_write_bytes(folder / f"{names[key]}.png", png_bytes(image, DPI))
    return target, problems


def with_trim_boxes(pdf: bytes, layout: SheetLayout) -> bytes:
    """``pdf`` with every page's TrimBox on the card's trim and BleedBox on the whole page (PDF points)."""
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter(clone_from=reader)
    slot = layout.slots()[0]
    w, h = layout.card
    W, H = layout.page
    for page in writer.pages:
        x0, top = slot.x * PT_PER_MM, slot.y * PT_PER_MM
        page_h = float(page.mediabox.height)
        trim = RectangleObject([x0, page_h - top - h * PT_PER_MM, x0 + w * PT_PER_MM, page_h - top])
        page.trimbox = trim
        page.bleedbox = RectangleObject(page.mediabox)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
