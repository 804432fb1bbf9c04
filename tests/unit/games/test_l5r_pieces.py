"""L5R's play aids (the Family Honor track and marker, the Imperial Favor) and its double-sided Strongholds, read
back from the example build (printer.toml [games.l5r]: players = 2)."""

from __future__ import annotations

import pdfplumber
import pytest
from helpers import MM, REPO, build_examples, card_boxes

from printer.cards.catalog import load_cards
from printer.project import load_project
from printer.sheets.render import Renderer


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_examples(tmp_path_factory, "l5r")


def _text(pdf_path) -> list[str]:
    with pdfplumber.open(pdf_path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


@pytest.mark.slow
def test_each_player_gets_a_family_honor_track_from_minus_20_to_40(built):
    pages = _text(built.parent / "l5r-components.pdf")
    assert len(pages) == 2  # one sheet of pieces and its backs
    front = pages[0]
    assert front.count("Starting Family Honor") == 2  # players = 2
    values = front.replace("−", "-").split()  # the negatives print with a minus sign
    for v in range(-20, 41):
        assert values.count(str(v)) >= 2, v  # every space on both tracks
    assert front.count("LOSE") == 2 and front.count("WIN") == 2
    with pdfplumber.open(built.parent / "l5r-components.pdf") as pdf:
        assert len(card_boxes(pdf.pages[0], 170, 98, tolerance_pt=0.3)) == 2


@pytest.mark.slow
def test_one_imperial_favor_and_an_honor_marker_per_player(built):
    front, back = _text(built.parent / "l5r-components.pdf")
    assert front.count("Imperial") == 1 and front.count("FH") == 2
    assert "F A M I L Y" in back or "FAMILY" in back.replace(" ", "")
    with pdfplumber.open(built.parent / "l5r-components.pdf") as pdf:
        cuts = [c for c in pdf.pages[0].curves if c.get("stroke")]
        assert sum(1 for c in cuts if abs(c["width"] - 36 * MM) < 0.3) == 1  # the Imperial Favor, a 36 mm circle
        assert sum(1 for c in cuts if abs(c["width"] - 10 * MM) < 0.3) == 2  # a 10 mm marker per player


def test_players_3_gives_three_tracks(tmp_path, run):
    result = run("--project", REPO, "build", "l5r", "--players", "3", "--no-aids", "--out", tmp_path)
    assert result.code == 0, result.err
    assert "components 3 honor-tracks, 3 honor-markers, 1 imperial-favor" in result.out


def _frames(page) -> list[tuple[float, float, float]]:
    """The fill colours of the 63 x 88 mm card boxes on a page."""
    found = []
    for r in page.rects:
        colour = r.get("non_stroking_color")
        if colour and len(colour) == 3 and abs(r["width"] - 63 * MM) < 0.3 and abs(r["height"] - 88 * MM) < 0.3:
            found.append(tuple(round(c, 3) for c in colour))
    return found


@pytest.mark.slow
def test_a_stronghold_prints_itself_on_both_sides_black_then_white(built):
    pages = _text(built)
    with pdfplumber.open(built) as pdf:
        fronts, backs = pdf.pages[::2], pdf.pages[1::2]
        sheet = next(i for i, page in enumerate(fronts) if "The Salt-Wind Watchtower" in (page.extract_text() or ""))
        assert "The Salt-Wind Watchtower" in pages[2 * sheet + 1]  # the back is the same card
        black, white = (0.063, 0.063, 0.063), (0.992, 0.992, 0.984)  # card.css: #101010 and #fdfdfb
        assert black in _frames(fronts[sheet]) and white not in _frames(fronts[sheet])
        assert white in _frames(backs[sheet]) and black not in _frames(backs[sheet])


def test_the_stronghold_back_is_its_front_with_the_back_side_class():
    project = load_project(REPO)
    game = project.games["l5r"]
    sets, _ = load_cards(project, [game.cards], "l5r")
    renderer = Renderer(game, [REPO])
    stronghold = sets["l5r"].by_id("ex-stronghold-watchtower")
    sensei = sets["l5r"].by_id("ex-sensei-stone")
    assert renderer.double_sided(stronghold) and not renderer.double_sided(sensei)
    back = str(renderer.back_of(stronghold))
    assert "side-back" in back and "The Salt-Wind Watchtower" in back
    assert "side-front" in str(renderer.front(stronghold))
    assert "PRE-GAME" in str(renderer.back_of(sensei))  # a Sensei keeps the Pre-Game back
