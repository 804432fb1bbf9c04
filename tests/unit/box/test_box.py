"""Tuck boxes (printer box): the net is read back from the PDF's paths and folded here.

Folds are the dashed lines, the cut is the solid outline; panel widths are the distances between the vertical
folds (the last side ends at the cut), the body height is the folds' length, the lid depth the distance between
the two folds above the back. Folded from card stock ``PAPER`` mm thick, a panel leaves its size less ``PAPER``
inside (half the thickness at each fold): that inside must hold the cards plus the clearance.
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from helpers import MM, REPO

from printer import api
from printer.box import place
from printer.box.net import BoxSpec
from printer.project import load_project

PAPER, CLEARANCE, CARD = 0.3, 1.0, 0.3
A4, LETTER = (210.0, 297.0), (215.9, 279.4)
GAMES = {
    "l5r": (63.0, 88.0),
    "res-arcana": (63.0, 88.0),
    "via-magica": (64.0, 80.0),
    "arcanductor": (70.0, 120.0),
    "edelweiss": (59.0, 86.0),
}


def read_net(pdf: Path, page: int = 0) -> dict:
    """Folds and the cut outline of one page, in mm from the page's top-left corner."""
    with pdfplumber.open(pdf) as doc:
        p = doc.pages[page]
        size = (float(p.width) / MM, float(p.height) / MM)
        objects = p.lines + p.curves
        folds = [o for o in objects if o.get("dash") and o["dash"][0]]
        cuts = [o for o in objects if not (o.get("dash") and o["dash"][0])]
    vertical = sorted(
        {round(o["x0"] / MM, 2) for o in folds if abs(o["x0"] - o["x1"]) < 0.01}, key=float
    )  # x of each vertical fold
    body = [o for o in folds if abs(o["x0"] - o["x1"]) < 0.01]
    horizontal = [
        (round(o["top"] / MM, 2), o["x0"] / MM, o["x1"] / MM) for o in folds if abs(o["top"] - o["bottom"]) < 0.01
    ]
    points = [(x / MM, y / MM) for o in cuts for x, y in _on_path(o)]
    return {
        "page": size,
        "vertical": vertical,
        "top": min(o["top"] for o in body) / MM,
        "bottom": max(o["bottom"] for o in body) / MM,
        "horizontal": horizontal,
        "cut": points,
    }


def _on_path(obj: dict) -> list[tuple[float, float]]:
    """Points on a drawn path (top-based PDF points): segment ends, and each Bezier curve's middle (t = 0.5)."""
    if "path" not in obj:
        return list(obj["pts"])
    points, last = [], None
    for command, *pts in obj["path"]:
        if command == "c" and last is not None:
            (x1, y1), (x2, y2), (x3, y3) = pts
            points.append(((last[0] + 3 * x1 + 3 * x2 + x3) / 8, (last[1] + 3 * y1 + 3 * y2 + y3) / 8))
        if pts:
            last = pts[-1]
            points.append(last)
    return points


def fold_box(net: dict) -> dict:
    """Panel sizes from the net, and the inside of the folded box (mm)."""
    x1, x2, x3, x4 = net["vertical"]
    right = max(x for x, _ in net["cut"])
    back, side1, front, side2 = x2 - x1, x3 - x2, x4 - x3, right - x4
    height = net["bottom"] - net["top"]
    above_back = sorted({y for y, a, b in net["horizontal"] if a >= x1 - 0.01 and b <= x2 + 0.01})
    lid = above_back[-1] - above_back[0]
    tuck = above_back[0] - min(y for x, y in net["cut"] if x1 <= x <= x2)
    return {
        "panels": (back, side1, front, side2),
        "height": height,
        "lid": lid,
        "tuck": tuck,
        "inside": (min(back, front) - PAPER, height - PAPER, min(side1, side2, lid) - PAPER),
        "notch": max(y for x, y in net["cut"] if x3 + 5 < x < x4 - 5 and y < net["top"] + 15) - net["top"],
    }


@pytest.fixture(scope="module")
def boxes(tmp_path_factory):
    project = load_project(REPO)
    out = tmp_path_factory.mktemp("boxes")
    return {game: api.build_box(project, game, out_dir=out) for game in GAMES}


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_each_example_game_gets_a_box_whose_folded_inside_holds_its_deck(boxes, game):
    result = boxes[game]
    assert result.ok, result.problems
    assert result.target.name == f"{game}-box.pdf" and result.pages == 1
    net = read_net(result.target)
    assert net["page"] == pytest.approx(A4, abs=0.1)
    folded = fold_box(net)
    w, h = GAMES[game]
    deck = result.cards * CARD
    inside = folded["inside"]
    assert inside[0] >= w + CLEARANCE - 0.05 and inside[1] >= h + CLEARANCE - 0.05
    assert inside[2] >= deck + CLEARANCE - 0.05
    assert folded["panels"][0] == pytest.approx(folded["panels"][2], abs=0.05)  # back and front alike
    assert folded["panels"][1] == pytest.approx(folded["panels"][3], abs=0.05)  # both sides alike
    assert 12 - 0.05 <= folded["tuck"] <= 22 + 0.05
    assert 5 <= folded["notch"] <= 11  # a thumb notch cut into the top of the front


