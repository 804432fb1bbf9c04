"""The PDF the imposition writes object by object (:mod:`printer.sheets.pdfstream`), read back with pikepdf."""

from __future__ import annotations

import io
import zlib

import pikepdf
import pytest

from printer.sheets.pdfstream import StreamingPdf, Update


def written(build) -> pikepdf.Pdf:
    """A PDF made by ``build(out)`` read back, failing on any warning QPDF gives (a wrong offset is repaired
    silently otherwise)."""
    handle = io.BytesIO()
    out = StreamingPdf(handle)
    build(out)
    pdf = pikepdf.open(io.BytesIO(handle.getvalue()))
    for page in pdf.pages:
        page.obj.get("/Contents")
    assert pdf.get_warnings() == []
    pdf.data = handle.getvalue()
    return pdf


def one_page(out: StreamingPdf, resources: bytes = b"", contents: int | None = None) -> None:
    tree, page, catalog = out.reserve(), out.reserve(), out.reserve()
    drawn = b" /Contents %d 0 R" % contents if contents is not None else b""
    out.write(page, b"<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 100 100 ] /Resources <<%s >>%s >>" % (
        tree, resources, drawn))  # fmt: skip
    out.write(tree, b"<< /Type /Pages /Kids [ %d 0 R ] /Count 1 >>" % page)
    out.write(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    out.finish(catalog)


def source() -> pikepdf.Pdf:
    """A PDF whose objects refer to each other: a shared font, a string that looks like a reference, a name
    needing escapes, a compressed stream and an object referring to itself."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1))
    font.BaseFont = pikepdf.Name("/Odd#Name 1")
    loop = pdf.make_indirect(pikepdf.Dictionary(Note=pikepdf.String("see 3 0 R (and) \\ here")))
    loop.Self = loop
    data = zlib.compress(b"BT /F1 12 Tf (hi) Tj ET")
    stream = pdf.make_indirect(pikepdf.Stream(pdf, data, Filter=pikepdf.Name.FlateDecode))
    stream.Loop = loop
    pdf.Root.Shared = pikepdf.Dictionary(F1=font, F2=font, Drawing=stream, N=pikepdf.Array([1, 2.5, -0.25, True]))
    return pdf


def test_copied_objects_keep_their_values_and_each_shared_object_is_written_once():
    src = source()

    def build(out: StreamingPdf) -> None:
        token = out.source(src)
        shared = out.copy(token, src.Root.Shared)
        again = out.copy(token, src.Root.Shared.F1)
        assert again in shared  # the font already copied: a reference to the same copy
        one_page(out, b" /Font " + shared)

    pdf = written(build)
    fonts = pdf.pages[0].Resources.Font
    assert fonts.F1.objgen == fonts.F2.objgen and fonts.F1.BaseFont == "/Odd#Name 1"
    assert list(fonts.N) == [1, pytest.approx(2.5), pytest.approx(-0.25), True]
    assert str(fonts.Drawing.Loop.Note) == "see 3 0 R (and) \\ here"
    assert fonts.Drawing.Loop.Self.objgen == fonts.Drawing.Loop.objgen
    assert fonts.Drawing.read_raw_bytes() == zlib.compress(b"BT /F1 12 Tf (hi) Tj ET")  # as stored, not coded again
    assert fonts.Drawing.read_bytes() == b"BT /F1 12 Tf (hi) Tj ET"
    assert sum(1 for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font") == 1


def test_new_streams_are_compressed_on_request_and_the_id_follows_the_bytes():
    def build(out: StreamingPdf) -> None:
        contents = out.reserve()
        out.write_stream(contents, b"", b"0 0 m 100 100 l S", compress=True)
        one_page(out, contents=contents)

    first, second = written(build), written(build)
    assert first.pages[0].Contents.Filter == "/FlateDecode"
    assert first.pages[0].Contents.read_bytes() == b"0 0 m 100 100 l S"
    assert first.data == second.data and len(first.trailer.ID) == 2


def test_an_object_reserved_and_never_written_is_an_error():
    out = StreamingPdf(io.BytesIO())
    out.reserve()
    with pytest.raises(ValueError, match="never written"):
        out.finish(1)


def test_an_aliased_object_is_referred_to_not_copied():
    src = source()

    def build(out: StreamingPdf) -> None:
        token = out.source(src)
        tree = out.reserve()
        out.alias(token, src.Root.Pages.objgen, tree)
        page, catalog = out.reserve(), out.reserve()
        out.write(page, b"<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 10 10 ] /Resources << >> >>" % tree)
        out.write(tree, b"<< /Type /Pages /Kids [ %d 0 R ] /Count 1 /Extra %s >>" % (page, out.copy(token, src.Root)))
        out.write(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
        out.finish(catalog)

    pdf = written(build)
    assert pdf.Root.Pages.Extra.Pages.objgen == pdf.Root.Pages.objgen  # the source's page tree is ours


@pytest.mark.parametrize("version", ["1.7", "1.4"])  # a cross-reference stream, a classic table
def test_an_update_adds_objects_writes_one_anew_and_leaves_the_pdf_before_it_as_it_was(version):
    handle = io.BytesIO()
    first = StreamingPdf(handle, version)
    one_page(first)  # 1: the page tree, 2: the page, 3: the catalog
    before = handle.getvalue()
    last = pikepdf.open(io.BytesIO(before))
    startxref = int(before.rsplit(b"startxref", 1)[1].split()[0])
    update = Update(before, int(last.trailer.Size), startxref, last.trailer.ID[1].unparse())

    handle = io.BytesIO()
    out = StreamingPdf(handle, version, update)
    own = out.source(last, same=True)
    drawing = out.reserve()
    assert drawing == int(last.trailer.Size)  # new objects are numbered after the PDF's own
    out.write_stream(drawing, b"", b"0 0 m 100 100 l S", compress=True)
    page = last.pages[0].obj
    kept = out.entries(own, ((k, v) for k, v in page.items() if k != "/Contents"))
    out.write(page.objgen[0], b"<<%s /Contents %d 0 R >>" % (kept, drawing))  # the page written anew, same number
    out.finish(last.Root.objgen[0], None, out.copy(own, last.trailer.ID[0]))
    data = handle.getvalue()

    assert data.startswith(before) and data.count(b"%%EOF") == 2
    pdf = pikepdf.open(io.BytesIO(data))
    assert pdf.get_warnings() == [] and pdf.check_pdf_syntax() == []
    assert pdf.pages[0].Contents.read_bytes() == b"0 0 m 100 100 l S"
    assert pdf.pages[0].obj.objgen == page.objgen and pdf.pages[0].Parent.objgen == last.Root.Pages.objgen
    assert pdf.trailer.ID[0] == last.trailer.ID[0] and pdf.trailer.ID[1] != last.trailer.ID[1]
    assert pdf.trailer.Prev == startxref and int(pdf.trailer.Size) == drawing + 1 + 2 * (
        version == "1.7"
    )  # and an object stream and the xref stream


def test_an_update_refers_to_the_objects_of_the_pdf_it_updates_and_copies_none():
    handle = io.BytesIO()
    one_page(StreamingPdf(handle))
    before = handle.getvalue()
    last = pikepdf.open(io.BytesIO(before))
    update = Update(before, int(last.trailer.Size), int(before.rsplit(b"startxref", 1)[1].split()[0]))
    out = StreamingPdf(io.BytesIO(), "1.7", update)
    own = out.source(last, same=True)
    assert out.copy(own, last.Root.Pages) == b"%d 0 R" % last.Root.Pages.objgen[0]
    with pytest.raises(ValueError, match="not one this update keeps"):
        out.copy(own, foreign_ref(last))


def foreign_ref(pdf: pikepdf.Pdf) -> pikepdf.Object:
    """An indirect object of ``pdf`` numbered past its ``/Size``: what no update of it keeps."""
    extra = pdf.make_indirect(pikepdf.Dictionary(C=3))
    assert extra.objgen[0] >= int(pdf.trailer.Size)
    return extra


def pdf_bytes(pdf: pikepdf.Pdf) -> bytes:
    handle = io.BytesIO()
    pdf.save(handle)
    return handle.getvalue()


def test_imposition_keeps_the_chrome_document_and_writes_each_face_and_font_once():
    from printer.sheets.impose import impose
    from printer.sheets.placed import Face, Sheet

    chrome = pikepdf.new()
    for _ in range(2):
        chrome.add_blank_page(page_size=(210 * 72 / 25.4, 297 * 72 / 25.4))
        del chrome.pages[-1].obj["/MediaBox"]  # inherited from the page tree below
    chrome.Root.Pages.MediaBox = pikepdf.Array([0, 0, 595.28, 841.89])
    chrome.Root.Lang = pikepdf.String("ja")
    chrome.Root.OutputIntents = pikepdf.Array([chrome.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.GTS_PDFX))])
    chrome.docinfo.Title = "Sheets"

    faces = pikepdf.new()
    font = faces.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1))
    for contents in ([b"BT /F1 9 Tf (a) Tj ET"], [b"q", b"BT /F1 9 Tf (b) Tj ET Q"]):  # the second: two streams
        page = faces.add_blank_page(page_size=(69 * 72 / 25.4, 94 * 72 / 25.4))
        page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font, F9=font))
        page.obj.TrimBox = pikepdf.Array([8.5, 8.5, 187.09, 257.95])
        streams = [faces.make_stream(zlib.compress(c), Filter=pikepdf.Name.FlateDecode) for c in contents]
        page.obj.Contents = streams[0] if len(streams) == 1 else pikepdf.Array(streams)
    data = pdf_bytes(faces)

    def face(key: str, x: float) -> Face:
        return Face("", x, 10, 63, 88, key=key, bleed=(3, 3, 3, 3))

    sheets = [Sheet("front", [face("a", 10), face("b", 80)]), Sheet("front", [face("a", 10)], number=2)]
    found = {"a": (data, 0), "b": (data, 1)}
    handle = io.BytesIO()
    impose(pdf_bytes(chrome), sheets, found, (69, 94), (3, 3), 297, {"a": "/Fa", "b": "/Fb"}, into=handle)

    pdf = pikepdf.open(io.BytesIO(handle.getvalue()))
    assert pdf.get_warnings() == [] and len(pdf.pages) == 2
    assert str(pdf.Root.Lang) == "ja" and pdf.Root.OutputIntents[0].S == "/GTS_PDFX" and pdf.docinfo.Title == "Sheets"
    first, second = (page.obj for page in pdf.pages)
    assert [float(v) for v in first.MediaBox] == pytest.approx([0, 0, 595.28, 841.89])
    assert first.Resources.XObject.Fa.objgen == second.Resources.XObject.Fa.objgen  # one form, drawn twice
    a, b = first.Resources.XObject.Fa, first.Resources.XObject.Fb
    assert [float(v) for v in a.BBox] == pytest.approx([8.5, 8.5, 187.09, 257.95])
    assert set(a.Resources.Font.keys()) == {"/F1"}  # only what its content uses
    assert a.read_bytes() == b"BT /F1 9 Tf (a) Tj ET" and b"(b) Tj" in b.read_bytes()
    assert a.Resources.Font.F1.objgen == b.Resources.Font.F1.objgen  # the font copied once for both faces
    drawing = first.Contents[0].read_bytes()
    assert drawing.startswith(b"% printer faces") and b"/Fa Do" in drawing and b"/Fb Do" in drawing


def test_the_sheets_chrome_may_come_in_several_pdfs_whose_pages_are_the_sheets_in_turn():
    from printer.sheets.impose import impose
    from printer.sheets.placed import Sheet

    def chrome(*labels: str) -> bytes:
        pdf = pikepdf.new()
        for label in labels:
            page = pdf.add_blank_page(page_size=(200, 200))
            page.obj.Contents = pdf.make_stream(b"BT /F1 9 Tf (" + label.encode() + b") Tj ET")
        return pdf_bytes(pdf)

    parts = [chrome("one", "two"), chrome("three")]
    data, _ = impose(parts, [Sheet("front"), Sheet("back"), Sheet("front", number=2)], {}, (69, 94), (3, 3), 70)
    pdf = pikepdf.open(io.BytesIO(data))
    assert pdf.get_warnings() == []
    assert [page.Contents[0].read_bytes().split(b"(")[1][:-7] for page in pdf.pages] == [b"one", b"two", b"three"]
    with pytest.raises(ValueError, match="3 pages for 4 sheets"):
        impose(parts, [Sheet("front")] * 4, {}, (69, 94), (3, 3), 70)
    with pytest.raises(ValueError, match="more pages"):
        impose(parts, [Sheet("front")] * 2, {}, (69, 94), (3, 3), 70)


def test_a_face_pdf_is_needed_until_the_last_sheet_that_first_draws_one_of_its_faces():
    from printer.sheets.impose import _last_needed
    from printer.sheets.placed import Face, Sheet

    fronts, backs = b"fronts", b"backs"

    def face(key: str) -> Face:
        return Face("", 0, 0, 63, 88, key=key)

    sheets = [Sheet("front", [face("a")]), Sheet("back", [face("back")]), Sheet("front", [face("b")])]
    sheets += [Sheet("back", [face("back")])]
    last = _last_needed(sheets, {"a": (fronts, 0), "b": (fronts, 1), "back": (backs, 0)})
    assert last == {id(fronts): 2, id(backs): 1}  # the back's form is written on sheet 1, referred to after


@pytest.mark.parametrize("budget", [1 << 20, 200])
def test_a_jobs_face_html_is_kept_as_utf8_then_compressed_and_read_back_as_markup(budget, monkeypatch):
    from markupsafe import Markup

    from printer.sheets.faces.store import FaceHtml

    monkeypatch.setattr(FaceHtml, "RAW_BUDGET", budget)
    store = FaceHtml()
    store["f1"] = Markup("<p>◆ 武士 \U0001f0a1</p>")
    assert store["f1"] == "<p>◆ 武士 \U0001f0a1</p>" and isinstance(store["f1"], Markup)
    assert "f1" in store and list(store) == ["f1"] and store.pop("f1") and len(store) == 0
    store = FaceHtml()
    faces = [
        f'<div class="card"><h1 class="title">Card {i}</h1><p class="text">Draw {i} cards.</p></div>' for i in range(50)
    ]
    for i, html in enumerate(faces):
        store[f"f{i}"] = Markup(html)
    assert [store[f"f{i}"] for i in range(50)] == faces and list(store) == [f"f{i}" for i in range(50)]
    held = sum(map(len, store._data.values()))
    raw = sum(len(h.encode()) for h in faces)
    if budget > raw:  # all within the budget: as they are
        assert held == raw + 50
    else:  # past it, the first face is the others' preset dictionary
        assert store._raw <= budget and held < raw / 2
    store["f0"], store["empty"] = faces[1], ""
    assert store["f0"] == faces[1] and store["empty"] == ""
    for key in list(store):
        del store[key]
    assert store._raw == 0


def test_faces_set_aside_in_a_spill_file_read_back_the_same_and_a_full_disk_keeps_them_in_memory(tmp_path, monkeypatch):
    from markupsafe import Markup

    from printer.sheets.faces.store import FaceHtml
    from printer.spill import Spill

    monkeypatch.setattr(FaceHtml, "RAW_BUDGET", 300)
    faces = [f'<div class="card"><h1>Card {i}</h1><p class="text">Draw {i} ◆ cards.</p></div>' for i in range(40)]
    store = FaceHtml()
    for i, html in enumerate(faces[:20]):
        store[f"f{i}"] = Markup(html)
    raw = [k for k, v in store._data.items() if isinstance(v, bytes) and v[:1] == b"="]
    spill = Spill(tmp_path)
    store.set_aside(spill)
    for i, html in enumerate(faces[20:], 20):
        store[f"f{i}"] = Markup(html)
    store.set_aside(Spill(tmp_path))  # a second spill: faces already set aside stay readable from the first
    assert [store[f"f{i}"] for i in range(40)] == faces
    assert raw and all(isinstance(v, int) for v in store._data.values())  # those held as they were too
    assert store._raw == 0
    store["f3"] = "<p>again</p>"  # the budget is free again: held as it is
    assert store["f3"] == "<p>again</p>" and len(store) == 40 and store._data["f3"] == b"=<p>again</p>"

    class Full(Spill):
        def put(self, data):
            raise OSError(28, "No space left on device")

    store = FaceHtml()
    store.set_aside(Full(tmp_path))
    for i, html in enumerate(faces):
        store[f"f{i}"] = Markup(html)
    assert [store[f"f{i}"] for i in range(40)] == faces and not any(isinstance(v, int) for v in store._data.values())


def test_the_imposed_pdf_keeps_the_sheets_first_identifier_and_its_second_follows_the_content():
    from printer.sheets.impose import impose
    from printer.sheets.placed import Face, Sheet

    chrome = pikepdf.new()
    chrome.add_blank_page(page_size=(200, 200))
    chrome_data = pdf_bytes(chrome)  # QPDF gives it an /ID
    first_id = bytes(pikepdf.open(io.BytesIO(chrome_data)).trailer.ID[0])
    faces = pikepdf.new()
    for text in (b"a", b"b"):
        page = faces.add_blank_page(page_size=(100, 100))
        page.obj.Contents = faces.make_stream(b"BT (" + text + b") Tj ET")
    data = pdf_bytes(faces)
    ids = []
    for key in ("a", "b"):
        sheet = Sheet("front", [Face("", 10, 10, 30, 30, key=key)])
        out, _ = impose(chrome_data, [sheet], {"a": (data, 0), "b": (data, 1)}, (35, 35), (2, 2), 70)
        ids.append([bytes(s) for s in pikepdf.open(io.BytesIO(out)).trailer.ID])
    assert ids[0][0] == ids[1][0] == first_id and ids[0][1] != ids[1][1]


@pytest.mark.parametrize("version, packed", [("1.7", True), ("1.4", False)])
def test_small_objects_go_into_object_streams_from_pdf_1_5_and_a_classic_table_before(version, packed):
    handle = io.BytesIO()
    out = StreamingPdf(handle, version)
    fonts = [out.reserve() for _ in range(250)]  # three object streams' worth
    for number in fonts:
        out.write(number, b"<< /Type /Font /Subtype /Type1 /BaseFont /F%d >>" % number)
    entries = b"".join(b" /F%d %d 0 R" % (n, n) for n in fonts)
    one_page(out, b" /Font <<" + entries + b" >>")
    data = handle.getvalue()
    pdf = pikepdf.open(io.BytesIO(data))
    assert pdf.get_warnings() == [] and data.startswith(b"%PDF-" + version.encode())
    assert sorted(str(f.BaseFont) for f in pdf.pages[0].Resources.Font.values()) == sorted(f"/F{n}" for n in fonts)
    assert (data.count(b"/Type /ObjStm") == 3) == packed and (b"\nxref\n" in data) != packed
