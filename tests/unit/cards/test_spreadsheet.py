"""Spreadsheets (CSV, XLSX, ODS) as card files: typed by the schema, located by cell."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import openpyxl
import pytest
from helpers import REPO

from printer.cards.catalog import load_cards
from printer.cards.spreadsheet import column_letters, sheet_prefix
from printer.project import load_project

PERSONALITY = {
    "id": "p-one",
    "title": "Hida One",
    "type": "Personality",
    "deck": "Dynasty",
    "clan": "Crab",
    "cost": 7,
    "force": 4,
    "chi": 3,
    "honor_requirement": 2,
    "personal_honor": 2,
}
HEADER = list(PERSONALITY)


def load(path: Path, game: str = "l5r"):
    sets, problems = load_cards(load_project(REPO), [path], game=game)
    return (list(sets[game]) if game in sets else []), problems


def write_csv(path: Path, rows: list[list[str]], bom: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    text = buffer.getvalue()
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def write_xlsx(path: Path, rows: list[list[object]], title: str = "Sheet1", start_row: int = 1, start_col: int = 1):
    path.parent.mkdir(parents=True, exist_ok=True)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = title
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                sheet.cell(row=start_row + r, column=start_col + c, value=value)
    book.save(path)
    return path


def row(**changes) -> list[object]:
    card = {**PERSONALITY, **changes}
    return [card.get(h) for h in HEADER]


def test_column_letters_and_sheet_names():
    assert [column_letters(i) for i in (0, 25, 26, 701, 702)] == ["A", "Z", "AA", "ZZ", "AAA"]
    assert sheet_prefix("Sheet1") == "Sheet1!"
    assert sheet_prefix("Card List") == "'Card List'!"
    assert sheet_prefix("Bob's") == "'Bob''s'!"
    assert sheet_prefix("A1") == "'A1'!"
    assert sheet_prefix(None) == ""


def test_csv_from_excel_with_bom_reads_the_first_header(tmp_path):
    path = write_csv(tmp_path / "p.csv", [HEADER, [str(v) for v in row()]], bom=True)
    cards, problems = load(path)
    assert problems == []
    assert cards[0].data == PERSONALITY


def test_a_csv_quote_never_closed_is_located_at_its_row_not_read_into_the_rest(tmp_path):
    good = ",".join(str(v) for v in row())
    opened = ",".join(str(v) for v in row(id="p-two", title='"Hida Two'))  # the quote opens and is never closed
    path = tmp_path / "p.csv"
    path.write_text(",".join(HEADER) + "\n" + good + "\n" + opened + "\n" + good.replace("p-one", "p-three") + "\n")
    cards, problems = load(path)
    assert cards == [] and [(str(p.where), p.message.split(":")[0]) for p in problems] == [
        (f"{path}:3", "a quoted cell on this row is never closed")
    ]
    # a quoted cell may hold line breaks (card text written in a spreadsheet): those still read
    text = ",".join(str(v) for v in row(id="p-four")) + ',"two\nlines"'
    path.write_text(",".join([*HEADER, "text"]) + "\n" + text + "\n")
    cards, problems = load(path)
    assert problems == [] and cards[0]["text"] == "two\nlines"


def test_text_after_a_quoted_cells_closing_quote_is_located_with_the_way_to_write_it(tmp_path):
    path = tmp_path / "p.csv"
    bad = ",".join(str(v) for v in row()).replace("Hida One", '"Hida One" (FAQ)')
    path.write_text(",".join(HEADER) + "\n" + bad + "\n")
    cards, problems = load(path)
    assert cards == [] and [(str(p.where), p.message.split(":")[0]) for p in problems] == [
        (f"{path}:2", "text after a quoted cell's closing quote")
    ]
    assert '""' in problems[0].hint


def test_an_empty_csv_is_an_error_as_an_empty_json_file_is(tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"")
    cards, problems = load(path)
    assert cards == [] and [(str(p.where), p.message, p.is_error) for p in problems] == [
        (f"{path}:1:1", "file is empty", True)
    ]


def test_xlsx_numbers_become_integers_where_the_schema_wants_them(tmp_path):
    path = write_xlsx(tmp_path / "p.xlsx", [HEADER, row(cost=7.0, force=4.0)])
    cards, problems = load(path)
    assert problems == []
    assert cards[0]["cost"] == 7 and isinstance(cards[0]["cost"], int)


def test_a_fraction_where_an_integer_is_wanted_is_located_by_cell(tmp_path):
    path = write_xlsx(tmp_path / "p.xlsx", [HEADER, row(), row(id="p-two", force=1.5)])
    cards, problems = load(path)
    assert [c.id for c in cards] == ["p-one"]
    assert [p.where for p in problems] == [f"{path}:Sheet1!G3 ($.force)"]
    assert "1.5 is not a whole number" in problems[0].message


def test_sheet_names_with_spaces_are_quoted_and_rows_are_the_sheets_own(tmp_path):
    path = write_xlsx(tmp_path / "p.xlsx", [HEADER, row(chi="lots")], title="Card List", start_row=4, start_col=2)
    _, problems = load(path)
    # chi is the 8th field: column I when the table starts at B; the header is on row 4, the card on row 5
    assert problems and problems[0].where == f"{path}:'Card List'!I5 ($.chi)"


def test_schema_errors_are_located_by_cell_with_the_json_path(tmp_path):
    path = write_csv(tmp_path / "p.csv", [HEADER, [str(v) for v in row(clan="Crabb")]])
    _, problems = load(path)
    assert problems[0].where == f"{path}:E2 ($.clan)"
    assert "Crab" in (problems[0].hint or "")


def test_leading_zeros_are_kept_where_the_schema_wants_a_string(tmp_path):
    header = HEADER + ["rarity", "unique"]
    path = write_csv(tmp_path / "p.csv", [header, [str(v) for v in row()] + ["0100", "TRUE"]])
    cards, problems = load(path)
    assert problems == []
    assert cards[0]["rarity"] == "0100" and cards[0]["unique"] is True


def test_stat_modifiers_stay_text_and_plain_numbers_become_integers(tmp_path):
    # an L5R stat is an integer or a printed modifier such as '+2'
    path = write_csv(tmp_path / "p.csv", [HEADER, [str(v) for v in row(force="+2")]])
    cards, problems = load(path)
    assert problems == []
    assert cards[0]["force"] == "+2" and cards[0]["chi"] == 3


def test_lists_by_semicolon_or_json_array_and_dotted_headers(tmp_path):
    header = HEADER + ["keywords", "sets"]
    path = write_xlsx(
        tmp_path / "p.xlsx",
        [header, row() + ["Samurai; Crab Clan", '["A; B", "C"]'], row(id="p-two", clan="Crab;Crane") + [None, None]],
    )
    cards, problems = load(path)
    assert problems == []
    assert cards[0]["keywords"] == ["Samurai", "Crab Clan"] and cards[0]["sets"] == ["A; B", "C"]
    assert cards[1]["clan"] == ["Crab", "Crane"] and "keywords" not in cards[1]


def test_dotted_headers_build_nested_fields(tmp_path):
    header = ["id", "title", "type", "cost.gold", "cost.calm"]
    path = write_xlsx(tmp_path / "a.xlsx", [header, ["art-one", "One", "Artifact", 2.0, 1.0]])
    cards, problems = load(path, "res-arcana")
    assert problems == []
    assert cards[0]["cost"] == {"gold": 2, "calm": 1}


def test_blank_or_text_copies_is_an_error_never_zero_copies(tmp_path):
    header = HEADER + ["copies"]
    path = write_csv(
        tmp_path / "p.csv",
        [
            header,
            [str(v) for v in row()] + ["3"],
            [str(v) for v in row(id="p-2")] + [""],
            [str(v) for v in row(id="p-3")] + ["three"],
        ],
    )
    cards, problems = load(path)
    assert [(c.id, c.copies) for c in cards] == [("p-one", 3)]
    assert [p.where for p in problems] == [f"{path}:K3 ($.copies)", f"{path}:K4 ($.copies)"]
    assert "empty" in problems[0].message


def test_empty_cells_are_absent_and_blank_rows_skipped(tmp_path):
    header = HEADER + ["flavor"]
    path = write_xlsx(tmp_path / "p.xlsx", [header, row() + [None], [None] * len(header), row(id="p-two") + ["  "]])
    cards, problems = load(path)
    assert problems == []
    assert [c.id for c in cards] == ["p-one", "p-two"]
    assert "flavor" not in cards[1]
    assert cards[1].where == f"{path}:Sheet1!4:4"


def test_a_formula_without_a_saved_result_is_reported(tmp_path):
    # openpyxl writes formulas but does not compute them: the file has no cached result
    path = write_xlsx(tmp_path / "p.xlsx", [HEADER, row(cost="=3+4")])
    _, problems = load(path)
    assert any(p.code == "formula-no-value" and p.where == f"{path}:Sheet1!F2" for p in problems)


def test_unknown_column_gets_a_did_you_mean_at_its_cell(tmp_path):
    header = HEADER + ["flavour"]
    path = write_csv(tmp_path / "p.csv", [header, [str(v) for v in row()] + ["Quiet."]])
    _, problems = load(path)
    assert problems[0].where == f"{path}:K2 ($.flavour)"
    assert "flavor" in problems[0].hint


def test_duplicate_ids_across_json_and_spreadsheet(tmp_path):
    folder = tmp_path / "cards" / "l5r"
    write_csv(folder / "p.csv", [HEADER, [str(v) for v in row()]])
    (folder / "q.json").write_text(json.dumps({"game": "l5r", "cards": [PERSONALITY]}), encoding="utf-8")
    _, problems = load(folder)
    assert [p.code for p in problems] == ["duplicate-id"]


def test_ods_is_read(tmp_path):
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Cards")
    for values in (HEADER, row()):
        tr = TableRow()
        for value in values:
            kind = {"valuetype": "float", "value": value} if isinstance(value, int) else {"valuetype": "string"}
            cell = TableCell(**kind)
            cell.addElement(P(text=str(value)))
            tr.addElement(cell)
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
    path = tmp_path / "p.ods"
    doc.save(str(path))
    cards, problems = load(path)
    assert problems == []
    assert cards[0].data == PERSONALITY


def test_quoted_text_stays_text_where_a_number_would_also_do(tmp_path):
    # L5R's starting_honor takes an integer or a modifier string: '"-1"' is the string, '-1' the integer
    header = HEADER + ["flavor"]
    path = write_csv(tmp_path / "p.csv", [header, [str(v) for v in row(force='"-1"')] + ['"Quoted."']])
    cards, problems = load(path)
    assert problems == []
    assert cards[0]["force"] == "-1" and cards[0]["flavor"] == '"Quoted."'


def test_parent_and_dotted_cells_together_are_an_error(tmp_path):
    header = ["id", "title", "type", "cost", "cost.gold"]
    path = write_xlsx(
        tmp_path / "a.xlsx",
        [header, ["art-one", "One", "Artifact", "{}", 2], ["art-two", "Two", "Artifact", "{}", None]],
    )
    cards, problems = load(path, "res-arcana")
    assert [c.id for c in cards] == ["art-two"] and cards[0]["cost"] == {}
    assert str(problems[0].where).endswith("a.xlsx:Sheet1!D2 ($.cost)")


def test_an_error_value_is_reported_not_read_as_empty(tmp_path):
    path = write_xlsx(tmp_path / "p.xlsx", [HEADER + ["flavor"], row() + ["x"]])
    book = openpyxl.load_workbook(path)
    cell = book.active["K2"]
    cell.value, cell.data_type = "#DIV/0!", "e"
    book.save(path)
    _, problems = load(path)
    assert [(p.where, p.message) for p in problems] == [(f"{path}:Sheet1!K2", "the cell holds the error #DIV/0!")]
