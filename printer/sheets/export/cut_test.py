"""``--export cut-test``: a test sheet without ink, to try the cut on plain paper before printing the cards.

Writes ``<stem>-cut-test.pdf``, one page the size of the sheets with nothing on it but the registration marks the
machine's sensor reads (``--registration``; a blank page without), and ``<stem>-cut-test.svg``, the cut file of
every slot of the layout (:mod:`.cutfile`). Print the page, let the machine read the marks and cut: the cut
pieces show where the cards would be cut, and no ink is spent on cards. The PDF is drawn directly (pikepdf): a
filled black rectangle per mark, in the same places as on the card sheets.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pikepdf

from printer.fsutil import atomic_open, atomic_write_text
from printer.problems import Problem
from printer.sheets.cutting import registration_marks
from printer.sheets.export import ExportRequest, ExportResult
from printer.sheets.export.cutfile import svg_text
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import MM_PER_IN, Box
from printer.sheets.options import sheet_layout

PT_PER_MM = 72 / MM_PER_IN


def marks_pdf(page: tuple[float, float], boxes: Sequence[Box], target: Path) -> None:
    """A one-page PDF of ``page`` (mm) with a filled black rectangle per box (mm, origin top-left)."""
    W, H = page
    ops = ["0 0 0 rg"] + [
        f"{b.x0 * PT_PER_MM:.3f} {(H - b.y1) * PT_PER_MM:.3f} {b.width * PT_PER_MM:.3f} {b.height * PT_PER_MM:.3f} re f"
        for b in boxes
    ]
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(W * PT_PER_MM, H * PT_PER_MM))
    pdf.pages[0].Contents = pdf.make_stream("\n".join(ops).encode())
    with atomic_open(target) as out:
        pdf.save(out)


def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    """The ``cut-test`` entry of :data:`printer.sheets.export.EXPORTERS`."""
    layout = request.layout or sheet_layout(job.opts, job.engine.base)
    opts = job.opts
    reg = registration_marks(opts.registration, layout.page, opts.registration_inset, opts.layout_version)
    pdf = Path(request.out_dir) / f"{request.stem}-cut-test.pdf"
    marks_pdf(layout.page, reg.ink if reg is not None else (), pdf)
    svg = pdf.with_suffix(".svg")
    atomic_write_text(svg, svg_text(layout, layout.slots(), opts.corner_radius, f"{pdf.name}: cut lines, mm"))
    problems: list[Problem] = []
    summary = f"{pdf} and {svg.name} (a test sheet without ink: the registration marks only, and the cut of every slot)"
    return ExportResult([pdf, svg], summary, problems)
