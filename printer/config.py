"""Checking ``printer.toml`` against its own schema, with every problem at its line.

``printer.toml`` is validated by ``schema/config/printer-toml.schema.json``
(bundled with printer): an unknown key is an error naming the closest known
one (``backfield`` -> ``back_field``), a value of the wrong type or outside
its list is an error, and each is located ``printer.toml:12:1`` (TOML
readers give no positions, so the line of a key is found by a light scan of
the text: table headers and ``key =`` lines). Values are then checked by the
same parsers the build uses (card size, paper size, lengths, back offset),
and the files a game names must exist: its schema, a ``card.html.j2`` and a
``card.css`` on its template search path (a stylesheet by another name is a misnamed ``card.css``), a ``sheet_layout`` file, a
``cards`` or ``rules`` folder set explicitly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from printer.jsonvalue import JSONObject
from printer.location import Location
from printer.problems import ERROR, Problem, UsageError, counted, did_you_mean

SCHEMA_NAME = "config/printer-toml.schema.json"
_KEY = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+')


class _GameFiles(Protocol):
    """What :func:`check_game_files` reads of a game (a :class:`printer.project.Game`)."""

    @property
    def id(self) -> str: ...
    @property
    def schema(self) -> Path: ...
    @property
    def template_dirs(self) -> list[Path]: ...
    @property
    def settings(self) -> dict[str, Any]: ...


class _ProjectFiles(Protocol):
    """What :func:`check_game_files` reads of a project (a :class:`printer.project.Project`)."""

    @property
    def root(self) -> Path: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    @property
    def games(self) -> Mapping[str, _GameFiles]: ...


def _schema(name: str) -> JSONObject:
    from printer.paths import bundled_schema

    schema: JSONObject = json.loads(bundled_schema(name).read_text(encoding="utf-8"))
    return schema


def _no_retrieval(uri: str) -> object:
    """printer.toml's schema refers to no other schema."""
    raise LookupError(uri)


def _unquote(token: str) -> str:
    if token.startswith('"'):
        try:
            value: str = json.loads(token)
            return value
        except ValueError:
            return token.strip('"')
    return token.strip("'")


def _dotted(text: str) -> tuple[list[str], int] | None:
    """The parts of a dotted key at the start of ``text`` and where the key ends, or ``None``."""
    parts, pos = [], 0
    while True:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        match = _KEY.match(text, pos)
        if not match:
            return None
        parts.append(_unquote(match.group(0)))
        pos = match.end()
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if pos < len(text) and text[pos] == ".":
            pos += 1
            continue
        return parts, pos


def key_lines(text: str) -> dict[tuple[str, ...], tuple[int, int]]:
    """``{("games", "mygame", "back_field"): (line, column)}`` for every table header and ``key =`` line.

    Keys of inline tables are not listed: a problem inside one is at its key's line.
    """
    found: dict[tuple[str, ...], tuple[int, int]] = {}
    table: tuple[str, ...] = ()
    in_string = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string:
            if in_string in line:
                in_string = None
            continue
        stripped = line.lstrip()
        column = len(line) - len(stripped) + 1
        if stripped.startswith("["):
            inner = stripped[2:] if stripped.startswith("[[") else stripped[1:]
            parsed = _dotted(inner)
            if parsed:
                table = tuple(parsed[0])
                found.setdefault(table, (number, column))
            continue
        parsed = _dotted(stripped)
        if parsed and stripped[parsed[1] : parsed[1] + 1] == "=":
            found.setdefault(table + tuple(parsed[0]), (number, column))
            rest = stripped[parsed[1] + 1 :]
            for quote in ('"""', "'''"):
                if rest.count(quote) == 1:
                    in_string = quote
    return found


def locate(path: Path | str, lines: dict[tuple[str, ...], tuple[int, int]], keys: tuple[str, ...]) -> Location:
    """``file:line:col`` of the longest prefix of ``keys`` found by :func:`key_lines`; ``file`` when none."""
    for end in range(len(keys), 0, -1):
        if tuple(keys[:end]) in lines:
            line, column = lines[tuple(keys[:end])]
            return Location(str(path), line, column)
    return Location(str(path))


