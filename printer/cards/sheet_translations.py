"""Translations held in a spreadsheet of cards: ``<field>@<lang>`` columns beside the source columns.

A row's ``title@ja`` cell is the Japanese ``title`` of the row's card; its ``from@ja`` cell holds the digests of
the source values the translations were made from, as ``field=digest`` pairs separated by spaces (or ``;``)::

    title=1a2b3c4d5e6f text=0f9e8d7c6b5a

The reader (:func:`printer.cards.spreadsheet.read_records`) keeps these columns apart from the card's own
(:attr:`~printer.cards.spreadsheet.SheetRecord.translated`); :func:`row_translations` turns one row's into
:class:`~printer.cards.translations.Translation`\\ s, located at their cells: ``cards/starfall/crew.xlsx:Sheet1!F7
(ja)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from printer.cards.spreadsheet import SheetRecord, column_letters, sheet_prefix
from printer.cards.spreadsheet_cells import SchemaTypes, read_cell
from printer.cards.translation_book import Translation, TranslationBook, add_checked, lang_problem
from printer.jsonvalue import JSONObject
from printer.problems import Problem
from printer.project import Project

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore

#: the header of the digests column of a language
FROM = "from"
_PAIR = re.compile(r"([^\s=;,]+)=([0-9a-f]{12})")
_SEPARATORS = re.compile(r"[\s;,]+")


def cell_of(row: SheetRecord, header: str) -> str:
    """``file:Sheet1!F7``: where ``row``'s cell under the translation column ``header`` is."""
    column = row.translated_columns[header]
    return f"{row.file}:{sheet_prefix(row.sheet)}{column_letters(column)}{row.row}"


def read_digests(text: object) -> tuple[dict[str, str], str | None]:
    """The ``field=digest`` pairs of a ``from@<lang>`` cell, and what is wrong with the cell (``None``: nothing)."""
    if not isinstance(text, str):
        return {}, "the cell holds no field=digest pairs"
    pairs: dict[str, str] = {}
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        found = _PAIR.fullmatch(token)
        if found is None:
            return pairs, f"{token[:40]!r} is not a field=digest pair (a digest is 12 lower-case hex digits)"
        pairs[found.group(1)] = found.group(2)
    return pairs, None


def row_translations(
    row: SheetRecord, types: Callable[[], SchemaTypes | None]
) -> tuple[dict[str, JSONObject], list[Problem]]:
    """The translations in one row's translation cells, by language: ``{lang: {"fields", "from", "cells"}}``
    (``cells``: each field's, and ``""`` the row's, location), and the problems of cells that cannot be read.

    ``types`` gives the game's schema field types (:class:`~printer.cards.spreadsheet_cells.SchemaTypes`), by which
    a cell is read as the card's own would be (a list of keywords as ``a; b``)."""
    problems: list[Problem] = []
    out: dict[str, JSONObject] = {}
    for header, value in row.translated.items():
        name, lang = header.split("@", 1)
        held = out.setdefault(lang, {"fields": {}, "from": {}, "cells": {"": row.where()}})
        where = cell_of(row, header)
        if name == FROM:
            pairs, wrong = read_digests(value)
            held["from"].update(pairs)
            held["cells"]["from"] = where
            if wrong is not None:
                problems.append(
                    Problem(
                        f"{where} ({lang})",
                        wrong,
                        "write the digests as title=1a2b3c4d5e6f text=0f9e8d7c6b5a",
                        code="translation-from",
                    )
                )
            continue
        held["cells"][name] = where
        kinds = types()
        try:
            held["fields"][name] = read_cell(value, kinds.of((name,)), row.typed) if kinds else value
        except ValueError as exc:
            problems.append(Problem(f"{where} ({lang})", str(exc), code="cell"))
    if "id" in row.columns:
        for held in out.values():
            held["cells"]["id"] = f"{row.file}:{row.cell('id')}"
    return out, problems


def sheet_translations(
    project: Project,
    rows: list[SheetRecord],
    book: TranslationBook,
    translatable: Callable[[str], tuple[str, ...]],
    store: SchemaStore,
) -> list[Problem]:
    """The translations in the ``<field>@<lang>`` cells of spreadsheet ``rows`` into ``book``; their problems, each
    once (a column's language is checked once, located at the column: ``file.xlsx:Sheet1!F:F (fr)``)."""
    problems: list[Problem] = []
    kinds: dict[str, SchemaTypes] = {}
    for row in rows:
        if not row.translated:
            continue
        owner = row.game if row.game in project.games else getattr(project.game_for_path(row.file), "id", None)
        card_id = row.cells.get("id")
        if owner is None or not isinstance(card_id, str) or not card_id:
            continue  # the card loader reports a row without a game or an id

        def types(game: str = owner) -> SchemaTypes:
            if game not in kinds:
                kinds[game] = SchemaTypes(store, project.games[game].schema)
            return kinds[game]

        found, wrong = row_translations(row, types)
        problems += wrong
        for lang, held in found.items():
            header = next(h for h in row.translated if h.endswith("@" + lang))
            letters = column_letters(row.translated_columns[header])
            column = f"{row.file}:{sheet_prefix(row.sheet)}{letters}:{letters}"  # the whole column, as Excel names it
            problem = lang_problem(project, owner, lang, f"{column} ({lang})")
            if problem is not None:
                problems.append(problem)
                continue
            translation = Translation(owner, lang, card_id, held["fields"], held["from"], row.file, "$", held["cells"])
            problems += add_checked(book, translation, translatable(owner))
    return list(dict.fromkeys(problems))
