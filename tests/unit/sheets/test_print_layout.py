"""Sheet geometry and print settings: lengths, orientation, bleed between cards, crop marks, turned slots, options."""

import pytest

from printer.problems import UsageError
from printer.sheets.layout import (
    CARD_SIZES,
    PAPER_SIZES,
    SheetLayout,
    Slot,
    fit_grid,
    fold_layout,
    parse_length,
    parse_offset,
)
from printer.sheets.options import resolve_options


def test_lengths_and_offsets():
    assert parse_length("3", "bleed") == 3 and parse_length("0.125in", "bleed") == pytest.approx(3.175)
    assert parse_length(2, "gutter") == 2 and parse_length("9pt", "x") == pytest.approx(3.175)
    assert parse_offset("0.8,-0.5") == (0.8, -0.5)
    with pytest.raises(UsageError):
        parse_length("-1", "bleed")
    with pytest.raises(UsageError):
        parse_offset("1;2")


def test_auto_orientation_picks_the_sheet_that_holds_more():
    assert (fit_grid(PAPER_SIZES["A4"], CARD_SIZES["poker"], orientation="auto").page) == (210, 297)
    mini = fit_grid(PAPER_SIZES["A4"], CARD_SIZES["mini"], orientation="auto")
    assert mini.per_sheet == 16  # 4x4 portrait (16) beats 6x2 landscape (12)
    assert fit_grid(PAPER_SIZES["A4"], CARD_SIZES["tarot"], orientation="landscape").page == (297, 210)


def test_bleed_stops_at_shared_cut_lines_and_halfway_in_narrow_gutters():
    grid = fit_grid(PAPER_SIZES["A4"], CARD_SIZES["poker"], bleed=3)
    corner, middle = grid.slots()[0], grid.slots()[4]
    assert grid.bleed_extents(corner) == (3, 3, 0, 0)
    assert grid.bleed_extents(middle) == (0, 0, 0, 0)
    narrow = fit_grid(PAPER_SIZES["A4"], CARD_SIZES["poker"], gutter=2, bleed=3)
    assert narrow.bleed_extents(narrow.slots()[0]) == (3, 3, 1, 1)


def test_crop_marks_only_where_they_touch_no_card():
    grid = fit_grid(PAPER_SIZES["A4"], CARD_SIZES["poker"], bleed=3)
    marks = grid.crop_marks(5, 3)
    assert len(marks) == 4 * 4  # four marks on each side of the block, one per cut line
    assert all(
        m.y2 <= 16.5 - 3 + 1e-6 or m.y1 >= 280.5 + 3 - 1e-6 or m.x2 <= 10.5 - 3 + 1e-6 or m.x1 >= 199.5 + 3 - 1e-6
        for m in marks
    )


def test_turned_slot_backs_turn_the_other_way():
    layout = SheetLayout((210, 297), (63, 88), 1, 1, explicit=(Slot(20, 30, rotate=90),))
    back, rotation = layout.back_slot(layout.slots()[0], "long-edge")
    assert (back.x, back.y, rotation) == (210 - 20 - 88, 30, 270)
    back, rotation = layout.back_slot(layout.slots()[0], "short-edge")
    assert (back.x, back.y, rotation) == (20, 297 - 30 - 63, 90)


def test_fold_over_uses_half_the_sheet():
    fold = fold_layout(PAPER_SIZES["A4"], CARD_SIZES["poker"], bleed=3)
    assert fold.page == (297, 210) and fold.fold == "vertical" and fold.per_sheet == 4
    for slot in fold.slots():
        back, rotation = fold.back_slot(slot)
        assert slot.x + 63 < 297 / 2 < back.x and rotation == 0


def test_options_come_from_the_project_the_game_and_the_command_line():
    opts = resolve_options(
        {"paper": "Letter", "bleed": "0.125in", "marks": "cut"},
        {"bleed": 2, "sort": "set,title"},
        "tarot",
        {"marks": "none", "back_offset": "1,-0.5"},
    )
    assert opts.paper == (215.9, 279.4) and opts.bleed == 2 and opts.marks == "none"
    assert opts.card == (70, 120) and opts.sort == ["set", "title"] and opts.back_offset == (1, -0.5)
    with pytest.raises(UsageError) as info:
        resolve_options({}, {"marks": "crops"}, "poker", {})
    assert "did you mean 'crop'" in info.value.problems[0].hint
