"""Cutting machines, read back from what printer writes: cut files (SVG, DXF) against the trim boxes in the PDF,
registration marks (positions, sizes, cards clear of them), rounded corners (cut lines, transparent PNG corners).

Expected figures come from the brief (Silhouette: 5 mm square, 1 mm lines, 20 mm arms, inset 10 mm; Cricut:
6.75 x 9.25 in) and from the PDF, never from printer.sheets.cutting.
"""

from __future__ import annotations

import json
from pathlib import Path

import ezdxf
import pdfplumber
import pytest
import svgelements
from PIL import Image

MM = 72 / 25.4
CARD = (63.0, 88.0)
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
CSS = """.card { position: absolute; inset: 0; background: rgb(200, 0, 0); font: 8pt "DejaVu Sans", sans-serif; color: #fff; }
.card.back { background: rgb(0, 0, 200); }
"""


def write_project(root: Path, n: int = 10) -> Path:
    (root / "cards" / "t").mkdir(parents=True, exist_ok=True)
    (root / "templates" / "t").mkdir(parents=True, exist_ok=True)
    (root / "schema" / "t").mkdir(parents=True, exist_ok=True)
    (root / "printer.toml").write_text('[games.t]\nname = "Test"\ncard_size = "poker"\n', encoding="utf-8")
    (root / "templates" / "t" / "card.html.j2").write_text('<div class="card">{{ card.title }}</div>\n')
    (root / "templates" / "t" / "back.html.j2").write_text('<div class="card back">BACK</div>\n')
    (root / "templates" / "t" / "card.css").write_text(CSS)
    cards = [{"id": f"c{i:02d}", "title": f"Card{i:02d}", "type": "A"} for i in range(1, n + 1)]
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"cards": cards}))
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://printer.invalid/schema/t/card.schema.json",
        "allOf": [{"$ref": "../card.schema.json"}],
        "unevaluatedProperties": False,
    }
    (root / "schema" / "t" / "card.schema.json").write_text(json.dumps(schema))
    return root


def boxes_close(found, expected, tol=0.1) -> bool:
    """Two lists of (x0, y0, x1, y1) mm boxes, sorted, equal to ``tol``."""
    found, expected = sorted(found), sorted(expected)
    return len(found) == len(expected) and all(abs(a - b) <= tol for f, e in zip(found, expected) for a, b in zip(f, e))


def trim_boxes(page) -> list[tuple[float, float, float, float]]:
    """Each card's trim box on a PDF page: the filled 63 x 88 mm rectangles of the card background (mm)."""
    found = set()
    for r in page.rects:
        if abs(r["width"] / MM - CARD[0]) < 0.05 and abs(r["height"] / MM - CARD[1]) < 0.05 and r.get("fill"):
            found.add(tuple(round(v / MM, 3) for v in (r["x0"], r["top"], r["x1"], r["bottom"])))
    return sorted(found)


def black_rects(page) -> list[tuple[float, float, float, float]]:
    """Filled black rectangles (registration marks) on a PDF page, in mm."""
    found = []
    for r in page.rects:
        colour = r.get("non_stroking_color")
        if r.get("fill") and colour is not None and all(abs(c) < 0.01 for c in colour):
            found.append(tuple(round(v / MM, 3) for v in (r["x0"], r["top"], r["x1"], r["bottom"])))
    return sorted(found)


def svg_paths(path: Path) -> tuple[svgelements.SVG, list[svgelements.Path]]:
    svg = svgelements.SVG.parse(str(path), ppi=25.4)  # 1 px = 1 mm: lengths in mm stay as they are
    return svg, [e for e in svg.elements() if isinstance(e, svgelements.Path)]


def dxf_boxes(path: Path, page_h: float) -> list[tuple[float, float, float, float]]:
    doc = ezdxf.readfile(str(path))
    assert doc.header["$INSUNITS"] == 4  # millimetres
    found = []
    for poly in doc.modelspace().query("LWPOLYLINE"):
        assert poly.closed
        points = list(poly.get_points("xyb"))
        xs, ys = [p[0] for p in points], [page_h - p[1] for p in points]
        found.append((min(xs), min(ys), max(xs), max(ys)))
    return found


