"""Imposition: each distinct face laid out once on a page of its own, then placed on the sheets as a form XObject.

A build lays out every distinct front and back once, each on a page of the
card's trim size plus the bleed all round (:func:`printer.sheets.export.faces.face_pdf`),
and the sheet *chrome* (crop marks or cut lines, fold guides, the sheet
label) once per sheet. :func:`impose` then turns each face page into a PDF
form XObject (pikepdf) and draws it on every sheet that holds that card:
moved to the card's slot, turned by the slot's rotation about the trim box's
centre, and clipped to the card's bleed box as the layout cut it short
towards its neighbours (:attr:`printer.sheets.placed.Face.bleed`). A deck of
900 cards and two back designs lays out 902 faces, not 1,800.

Coordinates: the layout works in mm from the sheet's top-left corner, y
downwards (:mod:`printer.sheets.layout`); PDF user space is in pt (1/72 in)
from the bottom-left corner, y upwards.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from printer.sheets.placed import Face, Sheet
from printer.units import MM_PER_IN

if TYPE_CHECKING:
    import pikepdf

    from printer.sheets.pdfstream import StreamingPdf

PT_PER_MM = 72 / MM_PER_IN

Matrix = tuple[float, float, float, float, float, float]


def _turn(face: Face) -> tuple[tuple[float, float], int, int]:
    """The centre of ``face``'s trim footprint on the sheet (mm) and the cosine and sine of its turn
    (slots turn by multiples of 90 degrees, so both are -1, 0 or 1)."""
    fw, fh = (face.h, face.w) if face.rotate % 180 == 90 else (face.w, face.h)
    turn = math.radians(face.rotate % 360)
    return (face.x + fw / 2, face.y + fh / 2), round(math.cos(turn)), round(math.sin(turn))


def face_matrix(
    face: Face, face_page: tuple[float, float], trim_at: tuple[float, float], sheet_height: float
) -> Matrix:
    """The PDF ``cm`` matrix that draws a face page on a sheet at ``face``'s slot.

    ``face_page`` is the face page's size and ``trim_at`` the top-left of
    the trim box on it (mm); ``sheet_height`` is the sheet's height (mm).
    The matrix maps the face page's PDF space (pt, y up) to the sheet's.
    """
    centre, cos, sin = _turn(face)

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
    centre, cos, sin = _turn(face)
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


#: a face drawing entry: the XObject's resource name and the drawing operators before it (clip and matrix)
DrawEntry = tuple[str, str]
_MARK = b"% printer faces\n"


def plan(
    sheets: Sequence[Sheet],
    names: Mapping[str, str],
    face_page: tuple[float, float],
    trim_at: tuple[float, float],
    sheet_height: float,
    geometry: Mapping[str, tuple[tuple[float, float], tuple[float, float]]] | None = None,
) -> list[list[DrawEntry]]:
    """For each sheet, each face's ``(resource name, clip and matrix operators)`` in drawing order; a sheet drawn as
    the sheet before it of the same side has that sheet's list (not to be changed).

    ``geometry`` gives a face key its own face page size and trim position (faces of another size:
    :mod:`printer.sheets.components`); other faces use ``face_page`` and ``trim_at``.
    """
    result = []
    drawn: dict[
        tuple[object, ...], str
    ] = {}  # the operators by slot: every full sheet puts its faces in the same places
    last: dict[str, list[DrawEntry]] = {}  # by side: a catalogue's backs draw the same faces sheet after sheet
    for sheet in sheets:
        entries = []
        for face in sheet.faces:
            page, at = geometry.get(face.key, (face_page, trim_at)) if geometry else (face_page, trim_at)
            where = (face.x, face.y, face.w, face.h, face.rotate, tuple(face.bleed), page, at)
            ops = drawn.get(where)
            if ops is None:
                x, y, w, h = clip_box(face, sheet_height)
                matrix = " ".join(_num(v) for v in face_matrix(face, page, at, sheet_height))
                ops = drawn[where] = f"q {_num(x)} {_num(y)} {_num(w)} {_num(h)} re W n {matrix} cm"
            entries.append((names[face.key], ops))
        if last.get(sheet.side) == entries:  # held once (9,000 cards: 1,000 equal back sheets, 0.6 MB)
            entries = last[sheet.side]
        last[sheet.side] = entries
        result.append(entries)
    return result


#: the content-stream operators that name a resource, and the resource category they name it from
_USES = {
    "Do": "/XObject",
    "Tf": "/Font",
    "gs": "/ExtGState",
    "sh": "/Shading",
    "cs": "/ColorSpace",
    "CS": "/ColorSpace",
    "scn": "/Pattern",
    "SCN": "/Pattern",
}


_CATEGORIES = frozenset(_USES.values())


def _own_resources(page: pikepdf.Page) -> pikepdf.Dictionary:
    """The resources ``page`` (a ``pikepdf.Page``) draws with: its resources dictionary, each category kept to the
    names its content stream uses.

    The pages of one laid-out batch share one resources dictionary holding every font, image and pattern of the
    batch; a face drawn as a form XObject with that dictionary would carry the whole batch's list (thousands of
    entries in a batch of thousands of faces: the PDF grows with the square of the faces). The names are the
    ``/Name`` tokens of the page's content stream, found in its bytes (a name that is an operand of another
    operator, such as a marked-content tag, keeps nothing that is not a resource of that name); parsing the stream
    into instructions instead took 70 ms for a face of long text. A category the page does not use is left empty.
    """
    import pikepdf

    contents = page.obj.get("/Contents")
    streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
    names = {_unescape(m) for m in {m for stream in streams for m in _NAME.findall(stream.read_bytes())}}
    shared = page.obj.get("/Resources")
    own = pikepdf.Dictionary()
    for key, value in shared.items() if shared is not None else []:
        if key in _CATEGORIES:  # the page's few names looked up, not the batch's many keys gone through
            kept = {n: value[n] for n in names if n in value} if isinstance(value, pikepdf.Dictionary) else {}
            own[key] = pikepdf.Dictionary(kept)
        else:
            own[key] = value  # /ProcSet and the like
    return own


#: a name token of a content stream (PDF 32000-1:2008, 7.3.5): a solidus and regular characters
_NAME = re.compile(rb"/([^\x00\t\n\x0c\r ()<>\[\]{}/%]*)")
_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


def _unescape(name: bytes) -> str:
    """``/`` and the name with its ``#xx`` escapes decoded, as pikepdf spells dictionary keys."""
    return "/" + _ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), name).decode("latin-1")


