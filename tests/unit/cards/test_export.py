"""printer export cards: spreadsheets that read back to the same cards."""

from __future__ import annotations

import openpyxl
import pytest
from helpers import REPO, main

from printer.cards.catalog import load_cards, schema_store
from printer.cards.export import export_cards
from printer.project import load_project

GAMES = ["l5r", "res-arcana", "arcanductor", "via-magica", "edelweiss"]


def card_data(cards, with_copies: bool) -> dict[str, dict]:
    out = {}
    for card in cards:
        data = {k: v for k, v in card.data.items() if k not in ("$schema", "game")}
        if with_copies:
            data["copies"] = card.copies
        out[card.id] = data
    return out


def round_trip(project, game: str, cards: list, out):
    store = schema_store(project)
    export_cards(cards, store, project.games[game].schema, out)
    sets, problems = load_cards(project, [out], game, store=store)
    assert [p for p in problems if p.is_error] == []
    back = list(sets[game])
    with_copies = any("copies" in c.data for c in cards)
    assert [c.id for c in back] == [c.id for c in cards] or sorted(c.id for c in back) == sorted(c.id for c in cards)
    assert card_data(back, with_copies) == card_data(cards, with_copies)


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".ods"])
@pytest.mark.parametrize("game", GAMES)
def test_example_cards_round_trip(tmp_path, game, suffix):
    if suffix == ".ods":
        pytest.importorskip("odf")
    project = load_project(REPO)
    sets, problems = load_cards(project, [project.games[game].cards])
    cards = list(sets[game])
    round_trip(project, game, cards, tmp_path / f"cards{suffix}")


def test_xlsx_has_a_frozen_header_dropdowns_and_a_sheet_per_card_type(tmp_path):
    out = tmp_path / "l5r.xlsx"
    assert main_exit(["export", "cards", "l5r", "--to", str(out)]) == 0
    book = openpyxl.load_workbook(out)
    visible = [s for s in book.worksheets if s.sheet_state == "visible"]
    assert len(visible) > 1  # Personalities and Holdings print different fields
    sheet = book["Personality"]
    assert sheet.freeze_panes == "A2"
    headers = [c.value for c in sheet[1]]
    assert headers[:3] == ["id", "title", "type"]
    lists = {str(dv.sqref).split(":")[0][:-1]: dv.formula1 for dv in sheet.data_validations.dataValidation}
    deck_column = openpyxl.utils.get_column_letter(headers.index("deck") + 1)
    assert lists[deck_column] == '"Dynasty,Fate,Pre-Game"'


def test_long_enum_lists_live_on_a_hidden_sheet(tmp_path):
    out = tmp_path / "l5r.xlsx"
    assert main_exit(["export", "cards", "l5r", "--to", str(out)]) == 0
    book = openpyxl.load_workbook(out)
    formulas = [dv.formula1 for s in book.worksheets for dv in s.data_validations.dataValidation]
    if any(f.startswith("Lists!") for f in formulas):
        assert book["Lists"].sheet_state == "hidden"


def test_hidden_list_sheet_for_long_enums(tmp_path):
    from printer.cards.export import _xlsx
    from printer.cards.spreadsheet_cells import FieldType

    class Types:
        def of(self, path):
            if path == ("type",):
                return FieldType({"string"}, [f"Type number {i}" for i in range(40)])
            return FieldType()

    class FakeCard:
        def __init__(self, i):
            self.data = {"id": f"c{i}", "title": "T", "type": "Type number 1"}
            self.type = "Type number 1"
            self.copies = 1

    book = openpyxl.load_workbook(__import__("io").BytesIO(_xlsx([FakeCard(1)], ["id", "title", "type"], Types())))
    assert book["Lists"].sheet_state == "hidden"
    formula = book["Cards"].data_validations.dataValidation[0].formula1
    assert formula == "Lists!$A$1:$A$40"


def test_unknown_format_is_a_usage_error(tmp_path):
    assert main_exit(["export", "cards", "l5r", "--to", str(tmp_path / "x.numbers")]) == 2


def test_a_file_inside_the_card_folder_is_a_usage_error_and_nothing_is_written(tmp_path, run):
    """There it would replace a card file, or be read beside the cards it holds (every card twice)."""
    made = run("init", tmp_path / "p")
    assert made.code == 0, made.err
    cards = tmp_path / "p" / "cards" / "p"
    before = {f.name: f.read_bytes() for f in cards.iterdir()}
    for target in (cards / "crew.csv", cards / "more" / "all.xlsx"):
        result = run("--project", tmp_path / "p", "export", "cards", "p", "--to", target)
        assert result.code == 2 and "--to: error:" in result.err and "inside the card folder" in result.err
    assert {f.name: f.read_bytes() for f in cards.iterdir()} == before
    outside = run("--project", tmp_path / "p", "export", "cards", "p", "--to", tmp_path / "all.xlsx")
    assert outside.code == 0, outside.err


def main_exit(argv) -> int:
    with pytest.raises(SystemExit) as exit_info:
        main(["--project", str(REPO), *argv])
    return exit_info.value.code
