"""printer build: the PDF read back (page size, card boxes, backs behind fronts, crop marks, text)."""

from __future__ import annotations

import pdfplumber
import pytest
from pypdf import PdfReader

from printer.cli.output import relative

MM = 72 / 25.4  # PDF points per mm
CARD_W, CARD_H = 63 * MM, 88 * MM


@pytest.fixture(scope="module")
def built(tmp_path_factory, repo):
    """The bundled L5R examples printed once for every test of this module."""
    from printer.cli import main

    out = tmp_path_factory.mktemp("build")
    try:
        main(["--project", str(repo), "build", "l5r", "--out", str(out)])
    except SystemExit as exc:
        assert exc.code == 0
    return out / "l5r.pdf"


def card_boxes(page) -> list[tuple[float, float, str]]:
    """(x, y) of the top-left of every card-sized filled rectangle, in mm, with its fill colour."""
    boxes = []
    for rect in page.rects:
        if abs(rect["width"] - CARD_W) < 0.3 and abs(rect["height"] - CARD_H) < 0.3:
            boxes.append((round(rect["x0"] / MM, 2), round(rect["top"] / MM, 2), str(rect.get("non_stroking_color"))))
    return sorted(set(boxes))


def test_pages_are_a4_fronts_then_backs(built):
    reader = PdfReader(built)
    assert len(reader.pages) == 4  # 14 cards: 2 sheets, each a front and a back page
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(210 * MM, abs=0.5)
        assert float(page.mediabox.height) == pytest.approx(297 * MM, abs=0.5)


@pytest.mark.slow
def test_fronts_are_a_centred_3x3_grid_of_63x88mm(built):
    with pdfplumber.open(built) as pdf:
        boxes = card_boxes(pdf.pages[0])
    positions = sorted({(x, y) for x, y, _ in boxes})
    assert len(positions) == 9
    xs = sorted({x for x, _ in positions})
    ys = sorted({y for _, y in positions})
    assert xs == pytest.approx([10.5, 73.5, 136.5], abs=0.1)
    assert ys == pytest.approx([16.5, 104.5, 192.5], abs=0.1)


@pytest.mark.slow
def test_each_back_lies_behind_its_front_under_long_edge_flip(built):
    """A card at x on the front page must have its back at page width - x - card width."""
    with pdfplumber.open(built) as pdf:
        for front_page, back_page in ((pdf.pages[0], pdf.pages[1]), (pdf.pages[2], pdf.pages[3])):
            width_mm = front_page.width / MM
            backs = {(x, y): colour for x, y, colour in card_boxes(back_page)}
            fronts = {(x, y) for x, y, _ in card_boxes(front_page)}
            assert len(backs) == len(fronts)
            for x, y in fronts:
                mirrored = (round(width_mm - x - 63, 2), y)
                assert any(abs(mirrored[0] - bx) < 0.1 and abs(mirrored[1] - by) < 0.1 for bx, by in backs), (x, y)


@pytest.mark.slow
def test_back_colour_follows_the_deck(built):
    """Dynasty backs are black, Fate backs green: check the back behind a known card."""
    with pdfplumber.open(built) as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        width_mm = front.width / MM
        colours = {(x, y): colour for x, y, colour in card_boxes(back)}

        def back_colour_of(title: str) -> str:
            word = next(w for w in front.extract_words() if w["text"] == title.split()[0])
            for (bx, by), colour in colours.items():
                fx = width_mm - bx - 63
                if fx <= word["x0"] / MM <= fx + 63 and by <= word["top"] / MM <= by + 88:
                    return colour
            raise AssertionError(title)

        dynasty = back_colour_of("Salt Pans")  # a Holding
        fate = back_colour_of("Hold the Line")  # a Strategy
        assert dynasty != fate
        # Dynasty black (#111) and Fate green (#1e4a2a), as fill colours in 0-1 RGB.
        assert "0.0666" in dynasty or "0.067" in dynasty
        assert "0.1176" in fate or "0.118" in fate


@pytest.mark.slow
def test_crop_marks_line_up_with_the_cut_lines(built):
    with pdfplumber.open(built) as pdf:
        lines = pdf.pages[0].lines
    vertical = {round(l["x0"] / MM, 1) for l in lines if abs(l["x0"] - l["x1"]) < 0.01 and l["bottom"] / MM < 16.5}
    horizontal = {round(l["top"] / MM, 1) for l in lines if abs(l["top"] - l["bottom"]) < 0.01 and l["x1"] / MM < 10.5}
    assert vertical == {10.5, 73.5, 136.5, 199.5}
    assert horizontal == {16.5, 104.5, 192.5, 280.5}
    # Marks stay out of the cards: every mark ends before the grid begins.
    assert all(
        l["bottom"] / MM <= 16.5 - 1
        or l["top"] / MM >= 280.5 + 1
        or l["x1"] / MM <= 10.5 - 1
        or l["x0"] / MM >= 199.5 + 1
        for l in lines
    )


