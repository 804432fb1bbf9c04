"""Print production, read back from the PDFs and images printer writes: trim positions, bleed, safe area,
crop marks and cut lines, backs behind fronts (long-edge, short-edge, fold-over, back offset), copies,
order, text fit, art, sheet layout files, and the PNG, Tabletop Simulator and print-shop exports.

Expected positions are computed here from the page and card sizes, never taken from printer.sheets.layout.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from helpers import build_examples
from PIL import Image
from pypdf import PdfReader

MM = 72 / 25.4  # PDF points per mm
W_CARD, H_CARD = 63.0, 88.0
RED, BLUE = (0.784, 0.0, 0.0), (0.0, 0.0, 0.784)

CARD_HTML = """<div class="card kind-{{ card.type|lower }}">
  <div class="safe">
    <div class="title">{{ card.title }}</div>
    <div class="text-box" data-fit="text" data-fit-min="4pt">{{ text }}</div>
    {% set art = art_for(57, 20) %}
    {% if art %}<img class="art" src="{{ art }}">{% elif art_missing %}<div class="art-missing">ART MISSING {{ art_missing }}</div>{% endif %}
  </div>
</div>
"""
BACK_HTML = '<div class="card back"><div class="safe"><div class="title">BACK {{ back }}</div></div></div>\n'
CSS = """
.card { position: absolute; inset: 0; background: rgb(200, 0, 0); font: 8pt "DejaVu Sans", "Noto Sans CJK JP", sans-serif;
        color: #fff; line-height: 1.2; }
.card.kind-b, .card.back { background: rgb(0, 0, 200); }
.title { font-size: 9pt; }
.text-box { position: absolute; left: 0; right: 0; top: 17mm; height: 30mm; overflow: hidden; }
.text-box p { margin: 0; }
.art { position: absolute; left: 0; top: 50mm; width: 57mm; height: 20mm; }
img.icon { height: 1.05em; width: auto; vertical-align: -0.17em; }
"""
ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0f0"/></svg>'


def write_project(root: Path, cards: list[dict], extra_toml: str = "") -> Path:
    (root / "cards" / "t").mkdir(parents=True, exist_ok=True)
    (root / "templates" / "t" / "icons").mkdir(parents=True, exist_ok=True)
    (root / "printer.toml").write_text(
        '[project]\npaper = "A4"\n' + extra_toml + '\n[games.t]\nname = "Test"\ncard_size = "poker"\n', encoding="utf-8"
    )
    (root / "templates" / "t" / "card.html.j2").write_text(CARD_HTML, encoding="utf-8")
    (root / "templates" / "t" / "back.html.j2").write_text(BACK_HTML, encoding="utf-8")
    (root / "templates" / "t" / "card.css").write_text(CSS, encoding="utf-8")
    (root / "templates" / "t" / "icons" / "dot.svg").write_text(ICON, encoding="utf-8")
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"cards": cards}), encoding="utf-8")
    (root / "schema" / "t").mkdir(parents=True, exist_ok=True)
    (root / "schema" / "t" / "card.schema.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://printer.invalid/schema/t/card.schema.json",
                "allOf": [{"$ref": "../card.schema.json"}],
                "unevaluatedProperties": False,
            }
        ),
        encoding="utf-8",
    )
    return root


def simple_cards(n: int = 10) -> list[dict]:
    cards = [
        {"id": f"c{i:02d}", "title": f"Card{i:02d}", "type": "A", "text": f"Text of card {i}."} for i in range(1, n + 1)
    ]
    cards[0]["copies"] = 3
    return cards


def double_faced(n: int = 9) -> list[dict]:
    cards = []
    for i in range(1, n + 1):
        cards.append({"id": f"f{i:02d}", "title": f"Front{i:02d}", "type": "A", "back_card": f"b{i:02d}"})
        cards.append({"id": f"b{i:02d}", "title": f"Back{i:02d}", "type": "B"})
    return cards


def cli(*args) -> tuple[int, str]:
    from printer.cli import main

    try:
        main([str(a) for a in args])
        return 0, ""
    except SystemExit as exc:
        return (exc.code if isinstance(exc.code, int) else 1), ""


def build(root: Path, out: Path, *args) -> Path:
    code, _ = cli("--project", root, "build", "t", "--out", out, *args)
    assert code == 0
    return out / "t.pdf"


def card_rects(page, colour=None) -> list[tuple[float, float]]:
    """Top-left (x, y) in mm of every filled 63 x 88 mm rectangle (a card's trim-size background)."""
    found = set()
    for r in page.rects:
        if abs(r["width"] / MM - W_CARD) < 0.05 and abs(r["height"] / MM - H_CARD) < 0.05:
            fill = tuple(round(c, 3) for c in (r.get("non_stroking_color") or ()))
            if colour is None or fill == colour:
                found.add((round(r["x0"] / MM, 3), round(r["top"] / MM, 3)))
    return sorted(found)


def word_boxes(page, prefix: str) -> dict[str, dict]:
    """Words by text (text turned 180 degrees comes out reversed: both spellings are keys)."""
    found = {}
    for w in page.extract_words():
        for text in (w["text"], w["text"][::-1]):
            if text.startswith(prefix):
                found[text] = w
    return found


def rect_of(point: tuple[float, float], rects: list[tuple[float, float]], w=W_CARD, h=H_CARD) -> tuple[float, float]:
    x, y = point
    found = [r for r in rects if r[0] - 0.01 <= x <= r[0] + w + 0.01 and r[1] - 0.01 <= y <= r[1] + h + 0.01]
    assert len(found) == 1, (point, rects)
    return found[0]


def centred_grid(page: tuple[float, float], cols: int, rows: int, gutter: float = 0.0) -> list[tuple[float, float]]:
    gw, gh = cols * W_CARD + (cols - 1) * gutter, rows * H_CARD + (rows - 1) * gutter
    ox, oy = (page[0] - gw) / 2, (page[1] - gh) / 2
    return sorted(
        (round(ox + c * (W_CARD + gutter), 3), round(oy + r * (H_CARD + gutter), 3))
        for r in range(rows)
        for c in range(cols)
    )


def close(found, expected, tol: float = 0.1) -> bool:
    """Two lists of (x, y) mm positions are equal to ``tol``, in order."""
    return len(found) == len(expected) and all(abs(a - b) <= tol for f, e in zip(found, expected) for a, b in zip(f, e))


def raster(pdf: Path, index: int, dpi: int = 200) -> Image.Image:
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return document[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def pixel(image: Image.Image, x_mm: float, y_mm: float, dpi: int = 200) -> tuple[int, int, int]:
    return image.getpixel((int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)))


def is_red(p):
    return p[0] > 150 and p[1] < 60 and p[2] < 60


def is_white(p):
    return min(p) > 235


# -- one build per variant, for the whole module -------------------------------------------------------------------


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("plain"), simple_cards())
    return root, build(root, root / "out")


@pytest.fixture(scope="module")
def gutter(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("gutter"), simple_cards())
    return root, build(root, root / "out", "--gutter", "16", "--duplex", "none", "--orientation", "portrait")


@pytest.fixture(scope="module", params=["long-edge", "short-edge"])
def duplex(request, tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp(request.param), double_faced())
    return request.param, build(root, root / "out", "--duplex", request.param)


# -- page size, trim boxes, bleed, safe area --------------------------------------------------------------------------


@pytest.mark.slow
def test_a4_pages_and_a_centred_3x3_grid_of_trim_boxes(plain):
    _, pdf = plain
    reader = PdfReader(pdf)
    assert len(reader.pages) == 4  # 12 cards (one with 3 copies): 2 sheets of fronts and backs
    for page in reader.pages:
        assert (float(page.mediabox.width) / MM, float(page.mediabox.height) / MM) == pytest.approx(
            (210, 297), abs=0.05
        )
    with pdfplumber.open(pdf) as doc:
        fronts = card_rects(doc.pages[0], RED)
    assert close(fronts, centred_grid((210, 297), 3, 3))


def test_bleed_runs_past_the_outer_trim_and_cards_share_cut_lines(plain):
    _, pdf = plain
    image = raster(pdf, 0)
    x0, y0 = centred_grid((210, 297), 3, 3)[0]
    # outer edges: card colour 1.5 mm past the trim, white past the 3 mm bleed
    assert is_red(pixel(image, x0 - 1.5, y0 + 40)) and is_red(pixel(image, x0 + 30, y0 - 1.5))
    assert is_white(pixel(image, x0 - 4, y0 + 40)) and is_white(pixel(image, x0 + 30, y0 - 4))
    # gutter 0: no white between neighbours, on either side of the shared cut line
    for dx in (-0.4, 0.4):
        assert is_red(pixel(image, x0 + W_CARD + dx, y0 + 40))


@pytest.mark.slow
def test_with_a_gutter_each_card_has_its_own_bleed(gutter):
    _, pdf = gutter
    with pdfplumber.open(pdf) as doc:
        fronts = card_rects(doc.pages[0], RED)
    assert close(fronts, centred_grid((210, 297), 2, 2, 16))
    image = raster(pdf, 0)
    x0, y0 = fronts[0]
    right = x0 + W_CARD
    assert is_red(pixel(image, right + 2, y0 + 40))  # its own bleed
    assert is_white(pixel(image, right + 8, y0 + 40))  # the middle of the gutter
    assert is_red(pixel(image, right + 16 - 2, y0 + 40))  # the neighbour's bleed


def test_text_stays_in_the_safe_area(plain):
    _, pdf = plain
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        fronts = card_rects(page, RED)
        for char in page.chars:
            x, y = char["x0"] / MM, char["top"] / MM
            if y > 285:  # the sheet label under the grid
                continue
            rx, ry = rect_of((x, y), fronts)
            assert char["x0"] / MM >= rx + 3 - 0.05 and char["x1"] / MM <= rx + W_CARD - 3 + 0.05
            assert char["top"] / MM >= ry + 3 - 0.05 and char["bottom"] / MM <= ry + H_CARD - 3 + 0.05


@pytest.mark.slow
def test_l5r_example_text_stays_in_the_safe_area(tmp_path_factory):
    """The bundled L5R template keeps every character 3 mm inside the trim."""
    with pdfplumber.open(build_examples(tmp_path_factory, "l5r")) as doc:
        page = doc.pages[0]
        fronts = card_rects(page)
        assert len(fronts) == 9
        for char in page.chars:
            if char["top"] / MM > 285 or not char["text"].strip():
                continue
            rx, ry = rect_of((char["x0"] / MM, char["top"] / MM), fronts)
            assert rx + 3 - 0.1 <= char["x0"] / MM and char["x1"] / MM <= rx + W_CARD - 3 + 0.1, char["text"]
            assert ry + 3 - 0.1 <= char["top"] / MM and char["bottom"] / MM <= ry + H_CARD - 3 + 0.1, char["text"]


# -- marks ----------------------------------------------------------------------------------------------------------


def segments(page) -> set[tuple[float, float, float, float]]:
    return {
        (round(l["x0"] / MM, 1), round(l["top"] / MM, 1), round(l["x1"] / MM, 1), round(l["bottom"] / MM, 1))
        for l in page.lines
    }


def test_per_card_crop_marks_at_every_corner_outside_the_trim(gutter):
    _, pdf = gutter
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        fronts = card_rects(page, RED)
        lines = segments(page)
    offset, length = 3.0, 5.0  # the defaults: the bleed, 5 mm
    expected = set()
    for x, y in fronts:
        for cx, sx in ((x, -1), (x + W_CARD, 1)):
            for cy, sy in ((y, -1), (y + H_CARD, 1)):
                hx = sorted((cx + sx * offset, cx + sx * (offset + length)))
                vy = sorted((cy + sy * offset, cy + sy * (offset + length)))
                expected.add((round(hx[0], 1), round(cy, 1), round(hx[1], 1), round(cy, 1)))
                expected.add((round(cx, 1), round(vy[0], 1), round(cx, 1), round(vy[1], 1)))
    assert lines == expected
    for x0, y0, x1, y1 in lines:  # no mark touches a card
        for fx, fy in fronts:
            assert not (fx < (x0 + x1) / 2 < fx + W_CARD and fy < (y0 + y1) / 2 < fy + H_CARD)


@pytest.mark.slow
def test_cut_lines_run_across_the_sheet_at_every_trim_edge(tmp_path):
    root = write_project(tmp_path, simple_cards())
    pdf = build(root, tmp_path / "out", "--marks", "cut")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        fronts = card_rects(page, RED)
        lines = segments(page)
        back_lines = segments(doc.pages[1])
    xs = {round(x, 1) for fx, _ in fronts for x in (fx, fx + W_CARD)}
    ys = {round(y, 1) for _, fy in fronts for y in (fy, fy + H_CARD)}
    assert lines == {(x, 0.0, x, 297.0) for x in xs} | {(0.0, y, 210.0, y) for y in ys}
    assert back_lines == set()  # marks only on the fronts


def test_no_marks(tmp_path):
    root = write_project(tmp_path, simple_cards(3))
    pdf = build(root, tmp_path / "out", "--marks", "none")
    with pdfplumber.open(pdf) as doc:
        assert doc.pages[0].lines == []


def test_mark_length_and_offset(tmp_path):
    root = write_project(tmp_path, [{"id": "a", "title": "A", "type": "A"}])
    pdf = build(root, tmp_path / "out", "--mark-length", "3", "--mark-offset", "4", "--bleed", "2")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        ((x, y),) = card_rects(page, RED)
        lines = segments(page)
    assert (round(x, 1), round(y - 7, 1), round(x, 1), round(y - 4, 1)) in lines
    assert (round(x - 7, 1), round(y, 1), round(x - 4, 1), round(y, 1)) in lines
    assert len(lines) == 8


# -- duplex -----------------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_every_back_lies_exactly_behind_its_front(duplex):
    """The back of FrontNN (the card BackNN) sits where FrontNN lands once the sheet is turned over."""
    flip, pdf = duplex
    with pdfplumber.open(pdf) as doc:
        front, back = doc.pages[0], doc.pages[1]
        W, H = front.width / MM, front.height / MM
        fronts, backs = card_rects(front, RED), card_rects(back, BLUE)
        assert len(fronts) == len(backs) == 9
        front_words, back_words = word_boxes(front, "Front"), word_boxes(back, "Back")
        for n in range(1, 10):
            fx, fy = rect_of(
                (front_words[f"Front{n:02d}"]["x0"] / MM, front_words[f"Front{n:02d}"]["top"] / MM), fronts
            )
            word = back_words[f"Back{n:02d}"]
            bx, by = rect_of((word["x0"] / MM, word["top"] / MM), backs)
            if flip == "long-edge":  # turned over the vertical axis
                assert (bx, by) == pytest.approx((W - fx - W_CARD, fy), abs=0.1)
            else:  # turned over the horizontal axis
                assert (bx, by) == pytest.approx((fx, H - fy - H_CARD), abs=0.1)
        turned = [c for c in back.chars if c["text"] == "B"]
        assert turned and all((c["matrix"][0] < 0) == (flip == "short-edge") for c in turned)


@pytest.mark.slow
def test_shared_backs_mirror_the_fronts_and_the_offset_moves_them(tmp_path):
    root = write_project(tmp_path, simple_cards(9))
    for offset in ("0,0", "1.5,-0.7"):
        pdf = build(root, tmp_path / offset, "--back-offset", offset)
        dx, dy = (float(v) for v in offset.split(","))
        with pdfplumber.open(pdf) as doc:
            fronts, backs = card_rects(doc.pages[0], RED), card_rects(doc.pages[1], BLUE)
            W = doc.pages[0].width / MM
        assert close(backs, sorted((round(W - x - W_CARD + dx, 3), round(y + dy, 3)) for x, y in fronts))


def test_landscape_long_edge_turns_over_the_horizontal_axis(tmp_path):
    root = write_project(tmp_path, double_faced(4))
    pdf = build(root, tmp_path / "out", "--orientation", "landscape")
    with pdfplumber.open(pdf) as doc:
        front, back = doc.pages[0], doc.pages[1]
        W, H = front.width / MM, front.height / MM
        assert W > H
        fronts, backs = card_rects(front, RED), card_rects(back, BLUE)
        fw, bw = word_boxes(front, "Front"), word_boxes(back, "Back")
        for n in range(1, 5):
            fx, fy = rect_of((fw[f"Front{n:02d}"]["x0"] / MM, fw[f"Front{n:02d}"]["top"] / MM), fronts)
            bx, by = rect_of((bw[f"Back{n:02d}"]["x0"] / MM, bw[f"Back{n:02d}"]["top"] / MM), backs)
            assert (bx, by) == pytest.approx((fx, H - fy - H_CARD), abs=0.1)


def test_fold_over_puts_each_back_beside_its_front_mirrored_across_the_fold(tmp_path):
    root = write_project(tmp_path, double_faced(4))
    pdf = build(root, tmp_path / "out", "--duplex", "fold")
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 1
        page = doc.pages[0]
        W, H = page.width / MM, page.height / MM
        assert W > H  # A4 landscape holds 2x2 fronts in its left half
        fronts, backs = card_rects(page, RED), card_rects(page, BLUE)
        words = word_boxes(page, "")
        for n in range(1, 5):
            fx, fy = rect_of((words[f"Front{n:02d}"]["x0"] / MM, words[f"Front{n:02d}"]["top"] / MM), fronts)
            bx, by = rect_of((words[f"Back{n:02d}"]["x0"] / MM, words[f"Back{n:02d}"]["top"] / MM), backs)
            assert fx + W_CARD < W / 2 < bx
            assert (bx, by) == pytest.approx((W - fx - W_CARD, fy), abs=0.1)
        fold = [l for l in page.lines if abs(l["x0"] / MM - W / 2) < 0.05 and abs(l["x1"] / MM - W / 2) < 0.05]
        assert fold, "a fold line down the middle"


@pytest.mark.slow
def test_alignment_page_scales_lie_behind_the_crosses(tmp_path, run):
    root = write_project(tmp_path, simple_cards(1))
    for flip in ("long-edge", "short-edge"):
        target = tmp_path / f"align-{flip}.pdf"
        result = run("--project", root, "align", "--duplex", flip, "--back-offset", "1,-2", "--out", target)
        assert result.code == 0, result.err
        with pdfplumber.open(target) as doc:
            assert len(doc.pages) == 2
            front, back = doc.pages
            W, H = front.width / MM, front.height / MM
            circles = lambda page: sorted(
                (round((c["x0"] + c["x1"]) / 2 / MM, 1), round((c["top"] + c["bottom"]) / 2 / MM, 1))
                for c in page.curves
                if abs(c["width"] / MM - 3) < 0.3
            )
            crosses, scales = circles(front), circles(back)
            assert len(crosses) == len(scales) == 5
            if flip == "long-edge":
                expected = sorted((round(W - x + 1, 1), round(y - 2, 1)) for x, y in crosses)
            else:
                expected = sorted((round(x + 1, 1), round(H - y - 2, 1)) for x, y in crosses)
            assert close(scales, expected)


def test_alignment_page_reads_the_sheet_layout_file_as_the_build_does(tmp_path, run):
    """Its paper is the page's; a file missing or not TOML is the build's usage error, not ignored."""
    root = write_project(tmp_path, simple_cards(1))
    (root / "slots.toml").write_text('paper = "Letter"\ncard = "poker"\n[[slot]]\nx = 20\ny = 30\n', encoding="utf-8")
    target = tmp_path / "align.pdf"
    result = run("--project", root, "align", "--sheet-layout", root / "slots.toml", "--out", target)
    assert result.code == 0, result.err
    box = PdfReader(target).pages[0].mediabox
    assert (round(float(box.width) / MM, 1), round(float(box.height) / MM, 1)) == (215.9, 279.4)
    (root / "bad.toml").write_text("garbage = [\n", encoding="utf-8")
    for layout, said in (
        (root / "bad.toml", "not valid TOML"),
        (tmp_path / "none.toml", "sheet layout file not found"),
    ):
        result = run("--project", root, "align", "--sheet-layout", layout, "--out", tmp_path / "x.pdf")
        assert result.code == 2 and said in result.err and not (tmp_path / "x.pdf").exists(), result.err


# -- copies and order -------------------------------------------------------------------------------------------------


def test_copies_from_the_card_data(plain):
    _, pdf = plain
    with pdfplumber.open(pdf) as doc:
        titles = [w["text"] for p in doc.pages[::2] for w in p.extract_words() if w["text"].startswith("Card")]
    assert titles.count("Card01") == 3
    assert all(titles.count(f"Card{i:02d}") == 1 for i in range(2, 11))
    assert len(titles) == 12


@pytest.mark.slow
def test_fronts_ordered_by_fields_or_as_listed(tmp_path):
    cards = [
        {"id": "x", "title": "Zeta", "type": "B", "set": "Two"},
        {"id": "y", "title": "Alpha", "type": "A", "set": "Two"},
        {"id": "z", "title": "Mid", "type": "A", "set": "One"},
    ]
    root = write_project(tmp_path, cards)

    def order(*args):
        pdf = build(root, tmp_path / "-".join(args or ("listed",)), *args)
        with pdfplumber.open(pdf) as doc:
            words = [w for w in doc.pages[0].extract_words() if w["text"] in ("Zeta", "Alpha", "Mid")]
        return [w["text"] for w in sorted(words, key=lambda w: (round(w["top"]), w["x0"]))]

    assert order() == ["Zeta", "Alpha", "Mid"]
    assert order("--sort", "title") == ["Alpha", "Mid", "Zeta"]
    assert order("--sort", "set,type,title") == ["Mid", "Alpha", "Zeta"]


def test_decklist_counts_become_copies():
    from printer.sheets.faces.items import items_for_counts

    items = items_for_counts([(3, None, "Missing Card"), (0, None, "None"), (2, None, "Other")])
    assert [i.name for i in items] == ["Missing Card"] * 3 + ["Other"] * 2


# -- text fit -------------------------------------------------------------------------------------------------------

LONG = " ".join(["Warriors hold the line {dot} while the tide turns."] * 14)
HUGE = " ".join(["Warriors hold the line {dot} while the tide turns."] * 60)


@pytest.mark.slow
def test_too_much_text_shrinks_and_stays_inside_its_box(tmp_path):
    root = write_project(tmp_path, [{"id": "long", "title": "LongCard", "type": "A", "text": LONG}])
    pdf = build(root, tmp_path / "out", "--strict")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        ((x, y),) = card_rects(page, RED)
        text = [
            c for c in page.chars if c["text"].strip() and y + 17 < c["top"] / MM < y + 88 and c["x0"] / MM < x + 63
        ]
        box_top, box_bottom = y + 3 + 17, y + 3 + 17 + 30  # safe area 3 mm, then the template's box
        assert text
        assert max(c["size"] for c in text) < 8 - 0.1  # shrunk from 8pt
        assert min(c["size"] for c in text) >= 4 - 0.01  # not under the template's minimum
        assert all(box_top - 0.1 <= c["top"] / MM and c["bottom"] / MM <= box_bottom + 0.1 for c in text)
        assert "turns." in page.extract_text()  # the last words are there, inside the box


@pytest.mark.slow
def test_text_that_cannot_fit_warns_and_fails_with_strict(tmp_path, run):
    root = write_project(tmp_path, [{"id": "huge", "title": "HugeCard", "type": "A", "text": HUGE}])
    result = run("--project", root, "build", "t", "--out", tmp_path / "out")
    assert result.code == 0
    assert re.search(
        r"cards\.json:\d+:\d+ \(\$\.cards\[0\]\.text\):\ warning:\ HugeCard:\ the\ text\ does\ not\ fit\ its\ box\ even\ at\ 4pt",
        result.err,
    )
    result = run("--project", root, "build", "t", "--out", tmp_path / "strict", "--strict")
    assert result.code == 1
    assert re.search(
        r"cards\.json:\d+:\d+ \(\$\.cards\[0\]\.text\):\ error:\ HugeCard:\ the\ text\ does\ not\ fit", result.err
    )
    assert not (tmp_path / "strict" / "t.pdf").exists()


@pytest.mark.parametrize(
    "text, word",
    [("Bow {dot} this card to win.", "this"), ("戦闘：{dot}このカードをボウする。", "このカードをボウする。")],
)
def test_inline_icons_sit_on_the_baseline_at_the_text_size(tmp_path, text, word):
    root = write_project(tmp_path, [{"id": "i", "title": "Icon", "type": "A", "text": text}])
    pdf = build(root, tmp_path / "out")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        chars = [c for c in page.chars if c["text"] == word[0]]
        icon = [
            r for r in page.rects if tuple(round(v, 2) for v in (r.get("non_stroking_color") or ())) == (0.0, 1.0, 0.0)
        ]
    assert chars and len(icon) == 1
    char, icon = chars[0], icon[0]
    size = char["size"]
    assert icon["height"] == pytest.approx(1.05 * size, rel=0.05)  # the text's size
    # baseline: the icon drops 0.17em below it; the char's baseline is its bottom less its descent
    baseline = char["matrix"][5]
    assert page.height - icon["bottom"] == pytest.approx(baseline - 0.17 * size, abs=0.25 * size)
    assert icon["x1"] <= char["x0"] + 0.5


# -- images ---------------------------------------------------------------------------------------------------------


def test_art_is_prepared_once_into_the_cache_and_low_resolution_warns(tmp_path, run):
    cards = [
        {"id": "opaque", "title": "Opaque", "type": "A", "art": "opaque.png"},
        {"id": "clear", "title": "Clear", "type": "A", "art": "clear.png"},
        {"id": "gone", "title": "Gone", "type": "A", "art": "gone.png"},
    ]
    root = write_project(tmp_path, cards)
    Image.new("RGBA", (1400, 500), (10, 200, 10, 255)).save(root / "cards" / "t" / "opaque.png")
    Image.new("RGBA", (200, 70), (10, 200, 10, 100)).save(root / "cards" / "t" / "clear.png")
    result = run("--project", root, "build", "t", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    cache = root / "build" / ".cache" / "art"
    jpegs, pngs = sorted(cache.glob("*.jpg")), sorted(cache.glob("*.png"))
    assert len(jpegs) == 1 and len(pngs) == 1  # the opaque PNG flattened to JPEG, the transparent one kept
    with Image.open(jpegs[0]) as image:  # crop-to-fill 57 x 20 mm at 300 dpi: 673 x 236 px, never upscaled
        assert image.size == (673, 236)
    assert "clear: " not in result.err
    assert re.search(
        r"cards\.json:\d+:\d+ \(\$\.cards\[1\]\.art\):\ warning:\ art\ clear\.png\ is\ 89\ dpi\ at\ its\ printed\ size\ 57\ x\ 20\ mm\ \(200\ x\ 70\ px\)",
        result.err,
    )
    assert re.search(r"cards\.json:\d+:\d+ \(\$\.cards\[2\]\.art\):\ warning:\ art\ file\ not\ found", result.err)
    with pdfplumber.open(tmp_path / "out" / "t.pdf") as doc:
        assert "ART MISSING gone.png" in doc.pages[0].extract_text()
    stamp = jpegs[0].stat().st_mtime_ns
    assert run("--project", root, "build", "t", "--out", tmp_path / "out").code == 0
    assert jpegs[0].stat().st_mtime_ns == stamp  # prepared once


# -- sheet layout files -----------------------------------------------------------------------------------------------


def test_a_sheet_layout_file_places_cards_in_its_slots(tmp_path):
    root = write_project(tmp_path, double_faced(3))
    (root / "slots.toml").write_text(
        'paper = "A4"\ncard = "poker"\n[[slot]]\nx = 20\ny = 30\n[[slot]]\nx = 100\ny = 30\n'
        "[[slot]]\nx = 20\ny = 150\nrotate = 90\n",
        encoding="utf-8",
    )
    pdf = build(root, tmp_path / "out", "--sheet-layout", root / "slots.toml")
    with pdfplumber.open(pdf) as doc:
        front, back = doc.pages[0], doc.pages[1]
        assert close(card_rects(front, RED), [(20, 30), (100, 30)])
        turned = [
            r for r in front.rects if abs(r["width"] / MM - H_CARD) < 0.05 and abs(r["height"] / MM - W_CARD) < 0.05
        ]
        assert [(round(r["x0"] / MM, 1), round(r["top"] / MM, 1)) for r in turned] == [(20.0, 150.0)]
        # long-edge: mirrored across the vertical axis; the turned card's back lies over the same footprint mirrored
        assert close(card_rects(back, BLUE), [(210 - 100 - 63, 30), (210 - 20 - 63, 30)])
        turned_back = [
            r for r in back.rects if abs(r["width"] / MM - H_CARD) < 0.05 and abs(r["height"] / MM - W_CARD) < 0.05
        ]
        assert [(round(r["x0"] / MM, 1), round(r["top"] / MM, 1)) for r in turned_back] == [(210 - 20 - 88, 150.0)]


def test_a_bad_sheet_layout_file_reports_every_problem(tmp_path, run):
    root = write_project(tmp_path, simple_cards(1))
    (root / "slots.toml").write_text(
        'card = "tarot"\n[[slot]]\nx = 200\ny = 30\n[[slot]]\nx = 10\nrotate = 45\n', encoding="utf-8"
    )
    result = run("--project", root, "build", "t", "--sheet-layout", root / "slots.toml")
    assert result.code == 2
    assert "slots.toml::$.card: error: the layout is for 70 x 120 mm cards, the game's are 63 x 88 mm" in result.err
    assert "slots.toml::$.slot[1]: error: missing y" in result.err
    assert (
        "slots.toml::$.slot[0]: error: the card (200, 30)-(263, 118) mm runs off the 210 x 297 mm sheet" in result.err
    )


# -- exports ----------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("export"), simple_cards(10) + double_faced(2))
    out = root / "out"
    build(root, out, "--export", "png", "--export", "tts", "--export", "print-shop")
    return root, out


@pytest.mark.slow
def test_png_export_one_image_per_card_named_by_id(exported, tmp_path):
    root, out = exported
    names = sorted(p.name for p in (out / "t-png").glob("*.png"))
    assert names == sorted(
        [f"c{i:02d}.png" for i in range(1, 11)] + ["f01.png", "f02.png", "b01.png", "b02.png", "back-default.png"]
    )
    with Image.open(out / "t-png" / "c01.png") as image:
        assert image.size == (744, 1039) and image.mode == "RGB"  # 63 x 88 mm at 300 dpi, cut at the trim
        assert is_red(image.getpixel((2, 2))) and is_red(image.getpixel((741, 1036)))
    build(root, tmp_path, "--only", "c02", "--export", "png", "--png-bleed", "--dpi", "150")
    with Image.open(tmp_path / "t-png" / "c02.png") as image:
        assert image.size == (round(69 / 25.4 * 150), round(94 / 25.4 * 150))  # with 3 mm bleed at 150 dpi
        assert is_red(image.getpixel((1, 1)))


@pytest.mark.slow
def test_tts_export_sheets_grid_and_hidden_card(exported):
    _, out = exported
    manifest = json.loads((out / "t-tts" / "tts.json").read_text())["decks"]
    by_face = {d["face"].rsplit("-", 1)[0]: d for d in manifest}  # each image named <sheet>-<digest>.png
    plain = by_face["default-1"]
    assert (plain["cards"], plain["width"], plain["height"], plain["unique_backs"]) == (12, 7, 2, False)
    assert plain["back"].startswith("default-back-")
    with Image.open(out / "t-tts" / plain["face"]) as sheet, Image.open(out / "t-tts" / plain["back"]) as back:
        assert sheet.mode == "RGB" and back.mode == "RGB"
        assert sheet.size == (7 * 409, 2 * 571) and sheet.width <= 4096
        assert back.size == (409, 571)
        last = sheet.crop((6 * 409, 571, 7 * 409, 2 * 571))
        assert last.tobytes()[::97] == back.tobytes()[::97]  # the last slot is the hidden card: the back
        assert is_red(sheet.getpixel((10, 10))) and is_red(sheet.getpixel((409 * 4 + 10, 571 + 10)))  # cards 1 and 12
        assert is_white(sheet.getpixel((409 * 5 + 10, 571 + 10)))  # slot 13 is empty
    double = by_face["double-faced-1"]
    assert (
        double["unique_backs"]
        and double["back"].startswith("double-faced-1-back-")
        and (double["width"], double["height"]) == (2, 2)
    )
    with Image.open(out / "t-tts" / double["back"]) as backs:
        assert backs.size == (2 * 409, 2 * 571)
        assert backs.getpixel((200, 200))[2] > 150  # slot 1: the blue back card of f01


def test_tts_grid_limits():
    from printer.sheets.export.tts import MAX_SIZE, card_px, grid_for

    assert grid_for(69) == (10, 7) and grid_for(1) == (2, 2) and grid_for(19) == (10, 2)
    assert card_px((63, 88))[0] * 10 <= MAX_SIZE


@pytest.mark.slow
def test_print_shop_export_one_card_per_page_with_bleed_and_no_marks(exported):
    _, out = exported
    reader = PdfReader(out / "t-print-shop.pdf")
    assert len(reader.pages) == 2 * 14  # every printed card, front then back
    for page in reader.pages[:4]:
        media = [float(v) / MM for v in page.mediabox]
        trim = [float(v) / MM for v in page.trimbox]
        assert media[2] - media[0] == pytest.approx(822 / 300 * 25.4, abs=0.05)
        assert media[3] - media[1] == pytest.approx(1122 / 300 * 25.4, abs=0.05)
        assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((63, 88), abs=0.05)
        assert trim[0] - media[0] == pytest.approx(media[2] - trim[2], abs=0.05)  # centred
    with pdfplumber.open(out / "t-print-shop.pdf") as doc:
        assert all(not p.lines for p in doc.pages)
    with Image.open(out / "t-print-shop" / "c01.png") as image:
        assert image.size == (822, 1122)
        assert is_red(image.getpixel((1, 1))) and is_red(image.getpixel((820, 1120)))  # bleed to the edge


# -- PDF/X ----------------------------------------------------------------------------------------------------------


def test_icc_must_be_a_cmyk_profile(tmp_path, run):
    import weasyprint

    rgb = Path(weasyprint.__file__).parent / "pdf" / "sRGB2014.icc"
    root = write_project(tmp_path, simple_cards(1))
    result = run("--project", root, "build", "t", "--icc", rgb)
    assert result.code == 2
    assert "--icc needs a CMYK output profile, this one is RGB" in result.err


CMYK_PROFILES = [
    Path(p) for p in (os.environ.get("PRINTER_CMYK_ICC", ""), "/usr/share/color/icc/ghostscript/default_cmyk.icc") if p
]


@pytest.mark.slow
@pytest.mark.skipif(not any(p.is_file() for p in CMYK_PROFILES), reason="no CMYK ICC profile on this machine")
def test_pdfx4_with_a_cmyk_profile(tmp_path, run):
    profile = next(p for p in CMYK_PROFILES if p.is_file())
    root = write_project(tmp_path, [{"id": "a", "title": "Art", "type": "A", "art": "a.png"}])
    Image.new("RGB", (700, 260), (10, 200, 10)).save(root / "cards" / "t" / "a.png")
    result = run("--project", root, "build", "t", "--icc", profile, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    reader = PdfReader(tmp_path / "out" / "t.pdf")
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert intents[0].get_object()["/S"] == "/GTS_PDFX"
    assert "RGB colour settings" in result.err  # the test template's colours are RGB: said so
    with Image.open(next((root / "build" / ".cache" / "art").glob("*.jpg"))) as art:
        assert art.mode == "CMYK"