def distance(a, b) -> float:
    """The gap between two boxes (0 when they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return (dx * dx + dy * dy) ** 0.5


# -- one build per variant ------------------------------------------------------------------------------------------

VARIANTS = {
    "A4-silhouette-square": ("A4", "0", "silhouette"),
    "A4-rounded": ("A4", "3mm", "none"),
    "Letter-silhouette-rounded": ("Letter", "3mm", "silhouette"),
    "Letter-cricut-square": ("Letter", "0", "cricut"),
    "A4-cricut-rounded": ("A4", "3mm", "cricut"),
}


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def cut_build(request, tmp_path_factory):
    from printer.cli import main

    paper, radius, registration = VARIANTS[request.param]
    root = write_project(tmp_path_factory.mktemp(request.param))
    out = root / "out"
    args = ["--project", root, "build", "t", "--out", out, "--paper", paper, "--corner-radius", radius]
    args += ["--registration", registration, "--marks", "cut", "--cut-file", "svg", "--cut-file", "dxf"]
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    assert done.value.code == 0
    return PAPERS[paper], float(radius.removesuffix("mm")), registration, out


@pytest.mark.slow
def test_svg_cut_paths_lie_on_the_pdf_trim_boxes(cut_build):
    page_size, radius, _, out = cut_build
    with pdfplumber.open(out / "t.pdf") as pdf:
        fronts = [p for i, p in enumerate(pdf.pages) if i % 2 == 0]  # duplex: front, back, front, back
        assert len(fronts) == len(sorted((out / "t-cut").glob("*.svg")))
        for number, page in enumerate(fronts, 1):
            trims = trim_boxes(page)
            assert trims, "no card on the page"
            W, H = page.width / MM, page.height / MM
            svg, paths = svg_paths(out / "t-cut" / f"sheet-{number:02d}.svg")
            assert (svg.width, svg.height) == pytest.approx((W, H), abs=0.01)  # real units: the sheet in mm
            assert svg.viewbox.width == pytest.approx(W) and svg.viewbox.height == pytest.approx(H)
            assert len(paths) == len(trims)  # one path per card
            assert boxes_close([tuple(p.bbox()) for p in paths], trims)
            for p in paths:
                segments = list(p.segments())
                assert isinstance(segments[-1], svgelements.Close)  # closed
                arcs = [s for s in segments if isinstance(s, svgelements.Arc)]
                if radius:
                    assert len(arcs) == 4
                    assert all(a.rx == pytest.approx(radius) and a.ry == pytest.approx(radius) for a in arcs)
                    x0, y0, _, _ = p.bbox()  # the top-left corner is cut on the arc, not at the box corner
                    corner = (x0 + radius - radius * 2**-0.5, y0 + radius - radius * 2**-0.5)
                    assert min(abs(complex(*corner) - complex(*a.point(0.5))) for a in arcs) < 0.01
                else:
                    assert not arcs


def test_dxf_cut_paths_lie_on_the_pdf_trim_boxes(cut_build):
    _, radius, _, out = cut_build
    with pdfplumber.open(out / "t.pdf") as pdf:
        page = pdf.pages[0]
        trims = trim_boxes(page)
        assert boxes_close(dxf_boxes(out / "t-cut" / "sheet-01.dxf", page.height / MM), trims)
    doc = ezdxf.readfile(str(out / "t-cut" / "sheet-01.dxf"))
    bulges = [b for poly in doc.modelspace().query("LWPOLYLINE") for *_, b in poly.get_points("xyb") if b]
    assert len(bulges) == (4 * len(trims) if radius else 0)


def test_registration_marks_where_the_cutter_looks_and_cards_clear_of_them(cut_build):
    (W, H), _, registration, out = cut_build
    with pdfplumber.open(out / "t.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        W, H = front.width / MM, front.height / MM  # the layout may have turned the sheet
        marks, trims = black_rects(front), trim_boxes(front)
        assert not black_rects(back)  # the machine reads the front only
        if registration == "none":
            assert not marks
            return
        if registration == "cricut":
            assert not marks  # Design Space prints its own marks round the image: none of printer's own
        bleeds = [(x0 - 3, y0 - 3, x1 + 3, y1 + 3) for x0, y0, x1, y1 in trims]  # at most 3 mm of bleed
        assert all(distance(m, b) >= 3 - 0.01 for m in marks for b in bleeds)  # blank paper around every mark
        if registration == "silhouette":
            assert (10.0, 10.0, 15.0, 15.0) in marks  # the 5 mm square, 10 mm from both edges
            arms = [m for m in marks if m != (10.0, 10.0, 15.0, 15.0)]
            assert len(arms) == 4
            for x0, y0, x1, y1 in arms:
                assert sorted((round(x1 - x0, 2), round(y1 - y0, 2))) == [1.0, 20.0]  # 1 mm lines, 20 mm arms
                assert min(x0, y0, W - x1, H - y1) >= 10 - 0.01  # inset at least 10 mm
            corners = {
                (round(min(m[0] for m in arms if m[2] > W / 2), 2), round(min(m[1] for m in arms if m[2] > W / 2), 2))
            }
            assert corners == {(round(W - 30, 2), 10.0)}  # the top-right bracket's arms meet 10 mm in
            bottom_left = [m for m in arms if m[0] < W / 2]
            assert max(m[3] for m in bottom_left) == pytest.approx(H - 10, abs=0.01)
            for x0, y0, x1, y1 in trims:  # inside the area the marks span
                assert x0 >= 10 and y0 >= 10 and x1 <= W - 10 and y1 <= H - 10
        else:  # cricut: Design Space prints its own marks, so none from printer; the cards in the centred area
            assert not marks
            area = (6.75 * 25.4, 9.25 * 25.4) if W < H else (9.25 * 25.4, 6.75 * 25.4)
            inside = ((W - area[0]) / 2, (H - area[1]) / 2, (W + area[0]) / 2, (H + area[1]) / 2)
            for x0, y0, x1, y1 in trims:
                assert (
                    inside[0] - 0.01 <= x0
                    and y0 >= inside[1] - 0.01
                    and x1 <= inside[2] + 0.01
                    and y1 <= inside[3] + 0.01
                )


def test_rounded_corners_are_drawn_as_the_cut_line(cut_build):
    _, radius, registration, out = cut_build
    with pdfplumber.open(out / "t.pdf") as pdf:
        page = pdf.pages[0]
        if radius:  # rounded: a closed curve; square: a stroked rectangle
            curves = [c for c in page.curves if c.get("stroke")]
        else:
            curves = [r for r in page.rects if r.get("stroke") and not r.get("fill")]
        straight = [
            ln for ln in page.lines if abs(ln["x1"] - ln["x0"]) / MM > 100 or abs(ln["bottom"] - ln["top"]) / MM > 150
        ]
        if radius or registration != "none":
            assert len(curves) == len(trim_boxes(page))  # one closed outline per card
            assert not straight  # no full-length cut line through the rounded corners or the marks
            assert boxes_close(
                [(c["x0"] / MM, c["top"] / MM, c["x1"] / MM, c["bottom"] / MM) for c in curves], trim_boxes(page), 0.2
            )


# -- the grid, the build's messages --------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_grid_shrinks_for_the_marks_and_the_build_says_so(tmp_path, run):
    root = write_project(tmp_path, 3)
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", "--registration", "cricut")
    assert result.code == 0, result.err
    assert "the cricut registration marks need room: 4 cards per sheet (2x2) instead of 9 (3x3)" in result.err
    assert "Print Then Cut" in result.out and "100 %" not in result.out  # Design Space prints the image itself
    strict = run("--project", root, "build", "t", "--out", tmp_path / "strict", "--registration", "cricut", "--strict")
    assert strict.code == 1
    plain = run("--project", root, "build", "t", "--out", tmp_path / "plain")
    assert "100 %" not in plain.out and "registration" not in plain.err


def test_crop_marks_keep_clear_of_registration_marks(tmp_path, run):
    root = write_project(tmp_path, 8)
    result = run("--project", root, "build", "t", "--out", tmp_path, "--registration", "silhouette")
    assert result.code == 0, result.err
    with pdfplumber.open(tmp_path / "t.pdf") as pdf:
        page = pdf.pages[0]
        marks = black_rects(page)
        assert page.lines  # crop marks are still there
        for line in page.lines:
            box = (line["x0"] / MM, line["top"] / MM, line["x1"] / MM, line["bottom"] / MM)
            assert all(distance(m, box) >= 3 - 0.01 for m in marks)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--registration", "silhouette", "--duplex", "fold"], "cannot be used with fold-over backs"),
        (["--corner-radius", "40mm"], "more than half the 63 x 88 mm card"),
        (["--registration", "brother"], "Invalid value for '--registration'"),
        (["--corner-radius", "round"], "is not a length"),
    ],
)
def test_bad_cutting_options_are_usage_errors(tmp_path, run, args, message):
    root = write_project(tmp_path, 1)
    result = run("--project", root, "build", "t", "--out", tmp_path, *args)
    assert result.code == 2 and message in result.err and "Traceback" not in result.err


def test_registration_and_corner_radius_from_printer_toml(tmp_path, run):
    root = write_project(tmp_path, 1)
    toml = root / "printer.toml"
    toml.write_text('[project]\nregistration = "silhouette"\ncorner_radius = "3mm"\n' + toml.read_text())
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", "--cut-file", "svg")
    assert result.code == 0, result.err
    assert "print at 100 % scale" in result.out
    _, paths = svg_paths(tmp_path / "out" / "t-cut" / "sheet-01.svg")
    assert len([s for s in paths[0].segments() if isinstance(s, svgelements.Arc)]) == 4


@pytest.mark.slow
def test_png_export_has_transparent_rounded_corners(tmp_path, run):
    root = write_project(tmp_path, 1)
    result = run("--project", root, "build", "t", "--out", tmp_path, "--corner-radius", "3mm", "--export", "png")
    assert result.code == 0, result.err
    with Image.open(tmp_path / "t-png" / "c01.png") as image:
        assert image.mode == "RGBA" and image.size == (744, 1039)
        r = round(3 / 25.4 * 300)  # 35 px
        assert image.getpixel((0, 0))[3] == 0 and image.getpixel((743, 1038))[3] == 0  # corners cut away
        assert image.getpixel((r, r))[3] == 255 and image.getpixel((r, 0))[3] > 200  # inside the curve, on the edge
        assert image.getpixel((372, 520)) == (200, 0, 0, 255)
        assert image.getpixel((6, 6))[3] == 0 and image.getpixel((12, 12))[3] > 0  # the 3 mm arc at 300 dpi
    with Image.open(tmp_path / "t-png" / "back-default.png") as image:
        assert image.getpixel((0, 0))[3] == 0


def test_a_sheet_layout_file_must_keep_clear_of_the_marks(tmp_path, run):
    root = write_project(tmp_path, 2)
    (root / "near.toml").write_text("[[slot]]\nx = 12\ny = 12\n[[slot]]\nx = 100\ny = 100\n")
    (root / "clear.toml").write_text("[[slot]]\nx = 40\ny = 40\n[[slot]]\nx = 110\ny = 150\n")
    near = run("--project", root, "build", "t", "--out", tmp_path / "near", "--registration", "silhouette",
               "--sheet-layout", root / "near.toml")  # fmt: skip
    assert near.code == 2 and "comes within 3 mm of the silhouette registration marks" in near.err
    clear = run("--project", root, "build", "t", "--out", tmp_path / "clear", "--registration", "silhouette",
                "--sheet-layout", root / "clear.toml", "--cut-file", "svg")  # fmt: skip
    assert clear.code == 0, clear.err
    with pdfplumber.open(tmp_path / "clear" / "t.pdf") as pdf:
        trims = trim_boxes(pdf.pages[0])
    _, paths = svg_paths(tmp_path / "clear" / "t-cut" / "sheet-01.svg")
    assert boxes_close([tuple(p.bbox()) for p in paths], trims)
    assert boxes_close(trims, [(40, 40, 103, 128), (110, 150, 173, 238)])