def check_project_file(
    path: Path, text: str, data: JSONObject, max_mm: float | None = None, bad: set[tuple[str, ...]] | None = None
) -> list[Problem]:
    """Every problem of ``printer.toml`` (its ``text`` and parsed ``data``) against its schema and value parsers;
    ``max_mm`` is the project's ``size_mm`` limit (default: printer's). ``bad``, when given, gets the keys whose
    value the schema refuses (``("games", "mygame", "cards")``; ``()`` for the whole file): a value below one of
    them is not read further, here or by the caller."""
    from printer.units import CARD_SIZES, PAPER_SIZES, parse_length, parse_offset, parse_size

    lines = key_lines(text)
    schema = _schema(SCHEMA_NAME)
    bad = set() if bad is None else bad
    problems = _schema_problems(path, lines, schema, data, bad)

    def checked(keys: tuple[str, ...], check: Callable[..., object]) -> None:
        if refused(keys, bad):  # the schema's problem is the one to fix; the parser would only say it again
            return
        try:
            check()
        except UsageError as exc:
            for problem in exc.problems or [Problem(str(path), str(exc))]:
                problems.append(Problem(locate(path, lines, keys), problem.message, problem.hint, code="config"))

    tables: list[tuple[tuple[str, ...], Any]] = [(("project",), data.get("project") or {})]
    games = data.get("games")
    tables += [(("games", gid), table) for gid, table in (games.items() if isinstance(games, dict) else ())]
    for keys, table in tables:
        if not isinstance(table, dict):
            continue
        if "card_size" in table:
            checked(keys + ("card_size",), lambda t=table: parse_size(t["card_size"], CARD_SIZES, "card size", max_mm))
        if "paper" in table:
            checked(keys + ("paper",), lambda t=table: parse_size(t["paper"], PAPER_SIZES, "paper size", max_mm))
        for key in ("margin", "gutter", "bleed", "safe", "mark_length", "mark_offset", "corner_radius"):
            if key in table:
                checked(keys + (key,), lambda t=table, k=key: parse_length(t[k], k, "printer.toml", max_mm=max_mm))
        if "back_offset" in table:
            checked(
                keys + ("back_offset",),
                lambda t=table: parse_offset(t["back_offset"], "back_offset", max_mm=max_mm),
            )
    return problems


def refused(keys: tuple[str, ...], bad: set[tuple[str, ...]]) -> bool:
    """Whether the value at ``keys`` is, or is inside, one the schema refused (a key of ``bad``)."""
    return any(keys[: len(b)] == b for b in bad)


def _schema_problems(
    path: Path,
    lines: dict[tuple[str, ...], tuple[int, int]],
    schema: JSONObject,
    data: JSONObject,
    bad: set[tuple[str, ...]],
) -> list[Problem]:
    from printer.fastschema import compile_fast

    fast = compile_fast(schema, None, _no_retrieval, check_formats=False)  # the verdict; python-jsonschema explains
    try:
        if fast is not None and fast.is_valid(data):
            return []
    except Exception:  # noqa: BLE001 - data jsonschema-rs cannot take is checked the slow way
        pass
    import jsonschema

    problems = []
    validator = jsonschema.Draft202012Validator(schema)
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        keys = tuple(str(p) for p in error.absolute_path)
        if error.validator == "additionalProperties":
            known = list((error.schema.get("properties") or {}) if isinstance(error.schema, dict) else {})
            extra = [k for k in (error.instance or {}) if k not in known]
            for name in extra:
                where = locate(path, lines, keys + (name,))
                table = "[" + ".".join(keys) + "]" if keys else "the top level"
                problems.append(
                    Problem(
                        where,
                        f"unknown key {name!r} in {table}",
                        did_you_mean(name, known) or ("known keys: " + ", ".join(known) if known else None),
                        code="config",
                    )
                )
            continue
        if error.validator != "required":  # a key missing leaves the values there as good as they were
            bad.add(keys)
        where = locate(path, lines, keys)
        if error.validator == "enum":
            options = [str(o) for o in error.validator_value]
            message = f"{keys[-1] if keys else 'value'} = {error.instance!r} is not one of {', '.join(options)}"
            hint = did_you_mean(str(error.instance), options)
        elif error.validator == "type":
            expected = error.validator_value
            expected = " or ".join(expected) if isinstance(expected, list) else expected
            message = f"{keys[-1] if keys else 'value'} should be of type {expected}, not {error.instance!r}"
            hint = error.schema.get("description") if isinstance(error.schema, dict) else None
        else:
            message = error.message
            hint = error.schema.get("description") if isinstance(error.schema, dict) else None
        problems.append(Problem(where, message, hint, code="config"))
    return problems


