"""Translations as a workbook: written with openpyxl, read back as card spreadsheets are (python-calamine).

One sheet, named after the game, one row per card and field
(:class:`printer.cards.translations_io.TranslationEntry`), under the header row::

    id | card | field | note | en | ja | stale

``card`` is the card's source title and ``note`` the schema's description of the field (context only);
the column headed with the source language holds the source text, the one headed with the translation's
language the translation (empty when missing). ``stale`` marks a translation made from another source text:
clear it once the translation matches the source again. A translator may save the workbook as ``.xlsx`` or
``.ods``, reorder the columns or add others; the headers find them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from printer.cards.sheet_size import oversized_sheets
from printer.cards.spreadsheet import _read_workbook, column_letters, sheet_prefix
from printer.cards.translations_io import Catalogue, Incoming, TranslationEntry
from printer.fsutil import atomic_open
from printer.problems import Problem

#: the header of the column holding the stale mark
STALE = "stale"
_WIDTHS = {"id": 24, "card": 24, "field": 12, "note": 36, STALE: 8}
_TEXT_WIDTH = 60
#: the longest name Excel allows a sheet
SHEET_NAME_CHARS = 31


def write_workbook(path: Path, entries: Sequence[TranslationEntry], game: str, lang: str, source_lang: str) -> None:
    """Write ``entries`` of ``game`` (from ``source_lang`` into ``lang``) to the XLSX workbook ``path``, atomically.

    Raises :class:`ValueError` (openpyxl's ``IllegalCharacterError``) for text holding a control character a
    workbook cannot hold."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = game[:SHEET_NAME_CHARS]
    headers = ["id", "card", "field", "note", source_lang, lang, STALE]
    sheet.append(headers)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    wrap = Alignment(wrap_text=True, vertical="top")
    top = Alignment(vertical="top")
    for row, entry in enumerate(entries, start=2):
        values: list[str | None] = [
            entry.card_id,
            entry.title,
            entry.field,
            entry.note,
            entry.source,
            entry.translation,
        ]
        values.append(STALE if entry.stale else None)
        for col, value in enumerate(values, start=1):
            cell = sheet.cell(row=row, column=col, value=value)
            if isinstance(value, str) and value.startswith("="):
                cell.data_type = "s"  # text, never a formula
            cell.alignment = wrap if col in (4, 5, 6) else top
    for index, header in enumerate(headers):
        sheet.column_dimensions[column_letters(index)].width = _WIDTHS.get(header, _TEXT_WIDTH)
    sheet.freeze_panes = "A2"
    with atomic_open(path) as handle:
        book.save(handle)


def _text(value: object) -> str:
    """A cell as text: a whole number without ``.0``, line ends as ``\\n``."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).replace("\r\n", "\n")


def read_workbook(
    path: Path, game_of: Callable[[str], tuple[str | None, Sequence[str]]], lang: str | None
) -> Catalogue:
    """The entries of the workbook ``path`` (XLSX or ODS): its first sheet with ``id`` and ``field`` columns,
    each row with a card id, the translation read from the column headed ``lang``. ``game_of(sheet name)``
    gives the game the sheet holds and its languages, the source first: when ``lang`` is ``None`` the
    translation is the one column headed with another of them. Each entry is located at its translation's
    cell (``ja.xlsx:starfall!F7``)."""
    name = str(path)
    problems = oversized_sheets(path, sheet_prefix)
    if problems:
        return Catalogue(None, None, [], problems)
    sheets, problems = _read_workbook(path)
    if problems:
        return Catalogue(None, None, [], problems)
    for sheet, rows in sheets:
        if not rows:
            continue
        headers = [_text(cell).strip() for cell in rows[0]]
        lowered = [h.lower() for h in headers]
        if "id" not in lowered or "field" not in lowered:
            continue
        prefix = f"{name}:{sheet_prefix(sheet)}"
        game, languages = game_of(sheet or "")
        if not languages and not lang:  # a sheet of no known game: the caller asks for --game
            return Catalogue(game, None, [], [])
        column, problem = _translation_column(headers, languages, lang, prefix)
        if problem is not None:
            return Catalogue(game, None, [], [problem])
        assert column is not None
        return Catalogue(game, headers[column], *_rows(rows, lowered, headers, column, languages, prefix))
    return Catalogue(
        None,
        None,
        [],
        [
            Problem(
                name, "no sheet has the columns id and field", "export the workbook with printer export translations"
            )
        ],
    )


def _translation_column(
    headers: list[str], languages: Sequence[str], lang: str | None, prefix: str
) -> tuple[int | None, Problem | None]:
    names = [lang] if lang else list(languages[1:])
    wanted = {name.lower().replace("_", "-") for name in names}
    found = [i for i, h in enumerate(headers) if h.lower().replace("_", "-") in wanted]
    if len(found) == 1:
        return found[0], None
    if not found:
        return None, Problem(
            f"{prefix}A1",
            "no translation column: no header names the language " + " or ".join(names),
            "head the translation column with its language, as exported (e.g. " + (names[0] if names else "ja") + ")",
            code="translation-sheet",
        )
    return None, Problem(
        f"{prefix}{column_letters(found[1])}1",
        "more than one translation column: " + ", ".join(headers[i] for i in found),
        "import one language at a time: name it with --lang",
        code="translation-sheet",
    )


#: what a stale cell may hold: as exported ("stale", or empty), or a plain yes or no
_MARKS = {
    "": False,
    STALE: True,
    "x": True,
    "yes": True,
    "true": True,
    "1": True,
    "no": False,
    "false": False,
    "0": False,
}


def _rows(
    rows: Sequence[Sequence[object]],
    lowered: list[str],
    headers: list[str],
    column: int,
    languages: Sequence[str],
    prefix: str,
) -> tuple[list[Incoming], list[Problem]]:
    id_col, field_col = lowered.index("id"), lowered.index("field")
    stale_col = lowered.index(STALE) if STALE in lowered else None
    source_lang = languages[0].lower() if languages else None
    norm = [h.lower().replace("_", "-") for h in headers]
    source_col = norm.index(source_lang) if source_lang in norm else None
    entries: list[Incoming] = []
    problems: list[Problem] = []

    def cell(row: Sequence[object], col: int | None) -> str:
        return _text(row[col]) if col is not None and col < len(row) else ""

    for number, row in enumerate(rows[1:], start=2):
        card_id, field, translation = cell(row, id_col).strip(), cell(row, field_col).strip(), cell(row, column)
        if not card_id and not field:
            if translation.strip():
                problems.append(
                    Problem(
                        f"{prefix}{column_letters(column)}{number}",
                        "a translation on a row without a card id and field",
                        "keep the id and field of each row as they were exported",
                        code="translation-sheet",
                    )
                )
            continue
        if not card_id or not field:
            missing = "id" if not card_id else "field"
            col = id_col if not card_id else field_col
            problems.append(
                Problem(f"{prefix}{column_letters(col)}{number}", f"the row has no {missing}", code="translation-sheet")
            )
            continue
        source = cell(row, source_col) if source_col is not None else None
        mark = cell(row, stale_col).strip().lower()
        if mark not in _MARKS:
            problems.append(
                Problem(
                    f"{prefix}{column_letters(stale_col or 0)}{number}",
                    f"stale is {mark!r}: it is 'stale' (the translation was made from another source text) or empty",
                    "clear the cell once the translation matches the source",
                    code="translation-sheet",
                )
            )
            continue
        where = f"{prefix}{column_letters(column)}{number}"
        entries.append(
            Incoming(
                card_id,
                field,
                source,
                translation,
                _MARKS[mark],
                where,
                f"{prefix}{column_letters(id_col)}{number}",
                f"{prefix}{column_letters(field_col)}{number}",
            )
        )
    return entries, problems
