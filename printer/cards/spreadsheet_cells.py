"""A spreadsheet row's cells typed by the game's schema (:mod:`printer.cards.spreadsheet` reads the rows).

:class:`SchemaTypes` gives the JSON type of each field of a schema; :func:`convert` fills a
:class:`~printer.cards.spreadsheet.SheetRecord`'s data from its raw cells by those types: whole numbers for
``integer`` (Excel stores every number as a float: ``1.0`` becomes ``1``, ``1.5`` is an error), numbers, booleans
(``TRUE``/``FALSE``, ``true``/``false``, ``yes``/``no``), enum values and strings (``0100`` keeps its zeros); a list
cell's items are separated by ``;`` or written as a JSON array. A ``copies`` cell must hold a whole number. Each
problem is located at its cell.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from printer.cards.record import json_key, json_type
from printer.cards.spreadsheet import LIST_SEPARATOR, SheetRecord, _blank
from printer.jsonvalue import JSON, JSONObject
from printer.problems import Problem

if TYPE_CHECKING:
    from referencing._core import Resolver

    from printer.cards.schema import SchemaStore

#: a schema node and the resolver its ``$ref`` resolves against
_Node = tuple[JSONObject, "Resolver[JSON]"]


@dataclass
class FieldType:
    """What the schema says about one field: its JSON ``types``, ``enum`` values and list ``items``."""

    types: set[str] = field(default_factory=set)
    enum: list[JSON] = field(default_factory=list)
    items: FieldType | None = None


class SchemaTypes:
    """The field types of one schema, following ``$ref``, ``allOf``/``anyOf``/``oneOf`` and ``if``/``then``/``else``.

    ``store`` is a :class:`~printer.cards.schema.SchemaStore`.
    """

    def __init__(self, store: SchemaStore, schema_file: Path) -> None:
        root = store.schema(schema_file)
        root_id = root.get("$id")
        base = root_id if isinstance(root_id, str) else schema_file.resolve().as_uri()
        self._roots: list[_Node] = [(root, store.registry.resolver(base_uri=base))]
        self._cache: dict[tuple[str, ...], FieldType] = {}

    @staticmethod
    def _expand(nodes: list[_Node]) -> list[_Node]:
        out: list[_Node] = []
        stack, seen = list(nodes), 0
        while stack and seen < 2000:
            seen += 1
            schema, resolver = stack.pop()
            if not isinstance(schema, dict):
                continue
            out.append((schema, resolver))
            if isinstance(schema.get("$ref"), str):
                try:
                    resolved = resolver.lookup(schema["$ref"])
                    stack.append((resolved.contents, resolved.resolver))
                except Exception:
                    pass
            for key in ("allOf", "anyOf", "oneOf"):
                stack += [(part, resolver) for part in schema.get(key, []) if isinstance(part, dict)]
            for key in ("then", "else"):
                if isinstance(schema.get(key), dict):
                    stack.append((schema[key], resolver))
        return out

    def _nodes(self, path: tuple[str, ...]) -> list[_Node]:
        nodes = self._expand(self._roots)
        for part in path:
            nodes = self._expand(
                [
                    (s["properties"][part], r)
                    for s, r in nodes
                    if isinstance(s.get("properties"), dict) and part in s["properties"]
                ]
            )
        return nodes

    def _describe(self, nodes: list[_Node]) -> FieldType:
        kind = FieldType()
        items: list[_Node] = []
        for schema, resolver in nodes:
            t = schema.get("type")
            kind.types |= set(t) if isinstance(t, list) else {t} if isinstance(t, str) else set()
            values = schema["enum"] if isinstance(schema.get("enum"), list) else []
            values = values + [schema["const"]] if "const" in schema else values
            kind.enum += [v for v in values if v not in kind.enum]
            if not t:  # an enum or const without a type: its values say
                kind.types |= {_json_kind(v) for v in values}
            if isinstance(schema.get("items"), dict):
                items.append((schema["items"], resolver))
        if items:
            kind.items = self._describe(self._expand(items))
            kind.types.add("array")
        return kind

    def of(self, path: tuple[str, ...]) -> FieldType:
        """The :class:`FieldType` of the field at ``path`` (``("cost", "gold")``); empty when the schema has none."""
        if path not in self._cache:
            self._cache[path] = self._describe(self._nodes(path))
        return self._cache[path]


def read_cell(value: object, kind: FieldType, typed: bool) -> object:
    """One cell's ``value`` as the JSON a field of ``kind`` takes (as :func:`convert` reads a card's cells; ``typed``:
    a workbook's cell, not CSV text). Raises ``ValueError`` whose message says why it cannot be read."""
    return _convert(value, kind, typed)


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "null"


class _Bad(ValueError):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


_INT = re.compile(r"[+-]?[0-9]+")
_TRUE = {"true", "yes", "y", "1", "x"}
_FALSE = {"false", "no", "n", "0"}


def _number(value: object) -> float | int:
    if isinstance(value, bool):
        raise _Bad(f"{json_type(value)} is not a number")
    if isinstance(value, (int, float)):
        return value
    text = str(value).strip()
    if _INT.fullmatch(text):
        return int(text)
    try:
        number = float(text.replace(",", ".") if text.count(",") == 1 and "." not in text else text)
    except ValueError:
        raise _Bad(f"{json_type(text)} is not a number") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise _Bad(f"{json_type(text)} is not a number")
    return number


