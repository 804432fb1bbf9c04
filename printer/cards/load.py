"""Reading card files into records that remember where they came from.

A card file is UTF-8 JSON in one of three shapes:

- one card: ``{"id": ..., "title": ..., ...}``;
- a list of cards: ``[{...}, {...}]``;
- a card list with file-wide fields: ``{"$schema": ..., "game": "starfall", "cards": [...]}``.

An object with a top-level ``"lang"`` key is a translation overlay (:mod:`printer.cards.translations`), not cards:
it gives no records.

Each card becomes a :class:`Record` whose ``pointer`` is its JSON path in
the file (``$``, ``$[3]`` or ``$.cards[3]``), so that later stages report
problems as ``file::$.cards[3].force``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from pathlib import Path

from printer.cards.record import MAX_FILE_BYTES, Record, json_key, json_type
from printer.paths import is_inside, regular_file_problem
from printer.problems import WARNING, Problem


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


class _DuplicateKeys:
    """``object_pairs_hook`` that records duplicate keys instead of losing them.

    Also the number hooks: ``suspect`` becomes true when the text holds a
    number :func:`_bad_numbers` may refuse (NaN, Infinity, an integer of 16
    digits or more, a float that overflows), so that the walk over the data
    is made only then.
    """

    def __init__(self) -> None:
        self.duplicates: list[str] = []
        self.suspect = False
        self.objects = 0  # the JSON objects read

    def __call__(self, pairs: list[tuple[str, object]]) -> dict[str, object]:
        self.objects += 1
        result = dict(pairs)
        if len(result) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    self.duplicates.append(key)
                seen.add(key)
        return result

    def integer(self, text: str) -> int:
        if len(text) > 15:
            self.suspect = True
        return int(text)

    def real(self, text: str) -> float:
        value = float(text)
        if math.isinf(value):
            self.suspect = True
        return value

    def constant(self, name: str) -> float:
        self.suspect = True
        return float(name.replace("Infinity", "inf"))


def parse_json(path: Path) -> tuple[object | None, list[Problem], int]:
    """As :func:`read_json`, with the number of JSON objects the file holds: ``(data, problems, objects)``."""
    hook = _DuplicateKeys()
    data, problems = _read_json(path, hook)
    return data, problems, hook.objects


def read_json(path: Path) -> tuple[object | None, list[Problem]]:
    """Parse one JSON file; returns ``(data, problems)``.

    ``data`` is ``None`` when the file cannot be read or parsed; syntax
    problems are located as ``file:line:col``. A UTF-8 byte-order mark is
    accepted with a warning; duplicate keys are errors (JSON would silently
    keep the last one). Refused with an error: a file over
    :data:`MAX_FILE_BYTES` (unread), UTF-16 and other non-UTF-8 bytes, the
    literal ``null``, and numbers JSON does not have or tools disagree on
    (``NaN``, ``Infinity``, ``1e400``, integers beyond
    :data:`MAX_SAFE_INTEGER`, located ``file::$.path``; integers of more
    than 4,300 digits, which Python will not convert, at ``file:line:col``).
    """
    return _read_json(path, _DuplicateKeys())


def _read_json(path: Path, hook: _DuplicateKeys) -> tuple[object | None, list[Problem]]:
    where = str(path)
    if path.is_dir():
        return None, [Problem(where, "is a folder, not a JSON file", code="not-a-file")]
    special = regular_file_problem(path)
    if special is not None:
        return None, [special]
    try:
        size = path.stat().st_size
    except OSError as exc:
        return None, [Problem(where, f"cannot read: {exc.strerror}", code="unreadable")]
    if size > MAX_FILE_BYTES:
        return None, [
            Problem(
                where,
                f"file is {size:,} bytes, over the limit of {MAX_FILE_BYTES:,} bytes "
                f"({MAX_FILE_BYTES // 2**20} MiB) for a card file",
                "split it into several files",
                code="too-large",
            )
        ]
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(where, f"cannot read: {exc.strerror}", code="unreadable")]
    problems: list[Problem] = []
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [Problem(f"{where}:1:1", "file is UTF-16, not UTF-8", "save the file as UTF-8", code="encoding")]
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
        problems.append(
            Problem(
                f"{where}:1:1",
                "file starts with a UTF-8 byte-order mark",
                "save as UTF-8 without BOM",
                severity=WARNING,
                code="bom",
            )
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _position(raw[: exc.start].decode("utf-8", "replace"), exc.start)
        return None, [
            Problem(
                f"{where}:{line}:{col}",
                f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
                "save the file as UTF-8",
                code="encoding",
            )
        ]
    if not text.strip():
        return None, [
            Problem(f"{where}:1:1", "file is empty", "a card file holds a JSON object or array", code="empty")
        ]
    try:
        data = json.loads(
            text, object_pairs_hook=hook, parse_int=hook.integer, parse_float=hook.real, parse_constant=hook.constant
        )
    except json.JSONDecodeError as exc:
        return None, [
            Problem(
                f"{where}:{exc.lineno}:{exc.colno}",
                f"invalid JSON: {_MESSAGES.get(exc.msg, exc.msg)}",
                _syntax_hint(text, exc),
                code="json-syntax",
            )
        ]
    except RecursionError:
        return None, [Problem(where, "JSON nested too deeply", code="json-syntax")]
    except ValueError:  # an integer of more than 4,300 digits (Python's limit on int conversion)
        at = _LONG_NUMBER.search(text)
        line, col = _position(text, at.start()) if at else (1, 1)
        digits = len(at.group(0).lstrip("-")) if at else 0
        return None, [
            Problem(
                f"{where}:{line}:{col}",
                f"a number of {digits} digits is too large to read",
                "numbers on cards are small: is this a pasted value?",
                code="json-number",
            )
        ]
    if hook.duplicates:  # each repeat at its line and column, with its JSON path (JSON keeps the last value)
        from printer.cards.positions import repeated_keys

        repeats = repeated_keys(text) or [((key,), (0, 0)) for key in hook.duplicates]
        for steps, (line, column) in repeats:
            json_path = "$" + "".join(json_key(step) if isinstance(step, str) else f"[{step}]" for step in steps)
            problems.append(
                Problem(
                    f"{where}:{line}:{column} ({json_path})" if line else where,
                    f"key {steps[-1]!r} appears twice in one object: the first value would be lost",
                    "remove one of them",
                    code="duplicate-key",
                )
            )
    if data is None:  # the literal null: say so here, since None also means "could not be read"
        return None, problems + [
            Problem(f"{where}::$", "the file holds null, not a JSON object or array", code="schema")
        ]
    bad = _bad_numbers(data) if hook.suspect else []  # the walk costs as much as parsing: only when needed
    bad += lone_surrogates(text, data)
    if bad:
        return None, problems + [
            Problem(f"{where}::{path}", message, hint, code="json-number") for path, message, hint in bad
        ]
    return data, problems


_LONG_NUMBER = re.compile(r"-?\d{4000,}")
#: the integers every JSON reader agrees on (RFC 8259, section 6: IEEE 754 doubles hold them exactly)
MAX_SAFE_INTEGER = 2**53 - 1


def _bad_numbers(data: object, path: str = "$", limit: int = 20) -> list[tuple[str, str, str]]:
    """``NaN``, ``Infinity`` (not JSON, though Python reads them; ``1e999`` also becomes infinite) and integers
    beyond +-(2**53 - 1), as ``(JSON path, message, hint)``; at most ``limit`` of them."""
    found: list[tuple[str, str, str]] = []
    stack = [(path, data)]
    while stack and len(found) < limit:
        here, value = stack.pop()
        if isinstance(value, dict):
            stack += [(here + json_key(k), v) for k, v in reversed(list(value.items()))]
        elif isinstance(value, list):
            stack += [(f"{here}[{i}]", v) for i, v in reversed(list(enumerate(value)))]
        elif isinstance(value, float) and math.isnan(value):
            found.append((here, "NaN is not a JSON number", "write a number, or leave the field out"))
        elif isinstance(value, float) and math.isinf(value):
            found.append(
                (here, "number is out of range (it reads as infinity)", "write a smaller number (Infinity is not JSON)")
            )
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SAFE_INTEGER:
            text = str(value)
            shown = text if len(text) <= 24 else text[:23] + "\u2026"
            found.append(
                (
                    here,
                    f"number {shown} is too large ({len(text.lstrip('-'))} digits)",
                    f"JSON tools agree only on integers up to {MAX_SAFE_INTEGER:,}",
                )
            )
    return found


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogates(text: str, data: object, limit: int = 20) -> list[tuple[str, str, str]]:
    """Strings (keys too) of ``data``, read from the JSON ``text``, holding half of a UTF-16 surrogate pair, as
    ``(JSON path, message, hint)``; at most ``limit``. JSON's ``\\uD83D\\uDE00`` is one character (an emoji),
    while a lone ``\\uD800`` is no character at all (RFC 8259, section 8.2): it cannot be written as UTF-8, so no
    PDF, spreadsheet or page could hold it. ``data`` is walked only when ``text`` holds such an escape."""
    found: list[tuple[str, str, str]] = []
    stack: list[tuple[str, object]] = [("$", data)] if _SURROGATE_ESCAPE.search(text) else []
    while stack and len(found) < limit:
        here, value = stack.pop()
        if isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                if _LONE_SURROGATE.search(key):
                    found.append(_surrogate(here, key))
                else:
                    stack.append((here + json_key(key), item))
        elif isinstance(value, list):
            stack += [(f"{here}[{i}]", v) for i, v in reversed(list(enumerate(value)))]
        elif isinstance(value, str) and _LONE_SURROGATE.search(value):
            found.append(_surrogate(here, value))
    return found


def _surrogate(path: str, text: str) -> tuple[str, str, str]:
    half = _LONE_SURROGATE.search(text)
    code = ord(half.group(0)) if half else 0
    return (
        path,
        f"\\u{code:04X} is half of a surrogate pair, not a character",
        "write the character itself, or both halves of its \\u escape (\\uD83D\\uDE00 for an emoji)",
    )


_MESSAGES = {  # Python's messages that end in "at", the position being given apart
    "Unterminated string starting at": "unterminated string (it starts here)",
    "Invalid control character at": "control character (such as a line break) inside a string",
}


def _syntax_hint(text: str, exc: json.JSONDecodeError) -> str | None:
    before = text[: exc.pos].rstrip()
    if exc.pos >= len(text.rstrip()):
        return "the file ends too early: is it cut short?"
    if text[exc.pos : exc.pos + 2] in ("//", "/*"):
        return "JSON has no comments"
    if exc.msg.startswith("Expecting property name") and before.endswith(","):
        return "remove the trailing comma"
    if exc.msg.startswith("Expecting value") and before.endswith(","):
        return "remove the trailing comma"
    if exc.msg.startswith("Expecting property name") and text[exc.pos : exc.pos + 1] == "'":
        return "JSON strings and names take double quotes"
    if exc.msg.startswith("Unterminated string"):
        closing = text.find('"', exc.pos + 1)
        return "the file ends too early: is it cut short?" if closing < 0 else 'close the string with "'
    if exc.msg.startswith("Invalid control character"):
        return "write a line break inside a string as \\n"
    if exc.msg.startswith("Extra data"):
        return "a file holds one JSON value: wrap several cards in [ ... ]"
    return None


def records_from_data(data: object, path: Path) -> tuple[list[Record], list[Problem]]:
    """Split parsed JSON into card records (see the module docstring for the shapes); a translation overlay (an object
    with a top-level ``lang`` key) gives none."""
    where = str(path)
    if isinstance(data, list):
        items, base, game = data, "$", None
    elif isinstance(data, dict) and "lang" in data:  # translations (printer.cards.translations), read apart
        return [], []
    elif isinstance(data, dict) and "cards" in data:
        items, base = data["cards"], "$.cards"
        game = data.get("game") if isinstance(data.get("game"), str) else _game_from_schema(data.get("$schema"))
        if not isinstance(items, list):
            return [], [Problem(f"{where}::$.cards", "'cards' must be a list of card objects", code="schema")]
    elif isinstance(data, dict):
        game = data.get("game") if isinstance(data.get("game"), str) else _game_from_schema(data.get("$schema"))
        return [Record(data, path, "$", game)], []
    else:
        return [], [
            Problem(f"{where}::$", f"a card file holds an object or an array, not {json_type(data)}", code="schema")
        ]
    records, problems = [], []
    for i, item in enumerate(items):
        pointer = f"{base}[{i}]"
        if not isinstance(item, dict):
            problems.append(
                Problem(f"{where}::{pointer}", f"a card is an object, not {json_type(item)}", code="schema")
            )
            continue
        records.append(Record(item, path, pointer, item.get("game") if isinstance(item.get("game"), str) else game))
    return records, problems


def _game_from_schema(ref: object) -> str | None:
    """The game folder named in a ``$schema`` reference such as ``.../schema/starfall/card.schema.json``."""
    if not isinstance(ref, str):
        return None
    parts = ref.replace("\\", "/").split("/")
    for before, name in zip(parts, parts[1:]):
        if before == "schema" and name and not name.endswith(".json"):
            return name
    return None


#: the endings of card files: JSON, and the spreadsheets printer.cards.spreadsheet reads
CARD_SUFFIXES = (".json", ".csv", ".xlsx", ".xlsm", ".xls", ".ods")


def card_files(paths: list[Path]) -> Iterator[Path]:
    """Every card file (``*.json`` and spreadsheets, :data:`CARD_SUFFIXES`) under ``paths`` (files are yielded
    as given), sorted. Files whose name starts with ``.`` or ``~$`` (a spreadsheet program's lock file) are
    skipped."""
    for path in paths:
        if path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if name.lower().endswith(CARD_SUFFIXES) and not name.startswith((".", "~$")):
                        yield Path(folder) / name
        else:
            yield path


#: what :func:`load_records` may keep between calls: a JSON card file's records and problems by its size and time
FileCache = dict[Path, tuple[tuple[int, ...] | None, list[Record], list[Problem]]]


def load_records(paths: list[Path], cache: FileCache | None = None) -> tuple[list[Record], list[Problem]]:
    """Read every card file under ``paths``; returns all records and all problems.

    ``cache`` (a dict the caller keeps, e.g. a preview server reading the
    same folders after each save) skips JSON files whose size, modification
    time (of content and of status) and inode did not change since they were read into it.
    """
    records: list[Record] = []
    problems: list[Problem] = []
    for folder in paths:
        if Path(folder).is_dir() and next(card_files([Path(folder)]), None) is None:
            problems.append(
                Problem(
                    str(folder),
                    "no card files (*.json, *.csv, *.xlsx, *.ods) in this folder",
                    severity=WARNING,
                    code="no-cards",
                )
            )
    for folder in paths:
        for file in card_files([folder]):
            if not file.exists():
                problems.append(Problem(str(file), "no such file or folder", code="not-found"))
                continue
            if Path(folder).is_dir() and not is_inside(file, [folder]):  # a link out of the folder: never followed
                problems.append(
                    Problem(
                        str(file),
                        f"a symbolic link out of the card folder (to {os.path.realpath(file)}); not read",
                        "copy the file into the project instead of linking to it",
                        code="outside-project",
                    )
                )
                continue
            _read_cached(file, records, problems, cache)
    return records, problems


def _read_cached(file: Path, records: list[Record], problems: list[Problem], cache: FileCache | None) -> None:
    if cache is None or file.suffix.lower() != ".json":  # spreadsheet rows are typed in place later: read afresh
        _read_into(file, records, problems)
        return
    try:
        st = file.stat()
        signature = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    except OSError:
        signature = None
    kept = cache.get(file)
    if signature is None or kept is None or kept[0] != signature:
        more: list[Record] = []
        found: list[Problem] = []
        _read_into(file, more, found)
        kept = (signature, more, found) if signature is not None else (None, more, found)
        if signature is not None:
            cache[file] = kept
    records += kept[1]
    problems += kept[2]


def _read_into(file: Path, records: list[Record], problems: list[Problem]) -> None:
    """Read one card file's records into ``records`` and its problems into ``problems``."""
    if file.suffix.lower() in CARD_SUFFIXES[1:]:  # a spreadsheet: cells are typed later, by the schema
        from printer.cards.spreadsheet import read_records

        special = regular_file_problem(file)
        rows, found = ([], [special]) if special else read_records(file)
        records += rows
        problems += found
        return
    data, found, objects = parse_json(file)
    problems += found
    if data is not None:
        more, found = records_from_data(data, file)
        wrapper = isinstance(data, dict) and not (len(more) == 1 and more[0].data is data)
        if objects == len(more) + wrapper:  # the file's only objects are its cards and their wrapper
            for record in more:
                record.flat = True
        records += more
        problems += found
