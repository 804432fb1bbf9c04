"""Each imposed face carries only the resources it draws with, not its whole batch's.

The faces of one laid-out batch share one resources dictionary in WeasyPrint's PDF (every font, image and pattern
of the batch). Imposed as form XObjects with that dictionary, 9,000 faces in two batches made a 709 MB PDF and an
8.8 GB process; each face's resources are now cut down to the names its content stream uses
(:func:`printer.sheets.impose._own_resources`).
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from helpers import build_examples

REPO = Path(__file__).resolve().parents[3]


def used_names(stream: pikepdf.Object) -> set[str]:
    return {
        str(o) for operands, _ in pikepdf.parse_content_stream(stream) for o in operands if isinstance(o, pikepdf.Name)
    }


@pytest.mark.slow
def test_every_face_form_holds_only_the_resources_its_content_uses(tmp_path_factory):
    with pikepdf.open(build_examples(tmp_path_factory, "l5r")) as pdf:
        forms = 0
        for page in pdf.pages:
            for face in (page.obj.Resources.get("/XObject") or {}).values():
                if face.get("/Subtype") != "/Form" or "/Resources" not in face:
                    continue
                forms += 1
                names = used_names(face)
                for category in ("/XObject", "/Font", "/ExtGState", "/Pattern", "/Shading"):
                    held = set((face.Resources.get(category) or {}).keys())
                    assert held <= names, (category, held - names)
        assert forms >= 16


def test_own_resources_keeps_the_used_names_of_a_shared_dictionary():
    from printer.sheets.impose import _own_resources

    pdf = pikepdf.new()
    shared = pdf.make_indirect(
        pikepdf.Dictionary(
            Font=pikepdf.Dictionary(F1=pikepdf.Dictionary(), F2=pikepdf.Dictionary()),
            XObject=pikepdf.Dictionary(X1=pikepdf.Stream(pdf, b""), X2=pikepdf.Stream(pdf, b"")),
            ProcSet=pikepdf.Array([pikepdf.Name.PDF]),
        )
    )
    page = pikepdf.Page(pdf.add_blank_page())
    page.obj.Resources = shared
    page.obj.Contents = pdf.make_stream(b"BT /F2 9 Tf (x) Tj ET q /X1 Do Q")
    own = _own_resources(page)
    assert set(own.Font.keys()) == {"/F2"} and set(own.XObject.keys()) == {"/X1"}
    assert own.ProcSet == shared.ProcSet


def test_a_face_page_becomes_a_form_of_its_own_compressed_content_or_a_copy_when_it_has_several():
    import io
    import zlib

    from printer.sheets.impose import _write_form
    from printer.sheets.pdfstream import StreamingPdf

    pdf = pikepdf.new()
    page = pikepdf.Page(pdf.add_blank_page(page_size=(200, 300)))
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pikepdf.Dictionary()))
    page.obj.TrimBox = pikepdf.Array([10, 10, 190, 290])
    page.obj.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency)
    drawing = zlib.compress(b"BT /F1 9 Tf (x) Tj ET")
    page.obj.Contents = pikepdf.Stream(pdf, drawing, Filter=pikepdf.Name.FlateDecode)
    other = pikepdf.Page(pdf.add_blank_page(page_size=(200, 300)))
    other.obj.Contents = pikepdf.Array([pdf.make_stream(b"q"), pdf.make_stream(b"Q")])

    handle = io.BytesIO()
    out = StreamingPdf(handle)
    token = out.source(pdf)
    forms = (_write_form(out, token, page), _write_form(out, token, other))
    tree, sheet, catalog = out.reserve(), out.reserve(), out.reserve()
    out.write(sheet, b"<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 10 10 ] /Resources << /XObject << "
              b"/A %d 0 R /B %d 0 R >> >> >>" % (tree, *forms))  # fmt: skip
    out.write(tree, b"<< /Type /Pages /Kids [ %d 0 R ] /Count 1 >>" % sheet)
    out.write(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    out.finish(catalog)
    result = pikepdf.open(io.BytesIO(handle.getvalue()))
    written = result.pages[0].Resources.XObject

    form = written.A
    assert form.Subtype == "/Form" and list(form.BBox) == [10, 10, 190, 290] and form.Group.S == "/Transparency"
    assert form.read_raw_bytes() == drawing and form.read_bytes() == b"BT /F1 9 Tf (x) Tj ET"  # not coded again
    assert set(form.Resources.Font.keys()) == {"/F1"}
    joined = written.B  # several content streams: QPDF's own copy, the streams joined
    assert joined.Subtype == "/Form" and b"q" in joined.read_bytes() and b"Q" in joined.read_bytes()
