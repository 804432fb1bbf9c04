"""Imposition: each distinct face laid out once on a page of its own, then placed on the sheets as a form XObject.

A build lays out every distinct front and back once, each on a page of the
card's trim size plus the bleed all round (:func:`printer.sheets.export.faces.face_pdf`),
and the sheet *chrome* (crop marks or cut lines, fold guides, the sheet
label) once per sheet. :func:`impose` then turns each face page into a PDF
form XObject (pikepdf) and draws it on every sheet that holds that card:
moved to the card's slot, turned by the slot's rotation about the trim box's
centre, and clipped to the card's bleed box as the layout cut it short
towards its neighbours (:attr:`printer.sheets.render.Face.bleed`). A deck of
900 cards and two back designs lays out 902 faces, not 1,800.

Coordinates: the layout works in mm from the sheet's top-left corner, y
downwards (:mod:`printer.sheets.layout`); PDF user space is in pt (1/72 in)
from the bottom-left corner, y upwards.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from printer.sheets.render import Face, Sheet
from printer.units import MM_PER_IN

PT_PER_MM = 72 / MM_PER_IN

Matrix = tuple[float, float, float, float, float, float]


def face_matrix(
    face: Face, face_page: tuple[float, float], trim_at: tuple[float, float], sheet_height: float
) -> Matrix:
    """The PDF ``cm`` matrix that draws a face page on a sheet at ``face``'s slot.

    ``face_page`` is the face page's size and ``trim_at`` the top-left of
    the trim box on it (mm); ``sheet_height`` is the sheet's height (mm).
    The matrix maps the face page's PDF space (pt, y up) to the sheet's.
    """
    fw, fh = (face.h, face.w) if face.rotate % 180 == 90 else (face.w, face.h)
    centre = (face.x + fw / 2, face.y + fh / 2)
    turn = math.radians(face.rotate % 360)
    cos, sin = round(math.cos(turn)), round(math.sin(turn))  # slots turn by multiples of 90 degrees

    def place(x_pt: float, y_pt: float) -> tuple[float, float]:
        u, v = x_pt / PT_PER_MM, face_page[1] - y_pt / PT_PER_MM  # mm on the face page, y down
        cx, cy = u - trim_at[0] - face.w / 2, v - trim_at[1] - face.h / 2  # from the trim box's centre
        sx, sy = centre[0] + cos * cx - sin * cy, centre[1] + sin * cx + cos * cy  # turned clockwise, y down
        return sx * PT_PER_MM, (sheet_height - sy) * PT_PER_MM

    e, f = place(0, 0)
    a, b = (p - q for p, q in zip(place(1, 0), (e, f)))
    c, d = (p - q for p, q in zip(place(0, 1), (e, f)))
    return (a, b, c, d, e, f)


def clip_box(face: Face, sheet_height: float) -> tuple[float, float, float, float]:
    """The card's bleed box as it lies on the sheet: ``(x, y, width, height)`` in PDF pt (y up)."""
    left, top, right, bottom = face.bleed
    corners = [(-face.w / 2 - left, -face.h / 2 - top), (face.w / 2 + right, face.h / 2 + bottom)]
    fw, fh = (face.h, face.w) if face.rotate % 180 == 90 else (face.w, face.h)
    centre = (face.x + fw / 2, face.y + fh / 2)
    turn = math.radians(face.rotate % 360)
    cos, sin = round(math.cos(turn)), round(math.sin(turn))
    xs, ys = [], []
    for cx in (corners[0][0], corners[1][0]):
        for cy in (corners[0][1], corners[1][1]):
            xs.append(centre[0] + cos * cx - sin * cy)
            ys.append(centre[1] + sin * cx + cos * cy)
    x0, x1 = min(xs) * PT_PER_MM, max(xs) * PT_PER_MM
    y0, y1 = (sheet_height - max(ys)) * PT_PER_MM, (sheet_height - min(ys)) * PT_PER_MM
    return (x0, y0, x1 - x0, y1 - y0)


def _num(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def impose(
    chrome_pdf: bytes,
    sheets: Sequence[Sheet],
    faces: Mapping[str, tuple[bytes, int]],
    face_page: tuple[float, float],
    trim_at: tuple[float, float],
    sheet_height: float,
) -> bytes:
    """The sheets' PDF: ``chrome_pdf`` (one page per sheet: marks, guides, labels) with every face drawn under it.

    ``faces`` maps a face key to ``(pdf bytes, page index)``: where that
    face's page is (several keys may share one PDF; it is opened once).
    ``face_page`` and ``trim_at`` give the face pages' size and the trim
    box's top-left on them, ``sheet_height`` the sheets' height (all mm).
    Fonts and images of one face PDF are copied once into the result,
    however many faces and sheets use them. Raises ``ValueError`` when
    ``chrome_pdf`` does not have one page per sheet.
    """
    import pikepdf

    out = pikepdf.open(io.BytesIO(chrome_pdf))
    if len(out.pages) != len(sheets):
        raise ValueError(f"the sheet PDF has {len(out.pages)} pages for {len(sheets)} sheets")
    sources: dict[int, pikepdf.Pdf] = {}
    forms: dict[str, pikepdf.Object] = {}

    def form(key: str) -> pikepdf.Object:
        if key not in forms:
            data, index = faces[key]
            source = sources.get(id(data))
            if source is None:
                source = sources[id(data)] = pikepdf.open(io.BytesIO(data))
            xobject = pikepdf.Page(source.pages[index]).as_form_xobject()
            forms[key] = out.copy_foreign(xobject)
        return forms[key]

    try:
        for sheet, pdf_page in zip(sheets, out.pages):
            if not sheet.faces:
                continue
            page = pikepdf.Page(pdf_page)
            ops = []
            for face in sheet.faces:
                name = page.add_resource(form(face.key), pikepdf.Name.XObject, prefix="Face")
                x, y, w, h = clip_box(face, sheet_height)
                matrix = " ".join(_num(v) for v in face_matrix(face, face_page, trim_at, sheet_height))
                ops.append(f"q {_num(x)} {_num(y)} {_num(w)} {_num(h)} re W n {matrix} cm {name} Do Q")
            page.contents_add(pikepdf.Stream(out, "\n".join(ops).encode("ascii")), prepend=True)
        buffer = io.BytesIO()
        out.save(buffer, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return buffer.getvalue()
    finally:
        for source in sources.values():
            source.close()
        out.close()
