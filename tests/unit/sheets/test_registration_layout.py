"""Print-then-cut layouts: Silhouette marks' no-print squares measured from the PDF, the Auto Sheet Feeder inset,
and the layout geometry pinned by version in golden files (tests/fixtures/registration/*.json: each mark's box and
each card's trim box, mm), so that a layout once printed keeps cutting the same after an upgrade.
"""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from tests.unit.sheets.test_cutting import MM, black_rects, trim_boxes, write_project

GOLDENS = sorted((Path(__file__).parents[2] / "fixtures" / "registration").glob("*.json"))
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01 and b[1] < a[3] - 0.01


def bracket_squares(marks, W, H) -> list[tuple[float, float, float, float]]:
    """The square each Silhouette mark spans (the filled square, and each L bracket's two arms' bounding box)."""
    square = min(marks, key=lambda m: (m[0], m[1]))
    arms = [m for m in marks if m != square]
    squares = [square]
    for side in ([m for m in arms if m[2] > W / 2], [m for m in arms if m[2] <= W / 2]):
        squares.append(
            (min(m[0] for m in side), min(m[1] for m in side), max(m[2] for m in side), max(m[3] for m in side))
        )
    return squares


def measured(pdf_path: Path) -> tuple[list, list, tuple[float, float]]:
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        W, H = page.width / MM, page.height / MM
        return black_rects(page), trim_boxes(page), (W, H)


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.stem for g in GOLDENS])
def test_layout_geometry_matches_its_golden(golden):
    """Marks and slots as each layout version lays them out, to 0.001 mm: a change here changes printed layouts."""
    from printer.sheets.cutting import fit_registered, registration_marks

    data = json.loads(golden.read_text())
    inset = data["inset_mm"] if "asf" in golden.stem else None
    args = (tuple(data["card_mm"]), data["registration"], 0.0, data["margin_mm"], data["bleed_mm"], "auto")
    layout = fit_registered(PAPERS[data["paper"]], *args, inset=inset, version=data["layout_version"])
    reg = registration_marks(data["registration"], layout.page, inset, data["layout_version"])
    assert list(layout.page) == pytest.approx(data["page_mm"], abs=0.001)
    found = [[b.x0, b.y0, b.x1, b.y1] for b in reg.ink]
    assert len(found) == len(data["marks"]) and all(
        f == pytest.approx(g, abs=0.001) for f, g in zip(found, data["marks"])
    )
    slots = [[t.x0, t.y0, t.x1, t.y1] for t in map(layout.trim_box, layout.slots())]
    assert len(slots) == len(data["slots"]) and all(
        f == pytest.approx(g, abs=0.001) for f, g in zip(slots, data["slots"])
    )


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_cards_and_bleed_stay_out_of_each_marks_square(paper, tmp_path, run):
    """Silhouette Studio hatches the whole square of each mark as a no-print zone: no card's bleed box (trim + 3 mm)
    comes within 3 mm of it, measured on the PDF."""
    root = write_project(tmp_path / "p", 9)
    result = run(
        "--project", root, "build", "t", "--out", tmp_path / "out", "--paper", paper, "--registration", "silhouette"
    )
    assert result.code == 0, result.err
    marks, trims, (W, H) = measured(tmp_path / "out" / "t.pdf")
    squares = bracket_squares(marks, W, H)
    assert sorted(round(s[2] - s[0], 2) for s in squares) == [5.0, 20.0, 20.0]  # the square and two 20 mm brackets
    zones = [(x0 - 3, y0 - 3, x1 + 3, y1 + 3) for x0, y0, x1, y1 in squares]
    bleeds = [(x0 - 3, y0 - 3, x1 + 3, y1 + 3) for x0, y0, x1, y1 in trims]
    assert trims and not [(b, z) for b in bleeds for z in zones if overlap(b, z)]


@pytest.mark.slow
def test_layout_version_1_keeps_the_earlier_a4_layout(tmp_path, run):
    """Version 1 is the layout printed before: 8 cards on A4, a corner inside the top-right bracket's square."""
    root = write_project(tmp_path / "p", 9)
    args = ["--paper", "A4", "--registration", "silhouette", "--layout-version", "1"]
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", *args)
    assert result.code == 0, result.err
    marks, trims, (W, H) = measured(tmp_path / "out" / "t.pdf")
    assert len(trims) == 8
    golden = json.loads((GOLDENS[0].parent / "silhouette-A4-v1.json").read_text())
    expected = sorted(tuple(s) for s in golden["slots"])
    assert all(t == pytest.approx(g, abs=0.01) for t, g in zip(sorted(trims), expected, strict=True))
    squares = bracket_squares(marks, W, H)
    assert any(overlap(t, s) for t in trims for s in squares[1:])  # what version 2 corrects


