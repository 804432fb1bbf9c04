"""Reading card files into records that remember where they came from.

A card file is UTF-8 JSON in one of three shapes:

- one card: ``{"id": ..., "title": ..., ...}``;
- a list of cards: ``[{...}, {...}]``;
- a card list with file-wide fields: ``{"$schema": ..., "game": "l5r", "cards": [...]}``.

Each card becomes a :class:`Record` whose ``pointer`` is its JSON path in
the file (``$``, ``$[3]`` or ``$.cards[3]``), so that later stages report
problems as ``file::$.cards[3].force``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .errors import WARNING, Problem

MAX_FILE_BYTES = 50 * 1024 * 1024


@dataclass
class Record:
    """One card as read: its JSON ``data``, ``file`` and JSON path ``pointer``.

    ``game`` is the game named by the file (its ``game`` field or the game
    folder in its ``$schema``), or ``None`` when the file does not say.
    """

    data: dict
    file: Path
    pointer: str
    game: str | None = None

    def where(self, path: str = "") -> str:
        """``file::$.pointer.path`` for a problem at ``path`` under this card."""
        return f"{self.file}::{self.pointer}{path}"


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


class _DuplicateKeys:
    """``object_pairs_hook`` that records duplicate keys instead of losing them."""

    def __init__(self) -> None:
        self.duplicates: list[str] = []

    def __call__(self, pairs: list[tuple[str, object]]) -> dict:
        result: dict = {}
        for key, value in pairs:
            if key in result:
                self.duplicates.append(key)
            result[key] = value
        return result


def read_json(path: Path) -> tuple[object | None, list[Problem]]:
    """Parse one JSON file; returns ``(data, problems)``.

    ``data`` is ``None`` when the file cannot be read or parsed; syntax
    problems are located as ``file:line:col``. A UTF-8 byte-order mark is
    accepted with a warning; duplicate keys are errors (JSON would silently
    keep the last one).
    """
    where = str(path)
    if path.is_dir():
        return None, [Problem(where, "is a folder, not a JSON file", code="not-a-file")]
    try:
        size = path.stat().st_size
    except OSError as exc:
        return None, [Problem(where, f"cannot read: {exc.strerror}", code="unreadable")]
    if size > MAX_FILE_BYTES:
        return None, [Problem(where, f"file is {size / 1e6:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MiB limit for a card file",
                              "split it into several files", code="too-large")]
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(where, f"cannot read: {exc.strerror}", code="unreadable")]
    problems: list[Problem] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
        problems.append(Problem(f"{where}:1:1", "file starts with a UTF-8 byte-order mark", "save as UTF-8 without BOM",
                                severity=WARNING, code="bom"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _position(raw[: exc.start].decode("utf-8", "replace"), exc.start)
        return None, [Problem(f"{where}:{line}:{col}", f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
                              "save the file as UTF-8", code="encoding")]
    if not text.strip():
        return None, [Problem(f"{where}:1:1", "file is empty", "a card file holds a JSON object or array", code="empty")]
    hook = _DuplicateKeys()
    try:
        data = json.loads(text, object_pairs_hook=hook)
    except json.JSONDecodeError as exc:
        return None, [Problem(f"{where}:{exc.lineno}:{exc.colno}", f"invalid JSON: {exc.msg}",
                              _syntax_hint(text, exc), code="json-syntax")]
    except RecursionError:
        return None, [Problem(where, "JSON nested too deeply", code="json-syntax")]
    for key in hook.duplicates:
        problems.append(Problem(where, f"key {key!r} appears twice in one object", "remove one of them", code="duplicate-key"))
    return data, problems


def _syntax_hint(text: str, exc: json.JSONDecodeError) -> str | None:
    before = text[: exc.pos].rstrip()
    if exc.pos >= len(text.rstrip()):
        return "the file ends too early: is it cut short?"
    if exc.msg.startswith("Expecting property name") and before.endswith(","):
        return "remove the trailing comma"
    if exc.msg.startswith("Expecting value") and before.endswith(","):
        return "remove the trailing comma"
    if text[exc.pos: exc.pos + 2] in ("//", "/*"):
        return "JSON has no comments"
    if exc.msg.startswith("Invalid control character"):
        return "write a line break inside a string as \\n"
    return None


def records_from_data(data: object, path: Path) -> tuple[list[Record], list[Problem]]:
    """Split parsed JSON into card records (see the module docstring for the shapes)."""
    where = str(path)
    if isinstance(data, list):
        items, base, game = data, "$", None
    elif isinstance(data, dict) and "cards" in data:
        items, base = data["cards"], "$.cards"
        game = data.get("game") if isinstance(data.get("game"), str) else _game_from_schema(data.get("$schema"))
        if not isinstance(items, list):
            return [], [Problem(f"{where}::$.cards", "'cards' must be a list of card objects", code="schema")]
    elif isinstance(data, dict):
        game = data.get("game") if isinstance(data.get("game"), str) else _game_from_schema(data.get("$schema"))
        return [Record(data, path, "$", game)], []
    else:
        return [], [Problem(f"{where}::$", f"a card file holds an object or an array, not {type(data).__name__}",
                            code="schema")]
    records, problems = [], []
    for i, item in enumerate(items):
        pointer = f"{base}[{i}]"
        if not isinstance(item, dict):
            problems.append(Problem(f"{where}::{pointer}", f"a card is an object, not {type(item).__name__}", code="schema"))
            continue
        records.append(Record(item, path, pointer, item.get("game") if isinstance(item.get("game"), str) else game))
    return records, problems


def _game_from_schema(ref: object) -> str | None:
    """The game folder named in a ``$schema`` reference such as ``.../schema/l5r/card.schema.json``."""
    if not isinstance(ref, str):
        return None
    parts = ref.replace("\\", "/").split("/")
    for before, name in zip(parts, parts[1:]):
        if before == "schema" and name and not name.endswith(".json"):
            return name
    return None


def card_files(paths: list[Path]) -> Iterator[Path]:
    """Every ``*.json`` file under ``paths`` (files are yielded as given), sorted."""
    for path in paths:
        if path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if name.endswith(".json") and not name.startswith("."):
                        yield Path(folder) / name
        else:
            yield path


def load_records(paths: list[Path]) -> tuple[list[Record], list[Problem]]:
    """Read every card file under ``paths``; returns all records and all problems."""
    records: list[Record] = []
    problems: list[Problem] = []
    for file in card_files(paths):
        if not file.exists():
            problems.append(Problem(str(file), "no such file or folder", code="not-found"))
            continue
        data, found = read_json(file)
        problems += found
        if data is not None:
            more, found = records_from_data(data, file)
            records += more
            problems += found
    return records, problems