def impose(  # noqa: PLR0913  the imposition's inputs; the optional ones are keywords with defaults
    chrome_pdf: bytes | Sequence[bytes],
    sheets: Sequence[Sheet],
    faces: Mapping[str, tuple[bytes | Path, int]],
    face_page: tuple[float, float],
    trim_at: tuple[float, float],
    sheet_height: float,
    names: Mapping[str, str] | None = None,
    previous: tuple[bytes, list[list[DrawEntry]]] | None = None,
    geometry: Mapping[str, tuple[tuple[float, float], tuple[float, float]]] | None = None,
    into: BinaryIO | None = None,
) -> tuple[bytes, list[list[DrawEntry]]]:
    """The sheets' PDF: ``chrome_pdf`` (one page per sheet: marks, guides, labels; or several PDFs whose pages
    are the sheets in turn) with every face drawn under it.

    ``faces`` maps a face key to ``(pdf, page index)``: where that face's
    page is, the PDF as bytes or the ``Path`` of its file (several keys may
    share one PDF; it is opened once).
    ``face_page`` and ``trim_at`` give the face pages' size and the trim
    box's top-left on them, ``sheet_height`` the sheets' height (all mm).
    ``names`` gives each face key its XObject's resource name (``/F...``:
    the same name for the same face from build to build); by default they
    are numbered. Fonts and images of one face PDF are copied once into the
    result, however many faces and sheets use them.

    The PDF is written a sheet at a time (:class:`~printer.sheets.pdfstream.StreamingPdf`): the imposition
    holds the sheet being written and the face PDFs that later sheets still draw from, not the whole result
    (QPDF kept every copied object until its save: 9,000 faces held about 300 MB more). ``previous`` is the
    last PDF written from the same ``chrome_pdf`` with the plan it was drawn from: when every face sits where
    it sat then, the result is that PDF with an incremental update that adds the faces whose names changed and
    draws the pages holding them again (:func:`_append`: an edit's build writes a face and a page, not the
    PDF). ``geometry``
    gives faces of another size their own face page size and trim position (see :func:`plan`). Returns
    ``(pdf bytes, plan)`` (see :func:`plan`); with ``into`` (a binary file open for writing), the PDF is
    written into it instead and the bytes returned are empty (a 9,000-card PDF is 36.7 MiB). Raises
    ``ValueError`` when the sheets' PDFs do not have one page per sheet.
    """
    if names is None:
        names = {key: f"/Face{i}" for i, key in enumerate(dict.fromkeys(f.key for s in sheets for f in s.faces))}
    drawing = plan(sheets, names, face_page, trim_at, sheet_height, geometry)
    memory = io.BytesIO() if into is None else None
    handle = into if into is not None else memory
    if previous is None or not same_places(previous[1], drawing):
        parts = [chrome_pdf] if isinstance(chrome_pdf, bytes) else chrome_pdf
        _stream(parts, sheets, faces, drawing, handle)  # type: ignore[arg-type]  # handle: into or memory, never None
    else:
        _append(previous[0], sheets, faces, drawing, previous[1], handle)  # type: ignore[arg-type]  # as above
    return (memory.getvalue() if memory is not None else b""), drawing