@pytest.mark.slow
def test_auto_sheet_feeder_inset(tmp_path, run):
    root = write_project(tmp_path / "p", 2)
    args = ["--paper", "Letter", "--registration", "silhouette", "--registration-inset", "0.625in"]
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", *args)
    assert result.code == 0, result.err
    marks, trims, (W, H) = measured(tmp_path / "out" / "t.pdf")
    assert (15.88, 15.88, 20.88, 20.88) in [tuple(round(v, 2) for v in m) for m in marks]  # 0.625 in = 15.875 mm
    assert max(m[2] for m in marks) == pytest.approx(W - 15.875, abs=0.01)
    assert all(t[0] >= 15.875 and t[1] >= 15.875 for t in trims)


def test_an_inset_under_studios_least_is_a_usage_error(tmp_path, run):
    root = write_project(tmp_path / "p", 1)
    args = ["--registration", "silhouette", "--registration-inset", "5mm"]
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", *args)
    assert result.code == 2 and "less than the 10 mm" in result.err and "Traceback" not in result.err


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["Letter", "A4"])
def test_cricut_print_then_cut_image_and_cut_file_per_sheet(paper, tmp_path, run):
    """Each front sheet's Print Then Cut area as a 6.75 x 9.25 in image with its cut file, the paths on the cards'
    pixels; the PDF carries no marks of printer's own."""
    from PIL import Image

    from tests.unit.sheets.test_cutting import svg_paths

    root = write_project(tmp_path / "p", 5)
    args = ["--paper", paper, "--registration", "cricut", "--corner-radius", "3mm"]
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", *args)
    assert result.code == 0, result.err
    marks, trims, _ = measured(tmp_path / "out" / "t.pdf")
    assert not marks
    folder = tmp_path / "out" / "t-cricut"
    assert sorted(p.name for p in folder.iterdir()) == ["sheet-01.png", "sheet-01.svg", "sheet-02.png", "sheet-02.svg"]
    px = 300 / 25.4
    with Image.open(folder / "sheet-01.png") as image:
        assert image.size == (2025, 2775) and image.mode == "RGB"  # 6.75 x 9.25 in at 300 dpi
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        svg, paths = svg_paths(folder / "sheet-01.svg")
        assert (svg.width, svg.height) == pytest.approx((171.45, 234.95), abs=0.01)  # the image's size, in mm
        assert len(paths) == len(trims) == 4
        for path in paths:
            x0, y0, x1, y1 = path.bbox()
            red = [image.getpixel((round((x0 + x1) / 2 * px), round((y0 + y1) / 2 * px)))]
            red.append(image.getpixel((round((x0 + 2) * px), round((y0 + 2) * px))))  # the card to its edge
            assert all(r > 180 and g < 30 and b < 30 for r, g, b in red)
            assert image.getpixel((round((x1 + 1.5) * px), round((y0 + y1) / 2 * px)))[2] < 100  # its bleed past it
        assert image.getpixel((5, 5)) == (255, 255, 255)  # no mark of printer's own in the image


@pytest.mark.slow
def test_an_empty_slot_next_to_the_top_left_mark(tmp_path, run):
    root = write_project(tmp_path / "p", 9)
    args = ["--paper", "A4", "--registration", "silhouette", "--registration-empty-slot", "--cut-file", "svg"]
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", *args)
    assert result.code == 0, result.err
    marks, trims, _ = measured(tmp_path / "out" / "t.pdf")
    golden = json.loads((GOLDENS[0].parent / "silhouette-A4-v2.json").read_text())
    expected = sorted(tuple(s) for s in golden["slots"][1:])  # the top-left slot, nearest the square, left empty
    assert len(trims) == 5 and all(
        t == pytest.approx(g, abs=0.01) for t, g in zip(sorted(trims), expected, strict=True)
    )
    from tests.unit.sheets.test_cutting import svg_paths

    _, paths = svg_paths(tmp_path / "out" / "t-cut" / "sheet-01.svg")
    assert len(paths) == 5  # the cut file skips the empty slot too


@pytest.mark.slow
def test_a_test_sheet_without_ink(tmp_path, run):
    from tests.unit.sheets.test_cutting import svg_paths

    root = write_project(tmp_path / "p", 2)
    args = ["--paper", "Letter", "--registration", "silhouette", "--export", "cut-test"]
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", *args)
    assert result.code == 0, result.err
    sheet_marks, _, _ = measured(tmp_path / "out" / "t.pdf")
    with pdfplumber.open(tmp_path / "out" / "t-cut-test.pdf") as pdf:
        (page,) = pdf.pages
        assert not trim_boxes(page) and not page.images and not page.chars  # no card, no picture, no text
        found = sorted(tuple(round(v, 2) for v in r) for r in black_rects(page))
        assert found == sorted(tuple(round(v, 2) for v in r) for r in sheet_marks) and len(found) == 5
    _, paths = svg_paths(tmp_path / "out" / "t-cut-test.svg")
    assert len(paths) == 6  # every slot of the Letter layout
