"""``--export png``: one PNG per distinct card face, named by card id."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from printer.fsutil import atomic_write_bytes
from printer.problems import Problem
from printer.sheets.compose import PrintItem, PrintJob
from printer.sheets.export.faces import distinct_faces, face_images, page_layout, png_bytes, px_of


def export_png(
    job: PrintJob, items: Sequence[PrintItem], folder: Path, dpi: int = 300, with_bleed: bool = False
) -> tuple[Path, list[Problem]]:
    """Write ``<folder>/<card id>.png`` for each distinct front and ``back-<name>.png`` for each back.

    Each image is the trim box (or, ``with_bleed``, the trim plus the bleed
    on every side) at ``dpi``: a 63 x 88 mm card at 300 dpi is 744 x 1039 px
    (815 x 1110 px with 3 mm bleed). The dpi is stored in the PNG. Returns
    ``(folder, problems)``.
    """
    folder = Path(folder)
    faces = distinct_faces(job, items)
    layout = page_layout(job, with_bleed)
    px = px_of(layout.page, dpi)
    names = {f.key: f.name for f in faces}
    for key, image in face_images(job, [f.key for f in faces], layout, px):
        atomic_write_bytes(folder / f"{names[key]}.png", png_bytes(image, dpi))
    return folder, []
