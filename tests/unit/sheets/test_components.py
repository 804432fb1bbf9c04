"""Components that are not cards: tokens, tiles and boards declared in printer.toml, read back from the PDF."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pdfplumber
import pytest

from printer import api
from printer.sheets.components import (
    Component,
    board_windows,
    hex_points,
    pack,
    piece_sheets,
    read_components,
    shape_path,
)
from printer.sheets.layout import Box

MM = 72 / 25.4
PAGE = (210.0, 297.0)
MARGIN = 5.0

COMPONENTS = """
[games.t.components.coin]
kind = "token"
shape = "round"
size = "20x20mm"
when = { type = "Coin" }
copies_field = "count"

[games.t.components.chit]
kind = "token"
shape = "square"
size = "15x15mm"
when = { type = "Chit" }

[games.t.components.hex]
kind = "tile"
shape = "hex"
size = "50x43.30mm"
when = { type = "Hex" }

[games.t.components.mat]
kind = "board"
size = "400x250mm"
overlap = 12
when = { type = "Mat" }
"""

# each kind's front fills its trim box with its own colour; every back is dark grey
COLOURS = {"Coin": "#e0a000", "Chit": "#00a0e0", "Hex": "#40c040", "Mat": "#c04040", "A": "#ffffff"}
SIZES = {"Coin": (20.0, 20.0), "Chit": (15.0, 15.0), "Hex": (50.0, 43.3), "Mat": (400.0, 250.0)}


def make_project(root: Path, components: str = COMPONENTS) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    toml = '[project]\npaper = "A4"\n\n[games.t]\nname = "T"\ncard_size = "poker"\n' + components
    (root / "printer.toml").write_text(toml, encoding="utf-8")
    templates = root / "templates" / "t"
    templates.mkdir(parents=True, exist_ok=True)
    colours = " ".join(f"{{% elif card.type == '{k}' %}}{v}" for k, v in COLOURS.items())
    (templates / "card.html.j2").write_text(
        '<div class="card" style="background: {% if false %}' + colours + '{% endif %}">'
        '<div class="title">{{ card.title }}{% if component %} {{ component.kind }}{% endif %}</div></div>\n',
        encoding="utf-8",
    )
    (templates / "back.html.j2").write_text('<div class="card" style="background: #333"></div>', encoding="utf-8")
    (templates / "card.css").write_text(
        '.card { position: absolute; inset: 0; font: 7pt "DejaVu Sans", sans-serif; }', encoding="utf-8"
    )
    (root / "schema" / "t").mkdir(parents=True, exist_ok=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://printer.invalid/schema/t/card.schema.json",
        "allOf": [{"$ref": "../card.schema.json"}],
    }
    (root / "schema" / "t" / "card.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (root / "cards" / "t").mkdir(parents=True, exist_ok=True)
    cards = [{"id": f"a{i}", "title": f"Card {i}", "type": "A"} for i in range(3)]
    cards += [{"id": f"coin{i}", "title": f"Coin {i}", "type": "Coin", "count": 4} for i in range(3)]
    cards += [{"id": f"chit{i}", "title": f"Chit {i}", "type": "Chit"} for i in range(5)]
    cards += [{"id": f"hex{i}", "title": f"Hex {i}", "type": "Hex"} for i in range(3)]
    cards += [{"id": "mat", "title": "Mat", "type": "Mat"}]
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"game": "t", "cards": cards}), encoding="utf-8")
    return root


# --- the declaration ------------------------------------------------------------------------------------


def _read(text: str):
    import tomllib

    table = tomllib.loads(text)["games"]["t"]["components"]
    return read_components(table, "t", "printer.toml", PAGE, MARGIN)


def test_the_declaration_is_read():
    components, problems = _read(COMPONENTS)
    assert problems == []
    by = {c.name: c for c in components}
    assert by["coin"].kind == "token" and by["coin"].shape == "round" and by["coin"].size == (20, 20)
    assert by["coin"].copies_field == "count" and by["mat"].overlap == 12
    assert by["hex"].holds({"type": "Hex"}) and not by["hex"].holds({"type": "Coin"})


@pytest.mark.parametrize(
    ("table", "key", "words"),
    [
        ('kind = "token"\nshape = "triangle"\nsize = "20x20mm"\nwhen = { type = "X" }', "shape", "round or square"),
        ('kind = "tile"\nshape = "round"\nsize = "20x20mm"\nwhen = { type = "X" }', "shape", "square or hex"),
        ('kind = "counter"\nsize = "20x20mm"\nwhen = { type = "X" }', "kind", "token, tile, board"),
        ('kind = "tile"\nsize = "500x500mm"\nwhen = { type = "X" }', "size", "declare it a board"),
        ('kind = "tile"\nshape = "hex"\nsize = "50x50mm"\nwhen = { type = "X" }', "size", "50x43.30mm"),
        ('kind = "token"\nshape = "round"\nsize = "20x25mm"\nwhen = { type = "X" }', "size", "20x20mm"),
        ('kind = "token"\nsize = "big"\nwhen = { type = "X" }', "size", "25x25mm"),
        ('kind = "token"\nsize = "20x20mm"', "when", "when = {"),
        ('kind = "board"\nsize = "400x400mm"\noverlap = 150\nwhen = { type = "X" }', "overlap", "less than"),
        ('kind = "board"\nsize = "90000x400mm"\nwhen = { type = "X" }', "size", "size_mm"),
    ],
)
def test_a_bad_declaration_is_located_with_a_hint(table, key, words):
    components, problems = _read("[games.t.components.bad]\n" + table)
    assert components == []
    assert len(problems) == 1
    problem = problems[0]
    assert problem.where == f"printer.toml: [games.t.components.bad] {key}"
    assert words in (problem.hint or "") + problem.message


def test_a_bad_declaration_fails_the_build_with_its_place_and_no_traceback(tmp_path, run):
    root = make_project(tmp_path / "p", COMPONENTS.replace('shape = "hex"', 'shape = "octagon"'))
    result = run("--project", root, "build", "t", "--out", tmp_path / "out")
    assert result.code == 1
    assert "[games.t.components.hex] shape" in result.err and "square or hex" in result.err
    assert "Traceback" not in result.err + result.out
    assert not (tmp_path / "out" / "t-components.pdf").exists()


# --- geometry -------------------------------------------------------------------------------------------


def test_packing_keeps_pieces_apart_and_inside_the_area():
    sizes = [(20.0, 20.0)] * 30 + [(50.0, 43.3)] * 7 + [(15.0, 15.0)] * 12
    sheets = pack(sizes, (5, 5, 205, 292), 6.0)
    assert sorted(i for s in sheets for i, _, _ in s) == list(range(len(sizes)))
    for placed in sheets:
        boxes = [Box(x, y, x + sizes[i][0], y + sizes[i][1]) for i, x, y in placed]
        for b in boxes:
            assert b.x0 >= 5 - 1e-6 and b.y0 >= 5 - 1e-6 and b.x1 <= 205 + 1e-6 and b.y1 <= 292 + 1e-6
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:  # at least the gap apart on one axis
                assert (
                    a.x1 + 6 - 1e-6 <= b.x0
                    or b.x1 + 6 - 1e-6 <= a.x0
                    or a.y1 + 6 - 1e-6 <= b.y0
                    or b.y1 + 6 - 1e-6 <= a.y0
                )


def test_cut_lines_follow_each_shape():
    box = Box(10, 20, 60, 63.3)
    assert shape_path(Component("h", "tile", "square", (50, 43.3)), box).startswith("M 10.0000 20.0000 H 60.0000")
    circle = shape_path(Component("c", "token", "round", (20, 20)), Box(10, 20, 30, 40))
    assert circle.count(" A 10.0000 10.0000 ") == 2
    points = hex_points(box)
    assert len(points) == 6
    side = [math.dist(points[i], points[(i + 1) % 6]) for i in range(6)]
    assert max(side) - min(side) < 0.05  # a regular hexagon
    assert min(x for x, _ in points) == 10 and max(x for x, _ in points) == 60
    assert min(y for _, y in points) == 20 and max(y for _, y in points) == pytest.approx(63.3)


@pytest.mark.parametrize("flip", ["long-edge", "short-edge"])
def test_each_back_lies_behind_its_front(flip):
    from printer.sheets.components import Piece

    pieces = [Piece(Component("t", "token", "round", (20, 20)), ("F", f"f{i}"), ("B", "b"), f"t{i}") for i in range(5)]
    pieces += [Piece(Component("h", "tile", "hex", (50, 43.3)), ("F", "h"), ("B", "hb"), "h")]
    front, back = piece_sheets(pieces, PAGE, MARGIN, 3.0, 3.0, flip)
    assert (front.side, back.side) == ("front", "back") and len(front.faces) == len(back.faces) == 6
    for f, b in zip(front.faces, back.faces):
        if flip == "long-edge":  # portrait A4 turns over its vertical axis
            assert (b.x, b.y, b.rotate) == pytest.approx((210 - f.x - f.w, f.y, 0))
        else:
            assert (b.x, b.y, b.rotate) == pytest.approx((f.x, 297 - f.y - f.h, 180))


def test_board_windows_share_the_overlap():
    windows = board_windows((400, 250), (200, 287), 12)
    assert [(w.row, w.col) for w in windows] == [(0, 0), (0, 1), (0, 2)]
    for a, b in zip(windows, windows[1:]):
        assert a.x1 - b.x0 == pytest.approx(12)
        assert a.x1 - a.x0 <= 200 + 1e-9
    assert windows[0].x0 == 0 and windows[-1].x1 == pytest.approx(400)
    assert board_windows((100, 100), (200, 287), 12)[0] == board_windows((100, 100), (200, 287), 12)[-1]


# --- the PDF read back ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("components") / "p")
    result = api.build(api.load_project(root), api.BuildRequest(out_dir=root / "out", cache=False))
    assert result.ok, result.problems
    return root / "out"


def _fill(rect) -> str:
    colour = rect.get("non_stroking_color")
    if not colour or len(colour) != 3:
        return ""
    return "#" + "".join(f"{round(c * 255):02x}" for c in colour)


def pieces_on(page) -> list[tuple[str, Box]]:
    """Every component front or back on ``page`` as (its type or 'back', trim box in mm)."""
    found = []
    for r in page.rects:
        fill = _fill(r)
        kind = next((k for k, v in COLOURS.items() if v == fill and k != "A"), "back" if fill == "#333333" else None)
        if kind is None:
            continue
        box = Box(r["x0"] / MM, r["top"] / MM, r["x1"] / MM, r["bottom"] / MM)
        sizes = list(SIZES.values()) if kind == "back" else [SIZES[kind]]
        if any(abs(box.width - w) < 0.1 and abs(box.height - h) < 0.1 for w, h in sizes):  # not the bleed's paint
            found.append((kind, box))
    return found


@pytest.mark.slow
def test_components_leave_the_card_sheets(built):
    with pdfplumber.open(built / "t.pdf") as pdf:
        text = " ".join(p.extract_text() or "" for p in pdf.pages)
    assert "Card 0" in text and "Coin" not in text and "Hex" not in text and "Mat" not in text


@pytest.mark.slow
def test_each_piece_has_its_declared_size_inside_the_margins_without_overlap(built):
    counts: dict[str, int] = {}
    with pdfplumber.open(built / "t-components.pdf") as pdf:
        fronts = [p for p in pdf.pages[::2] if "sheet" in (p.extract_text() or "") and "page" not in p.extract_text()]
        assert fronts
        for page in fronts:
            assert (page.width / MM, page.height / MM) == pytest.approx(PAGE, abs=0.1)
            pieces = [(k, b) for k, b in pieces_on(page) if k != "back"]
            for kind, box in pieces:
                counts[kind] = counts.get(kind, 0) + 1
                assert (box.width, box.height) == pytest.approx(SIZES[kind], abs=0.1)
                assert box.x0 >= MARGIN - 0.1 and box.y0 >= MARGIN - 0.1
                assert box.x1 <= PAGE[0] - MARGIN + 0.1 and box.y1 <= PAGE[1] - MARGIN + 0.1
            boxes = [b for _, b in pieces]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert a.x1 <= b.x0 + 0.01 or b.x1 <= a.x0 + 0.01 or a.y1 <= b.y0 + 0.01 or b.y1 <= a.y0 + 0.01
    assert counts == {"Coin": 12, "Chit": 5, "Hex": 3}  # 3 coins x their count field of 4


@pytest.mark.slow
def test_cut_lines_are_circles_hexagons_and_squares_on_the_trim(built):
    with pdfplumber.open(built / "t-components.pdf") as pdf:
        page = pdf.pages[0]
        pieces = [(k, b) for k, b in pieces_on(page) if k != "back"]
        outlines = [c for c in page.curves + page.rects if c.get("stroke") and not c.get("fill")]
        for kind, box in pieces:
            match = [
                c
                for c in outlines
                if abs(c["x0"] / MM - box.x0) < 0.1
                and abs(c["x1"] / MM - box.x1) < 0.1
                and box.y0 - 0.1 <= c["top"] / MM <= c["bottom"] / MM <= box.y1 + 0.1
            ]
            assert match, (kind, box)
            if kind == "Coin":  # every point of the cut line on the circle inscribed in the trim box
                centre = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
                for x, y in match[0]["pts"]:
                    assert math.dist((x / MM, y / MM), centre) == pytest.approx(box.width / 2, abs=0.1)
            elif kind == "Chit":
                assert abs(match[0]["top"] / MM - box.y0) < 0.1 and abs(match[0]["bottom"] / MM - box.y1) < 0.1
            if kind == "Hex":  # the six corners of the regular hexagon inscribed in the trim box
                points = [(x / MM, y / MM) for x, y in match[0]["pts"]]
                for corner in hex_points(box):
                    assert min(math.dist(corner, p) for p in points) < 0.1, corner


@pytest.mark.slow
def test_backs_sit_behind_their_fronts(built):
    with pdfplumber.open(built / "t-components.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        fronts = [b for k, b in pieces_on(front) if k != "back"]
        backs = [b for k, b in pieces_on(back) if k == "back"]
        assert len(backs) == len(fronts) > 0
        for f in fronts:  # long-edge flip of a portrait sheet: x mirrored, y kept
            assert any(
                abs(b.x0 - (PAGE[0] - f.x1)) < 0.1 and abs(b.y0 - f.y0) < 0.1 and abs(b.width - f.width) < 0.1
                for b in backs
            ), f


@pytest.mark.slow
def test_a_board_is_tiled_over_pages_with_overlap_guides_and_crosses(built):
    with pdfplumber.open(built / "t-components.pdf") as pdf:
        pages = [p for p in pdf.pages if "page 1-" in (p.extract_text() or "")]
        assert len(pages) == 3  # 400 mm over pages printing 200 mm with 12 mm overlaps
        assert all("of 1 x 3" in p.extract_text() for p in pages)
        lefts, guides, crosses = [], [], []
        for page in pages:
            board = [b for k, b in pieces_on(page) if k == "Mat"]
            assert len(board) == 1 and (board[0].width, board[0].height) == pytest.approx((400, 250), abs=0.1)
            left = board[0].x0
            lefts.append(left)
            dashed = [ln for ln in page.lines if ln.get("dash") and ln["dash"][0]]
            guides.append(sorted(round(ln["x0"] / MM - left, 1) for ln in dashed))
            black = [ln for ln in page.lines if not (ln.get("dash") and ln["dash"][0])]
            crosses.append({round(ln["x0"] / MM - left, 1) for ln in black if abs(ln["width"] / MM - 8) < 0.1})
            for ln in page.lines:  # nothing drawn outside the printable area
                assert ln["x0"] / MM >= MARGIN - 0.1 and ln["x1"] / MM <= PAGE[0] - MARGIN + 0.1
        # page 1 marks where page 2 starts, page 2 where page 1 ends: 12 mm apart
        assert guides[1][0] - guides[0][0] == pytest.approx(12, abs=0.1)
        assert guides[2][0] - guides[1][1] == pytest.approx(12, abs=0.1)
        # the alignment crosses in each overlap strip print at the same board position on both pages
        assert crosses[0] & crosses[1] and crosses[1] & crosses[2]


@pytest.mark.slow
def test_component_faces_come_from_the_face_cache_the_second_time(tmp_path):
    root = make_project(tmp_path / "p")
    project = api.load_project(root)
    first = api.build(project, api.BuildRequest(out_dir=root / "out")).games[0]
    (root / "cards" / "t" / "cards.json").touch()  # the inputs' signature changes: a real build, not "up to date"
    again = api.build(project, api.BuildRequest(out_dir=root / "out")).games[0]
    # 12 fronts (3 coins, 5 chits, 3 hexes, the mat) and one back per size (coin, chit, hex): each laid out once
    assert first.stats["components: faces laid out"] == 15
    assert again.stats["components: faces laid out"] == 0 and again.stats["components: faces from cache"] == 15


@pytest.mark.slow
def test_an_edit_to_a_pieces_art_outside_the_card_folder_builds_again(tmp_path):
    """A component's piece shows its card's art as a card does: an edit to it, anywhere in the project, is seen by
    the up-to-date check."""
    from PIL import Image

    root = make_project(tmp_path / "p")
    (root / "art").mkdir()
    Image.new("RGB", (40, 40), "red").save(root / "art" / "hex.png")
    cards_file = root / "cards" / "t" / "cards.json"
    data = json.loads(cards_file.read_text(encoding="utf-8"))
    data["cards"][-2]["art"] = "../../art/hex.png"  # the third hex
    cards_file.write_text(json.dumps(data), encoding="utf-8")
    card = root / "templates" / "t" / "card.html.j2"
    card.write_text(card.read_text(encoding="utf-8").replace("</div></div>", '</div><img src="{{ art_url }}"></div>'))
    request = api.BuildRequest(out_dir=root / "out", aids=False)
    first = api.build(api.load_project(root), request).games[0]
    assert first.ok and api.build(api.load_project(root), request).games[0].up_to_date
    Image.new("RGB", (40, 40), "blue").save(root / "art" / "hex.png")
    again = api.build(api.load_project(root), request).games[0]
    assert not again.up_to_date and again.stats["components: faces laid out"] == 1