def same_places(old: Sequence[Sequence[DrawEntry]], drawing: Sequence[Sequence[DrawEntry]]) -> bool:
    """Whether the plan ``drawing`` puts faces where ``old`` put them, sheet by sheet (whatever the faces): then
    :func:`impose` updates the PDF drawn from ``old`` rather than writing it anew."""
    return len(old) == len(drawing) and all([e[1] for e in a] == [e[1] for e in b] for a, b in zip(old, drawing))


def _open(data: bytes | Path) -> pikepdf.Pdf:
    """A face PDF, from its bytes or from the file they were written to."""
    import pikepdf

    return pikepdf.open(data if isinstance(data, Path) else io.BytesIO(data))


class _FaceForms:
    """Each face's form XObject, written into ``out`` the first time it is asked for (:func:`_write_form`) from the
    face PDFs of ``faces`` (``{key: (pdf, page index)}``), each opened once; ``sources`` holds, by the ``id`` of a
    face PDF's data, its token in ``out`` and the open PDF (:meth:`close` closes those still open)."""

    def __init__(self, out: StreamingPdf, faces: Mapping[str, tuple[bytes | Path, int]]) -> None:
        self.out, self.faces = out, faces
        self.sources: dict[int, tuple[int, pikepdf.Pdf]] = {}
        self.numbers: dict[str, int] = {}

    def __call__(self, key: str) -> int:
        import pikepdf

        if key not in self.numbers:
            data, index = self.faces[key]
            if id(data) not in self.sources:
                source = _open(data)
                self.sources[id(data)] = (self.out.source(source), source)
            token, source = self.sources[id(data)]
            self.numbers[key] = _write_form(self.out, token, pikepdf.Page(source.pages[index]))
        return self.numbers[key]

    def close(self) -> None:
        for _, source in self.sources.values():
            source.close()


