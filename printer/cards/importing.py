"""What the importers share: reading the source files, counting fields not imported, shaping the output.

Each importer converts records to printer cards its own way; these pieces
are the same for all of them: the import result (:class:`ImportResult`)
and its grouping of cards into output files, the loop that reads JSON
files and gathers cards and problems, the loop over a file's records, the
one warning per field left out, and the text of a card file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol

from printer.cards.load import read_json
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem, counted

#: ``{field name: (records that had it, where it was first seen)}``: the fields an importer left out.
Skipped = dict[str, tuple[int, str]]

#: ``convert(data, file, skipped)`` of one parsed source file: ``([(where, card)], problems)``.
Converter = Callable[[object, str, Skipped], tuple[list[tuple[str, JSONObject]], list[Problem]]]


class Conversion(Protocol):
    """One record being converted: ``convert()`` gives the card (``None``: left out) and fills ``problems``."""

    problems: list[Problem]

    def convert(self) -> JSONObject | None: ...


@dataclass
class ImportResult:
    """What an import found: printer ``cards`` (dicts in field order, in input order), the ``problems``
    (errors: the record or field is left out; warnings: fields not imported, repairs, duplicates), and
    ``origins``, where each card was read (``file::$...``) when the importer records it.

    Each importer subclasses it, naming its output files in ``type_files``
    (card type -> file name) and, for types beyond them, overriding ``file_of``.
    """

    cards: list[JSONObject] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)

    type_files: ClassVar[dict[str, str]] = {}

    def file_of(self, card_type: str) -> str:
        """The output file name of ``card_type``: ``type_files[card_type]`` (``KeyError`` for another type)."""
        return self.type_files[card_type]

    def by_file(self) -> dict[str, list[JSONObject]]:
        """The cards grouped by output file name (:func:`group_by_file`)."""
        return group_by_file(self.cards, self.type_files, self.file_of)


def convert_files(paths: Iterable[Path], convert: Converter, result: ImportResult) -> Skipped:
    """Read each JSON file (:func:`printer.cards.load.read_json`) and ``convert`` it into ``result``.

    ``result`` has ``cards``, ``problems`` and ``origins`` lists: each
    converted card is appended with where it was read (``file::$...``). A file
    that cannot be read or parsed adds its problems (``file:line:col``) and
    the other files still import. Returns the fields left out across all files.
    """
    skipped: Skipped = {}
    for path in paths:
        data, problems = read_json(Path(path))
        result.problems += problems
        if data is not None:
            converted, problems = convert(data, str(path), skipped)
            result.origins += [where for where, _ in converted]
            result.cards += [card for _, card in converted]
            result.problems += problems
    return skipped


def convert_each(
    items: list[object],
    base: str,
    converter: Callable[[JSONObject, str, Skipped], Conversion],
    skipped: Skipped,
    *,
    record: str,
    code: str,
    hint: str | None = None,
) -> tuple[list[tuple[str, JSONObject]], list[Problem]]:
    """Convert each record of ``items`` (located ``base[index]``); returns ``([(where, card)], problems)``.

    ``converter(item, where, skipped)`` makes an object with ``convert()``
    (the card, or ``None`` when the record is left out) and ``problems``. A
    record that is not an object is an error and left out: ``<record> is an
    object, not str`` (``record`` such as ``a card``) with ``hint`` and ``code``.
    """
    cards: list[tuple[str, JSONObject]] = []
    problems: list[Problem] = []
    for index, item in enumerate(items):
        where = f"{base}[{index}]"
        if not isinstance(item, dict):
            problems.append(Problem(where, f"{record} is an object, not {type(item).__name__}", hint, code=code))
            continue
        conversion = converter(item, where, skipped)
        card = conversion.convert()
        problems += conversion.problems
        if card is not None:
            cards.append((where, card))
    return cards, problems


def count_skipped(skipped: Skipped, name: str, where: str) -> None:
    """Count one more record that had the field ``name``; ``where`` is kept from the first one."""
    count, first = skipped.get(name, (0, where))
    skipped[name] = (count + 1, first)


def skipped_warnings(skipped: Skipped, known: dict[str, str], one: str, many: str) -> list[Problem]:
    """One warning per field left out, by field name, located where it was first seen.

    A field in ``known`` (name -> why it is left out) is ``not-imported``:
    ``field 'imagehash' is not imported: <why> (3 cards)``; any other is an
    ``unknown-field``: ``unknown field 'x' is not imported (1 card)``. ``one``
    and ``many`` name the records counted (``card``/``cards``, ``entry``/``entries``).
    """
    problems = []
    for name, (count, where) in sorted(skipped.items()):
        n = counted(count, one, many)
        if name in known:
            message, code = f"field {name!r} is not imported: {known[name]} ({n})", "not-imported"
        else:
            message, code = f"unknown field {name!r} is not imported ({n})", "unknown-field"
        problems.append(Problem(where, message, severity=WARNING, code=code))
    return problems


def group_by_file(
    cards: list[JSONObject], type_files: dict[str, str], file_of: Callable[[str], str] | None = None
) -> dict[str, list[JSONObject]]:
    """``{output file name: cards}``: in ``type_files`` order (card type -> file), empty files left out.

    ``file_of(card type)`` names the file of a type (default: ``type_files[type]``);
    files it names beyond ``type_files`` come after, in the order met.
    """
    file_of = file_of or type_files.__getitem__
    files: dict[str, list[JSONObject]] = {name: [] for name in type_files.values()}
    for card in cards:
        files.setdefault(file_of(card["type"]), []).append(card)
    return {name: group for name, group in files.items() if group}


def type_counts(
    cards: list[JSONObject], type_files: dict[str, str], file_of: Callable[[str], str] | None = None
) -> str:
    """``Spell 6, Creature 2``: the cards per output file, named by its type, in :func:`group_by_file` order.

    ``""`` for no cards.
    """
    return ", ".join(f"{group[0]['type']} {len(group)}" for group in group_by_file(cards, type_files, file_of).values())


def card_file_text(game: str, cards: list[JSONObject], schema: str) -> str:
    """One card file: ``{"$schema": schema, "game": game, "cards"}`` as 2-space indented UTF-8 JSON, final newline."""
    return json.dumps({"$schema": schema, "game": game, "cards": cards}, indent=2, ensure_ascii=False) + "\n"
