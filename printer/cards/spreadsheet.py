"""Spreadsheets as card files: CSV, XLSX, XLS and ODS, one card per row.

The first non-blank row of a sheet is its header: one field name per
column. A nested field takes a dotted header (``cost.gold``); a list field
takes one cell, its items separated by ``;`` or written as a JSON array
(``["a; b", "c"]``). An empty cell is an absent field and a blank row is
skipped. A column headed ``<field>@<lang>`` (``title@ja``, ``from@ja``) holds a
translation (:mod:`printer.cards.sheet_translations`), never a card field. Every visible worksheet of a workbook is read; hidden sheets are
not (``printer export`` keeps its long dropdown lists on one).

Cells are converted by the type the game's schema gives the field
(:func:`printer.cards.spreadsheet_cells.convert`): whole numbers for
``integer`` (Excel stores every number as a float: ``1.0`` becomes ``1``, ``1.5`` is an error), numbers, booleans
(``TRUE``/``FALSE``, ``true``/``false``, ``yes``/``no``), enum values and
strings (``0100`` keeps its zeros). A ``copies`` column must hold a whole
number in every row: a blank or non-numeric cell is an error, never zero
copies.

Problems are located by cell in the spreadsheet's own notation:
``cards/starfall/crew.xlsx:Sheet1!C7 ($.force)``; a sheet name with
characters other than letters, digits and ``_`` is quoted
(``'Card List'!C7``); a CSV file has no sheet name (``cards.csv:C7``); a
problem with a whole row is at the row (``Sheet1!7:7``). Row and column
numbers are the sheet's own, leading empty rows and columns included.

CSV files are read as UTF-8 with or without the byte-order mark Excel
writes (``utf-8-sig``), comma-, semicolon- or tab-separated. Workbooks are
read with python-calamine, which gives formula results, not formulas; an
XLSX formula whose result was never saved (a file written by a program
that does not compute formulas) and an error value (``#DIV/0!``) are
reported rather than read as empty. A sheet spanning more than
:data:`printer.cards.sheet_size.MAX_SHEET_CELLS` cells (one far cell such as
``XFD1048576``) is reported, before the workbook is loaded, at its last cell.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from xml.etree import ElementTree

from printer.cards.record import MAX_FILE_BYTES, Record, json_key
from printer.cards.sheet_size import oversized_sheets
from printer.location import Location, sheet_prefix
from printer.problems import Problem

#: file name endings read as spreadsheets (lower case)
SUFFIXES = (".csv", ".xlsx", ".xlsm", ".xls", ".ods")
#: rows read from one sheet at most
MAX_ROWS = 100_000
LIST_SEPARATOR = ";"

#: the cells of one sheet, row by row (``str`` from CSV; numbers, dates, booleans too from a workbook)
Rows = Sequence[Sequence[object]]


def is_spreadsheet(path: Path) -> bool:
    return path.suffix.lower() in SUFFIXES


def column_letters(index: int) -> str:
    """``0`` -> ``A``, ``25`` -> ``Z``, ``26`` -> ``AA`` (Excel's column names)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


#: a translation column's header: ``<field>@<lang>`` (``title@ja``, ``from@ja``: :mod:`printer.cards.translations`)
_TRANSLATED = re.compile(r"[^@.\s]+@[a-zA-Z]{2,3}(-[A-Za-z0-9]+)*")


@dataclass(slots=True)  # as Record: its init=False defaults are set by __init__ only for slots
class SheetRecord(Record):
    """A card read from one spreadsheet row.

    ``sheet`` is the sheet name (``None`` for CSV), ``row`` the 1-based row
    number, ``columns`` maps each header to its 0-based column and ``cells``
    holds the raw cell values by header until :func:`~printer.cards.spreadsheet_cells.convert` turns them
    into ``data``. ``typed`` is true when cells carry their own types (a
    workbook), false for CSV text. Translation columns (``<field>@<lang>``)
    are held apart, in ``translated_columns`` and ``translated``.
    """

    sheet: str | None = None
    row: int = 0
    columns: dict[str, int] = field(default_factory=dict)
    cells: dict[str, object] = field(default_factory=dict)
    typed: bool = False
    converted: bool = False
    #: the translation columns (``title@ja``, ``from@ja``: :mod:`printer.cards.translations`), header -> column,
    #: apart from ``columns`` so that the card's fields and its edits never take them
    translated_columns: dict[str, int] = field(default_factory=dict)
    #: the row's filled translation cells, raw, by header
    translated: dict[str, object] = field(default_factory=dict)

    def cell(self, header: str) -> str:
        return f"{sheet_prefix(self.sheet)}{column_letters(self.columns[header])}{self.row}"

    def where(self, path: str = "") -> Location:
        """``file:Sheet!C7 ($.path)`` for the cell holding ``path``; ``file:Sheet!7:7`` (CSV: ``file:7``) for the row."""
        json_path = f"$.{path.lstrip('.')}" if path else None
        header = self._header_for(path) if path else None
        if header is not None:
            cell = f"{column_letters(self.columns[header])}{self.row}"
            return Location(str(self.file), path=json_path, sheet=self.sheet, cell=cell)
        if self.sheet is None:
            return Location(str(self.file), self.row, path=json_path)
        return Location(str(self.file), path=json_path, sheet=self.sheet, cell=f"{self.row}:{self.row}")

    def _header_for(self, path: str) -> str | None:
        best = None
        for header in self.columns:
            prefix = "".join(json_key(part) for part in header.split("."))
            if (path == prefix or path.startswith((prefix + ".", prefix + "["))) and (
                best is None or len(header) > len(best)
            ):
                best = header
        return best

    def relocate(self, problems: list[Problem]) -> list[Problem]:
        """Problems located under this record's row (``file:Sheet!7:7`` + JSON path) moved to their cells."""
        base = self.where()
        out = []
        for problem in problems:
            path = problem.where.path
            if path and path[1:2] in (".", "[") and replace(problem.where, path=None) == base:
                problem = Problem(self.where(path[1:]), problem.message, problem.hint, problem.severity, problem.code)
            out.append(problem)
        return out


# --- reading ------------------------------------------------------------------------------------------


def read_records(path: Path) -> tuple[list[SheetRecord], list[Problem]]:
    """Every card row of the spreadsheet at ``path``, its cells not yet converted (see
    :func:`~printer.cards.spreadsheet_cells.convert`)."""
    where = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        return [], [Problem(where, f"cannot read: {exc.strerror}", code="unreadable")]
    if size > MAX_FILE_BYTES:
        return [], [
            Problem(
                where,
                f"file is {size:,} bytes, over the limit of {MAX_FILE_BYTES:,} bytes for a card file",
                "split it into several files",
                code="too-large",
            )
        ]
    if path.suffix.lower() == ".csv":
        sheets, problems = _read_csv(path)
    else:
        problems = oversized_sheets(path, sheet_prefix)  # before calamine allocates the sheet's whole area
        sheets, unread = ([], []) if problems else _read_workbook(path)
        problems += unread
    records: list[SheetRecord] = []
    for name, rows in sheets:
        more, found = _records(path, name, rows, typed=path.suffix.lower() != ".csv")
        records += more
        problems += found
    if path.suffix.lower() == ".xlsx" and not any(p.is_error for p in problems):
        problems += _uncached_formulas(path, records)
    return records, problems


def _read_csv(path: Path) -> tuple[list[tuple[str | None, Rows]], list[Problem]]:
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return [], [Problem(f"{path}:1:1", "file is UTF-16, not UTF-8", "save the CSV as UTF-8", code="encoding")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return [], [
            Problem(
                f"{path}:{line}",
                f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
                "save the spreadsheet as 'CSV UTF-8'",
                code="encoding",
            )
        ]
    if not text.strip():
        hint = "a card spreadsheet has a header row (id, title, type, ...) and a row per card"
        return [], [Problem(f"{path}:1:1", "file is empty", hint, code="empty")]
    sample = text[:8192]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    rows: list[list[str]] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1  # the line the row being read starts on (a quoted cell may hold line breaks)
    try:
        for row in reader:
            rows.append(list(row))
            start = reader.line_num + 1
    except csv.Error as exc:
        if "end of data" in str(exc) or "EOF" in str(exc):
            return [], [
                Problem(
                    f"{path}:{start}",
                    "a quoted cell on this row is never closed: the rest of the file would be read into it",
                    'close the quote; a quote inside a quoted cell is written twice ("")',
                    code="csv-syntax",
                )
            ]
        if "expected after" in str(exc):  # "x" y: text after a quoted cell's closing quote
            return [], [
                Problem(
                    f"{path}:{reader.line_num}",
                    "text after a quoted cell's closing quote: the quotes would be dropped from the text",
                    'a quote inside a quoted cell is written twice: "Deal 2"" (FAQ)", or quote the whole cell',
                    code="csv-syntax",
                )
            ]
        return [], [Problem(f"{path}:{reader.line_num}", f"cannot read CSV: {exc}", code="csv-syntax")]
    return [(None, rows)], []


def _read_workbook(path: Path) -> tuple[list[tuple[str | None, Rows]], list[Problem]]:
    import python_calamine

    try:
        book = python_calamine.CalamineWorkbook.from_path(str(path))
    except Exception as exc:  # calamine raises its own errors, plus OSError and ValueError on unreadable files
        return [], [
            Problem(
                str(path),
                f"cannot read the spreadsheet: {str(exc)[:200]}",
                "save it again as .xlsx, .ods or CSV UTF-8",
                code="spreadsheet",
            )
        ]
    sheets: list[tuple[str | None, Rows]] = []
    with book:
        for meta in book.sheets_metadata:
            if str(meta.visible).rsplit(".", 1)[-1] != "Visible" or str(meta.typ).rsplit(".", 1)[-1] != "WorkSheet":
                continue
            try:
                rows = book.get_sheet_by_name(meta.name).to_python(skip_empty_area=False)
            except Exception as exc:
                return [], [
                    Problem(Location(str(path), sheet=meta.name), f"cannot read sheet: {exc}", code="spreadsheet")
                ]
            sheets.append((meta.name, rows))
    return sheets, []


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _records(path: Path, sheet: str | None, rows: Rows, typed: bool) -> tuple[list[SheetRecord], list[Problem]]:
    problems: list[Problem] = []
    header_at = next((i for i, row in enumerate(rows) if not all(_blank(v) for v in row)), None)
    if header_at is None:
        return [], []
    columns: dict[str, int] = {}
    translated: dict[str, int] = {}  # title@ja, from@ja
    for col, value in enumerate(rows[header_at]):
        if _blank(value):
            continue
        name = str(value).strip()
        cell = Location(str(path), sheet=sheet, cell=f"{column_letters(col)}{header_at + 1}")
        if name in columns or name in translated:
            first = columns[name] if name in columns else translated[name]
            problems.append(
                Problem(
                    cell,
                    f"column {name!r} appears twice, first in column {column_letters(first)}",
                    "rename or remove one of them",
                    code="duplicate-column",
                )
            )
            continue
        if "@" in name:
            if not _TRANSLATED.fullmatch(name):
                problems.append(
                    Problem(
                        cell,
                        f"header {name!r} is not a translation column",
                        "a translation column is headed <field>@<language>, e.g. title@ja (digests: from@ja)",
                        code="bad-header",
                    )
                )
                continue
            translated[name] = col
            continue
        if not all(part for part in name.split(".")):
            problems.append(Problem(cell, f"header {name!r} has an empty part", "write cost.gold", code="bad-header"))
            continue
        columns[name] = col
    if problems:
        return [], problems
    records: list[SheetRecord] = []
    body = rows[header_at + 1 :]
    if len(body) > MAX_ROWS:
        problems.append(
            Problem(
                Location(str(path), sheet=sheet),
                f"{len(body):,} rows, over the limit of {MAX_ROWS:,}",
                code="too-large",
            )
        )
        body = body[:MAX_ROWS]
    for offset, row in enumerate(body):
        number = header_at + 2 + offset
        if all(_blank(v) for v in row):
            continue
        known = set(columns.values()) | set(translated.values())
        stray = [c for c, v in enumerate(row) if c not in known and not _blank(v)]
        for col in stray[:3]:
            problems.append(
                Problem(
                    Location(str(path), sheet=sheet, cell=f"{column_letters(col)}{number}"),
                    "a value in a column with no header",
                    "give the column a field name in the header row, or clear the cell",
                    code="no-header",
                )
            )
        cells: dict[str, object] = {}
        for name, col in columns.items():
            value = row[col] if col < len(row) else None
            if name == "copies" or not _blank(value):
                cells[name] = value
        game_cell = cells.get("game")
        game = game_cell if isinstance(game_cell, str) else None
        record = SheetRecord(
            {}, path, "$", game, sheet=sheet, row=number, columns=dict(columns), cells=cells, typed=typed
        )
        if translated:
            record.translated_columns = translated
            record.translated = {
                name: row[col] for name, col in translated.items() if col < len(row) and not _blank(row[col])
            }
        records.append(record)
    return records, problems


# --- formulas without a saved result (XLSX) -------------------------------------------------------------

_NS = {
    "m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}
_REF = re.compile(r"([A-Z]+)([0-9]+)")


def _uncached_formulas(path: Path, records: list[SheetRecord]) -> list[Problem]:
    """XLSX cells holding a formula but no saved result, or an error value: calamine would read them as empty."""
    problems: list[Problem] = []
    try:
        with zipfile.ZipFile(path) as archive:
            book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
            rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
            targets = {r.get("Id"): r.get("Target", "") for r in rels.findall("rel:Relationship", _NS)}
            wanted = {r.sheet for r in records}
            for sheet in book.iterfind("m:sheets/m:sheet", _NS):
                name = sheet.get("name")
                if name not in wanted:
                    continue
                target = targets.get(sheet.get(f"{{{_NS['r']}}}id"), "").lstrip("/")
                member = target if target.startswith("xl/") else "xl/" + target
                with archive.open(member) as stream:
                    for _, element in ElementTree.iterparse(stream):
                        if element.tag != f"{{{_NS['m']}}}c":
                            continue
                        formula = element.find("m:f", _NS)
                        value = element.find("m:v", _NS)
                        inline = element.find("m:is", _NS)
                        if element.get("t") == "e":  # an error value (#DIV/0!, #REF!): calamine reads it as empty
                            problems.append(
                                Problem(
                                    Location(str(path), sheet=name, cell=element.get("r")),
                                    f"the cell holds the error {(value.text if value is not None else '') or '#N/A'}",
                                    "fix the formula, or clear the cell",
                                    code="cell-error",
                                )
                            )
                            element.clear()
                            continue
                        if formula is not None and (value is None or value.text is None) and inline is None:
                            if formula.text or formula.get("t") != "shared":
                                problems.append(
                                    Problem(
                                        Location(str(path), sheet=name, cell=element.get("r")),
                                        f"formula ={(formula.text or '')[:60]} has no saved result",
                                        "open the file in a spreadsheet program and save it, so that the results "
                                        "are stored (printer reads results, it does not compute formulas)",
                                        code="formula-no-value",
                                    )
                                )
                        element.clear()
    except (OSError, KeyError, zipfile.BadZipFile, ElementTree.ParseError):
        return []
    return problems


__all__ = [
    "SUFFIXES",
    "SheetRecord",
    "column_letters",
    "is_spreadsheet",
    "read_records",
    "sheet_prefix",
]
