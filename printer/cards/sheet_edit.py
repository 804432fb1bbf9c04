"""Editing one card's row in a spreadsheet card file, keeping the header and every other row as they were.

The card editor of ``printer serve`` saves a card read from a spreadsheet back into its row: each field goes into
the cell under its header (a nested field under its dotted header, ``cost.gold``), written as
:mod:`printer.cards.export` writes a whole sheet, so that :mod:`printer.cards.spreadsheet` reads the same data
back: lists joined with ``;`` (a JSON array when an item holds one), numbers and booleans as numbers and
booleans in a workbook and as text in a CSV file, an absent field as an empty cell.

- CSV (:func:`replace_csv_row`, :func:`delete_csv_row`, :func:`append_csv_row`): the file is read as the reader
  reads it (UTF-8 with or without a byte-order mark, its own delimiter and line ending) and written again with
  them; every other row keeps its cells.
- XLSX and XLSM (:func:`edit_workbook`, openpyxl): the cells of the row change, the rest of the workbook (other
  sheets, styles, column widths, data validation, macros of an XLSM) is kept as openpyxl keeps it. A workbook
  whose cells compute with formulas is refused: openpyxl would save the formulas without their results, which
  the reader then could not read.
- ODS and XLS are not written: the editor shows their cards read-only (edit them in their spreadsheet program).

A field the sheet has no column for is refused (:class:`~printer.cards.edit.CardEditError`, naming the field
and the header to add) rather than added as a column behind the designer's back. Each result is read back and
compared with the intended data by the caller.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from printer.cards.edit import CardEditError
from printer.cards.export import FILE_FIELDS, cell_value, flatten
from printer.cards.spreadsheet import sheet_prefix
from printer.cards.spreadsheet_cells import SchemaTypes
from printer.jsonvalue import JSONObject
from printer.problems import Location, Problem

#: the spreadsheet endings the editor writes
WRITABLE = (".csv", ".xlsx", ".xlsm")


def row_values(
    data: JSONObject, columns: dict[str, int], types: SchemaTypes, typed: bool, where: str | Location
) -> dict[int, object]:
    """The cells of one row for ``data``: column index (0-based) -> value, ``None`` for an empty cell.

    ``columns`` maps each header to its column; ``typed`` is true for a workbook (numbers stay numbers), false
    for CSV text. Raises :class:`CardEditError` for a field without a column (located at ``where``).
    """
    flat = {k: v for k, v in flatten(data).items() if k.split(".")[0] not in FILE_FIELDS}
    missing = [name for name in flat if name not in columns]
    if missing:
        name = missing[0]
        raise CardEditError(
            Problem(
                where,
                f"the sheet has no column for the field {name!r}",
                f"add a column headed {name!r} to the sheet's header row, then save again",
                code="sheet-column",
            )
        )
    cells: dict[int, object] = {}
    for header, column in columns.items():
        value = flat.get(header)
        cells[column] = None if value is None else cell_value(value, types.of(tuple(header.split("."))), typed)
    return cells


# --- CSV ------------------------------------------------------------------------------------------------------


def _read_csv(path: Path) -> tuple[list[list[str]], str, str, bool]:
    """``(rows, delimiter, line ending, byte-order mark)`` of a CSV card file, read as the card reader reads it."""
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    try:
        delimiter = csv.Sniffer().sniff(text[:8192], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    ending = "\r\n" if "\r\n" in text else "\n"
    rows = [list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    return rows, delimiter, ending, bom


def _write_csv(rows: list[list[str]], delimiter: str, ending: str, bom: bool) -> bytes:
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, lineterminator=ending).writerows(rows)
    return (("\ufeff" if bom else "") + buffer.getvalue()).encode("utf-8")


def _text(value: object) -> str:
    return "" if value is None else str(value)


def replace_csv_row(path: Path, row: int, cells: dict[int, object]) -> bytes:
    """The CSV file at ``path`` with the cells of its ``row`` (1-based) replaced by ``cells`` (see :func:`row_values`)."""
    rows, delimiter, ending, bom = _read_csv(path)
    if not 1 <= row <= len(rows):
        raise CardEditError(Problem(f"{path}:{row}", "the row is not in the file any more", code="sheet-row"))
    line = rows[row - 1]
    line += [""] * (max(cells, default=-1) + 1 - len(line))
    for column, value in cells.items():
        line[column] = _text(value)
    return _write_csv(rows, delimiter, ending, bom)


def delete_csv_row(path: Path, row: int) -> bytes:
    """The CSV file at ``path`` without its ``row`` (1-based)."""
    rows, delimiter, ending, bom = _read_csv(path)
    if not 1 <= row <= len(rows):
        raise CardEditError(Problem(f"{path}:{row}", "the row is not in the file any more", code="sheet-row"))
    del rows[row - 1]
    return _write_csv(rows, delimiter, ending, bom)


def append_csv_row(path: Path, after: int | None, cells: dict[int, object]) -> tuple[bytes, int]:
    """The CSV file at ``path`` with a row of ``cells`` after row ``after`` (the end when ``None``); returns the
    file and the new row's number."""
    rows, delimiter, ending, bom = _read_csv(path)
    at = len(rows) if after is None or not 1 <= after <= len(rows) else after
    width = max(max(cells, default=-1) + 1, max((len(r) for r in rows), default=0))
    line = [""] * width
    for column, value in cells.items():
        line[column] = _text(value)
    rows.insert(at, line)
    return _write_csv(rows, delimiter, ending, bom), at + 1


# --- XLSX and XLSM ------------------------------------------------------------------------------------------------


def edit_workbook(
    path: Path, sheet: str, row: int, cells: dict[int, object] | None, insert_after: bool = False
) -> tuple[bytes, int]:
    """The workbook at ``path`` with ``row`` (1-based) of ``sheet`` changed: its cells replaced by ``cells``; the
    row deleted when ``cells`` is ``None``; with ``insert_after``, a new row of ``cells`` added after ``row`` (0:
    after the sheet's last row). Returns the workbook's bytes and the row written.

    Raises :class:`CardEditError` when the sheet is gone or the workbook holds formulas.
    """
    import openpyxl

    where = f"{path}:{sheet_prefix(sheet)}{row}:{row}"
    book = openpyxl.load_workbook(path, keep_vba=path.suffix.lower() == ".xlsm", keep_links=True)
    if sheet not in book.sheetnames:
        raise CardEditError(Problem(where, f"the sheet {sheet!r} is not in the workbook any more", code="sheet-row"))
    for other in book.worksheets:
        for line in other.iter_rows():
            for cell in line:
                if cell.data_type == "f":
                    raise CardEditError(
                        Problem(
                            f"{path}:{sheet_prefix(other.title)}{cell.coordinate}",
                            "the workbook computes cells with formulas: printer would save them without their results",
                            "edit this card in your spreadsheet program, or replace the formulas by their values",
                            code="sheet-formulas",
                        )
                    )
    table = book[sheet]
    if insert_after:
        row = (row if row else table.max_row) + 1
        table.insert_rows(row)
    elif not 1 <= row <= table.max_row:
        raise CardEditError(Problem(where, "the row is not in the sheet any more", code="sheet-row"))
    if cells is None:
        table.delete_rows(row)
    else:
        for column, value in cells.items():
            table.cell(row=row, column=column + 1, value=value)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue(), row