def _write_drawing(out: StreamingPdf, entries: Sequence[DrawEntry]) -> int:
    """Write the content stream that draws a sheet's faces (``entries``: :func:`plan`'s); returns its number."""
    number = out.reserve()
    ops = _MARK + "\n".join(f"{ops} {name} Do Q" for name, ops in entries).encode("ascii")
    out.write_stream(number, b"", ops, compress=True)
    return number


#: page attributes a page may inherit from its page tree (PDF 32000-1:2008, 7.7.3.4)
_INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")


def _stream(
    chrome_pdfs: Sequence[bytes],
    sheets: Sequence[Sheet],
    faces: Mapping[str, tuple[bytes | Path, int]],
    drawing: list[list[DrawEntry]],
    handle: BinaryIO,
) -> None:
    """Write the sheets' PDF to ``handle`` a sheet at a time (:class:`~printer.sheets.pdfstream.StreamingPdf`): each
    face's form the first time a sheet draws it, each face PDF closed after the last sheet that draws from it, each
    chrome PDF (its pages the next sheets) once its pages are written. The first chrome PDF's catalog (language,
    output intents, metadata), document information and first identifier (``/ID``) are kept."""
    import pikepdf

    from printer.sheets.pdfstream import StreamingPdf

    chrome = pikepdf.open(io.BytesIO(chrome_pdfs[0]))
    form: _FaceForms | None = None
    try:
        out = StreamingPdf(handle, str(chrome.pdf_version))
        form = _FaceForms(out, faces)
        tree = out.reserve()
        numbers = [out.reserve() for _ in sheets]
        catalog, info_number = out.reserve(), None
        token = out.source(chrome)
        _alias_pages(out, token, chrome, tree, numbers)
        entries = out.entries(token, ((k, v) for k, v in chrome.Root.items() if k not in ("/Pages", "/Type")))
        out.write(catalog, b"<< /Type /Catalog /Pages %d 0 R%s >>" % (tree, entries))
        info = chrome.trailer.get("/Info")
        if info is not None:
            info_number = out.reserve()
            out.write(info_number, b"<<%s >>" % out.entries(token, info.items()))
        found_ids = chrome.trailer.get("/ID")
        first_id = out.copy(token, found_ids[0]) if isinstance(found_ids, pikepdf.Array) and found_ids else None
        last = _last_needed(sheets, faces)
        index, part = 0, 0
        while True:
            for page in chrome.pages:
                if index == len(sheets):
                    raise ValueError(f"the sheet PDFs have more pages than the {len(sheets)} sheets")
                xobjects = {name: form(face.key) for (name, _), face in zip(drawing[index], sheets[index].faces)}
                drawn = _write_drawing(out, drawing[index]) if drawing[index] else None
                _write_page(out, token, page.obj, numbers[index], tree, xobjects, drawn)
                for key, at in list(last.items()):
                    if at == index and key in form.sources:
                        face_token, source = form.sources.pop(key)
                        out.forget(face_token)
                        source.close()
                index += 1
            out.forget(token)
            chrome.close()
            part += 1
            if part == len(chrome_pdfs):
                break
            chrome = pikepdf.open(io.BytesIO(chrome_pdfs[part]))
            token = out.source(chrome)
            _alias_pages(out, token, chrome, tree, numbers[index:])
        if index != len(sheets):
            raise ValueError(f"the sheet PDFs have {index} pages for {len(sheets)} sheets")
        kids = b" ".join(b"%d 0 R" % n for n in numbers)
        out.write(tree, b"<< /Type /Pages /Kids [ %s ] /Count %d >>" % (kids, len(numbers)))
        out.finish(catalog, info_number, first_id)
    finally:
        if form is not None:
            form.close()
        chrome.close()


_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")


