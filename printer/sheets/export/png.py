"""``--export png``: one PNG per distinct card face, named by card id."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from printer.fsutil import atomic_write_bytes
from printer.problems import Problem
from printer.sheets.export.faces import distinct_faces, face_images, page_layout, png_bytes, px_of
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import MM_PER_IN


def export_png(
    job: SheetJob, items: Sequence[PrintItem], folder: Path, dpi: int = 300, with_bleed: bool = False
) -> tuple[Path, list[Problem]]:
    """Write ``<folder>/<card id>.png`` for each distinct front and ``back-<name>.png`` for each back.

    Each image is the trim box (or, ``with_bleed``, the trim plus the bleed
    on every side) at ``dpi``: a 63 x 88 mm card at 300 dpi is 744 x 1039 px
    (815 x 1110 px with 3 mm bleed). The dpi is stored in the PNG. With a
    corner radius (``--corner-radius``) and no bleed, the image is RGBA with
    the corners outside the rounded trim transparent (anti-aliased);
    otherwise RGB. Returns ``(folder, problems)``.
    """
    folder = Path(folder)
    faces = distinct_faces(job, items)
    write_face_pngs(job, {f.key: f.name for f in faces}, folder, dpi, with_bleed)
    return folder, []


def face_digest(data: bytes) -> str:
    """The first 10 hex digits of the SHA-256 of an image's bytes: a file name part that changes with the picture."""
    return hashlib.sha256(data).hexdigest()[:10]


def write_face_pngs(
    job: SheetJob,
    names: dict[str, str],
    folder: Path,
    dpi: float = 300,
    with_bleed: bool = False,
    digest: bool = False,
    transform: Callable[[Image.Image], Image.Image] | None = None,
) -> dict[str, str]:
    """Render each face key of ``names`` once and write it as ``<folder>/<name>.png``; returns key -> file name.

    The PNG export's images: the trim box (or with the bleed) at ``dpi``,
    every face the same pixel size; with a corner radius and no bleed, RGBA
    with transparent corners. With ``digest`` the file name is
    ``<name>-<digest>.png``, the digest (:func:`face_digest`) of the image,
    so that a changed face never takes an old picture's name (platforms and
    browsers cache images by URL). ``transform`` replaces the corner mask:
    it is given each image as rendered and returns the image to write.
    """
    folder = Path(folder)
    layout = page_layout(job, with_bleed)
    px = px_of(layout.page, dpi)
    radius = 0.0 if with_bleed else job.opts.corner_radius
    mask = rounded_mask(px, radius / MM_PER_IN * dpi) if radius > 0 and transform is None else None
    written: dict[str, str] = {}
    for key, image in face_images(job, list(names), layout, px):
        if mask is not None:
            image = image.convert("RGBA")
            image.putalpha(mask)
        if transform is not None:
            image = transform(image)
        data = png_bytes(image, dpi)
        file = f"{names[key]}-{face_digest(data)}.png" if digest else f"{names[key]}.png"
        atomic_write_bytes(folder / file, data)
        written[key] = file
    return written


def rounded_mask(size: tuple[int, int], radius_px: float, oversample: int = 4) -> Image.Image:
    """An ``L`` mask of ``size`` px: 255 inside a rectangle with corners rounded by ``radius_px``, 0 outside.

    Drawn ``oversample`` times larger and scaled down, so the curve is anti-aliased.
    """
    w, h = size
    big = Image.new("L", (w * oversample, h * oversample), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * oversample - 1, h * oversample - 1), radius=radius_px * oversample, fill=255
    )
    return big.resize((w, h), Image.Resampling.LANCZOS)
