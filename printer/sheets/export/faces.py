"""Faces rendered one per page and turned into images (pypdfium2).

pypdfium2 and Pillow are imported where a face is turned into pixels: a build takes :func:`distinct_faces` and
:func:`page_layout` from here without them (0.1 s of a one-card edit's process start)."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from printer.paths import safe_file_name
from printer.problems import Problem
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import MM_PER_IN, SheetLayout, single_card_layout
from printer.sheets.placed import Face, Sheet

if TYPE_CHECKING:
    from PIL import Image

#: faces laid out per WeasyPrint document (one chunk in memory at a time while the PDF is written)
FACES_PER_CHUNK = PAGES_PER_CHUNK = 48


@dataclass
class FaceRef:
    """One distinct face of a print job: its job ``key``, a file ``name`` and which ``side`` it is."""

    key: str
    name: str
    side: str


def _slug(text: str) -> str:
    """``text`` as a safe file name: letters, digits, ``.``, ``_``, ``-``; long ones shortened with a hash."""
    return safe_file_name(re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.").lower() or "card")


def front_name(item: PrintItem) -> str:
    """The file name (no extension) of an item's front: the card id, else ``placeholder-<name>``."""
    if item.front_html is not None:
        return "aid-" + _slug(item.name)
    return safe_file_name(item.card.id) if item.card is not None else "placeholder-" + _slug(item.name)


def back_name(job: SheetJob, item: PrintItem) -> str:
    """The file name of an item's back: the back card's id, or ``back-<name>`` for a shared back."""
    kind, *rest = job.faces.back_ident(item)
    if kind == "card":
        return safe_file_name(rest[0])
    if kind == "html":
        return "aid-" + _slug(item.name) + "-back"
    return "back-" + _slug(str(rest[0]))


def distinct_faces(job: SheetJob, items: Sequence[PrintItem], backs: bool = True) -> list[FaceRef]:
    """Each distinct front (and back) of ``items`` once, in order of first use."""
    seen: dict[str, FaceRef] = {}
    for item in items:
        key = job.faces.front_key(item)
        seen.setdefault(key, FaceRef(key, front_name(item), "front"))
        if backs and job.opts.duplex != "none":
            key = job.faces.back_key(item)
            seen.setdefault(key, FaceRef(key, back_name(job, item), "back"))
    return list(seen.values())


def page_layout(job: SheetJob, with_bleed: bool, canvas: tuple[float, float] | None = None) -> SheetLayout:
    """One card per page: trim only, trim plus the bleed, or the card centred on ``canvas`` (mm)."""
    return single_card_layout(job.opts.card, job.opts.bleed if with_bleed else 0.0, canvas)


def single_sheets(job: SheetJob, keys: Sequence[str], layout: SheetLayout) -> list[Sheet]:
    """A front sheet per face key, the card on the layout's one slot, bleed to the page edges."""
    slot = layout.slots()[0]
    w, h = job.opts.card
    W, H = layout.page
    extents = (slot.x, slot.y, W - slot.x - w, H - slot.y - h)
    return [
        Sheet(
            "front",
            [Face(job.faces.html[k], slot.x, slot.y, w, h, 0, k, extents, job.opts.bleed, job.opts.safe, k)],
            i + 1,
        )
        for i, k in enumerate(keys)
    ]


def face_pdf(job: SheetJob, keys: Sequence[str], layout: SheetLayout, title: str = "") -> tuple[bytes, list[Problem]]:
    """A PDF of one face per page (text fitted as on the sheets)."""
    sheets = single_sheets(job, keys, layout)
    chunks = [sheets[i : i + PAGES_PER_CHUNK] for i in range(0, len(sheets), PAGES_PER_CHUNK)]
    return job.fitter.pdf(chunks, layout, title, label=False)


#: PDFium is not thread-safe: no two threads may call it at once, even on different documents (pypdfium2's
#: documentation, "Incompatibility with Threading"); every use of it in this process holds this lock
PDFIUM = threading.RLock()


def rasterise(pdf: bytes, px: tuple[int, int]) -> Iterator[Image.Image]:
    """Each page of ``pdf`` as an RGB image of exactly ``px`` (width, height) pixels, white behind."""
    import pypdfium2
    from PIL import Image

    with PDFIUM:
        document = pypdfium2.PdfDocument(pdf)
        count = len(document)
    try:
        for index in range(count):
            with PDFIUM:
                page = document[index]
                width_pt = page.get_width()
                image = page.render(scale=px[0] / width_pt, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
                page.close()
            if image.size != tuple(px):
                image = image.resize(px, Image.Resampling.LANCZOS)
            yield image
    finally:
        with PDFIUM:
            document.close()


def face_images(
    job: SheetJob, keys: Sequence[str], layout: SheetLayout, px: tuple[int, int]
) -> Iterator[tuple[str, Image.Image]]:
    """``(key, image)`` for each face key, rendered on ``layout``'s page at ``px`` pixels."""
    for start in range(0, len(keys), PAGES_PER_CHUNK):
        part = list(keys[start : start + PAGES_PER_CHUNK])
        data, _ = face_pdf(job, part, layout)
        yield from zip(part, rasterise(data, px))


def px_of(size_mm: tuple[float, float], dpi: float) -> tuple[int, int]:
    """Pixels of a size in mm at ``dpi`` (rounded)."""
    return (round(size_mm[0] / MM_PER_IN * dpi), round(size_mm[1] / MM_PER_IN * dpi))


def png_bytes(image: Image.Image, dpi: float, compress_level: int = 6) -> bytes:
    """``image`` as PNG bytes, marked ``dpi``, deflated at ``compress_level`` (0-9: 1 is about twice as quick as 6,
    for a larger file)."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi), optimize=False, compress_level=compress_level)
    return buffer.getvalue()