def _whole(value: object) -> int:
    number = _number(value)
    if isinstance(number, float):
        if not number.is_integer():
            raise _Bad(f"{number:g} is not a whole number", "this field takes an integer")
        return int(number)
    return number


def _convert(value: object, kind: FieldType, typed: bool, depth: int = 0) -> object:
    """One cell's value as the JSON the schema wants (see the module docstring); raises :class:`_Bad`."""
    types = kind.types
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        value = value.isoformat()
    elif isinstance(value, _dt.timedelta):
        value = str(value)
    if "array" in types and depth == 0 and not isinstance(value, list):
        if isinstance(value, str) and value.lstrip().startswith("["):
            try:
                items = json.loads(value)
            except ValueError as exc:
                raise _Bad(f"the cell starts with '[' but is not a JSON array: {exc}") from None
            if not isinstance(items, list):
                raise _Bad("the cell is not a JSON array")
            return [
                _convert(v, kind.items or FieldType(), True, 1) if not isinstance(v, (dict, list)) else v for v in items
            ]
        if not (types - {"array"}) or not isinstance(value, str) or LIST_SEPARATOR in value:
            text = value if isinstance(value, str) else _text(value)
            parts = [p.strip() for p in text.split(LIST_SEPARATOR)]
            return [_convert(p, kind.items or FieldType(), typed, 1) for p in parts if p]
    if "object" in types and isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            return json.loads(value)
        except ValueError as exc:
            raise _Bad(f"the cell starts with '{{' but is not a JSON object: {exc}") from None
    if isinstance(value, str) and kind.enum and value in kind.enum:
        return value
    if isinstance(value, str) and "string" in types:
        return value if typed else _csv_text(value, types)
    if isinstance(value, float) and "integer" in types and "number" not in types:
        return _whole(value)  # a numeric cell where a whole number is wanted: 1.0 is 1, 1.5 is an error
    if "integer" in types:
        try:
            return _whole(value)
        except _Bad:
            if not ({"number", "boolean", "string"} & types):
                raise
    if "number" in types:
        try:
            number = _number(value)
            return int(number) if isinstance(number, float) and number.is_integer() else number
        except _Bad:
            if not ({"boolean", "string"} & types):
                raise
    if "boolean" in types:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        if "string" not in types:
            raise _Bad(f"{json_type(value)} is not a yes/no value", "write TRUE or FALSE")
    if "string" in types or not types:
        if isinstance(value, float) and value.is_integer() and ("string" in types or not types):
            return str(int(value)) if "string" in types else int(value)
        return value if isinstance(value, str) or not types else _text(value)
    return value  # the schema's own check will say what is wrong


def _csv_text(value: str, types: set[str]) -> object:
    """A CSV cell where the schema takes a string or something else: only the canonical form of a number
    (``3``, not ``03`` or ``+3``) or ``true``/``false`` is read as one; anything else stays text, and so does a
    JSON string in double quotes (``"-1"``)."""
    text = value.strip()
    if not (types & {"integer", "number", "boolean"}):
        return value
    if len(text) >= 2 and text[0] == text[-1] == '"':  # "-1" in quotes: text, as written
        try:
            quoted = json.loads(text)
        except ValueError:
            quoted = None
        if isinstance(quoted, str):
            return quoted
    if "integer" in types and _INT.fullmatch(text) and str(int(text)) == text:
        return int(text)
    if "number" in types:
        try:
            number = float(text)
        except ValueError:
            number = None
        if number is not None and (repr(number) == text or (_INT.fullmatch(text) and str(int(text)) == text)):
            return int(text) if _INT.fullmatch(text) else number
    if "boolean" in types and text in ("true", "false"):
        return text == "true"
    return value


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def convert(record: SheetRecord, types: SchemaTypes) -> list[Problem]:
    """Fill ``record.data`` from its raw cells by the schema's field ``types``; returns the cells' problems.

    A problem is located at its cell (``file:Sheet!C7 ($.force)``) and the
    cell is left out of the data; a row with such a problem is not
    validated further.
    """
    problems: list[Problem] = []
    data: JSONObject = {}
    for header, value in record.cells.items():
        parts = tuple(header.split("."))
        path = "".join(json_key(p) for p in parts)
        if header == "copies" and _blank(value):
            problems.append(
                Problem(
                    record.where(path),
                    "the copies cell is empty",
                    "write how many copies to print (0 leaves the card out of the print run on purpose)",
                    code="copies",
                )
            )
            continue
        converted: object
        try:
            if header == "copies":
                converted = _whole(value)
            else:
                converted = _convert(value, types.of(parts), record.typed)
        except _Bad as bad:
            problems.append(Problem(record.where(path), bad.message, bad.hint, code="cell"))
            continue
        parent = next((".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in record.cells), None)
        if parent is not None or any(h.startswith(header + ".") for h in record.cells):
            other = parent or next(h for h in record.cells if h.startswith(header + "."))
            problems.append(
                Problem(
                    record.where(path),
                    f"both {header!r} and {other!r} are filled in",
                    f"write the field either whole in {min(header, other, key=len)!r} or by its dotted parts",
                    code="cell",
                )
            )
            continue
        target = data
        for part in parts[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                break
        else:
            target[parts[-1]] = converted
    record.data = data
    record.converted = True
    return problems


__all__ = ["FieldType", "SchemaTypes", "convert", "read_cell"]