@pytest.mark.slow
def test_the_box_holds_what_the_card_sheets_print_and_no_component(boxes):
    """The box holds what ``printer build`` prints on the card sheets: Res Arcana's 11 Artifacts, 3 Mages,
    2 Monuments and its player aid; Via Magica's 20 Portal and 4 Bonus cards, and a summary card and a player aid for
    each of its 6 players (printer.toml ``players``, ``per_player``). Res Arcana's tiles and tokens and Via Magica's
    Animus stones and crystals (printer.toml components) stay out."""
    assert (boxes["res-arcana"].cards, boxes["via-magica"].cards) == (17, 36)


@pytest.mark.slow
def test_the_tuck_flap_scales_with_depth_within_limits(tmp_path):
    project = load_project(REPO)
    tucks = {}
    for depth in (5, 20, 28):
        result = api.build_box(project, "l5r", thickness=depth, out_dir=tmp_path / str(depth))
        assert result.ok
        tucks[depth] = fold_box(read_net(result.target))["tuck"]
    assert tucks[5] == pytest.approx(12, abs=0.05)  # 0.8 x 6.3 mm is below the 12 mm floor
    assert tucks[20] == pytest.approx(0.8 * (20 + CLEARANCE + PAPER), abs=0.05)
    assert tucks[28] == pytest.approx(22, abs=0.05)  # 0.8 x 29.3 mm is above the 22 mm ceiling


@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("cards", [40, 60])
def test_a_40_to_60_card_deck_fits_one_page_of_a4_or_letter(paper, cards):
    for card in set(GAMES.values()):
        net, page, sheets = place(BoxSpec(card, cards * CARD), paper)
        assert net is not None and len(net.pieces) == 1 and len(sheets) == 1, (card, cards)
        x, y = sheets[0].pieces[0][1:]
        size = net.pieces[0].size
        assert x >= 6 and y >= 6 and x + size[0] <= page[0] - 6 and y + size[1] <= page[1] - 6


def test_letter_page_and_a_deck_too_deep_for_one_piece_splits_in_two(tmp_path, run):
    result = run("--project", REPO, "box", "arcanductor", "--thickness", "45", "--paper", "Letter", "--out", tmp_path)
    assert result.code == 0, result.err
    assert "2 pieces" in result.out and "split in two pieces" in result.out
    pdf = tmp_path / "arcanductor-box.pdf"
    with pdfplumber.open(pdf) as doc:
        assert all((float(p.width) / MM, float(p.height) / MM) in (pytest.approx(LETTER, abs=0.1),) for p in doc.pages)
        pages = len(doc.pages)
    folds = sum(len(read_net(pdf, i)["vertical"]) for i in range(pages))
    assert folds == 4  # glue|back|side|glue and front|side: the side-front fold became the second glue flap's


@pytest.mark.slow
def test_cli_says_what_it_wrote_and_refuses_bad_lengths(tmp_path, run):
    result = run("--project", REPO, "box", "l5r", "--out", tmp_path)
    assert result.code == 0, result.err
    assert f"{tmp_path}/l5r-box.pdf: tuck box for " in result.out and "inside 64.0 x 89.0 x" in result.out
    assert "print at 100 %" in result.out
    bad = run("--project", REPO, "box", "l5r", "--thickness", "lots", "--out", tmp_path)
    assert bad.code == 2 and "--thickness: 'lots' is not a length" in bad.err
    huge = run("--project", REPO, "box", "l5r", "--thickness", "400", "--out", tmp_path / "huge")
    assert huge.code == 1 and "does not fit" in huge.err and "Traceback" not in huge.err
    assert not (tmp_path / "huge" / "l5r-box.pdf").exists()
    unknown = run("--project", REPO, "box", "l5", "--out", tmp_path)
    assert unknown.code == 2


def test_a_decklist_sizes_the_box(tmp_path):
    deck = tmp_path / "crab.txt"
    deck.write_text("40 Salt Pans\n", encoding="utf-8")
    result = api.build_box(load_project(REPO), "l5r", deck_file=deck, out_dir=tmp_path)
    assert result.ok and result.cards == 40 and result.target.name == "l5r-crab-box.pdf"
    assert fold_box(read_net(result.target))["inside"][2] >= 40 * CARD + CLEARANCE - 0.05


def test_box_lengths_follow_the_size_limit_the_user_raised(tmp_path, run):
    over = run("--project", REPO, "box", "l5r", "--thickness", "2500", "--out", tmp_path)
    assert over.code == 2 and "size_mm" in over.err, over.err
    for where in (["--allow-limit", "size_mm=3000", "box"], ["box", "--allow-limit", "size_mm=3000"]):
        raised = run("--project", REPO, *where, "l5r", "--thickness", "2500", "--out", tmp_path)
        # past the limit's check: the deck is measured, and too deep for the paper
        assert raised.code == 1 and "size_mm" not in raised.err and "does not fit" in raised.err, raised.err
