"""``--registration cricut``: what Cricut Design Space's Print Then Cut takes, an image and a cut file per sheet.

Design Space prints an image itself, with its own registration marks round it, then cuts along the cut file's
paths: it takes an image of at most 6.75 x 9.25 in (on Letter and A4) and prints no marks from the file. So with
``--registration cricut`` the PDF carries no marks of printer's own (layout version 2 on;
:mod:`printer.sheets.cutting`), the cards lie inside the centred 6.75 x 9.25 in area, and the build writes in
``<stem>-cricut/``, for each front sheet ``NN``:

- ``sheet-NN.png``: the area of the sheet, exactly 6.75 x 9.25 in (turned with the sheet), at :data:`DPI` dpi
  (2025 x 2775 px), RGB, the dpi stored in the PNG; rendered from the PDF's page (pypdfium2);
- ``sheet-NN.svg``: the cut file of the same area, the same size in mm (171.45 x 234.95), origin its top-left
  corner, one closed path per card on its trim (:mod:`.cutfile`).

In Design Space: upload the PNG, then the SVG, keep both at their size (the SVG is in mm), put the cut paths on the
image (Attach or Flatten as a Print Then Cut image: the image prints, the paths cut), and make it.

Source: Cricut's Print Then Cut help pages (help.cricut.com: the largest Print Then Cut image, 6.75 x 9.25 in on
Letter and A4; Design Space adds the registration marks when it prints).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pypdfium2

from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.problems import Problem
from printer.sheets.cutting import registration_marks, sheet_slots
from printer.sheets.export import ExportRequest, ExportResult
from printer.sheets.export.cutfile import svg_text
from printer.sheets.export.faces import PDFIUM, png_bytes
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import MM_PER_IN
from printer.sheets.options import sheet_layout

DPI = 300


def export_cricut(
    job: SheetJob, items: Sequence[PrintItem], request: ExportRequest, pdf: Path
) -> tuple[list[Path], list[Problem]]:
    """Write ``sheet-NN.png`` and ``sheet-NN.svg`` for each front sheet of ``pdf`` into ``<stem>-cricut/``."""
    layout = request.layout or sheet_layout(job.opts, job.engine.base)
    reg = registration_marks("cricut", layout.page, None, job.opts.layout_version)
    assert reg is not None
    area = reg.area
    folder = Path(request.out_dir) / f"{request.stem}-cricut"
    per_page = 1 if job.opts.duplex == "none" else 2
    files: list[Path] = []
    scale = DPI / 72
    box_px = tuple(round(v / MM_PER_IN * DPI) for v in (area.x0, area.y0, area.x1, area.y1))
    with PDFIUM:
        document = pypdfium2.PdfDocument(str(pdf))
    try:
        for number, slots in enumerate(sheet_slots(layout, len(items)), 1):
            with PDFIUM:
                page = document[(number - 1) * per_page]
                image = page.render(scale=scale, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
                page.close()
            target = folder / f"sheet-{number:02d}.png"
            atomic_write_bytes(target, png_bytes(image.crop(box_px), DPI))
            title = f"{pdf.name} sheet {number}: the Print Then Cut area, mm"
            atomic_write_text(target.with_suffix(".svg"), svg_text(layout, slots, job.opts.corner_radius, title, area))
            files += [target, target.with_suffix(".svg")]
    finally:
        with PDFIUM:
            document.close()
    return files, []


def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    """The ``cricut`` entry of :data:`printer.sheets.export.EXPORTERS` (run by every build with ``--registration cricut``)."""
    pdf = Path(request.out_dir) / f"{request.stem}.pdf"
    files, problems = export_cricut(job, items, request, pdf)
    folder = Path(request.out_dir) / f"{request.stem}-cricut"
    n = len(files) // 2
    summary = (
        f"{folder}/ ({n} Print Then Cut image{'s' * (n != 1)}, 6.75 x 9.25 in at {DPI} dpi, each with its SVG cut file:"
        " upload both to Cricut Design Space)"
    )
    return ExportResult([folder], summary, problems)