@pytest.mark.slow
def test_card_text_and_fields_are_in_the_pdf(built):
    with pdfplumber.open(built) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    for expected in [
        "Ishigaki Tetsuya",
        "Experienced",
        "PERSONALITY",
        "Samurai",
        "HR",
        "PH",
        "Destroy target Follower",
        "Sayo of the Tide",
        "The Salt-Wind Watchtower",
        "Province",
    ]:
        assert expected in text


@pytest.mark.slow
def test_icons_are_vector_images_on_the_text_line(built):
    """The {bow} icon is drawn (a vector path, not text) and sits within the text line's height."""
    with pdfplumber.open(built) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        produce = next(w for w in words if w["text"] == "Produce")
        # Vector paths drawn on the same line, left of "Produce": the bow icon.
        icons = [
            c
            for c in page.curves + page.rects
            if c["x1"] <= produce["x0"] and abs(c["bottom"] - produce["bottom"]) < 3 and c["height"] < 10
        ]
        assert icons, "no icon drawn before 'Produce'"
        size = produce["bottom"] - produce["top"]
        for icon in icons:
            assert icon["top"] >= produce["top"] - size * 0.4
            assert icon["bottom"] <= produce["bottom"] + size * 0.4


@pytest.mark.slow
def test_double_faced_card_prints_its_other_side_behind_it(run, project):
    """A card with back_card prints that card's front as its back, and not as a front of its own."""
    import json

    side = {"type": "Region", "deck": "Dynasty", "text": "A side."}
    cards = [
        dict(side, id="sun", title="Sunward Plain", back_card="moon"),
        dict(side, id="moon", title="Moonward Plain"),
    ]
    (project / "cards" / "l5r" / "tiles.json").write_text(json.dumps(cards), encoding="utf-8")
    result = run("build", "l5r", cwd=project)
    assert result.code == 0, result.err
    with pdfplumber.open(project / "build" / "l5r.pdf") as pdf:
        assert len(pdf.pages) == 2
        front_words = [w for w in pdf.pages[0].extract_words() if w["text"] in ("Sunward", "Moonward")]
        back_words = [w for w in pdf.pages[1].extract_words() if w["text"] in ("Sunward", "Moonward")]
        assert [w["text"] for w in front_words] == ["Sunward"]
        assert [w["text"] for w in back_words] == ["Moonward"]
        width_mm = pdf.pages[0].width / MM

        def box_of(word, page):
            x, y = word["x0"] / MM, word["top"] / MM
            return next((bx, by) for bx, by, _ in card_boxes(page) if bx <= x <= bx + 63 and by <= y <= by + 88)

        fx, fy = box_of(front_words[0], pdf.pages[0])
        bx, by = box_of(back_words[0], pdf.pages[1])
        assert (bx, by) == pytest.approx((width_mm - fx - 63, fy), abs=0.1)


def test_unknown_back_card_is_invalid(run, project):
    import json

    card = {"id": "sun", "title": "Sunward Plain", "type": "Region", "deck": "Dynasty", "back_card": "mon"}
    other = dict(card, id="moon", title="Moonward Plain")
    del other["back_card"]
    path = project / "cards" / "l5r" / "tiles.json"
    path.write_text(json.dumps([card, other]), encoding="utf-8")
    result = run("validate", cwd=project)
    assert result.code == 1
    assert (
        relative(
            f"{path}:1:79 ($[0].back_card): error: no card with id 'mon' for this card's back (hint: did you mean 'moon'?)"
        )
        in result.err
    )


def test_cards_that_are_each_others_back_are_invalid(run, project):
    import json

    a = {"id": "sun", "title": "Sunward Plain", "type": "Region", "deck": "Dynasty", "back_card": "moon"}
    b = dict(a, id="moon", title="Moonward Plain", back_card="sun")
    path = project / "cards" / "l5r" / "tiles.json"
    path.write_text(json.dumps([a, b]), encoding="utf-8")
    result = run("validate", cwd=project)
    assert result.code == 1
    assert (
        relative(
            f"{path}:1:79 ($[0].back_card): error: card 'moon' has a back_card of its own, so neither card would print"
        )
        in result.err
    )
