"""The line and column of a JSON path in a JSON file, for problems located by path (``file::$.cards[2].cost``).

A stage locates a card's problems by JSON path, which it knows without reading the text again; the line and column
are found afterwards, only for the files that have problems (:func:`with_lines`), by one pass over each such file's
text that follows the paths asked for, passes over every other value with the C JSON scanner and stops once it
has seen them all (the last card of a 1.3 MB file in a few hundredths of a second). A valid card costs nothing
here.

A member of an object is placed at its key (``"cost": 3``: the ``"`` of ``"cost"``), an item of a list at its value.
A path that is not in the file (a required field that is missing) is placed at the nearest enclosing value there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, MutableMapping
from pathlib import Path
from typing import Any

from printer.cards.record import MAX_FILE_BYTES
from printer.problems import Location, Problem

#: one step of a JSON path as printer writes it (:func:`printer.cards.record.json_key`): .name, [3], ["two words"]
_STEP = re.compile(r'\.([^.\[]+)|\[([0-9]+)\]|\[("(?:[^"\\]|\\.)*")\]')
_STEPS = re.compile(r'(?:\.[^.\[]+|\[[0-9]+\]|\[("(?:[^"\\]|\\.)*")\])*')
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')

Steps = tuple[str | int, ...]
#: problems placed at their lines by one call at most; the others keep their JSON paths (a card of 100,000 unknown
#: fields is reported field by field: placing every one would cost seconds more)
MAX_PLACED = 10_000
#: where a file's paths were found: ``{(file, mtime_ns, size): {steps: (line, column)}}`` (:func:`with_lines`)
Positions = MutableMapping[tuple[str, int, int], dict[Steps, tuple[int, int]]]


def path_steps(path: str) -> Steps | None:
    """``$.cards[2].cost`` -> ``("cards", 2, "cost")``; ``None`` for text that is not a JSON path."""
    if not path.startswith("$") or not _STEPS.fullmatch(path, 1):
        return None
    return tuple(
        name if name else int(index) if index else json.loads(quoted) for name, index, quoted in _STEP.findall(path, 1)
    )


def find_paths(text: str, wanted: Iterable[Steps]) -> dict[Steps, tuple[int, int]]:
    """The 1-based ``(line, column)`` in the JSON ``text`` of each path of ``wanted`` found there and of each
    enclosing path (so that a missing one can be placed at its parent). Text that is not JSON gives what was found
    before it went wrong."""
    targets: set[Steps] = set()
    for steps in wanted:
        targets.update(steps[:end] for end in range(len(steps) + 1))
    found: dict[Steps, int] = {}
    stack: list[list[int]] = []  # per open container: [is an object, index of the item, expecting a key]
    path: list[str | int] = []
    skip = json.JSONDecoder().raw_decode  # a value no path asked for is passed over by the C scanner
    at = 0
    while (token := _TOKEN.search(text, at)) is not None:
        at = token.end()
        kind = token.group()[0]
        top = stack[-1] if stack else None
        if top is not None and top[0] and top[2]:  # an object's key, or the end of an empty object
            if kind == '"':
                key = token.group()
                if "\\" in key:  # an escape: read by json
                    try:
                        key = json.loads(key)
                    except ValueError:
                        break
                else:
                    key = key[1:-1]
                path.append(key)
                top[2] = False
                if tuple(path) in targets:
                    found.setdefault(tuple(path), token.start())
                continue
            if kind != "}":
                break
            stack.pop()
        elif kind == ":":
            continue
        elif kind == ",":
            if top is None:
                break
            if top[0]:
                top[2] = True
                path.pop()
            else:
                top[1] += 1
                path[-1] = top[1]
            continue
        elif kind in "]}":
            if top is None:
                break
            stack.pop()
            path.pop()
        else:  # a value starts here
            here = tuple(path)
            if here not in targets:
                if kind in "{[":  # a list or object no path goes into: passed over whole
                    try:
                        at = skip(text, token.start())[1]
                    except ValueError:
                        break
                continue
            if top is None or not top[0]:  # the root or an item of a list: placed at its value
                found.setdefault(here, token.start())
            if kind == "{":
                stack.append([True, 0, True])
            elif kind == "[":
                stack.append([False, 0, False])
                path.append(0)
            if len(found) == len(targets) or stack:
                if len(found) == len(targets):
                    break
                continue
        if not stack:
            break
    return _lines_and_columns(text, found)


def repeated_keys(text: str, limit: int = 20) -> list[tuple[Steps, tuple[int, int]]]:
    """The keys of the JSON ``text`` that appear again in their object, as ``(path, (line, column))`` of each repeat
    (the ``"`` of its key), in file order; at most ``limit``. Called only when a reader found a repeat (JSON
    keeps the last value, silently): the walk reads every token."""
    found: list[tuple[Steps, int]] = []
    frames: list[dict[str, Any]] = []  # per open container: is an object, keys so far, path at it, item or key next
    for token in _TOKEN.finditer(text):
        kind, top = token.group()[0], (frames[-1] if frames else None)
        if kind == '"' and top is not None and top["object"] and top["next_is_key"]:
            try:
                key = json.loads(token.group())
            except ValueError:
                break
            if key in top["keys"] and len(found) < limit:
                found.append(((*top["path"], key), token.start()))
            top["keys"].add(key)
            top["item"], top["next_is_key"] = key, False
        elif kind in "{[":
            here = () if top is None else (*top["path"], top["item"])
            frames.append({"object": kind == "{", "keys": set(), "path": here, "item": 0, "next_is_key": kind == "{"})
        elif kind in "}]":
            if not frames:
                break
            frames.pop()
        elif kind == "," and top is not None:
            if top["object"]:
                top["next_is_key"] = True
            else:
                top["item"] += 1
    return [(steps, _lines_and_columns(text, {(): offset})[()]) for steps, offset in found]


def _lines_and_columns(text: str, offsets: dict[Steps, int]) -> dict[Steps, tuple[int, int]]:
    """Each offset of ``offsets`` in ``text`` as a 1-based ``(line, column)``, counted in one walk over the text."""
    out: dict[Steps, tuple[int, int]] = {}
    line, start, at = 1, 0, 0
    for steps, offset in sorted(offsets.items(), key=lambda item: item[1]):
        newlines = text.count("\n", at, offset)
        if newlines:
            line += newlines
            start = text.rfind("\n", at, offset) + 1
        at = offset
        out[steps] = (line, offset - start + 1)
    return out


def with_lines(problems: list[Problem], root: Path | None = None, known: Positions | None = None) -> list[Problem]:
    """``problems`` with the line and column filled in where a problem is located by JSON path in a ``.json`` file
    and has no line: ``file::$.cards[2].cost`` becomes ``file:10:7 ($.cards[2].cost)``. A relative file is read
    under ``root`` (default: the current folder). Each such file is read once, and only when it has such a problem
    (the first :data:`MAX_PLACED` problems are placed);
    ``known`` keeps what was found by file, modification time and size, for a caller that asks again (``printer
    serve``). A file that cannot be read, or is over a card file's size limit, keeps its problems as they are."""
    by_file: dict[str, list[Steps]] = {}
    placed: list[tuple[Problem, Steps | None]] = []
    wanted = 0
    for problem in problems:
        place, steps = problem.where, None
        if (
            place.path is not None
            and place.line is None
            and place.cell is None
            and place.file.endswith(".json")
            and wanted < MAX_PLACED
        ):
            steps = path_steps(place.path)
            if steps is not None:
                by_file.setdefault(place.file, []).append(steps)
                wanted += 1
        placed.append((problem, steps))
    if not by_file:
        return problems
    positions = {name: _positions(name, wanted, root, known) for name, wanted in by_file.items()}
    out = []
    for problem, steps in placed:
        place = problem.where
        found = positions.get(place.file) if steps is not None else None
        while found is not None and steps and steps not in found:
            steps = steps[:-1]
        at = found.get(steps) if found is not None and steps is not None else None
        if at is not None:
            where = Location(place.file, at[0], at[1], place.path, place.sheet, place.cell, place.lang)
            problem = Problem(where, problem.message, problem.hint, problem.severity, problem.code)
        out.append(problem)
    return out


def _positions(
    name: str, wanted: list[Steps], root: Path | None, known: Positions | None
) -> dict[Steps, tuple[int, int]] | None:
    file = Path(name) if root is None else root / name
    try:
        stat = file.stat()
        if stat.st_size > MAX_FILE_BYTES:
            return None
        key = (str(file), stat.st_mtime_ns, stat.st_size)
        held = known.get(key) if known is not None else None
        if held is not None and all(steps in held or not steps for steps in wanted):
            return held
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    found = find_paths(text, wanted)
    if known is not None:
        for other in [k for k in known if k[0] == key[0] and k != key]:
            del known[other]
        known[key] = {**(held or {}), **found}
    return found
