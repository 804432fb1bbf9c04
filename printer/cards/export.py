"""Cards out to a spreadsheet: ``printer export cards GAME --to FILE.xlsx|.csv|.ods``.

The file is the one :mod:`printer.cards.spreadsheet` reads back to the same
card data: one card per row under a header of field names in schema order
(nested fields as dotted headers, ``cost.gold``), lists joined with ``;`` or
written as a JSON array when an item holds a ``;``, is not text, or the
field also takes a single value. A ``copies`` column is written, for every
card, only when some card has ``copies`` (a blank copies cell is an error
when read back).

XLSX (openpyxl): the header row is frozen; a field with a list of allowed
values (an enum) gets a dropdown (data validation) on its column, its list
kept on a hidden sheet named ``Lists`` when it is longer than the 255
characters Excel allows inline; card types with different fields get one
sheet each. ODS (odfpy, the ``ods`` extra): one sheet per card type as for
XLSX, without dropdowns. CSV: one table, UTF-8 with a byte-order mark so that
Excel opens it as UTF-8.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from printer.cards.model import Card
from printer.cards.spreadsheet import LIST_SEPARATOR, column_letters, sheet_prefix
from printer.cards.spreadsheet_cells import FieldType, SchemaTypes, _csv_text
from printer.fsutil import atomic_open
from printer.jsonvalue import JSONObject
from printer.problems import UsageError

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore

FORMATS = (".xlsx", ".csv", ".ods")
#: fields a card file names for itself, not written as columns
FILE_FIELDS = ("$schema", "game")
_SHEET_NAME_BAD = re.compile(r"[\[\]:*?/\\]")


def flatten(data: JSONObject, prefix: str = "") -> dict[str, object]:
    """``{"cost": {"gold": 2}}`` -> ``{"cost.gold": 2}``; an empty object, or one whose keys hold a ``.``, stays
    whole (written as JSON)."""
    out: dict[str, object] = {}
    for key, value in data.items():
        name = prefix + key
        if isinstance(value, dict) and value and all(isinstance(k, str) and k and "." not in k for k in value):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def cell_value(value: object, kind: FieldType, typed: bool) -> object:
    """The cell for one value: typed workbook cells keep numbers and booleans; CSV cells are text."""
    if isinstance(value, list):
        plain = all(
            isinstance(v, str) and v and v == v.strip() and LIST_SEPARATOR not in v and not v.startswith("[")
            for v in value
        )
        single_allowed = bool(kind.types - {"array"})
        if value and plain and (len(value) > 1 or not single_allowed):
            return "; ".join(value)
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and not typed and kind.types & {"integer", "number", "boolean"}:
        # a CSV cell is text: quote text the reader would take for a number ("-1" where integer or string)
        return json.dumps(value, ensure_ascii=False) if _csv_text(value, kind.types) != value else value
    if typed or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def columns(cards: list[Card], names: list[str]) -> list[str]:
    """The headers for ``cards``: fields in schema order (``names``), each with its dotted parts in order met."""
    seen: dict[str, None] = {}
    rows = [flatten(c.data) for c in cards]
    order = {name: i for i, name in enumerate(names)}
    for row in rows:
        for header in row:
            seen.setdefault(header, None)
    headers = [h for h in seen if h.split(".")[0] not in FILE_FIELDS and h != "copies"]
    headers.sort(key=lambda h: order.get(h.split(".")[0], len(order)))
    if any("copies" in c.data for c in cards):
        at = next((i for i, h in enumerate(headers) if order.get(h.split(".")[0], 1e9) > order.get("copies", -1)), None)
        headers.insert(len(headers) if at is None else at, "copies")
    return headers


def _rows(cards: list[Card], headers: list[str], types: SchemaTypes, typed: bool) -> list[list[object]]:
    rows = []
    for card in cards:
        flat = flatten(card.data)
        if "copies" in headers:
            flat["copies"] = card.copies
        rows.append(
            [None if h not in flat else cell_value(flat[h], types.of(tuple(h.split("."))), typed) for h in headers]
        )
    return rows


def _sheet_name(name: str, used: set[str]) -> str:
    base = _SHEET_NAME_BAD.sub("-", name).strip("'")[:31] or "Cards"
    candidate, n = base, 2
    while candidate.lower() in used:
        candidate = f"{base[:28]} {n}"
        n += 1
    used.add(candidate.lower())
    return candidate


def tables(cards: list[Card], names: list[str]) -> list[tuple[str, list[Card], list[str]]]:
    """``(sheet name, cards, headers)``: one table for all cards, or one per card type when types differ in fields."""
    by_type: dict[str, list[Card]] = {}
    for card in cards:
        by_type.setdefault(card.type, []).append(card)
    per_type = {t: columns(cs, names) for t, cs in by_type.items()}
    if len({tuple(h) for h in per_type.values()}) <= 1:
        return [("Cards", cards, columns(cards, names))]
    used: set[str] = set()
    return [(_sheet_name(t, used), cs, per_type[t]) for t, cs in by_type.items()]


def export_cards(cards: list[Card], store: SchemaStore, schema_file: Path, out: Path) -> int:
    """Write ``cards`` (of one game, whose schema is ``schema_file``) to ``out`` (``.xlsx``, ``.csv`` or ``.ods``).

    Returns the number of cards written. Raises :class:`UsageError` for another file ending, or ``.ods`` when
    odfpy is not installed. The file is written atomically.
    """
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"cannot export to {out.name}: write a file ending in .xlsx, .csv or .ods")
    names = list(dict.fromkeys(["id", "title", "type", *store.property_names(schema_file)]))
    names = [n for n in names if n not in FILE_FIELDS]
    types = SchemaTypes(store, schema_file)
    if suffix == ".csv":
        headers = columns(cards, names)
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(headers)
        writer.writerows([["" if v is None else v for v in row] for row in _rows(cards, headers, types, False)])
        data = ("\ufeff" + buffer.getvalue()).encode("utf-8")
    elif suffix == ".xlsx":
        data = _xlsx(cards, names, types)
    else:
        data = _ods(cards, names, types)
    with atomic_open(out) as stream:
        stream.write(data)
    return len(cards)


def _xlsx(cards: list[Card], names: list[str], types: SchemaTypes) -> bytes:
    import openpyxl
    from openpyxl.worksheet.datavalidation import DataValidation

    book = openpyxl.Workbook()
    book.remove(book.active)
    lists = None
    list_column = 0
    for name, group, headers in tables(cards, names):
        sheet = book.create_sheet(name)
        sheet.append(headers)
        for row in _rows(group, headers, types, True):
            sheet.append([None] * len(row))
            r = sheet.max_row
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                cell = sheet.cell(row=r, column=c, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"  # text that starts with '=' stays text, not a formula
        sheet.freeze_panes = "A2"
        last = max(sheet.max_row, 2) + 500  # room to add cards under the list
        for c, header in enumerate(headers):
            kind = types.of(tuple(header.split(".")))
            options = [v for v in kind.enum if isinstance(v, str)]
            if not options or kind.types - {"string"}:
                continue
            inline = ",".join(options)
            if len(inline) <= 255 and not any("," in o or '"' in o for o in options):
                formula = f'"{inline}"'
            else:
                if lists is None:
                    lists = book.create_sheet("Lists")
                    lists.sheet_state = "hidden"
                for i, option in enumerate(options, start=1):
                    lists.cell(row=i, column=list_column + 1, value=option).data_type = "s"
                letter = column_letters(list_column)
                formula = f"{sheet_prefix('Lists')}${letter}$1:${letter}${len(options)}"
                list_column += 1
            check = DataValidation(type="list", formula1=formula, allow_blank=True)
            check.error = f"not a valid {header}"
            check.add(f"{column_letters(c)}2:{column_letters(c)}{last}")
            sheet.add_data_validation(check)
    if lists is not None:  # keep the hidden sheet last, after the card sheets
        book.move_sheet(lists, offset=len(book.sheetnames) - 1 - book.sheetnames.index("Lists"))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _ods(cards: list[Card], names: list[str], types: SchemaTypes) -> bytes:
    try:
        from odf.opendocument import OpenDocumentSpreadsheet
        from odf.table import Table, TableCell, TableRow
        from odf.text import P
    except ImportError:
        raise UsageError(
            "exporting to .ods needs odfpy: pip install 'printer[ods]' (or export to .xlsx, which reads the same)"
        ) from None
    doc = OpenDocumentSpreadsheet()
    for name, group, headers in tables(cards, names):
        table = Table(name=name)
        rows: list[Sequence[object]] = [headers, *_rows(group, headers, types, True)]
        for row in rows:
            tr = TableRow()
            for value in row:
                if value is None:
                    cell = TableCell()
                elif isinstance(value, bool):
                    cell = TableCell(valuetype="boolean", booleanvalue="true" if value else "false")
                    cell.addElement(P(text="TRUE" if value else "FALSE"))
                elif isinstance(value, (int, float)):
                    cell = TableCell(valuetype="float", value=value)
                    cell.addElement(P(text=str(value)))
                else:
                    cell = TableCell(valuetype="string")
                    for line in str(value).split("\n"):
                        cell.addElement(P(text=line))
                tr.addElement(cell)
            table.addElement(tr)
        doc.spreadsheet.addElement(table)
    buffer = io.BytesIO()
    doc.write(buffer)
    return buffer.getvalue()