def check_game_files(path: Path, text: str, data: JSONObject, project: _ProjectFiles) -> list[Problem]:
    """The files ``printer.toml`` names or implies exist: each game's schema, ``card.html.j2`` and ``card.css`` on
    its template path, its ``sheet_layout`` file, and the ``cards``/``rules``/``templates`` folders it sets."""
    lines = key_lines(text)
    problems: list[Problem] = []
    layouts: list[tuple[tuple[str, ...], object]] = [(("project",), project.settings.get("sheet_layout"))]
    for game in project.games.values():
        keys: tuple[str, ...] = ("games", game.id)
        if not game.schema.is_file():
            problems.append(
                Problem(
                    locate(path, lines, keys + ("schema",)),
                    f"game {game.id!r}: schema file {game.schema} not found",
                    f'write schema/{game.id}/card.schema.json, or set schema = "..." in [games.{game.id}]',
                    code="missing-file",
                )
            )
        table = (data.get("games") or {}).get(game.id) or {}
        for key in ("templates", "cards", "rules"):
            value = table.get(key)
            if isinstance(value, str) and not (project.root / value).is_dir():
                problems.append(
                    Problem(
                        locate(path, lines, keys + (key,)),
                        f"{key} folder {value!r} not found",
                        _near(project.root / value),
                        code="missing-file",
                    )
                )
        for name, others in (("card.html.j2", "card*.html.j2"), ("card.css", "*.css")):
            if any((folder / name).is_file() for folder in game.template_dirs):
                continue
            own = [p.name for f in game.template_dirs[:1] for p in f.glob(others) if f.name == game.id]
            # a game may style its cards inline, or have only per-type card-<type>.html.j2 templates: then none is
            # needed; a stylesheet by another name (cards.css) is a misnamed card.css
            if (name == "card.css" and own) or (name == "card.html.j2" and not own):
                problems.append(
                    Problem(
                        locate(path, lines, keys),
                        f"game {game.id!r}: no {name} in its templates ({_dirs(game, project.root)})",
                        _near_in(game.template_dirs, name),
                        code="missing-file",
                    )
                )
        layouts.append((keys, game.settings.get("sheet_layout")))
    for keys, layout in layouts:
        if isinstance(layout, str) and not (project.root / layout).is_file():
            problems.append(
                Problem(
                    locate(path, lines, keys + ("sheet_layout",)),
                    f"sheet layout file {layout!r} not found",
                    _near(project.root / layout),
                    code="missing-file",
                )
            )
    return problems


def _dirs(game: _GameFiles, root: Path) -> str:
    shown = []
    for folder in game.template_dirs[:2]:
        try:
            shown.append(str(folder.relative_to(root.resolve())) + "/")
        except ValueError:
            shown.append(str(folder) + "/")
    return ", ".join(shown) or f"templates/{game.id}/ does not exist"


def _near(path: Path) -> str | None:
    folder = path.parent
    if not folder.is_dir():
        return None
    return did_you_mean(path.name, [p.name for p in folder.iterdir()])


#: the template files with a role of their own: never the misnamed file another of them stands for
_ROLES = frozenset({"card.html.j2", "back.html.j2", "card.css", "sheet.html.j2", "placeholder.html.j2"})


def _near_in(folders: list[Path], name: str) -> str | None:
    suffix = Path(name).suffix
    candidates = [
        p.name
        for f in folders[:1]
        if f.is_dir()
        for p in f.iterdir()
        if p.name.endswith(suffix) and p.name not in _ROLES
    ]
    if candidates:
        return did_you_mean(name, candidates) or (f"rename it to {name}" if len(candidates) == 1 else None)
    return f"write {name}: printer init writes one to start from" if name in _ROLES else None


def raise_if_errors(problems: list[Problem], path: Path) -> None:
    """Raise :class:`UsageError` (exit 2) listing ``problems`` when any is an error."""
    bad = [p for p in problems if p.severity == ERROR]
    if bad:
        raise UsageError(f"{path}: {counted(len(bad), 'problem')}", problems)