def _append(
    previous: bytes,
    sheets: Sequence[Sheet],
    faces: Mapping[str, tuple[bytes | Path, int]],
    drawing: list[list[DrawEntry]],
    old: list[list[DrawEntry]],
    handle: BinaryIO,
) -> None:
    """Write ``previous`` (a PDF :func:`impose` wrote, drawn from the plan ``old``) to ``handle`` with an incremental
    update (PDF 32000-1:2008, 7.5.6) that draws ``drawing``: the forms of the faces it did not have, and each page
    whose faces changed written anew (its face forms in its resources and its drawing). Nothing else is read or
    written again: an edit's build of 900 cards appends one face and a page or two to the last PDF. Objects the
    pages no longer use stay in the file, unreferenced (the build writes the whole PDF anew once it has grown:
    :func:`printer.sheets.output.imposition.previous_output`). Raises ``ValueError`` when ``previous`` is not such a PDF."""
    import pikepdf

    from printer.sheets.pdfstream import StreamingPdf, Update, name

    found = _STARTXREF.search(previous[-1024:])
    if found is None:
        raise ValueError("the last PDF has no startxref")
    base = pikepdf.open(io.BytesIO(previous))
    form: _FaceForms | None = None
    try:
        if len(base.pages) != len(sheets):
            raise ValueError(f"the sheet PDF has {len(base.pages)} pages for {len(sheets)} sheets")
        ids = base.trailer.get("/ID")
        last_id = ids[1].unparse() if isinstance(ids, pikepdf.Array) and len(ids) == 2 else b""
        update = Update(previous, int(base.trailer.Size), int(found.group(1)), last_id)
        out = StreamingPdf(handle, str(base.pdf_version), update)
        own = out.source(base, same=True)
        form = _FaceForms(out, faces)
        for index, (sheet, page) in enumerate(zip(sheets, base.pages)):
            entries = drawing[index]
            if not sheet.faces or entries == old[index]:
                continue
            obj = page.obj
            res = dict(obj.Resources.items()) if "/Resources" in obj else {}
            mine = res.pop("/XObject", None)
            xobjects = {k: out.copy(own, v) for k, v in mine.items()} if mine is not None else {}
            wanted = {n: face.key for (n, _), face in zip(entries, sheet.faces)}
            for n, _ in old[index]:
                if n not in wanted:
                    xobjects.pop(n, None)
            for n, key in wanted.items():
                if n not in xobjects:
                    xobjects[n] = b"%d 0 R" % form(key)
            drawn = _write_drawing(out, entries)
            contents = obj.get("/Contents")
            streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents] if contents else []
            if streams and streams[0].read_bytes().startswith(_MARK):
                streams = streams[1:]  # the last drawing of the faces
            values = ((k, v) for k, v in obj.items() if k not in ("/Resources", "/Contents"))
            faces_text = b"".join(b" " + name(k) + b" " + ref for k, ref in xobjects.items())
            body = b"<<%s /Resources <<%s /XObject <<%s >> >>" % (
                out.entries(own, values),
                out.entries(own, res.items()),
                faces_text,
            )
            body += b" /Contents [ %s ] >>" % b" ".join([b"%d 0 R" % drawn] + [out.copy(own, s) for s in streams])
            out.write(obj.objgen[0], body)
        info = base.trailer.get("/Info")
        first_id = out.copy(own, ids[0]) if isinstance(ids, pikepdf.Array) and ids else None
        out.finish(base.Root.objgen[0], info.objgen[0] if info is not None else None, first_id)
    finally:
        if form is not None:
            form.close()
        base.close()


def _last_needed(sheets: Sequence[Sheet], faces: Mapping[str, tuple[bytes | Path, int]]) -> dict[int, int]:
    """For each face PDF (by ``id``), the index of the last sheet that draws one of its faces for the first time:
    the form is written then, and later sheets refer to it (the backs, drawn on every other sheet, need their
    batch's PDF open only until their first sheet)."""
    first: dict[str, int] = {}
    for index, sheet in enumerate(sheets):
        for face in sheet.faces:
            first.setdefault(face.key, index)
    last: dict[int, int] = {}
    for key, index in first.items():
        source = id(faces[key][0])
        last[source] = max(index, last.get(source, index))
    return last


