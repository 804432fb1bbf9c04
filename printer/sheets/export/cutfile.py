"""``--cut-file svg|dxf``: one cut file per sheet for a cutting machine, its paths on the cards' trim.

Each file is ``<stem>-cut/sheet-NN.svg`` (or ``.dxf``) for front sheet
``NN`` of the PDF (page ``2 x NN - 1`` with duplex backs, ``NN`` without),
in real units and the size of the sheet, so that it lies on the printed
page as it is:

- **SVG**: ``width`` and ``height`` in mm and a ``viewBox`` of the sheet in
  mm (1 user unit = 1 mm); one closed ``<path>`` per card in a group
  ``id="cut"``, stroke only (0.1 mm red hairline), numbered ``card-1``...
  in the order the cards fill the sheet. Origin top-left, as on the sheet.
- **DXF** (through ezdxf, MIT; install ``printer[dxf]``): drawing units
  mm (``$INSUNITS`` 4), one closed ``LWPOLYLINE`` per card on layer
  ``CUT``, quarter-circle corners as vertex bulges; DXF's y axis points up,
  so the origin is the sheet's bottom-left corner.

Each path is the card's trim box with its corners rounded by the corner
radius (``--corner-radius``; square without), exactly where the PDF puts
the card (:mod:`printer.sheets.cutting`). Silhouette Studio opens DXF in
every edition and SVG in its Designer edition; Cricut Design Space takes
SVG and DXF. Place the file at the page's origin, with the registration
marks the PDF prints (``--registration``), and print at 100 % scale.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.problems import Problem
from printer.sheets.cutting import outline_path, outline_polyline, sheet_slots
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import Box, SheetLayout, Slot

STROKE = "#ff0000"
STROKE_WIDTH = 0.1  # mm: a hairline, as cutting software expects for a cut line


def sheet_name(number: int, suffix: str) -> str:
    return f"sheet-{number:02d}.{suffix}"


def svg_text(
    layout: SheetLayout, slots: Iterable[Slot], radius: float, title: str = "", window: Box | None = None
) -> str:
    """The SVG cut file of one sheet: ``slots`` are the used slots of ``layout``, ``radius`` the corner radius (mm).

    With ``window`` (a box of the sheet, mm) the file is the size of that box, its origin the box's top-left corner
    (the area of a sheet an image was cut from, as Cricut's Print Then Cut takes it).
    """
    W, H = layout.page if window is None else (window.width, window.height)
    dx, dy = (0.0, 0.0) if window is None else (window.x0, window.y0)

    def shifted(box: Box) -> Box:
        return Box(box.x0 - dx, box.y0 - dy, box.x1 - dx, box.y1 - dy)

    paths = "\n".join(
        f'    <path id="card-{i}" d="{outline_path(shifted(layout.trim_box(slot)), radius)}"/>'
        for i, slot in enumerate(slots, 1)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:g}mm" height="{H:g}mm" viewBox="0 0 {W:g} {H:g}">\n'
        f"  <title>{escape(title)}</title>\n"
        f'  <g id="cut" fill="none" stroke="{STROKE}" stroke-width="{STROKE_WIDTH:g}">\n'
        f"{paths}\n"
        "  </g>\n"
        "</svg>\n"
    )


def dxf_bytes(layout: SheetLayout, slots: Iterable[Slot], radius: float) -> bytes:
    """The DXF cut file of one sheet (R2010, mm). Raises :class:`ImportError` without ezdxf."""
    from ezdxf import units
    from ezdxf.filemanagement import new

    doc = new("R2010", units=units.MM)
    doc.layers.add("CUT", color=1)
    msp = doc.modelspace()
    H = layout.page[1]
    for slot in slots:
        msp.add_lwpolyline(
            outline_polyline(layout.trim_box(slot), radius, H), format="xyb", close=True, dxfattribs={"layer": "CUT"}
        )
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode("utf-8")


def export_cut_files(
    job: SheetJob, items: Sequence[PrintItem], layout: SheetLayout, folder: Path, fmt: str, pdf_name: str = ""
) -> tuple[list[Path], list[Problem]]:
    """Write one ``fmt`` (``svg`` or ``dxf``) cut file per front sheet into ``folder``; returns ``(files, problems)``.

    ``layout`` is the sheet layout the PDF was printed with, ``items`` the
    printed cards in order (they fill each sheet's slots from the first).
    Without ezdxf a DXF is not written and a problem says how to install it.
    """
    folder = Path(folder)
    radius = job.opts.corner_radius
    per_page = 1 if layout.fold or job.opts.duplex == "none" else 2
    files: list[Path] = []
    for number, slots in enumerate(sheet_slots(layout, len(items)), 1):
        target = folder / sheet_name(number, fmt)
        if fmt == "svg":
            page = (number - 1) * per_page + 1
            title = f"{pdf_name} sheet {number} (page {page}): cut lines, mm".strip()
            atomic_write_text(target, svg_text(layout, slots, radius, title))
        else:
            try:
                data = dxf_bytes(layout, slots, radius)
            except ImportError:
                return files, [
                    Problem(
                        "--cut-file dxf",
                        "DXF cut files need the ezdxf package, which is not installed",
                        "pip install 'printer[dxf]' (or ezdxf), or use --cut-file svg",
                        code="missing-package",
                    )
                ]
            atomic_write_bytes(target, data)
        files.append(target)
    return files, []
