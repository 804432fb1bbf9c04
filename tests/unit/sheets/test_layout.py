"""Sheet geometry: named sizes, the n-up grid, duplex back positions."""

import pytest

from printer.problems import UsageError
from printer.sheets.layout import CARD_SIZES, PAPER_SIZES, fit_grid, parse_size


def test_parse_sizes():
    assert parse_size("poker", CARD_SIZES, "card size") == (63, 88)
    assert parse_size("a4", PAPER_SIZES, "paper size") == (210, 297)
    assert parse_size("63x88mm", CARD_SIZES, "card size") == (63, 88)
    assert parse_size("2.5 x 3.5 in", CARD_SIZES, "card size") == pytest.approx((63.5, 88.9))
    with pytest.raises(UsageError) as info:
        parse_size("pokr", CARD_SIZES, "card size")
    assert "did you mean 'poker'" in info.value.problems[0].hint


@pytest.mark.parametrize("paper, cols, rows", [("A4", 3, 3), ("Letter", 3, 3), ("A3", 4, 4)])
def test_poker_grid(paper, cols, rows):
    layout = fit_grid(PAPER_SIZES[paper], CARD_SIZES["poker"])
    assert (layout.cols, layout.rows) == (cols, rows)


def test_grid_is_centred_on_a4():
    layout = fit_grid(PAPER_SIZES["A4"], CARD_SIZES["poker"])
    slots = layout.slots()
    assert (slots[0].x, slots[0].y) == pytest.approx((10.5, 16.5))
    assert (slots[-1].x + 63, slots[-1].y + 88) == pytest.approx((199.5, 280.5))


def test_long_edge_back_mirrors_columns():
    layout = fit_grid(PAPER_SIZES["A4"], CARD_SIZES["poker"])
    first = layout.slots()[0]
    back, rotation = layout.back_slot(first, "long-edge")
    assert (back.x, back.y, back.col, rotation) == pytest.approx((210 - 10.5 - 63, 16.5, 2, 0))


def test_short_edge_back_mirrors_rows_and_turns():
    layout = fit_grid(PAPER_SIZES["A4"], CARD_SIZES["poker"])
    first = layout.slots()[0]
    back, rotation = layout.back_slot(first, "short-edge")
    assert (back.x, back.y, back.row, rotation) == pytest.approx((10.5, 297 - 16.5 - 88, 2, 180))


def test_card_too_big():
    with pytest.raises(UsageError):
        fit_grid((100, 100), (120, 120))