def _alias_pages(out: StreamingPdf, token: int, chrome: pikepdf.Pdf, tree: int, numbers: Sequence[int]) -> None:
    """Have references to ``chrome``'s page tree and pages (from its catalog, annotations...) refer to ``tree`` and
    to ``numbers``, the pages written in their stead."""
    out.alias(token, chrome.Root.Pages.objgen, tree)
    for page, number in zip(chrome.pages, numbers):
        out.alias(token, page.obj.objgen, number)


def _write_form(out: StreamingPdf, token: int, page: pikepdf.Page) -> int:
    """Write ``page`` of the source ``token`` as a form XObject, with the resources its content uses
    (:func:`_own_resources`); returns its number. The page's one content stream becomes the form, its bytes as
    WeasyPrint compressed them (its ``/BBox`` the page's trim box, its resources and transparency group the page's,
    as ``Page.as_form_xobject`` makes them); a page with several content streams, turned or scaled goes through
    ``as_form_xobject``, which decodes the content and compresses it again (measured on 9,000 faces when QPDF
    wrote the imposition: 16 % more memory and, on 900 faces, 15 % more time)."""
    import pikepdf

    obj = page.obj
    number = out.reserve()
    contents = obj.get("/Contents")
    if isinstance(contents, pikepdf.Array) and len(contents) == 1:
        contents = contents[0]
    resources = _own_resources(page)
    if not isinstance(contents, pikepdf.Stream) or "/Rotate" in obj or "/UserUnit" in obj:
        obj.Resources = resources
        made = page.as_form_xobject()
        entries = out.entries(token, ((k, v) for k, v in made.stream_dict.items() if k != "/Length"))
        out.write_stream(number, entries, made.read_bytes(), compress=True)
        return number
    kept = ((k, v) for k, v in contents.stream_dict.items() if k not in ("/Length", "/Type", "/Subtype"))
    entries = b" /Type /XObject /Subtype /Form" + out.entries(token, kept)
    entries += b" /BBox " + out.copy(token, page.trimbox)
    entries += b" /Resources " + out.copy(token, resources)
    if "/Group" in obj:
        entries += b" /Group " + out.copy(token, obj.Group)
    out.write_stream(number, entries, contents.read_raw_bytes())
    return number


def _write_page(
    out: StreamingPdf,
    token: int,
    page: pikepdf.Dictionary,
    number: int,
    tree: int,
    xobjects: dict[str, int],
    drawn: int | None,
) -> None:
    """Write the chrome ``page`` as page ``number`` of the page tree ``tree``: the face forms ``xobjects`` added to
    its resources and the content stream ``drawn`` (the faces' drawing, under the marks) before its own."""
    import pikepdf

    from printer.sheets.pdfstream import name

    values = {k: v for k, v in page.items() if k not in ("/Parent", "/Contents")}
    parent = page.get("/Parent")
    while parent is not None:  # what the page inherits, written on it
        for key in _INHERITED:
            if key not in values and key in parent:
                values[key] = parent[key]
        parent = parent.get("/Parent")
    resources = values.pop("/Resources", None)
    res = dict(resources.items()) if resources is not None else {}
    faces = b"".join(b" " + name(k) + b" %d 0 R" % n for k, n in xobjects.items())
    if faces or "/XObject" in res:
        mine = res.pop("/XObject", None)
        res_xobjects = out.entries(token, mine.items()) if mine is not None else b""
        faces = b" /XObject <<" + res_xobjects + faces + b" >>"
    contents = page.get("/Contents")
    streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
    refs = ([b"%d 0 R" % drawn] if drawn is not None else []) + [out.copy(token, s) for s in streams]
    body = b"<< /Parent %d 0 R%s" % (tree, out.entries(token, values.items()))
    body += b" /Resources <<%s%s >>" % (out.entries(token, res.items()), faces)
    body += b" /Contents [ %s ] >>" % b" ".join(refs)
    out.write(number, body)
