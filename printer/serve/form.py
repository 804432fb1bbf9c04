"""The card editor's form, generated from the game's JSON Schema.

:func:`form_fields` reads a game's card schema (its ``properties``, those
of the schemas it extends through ``allOf``/``$ref``, and ``$defs``) into a
list of plain field descriptions the browser turns into inputs:

======================  ==========================================================
``kind``                input
======================  ==========================================================
``select``              an ``enum`` of strings (``options``)
``multi``               an array of an enum, or "one value or a list of them"
                        (``options``; ``scalar`` true when one value is written
                        as itself)
``boolean``             a check box
``integer``/``number``  a number input with ``minimum``/``maximum`` when given
``stat``                integer or string (``+2``, ``*``): a text input; digits
                        are saved as an integer
``textarea``            card text (with the game's icon palette), flavour, notes
``string``              a text input
``list``                an array of strings: one input per item, add and remove
``json``                anything else, as JSON text
======================  ==========================================================

:func:`required_fields` gives the fields required for a card's current data,
with the schema's ``if``/``then`` rules applied (a card type whose schema
requires a field only for that type gets it). Validation itself is the
validator's (:meth:`printer.cards.schema.SchemaStore.validate`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.cards.schema import SchemaStore

if TYPE_CHECKING:
    from referencing._core import Resolver

#: fields of the card file, not of the card: never shown in the form
_FILE_FIELDS = ("$schema", "game")
#: string fields written as card-text markup (printer.cards.markup): a text area with the icon palette
_MARKUP_FIELDS = ("text", "flavor")
_LONG_TEXT = 200


def _resolver(store: SchemaStore, schema_file: Path) -> tuple[dict[str, Any], Resolver[Any]]:
    root = store.schema(schema_file)
    base = root.get("$id")
    if not isinstance(base, str):
        base = schema_file.resolve().as_uri()
    return root, store.registry.resolver(base_uri=base)


def _deref(schema: object, resolver: Resolver[Any], depth: int = 0) -> tuple[dict[str, Any], Resolver[Any]]:
    """``schema`` with its ``$ref`` followed (its own keywords winning), and the resolver for what it holds."""
    if not isinstance(schema, dict):
        return {}, resolver
    if "$ref" in schema and depth < 10:
        resolved = resolver.lookup(schema["$ref"])
        inner, inner_resolver = _deref(resolved.contents, resolved.resolver, depth + 1)
        merged = {**inner, **{k: v for k, v in schema.items() if k != "$ref"}}
        return merged, inner_resolver
    return schema, resolver


def _walk(
    schema: dict[str, Any],
    resolver: Resolver[Any],
    found: dict[str, list[tuple[dict[str, Any], Resolver[Any]]]],
    required: list[str],
    depth: int = 0,
) -> None:
    schema, resolver = _deref(schema, resolver)
    for name, sub in (schema.get("properties") or {}).items():
        found.setdefault(name, []).append((sub, resolver))
    required += [r for r in schema.get("required", []) if isinstance(r, str)]
    if depth < 10:
        for part in schema.get("allOf", []):
            if isinstance(part, dict) and "if" not in part:
                _walk(part, resolver, found, required, depth + 1)


def _enum_strings(schema: dict[str, Any]) -> list[str] | None:
    values = schema.get("enum")
    if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
        return list(values)
    return None


def _describe(name: str, schema: dict[str, Any], resolver: Resolver[Any]) -> dict[str, Any]:
    schema, resolver = _deref(schema, resolver)
    field: dict[str, Any] = {"name": name, "description": schema.get("description", "")}
    options = _enum_strings(schema)
    kind = schema.get("type")
    if options:
        return {**field, "kind": "select", "options": options}
    for combinator in ("oneOf", "anyOf"):
        branches = [_deref(b, resolver)[0] for b in schema.get(combinator, [])]
        if len(branches) == 2:
            single = next((_enum_strings(b) for b in branches if _enum_strings(b)), None)
            listed = next((b for b in branches if b.get("type") == "array"), None)
            if single and listed is not None:
                return {**field, "kind": "multi", "options": single, "scalar": True}
    if kind == "boolean":
        return {**field, "kind": "boolean"}
    if kind in ("integer", "number"):
        limits = {k: schema[k] for k in ("minimum", "maximum") if isinstance(schema.get(k), (int, float))}
        return {**field, "kind": kind, **limits}
    if isinstance(kind, list) and set(kind) <= {"integer", "string", "number"} and "string" in kind:
        return {**field, "kind": "stat"}
    if kind == "string":
        long = name in _MARKUP_FIELDS or name in ("notes", "errata") or schema.get("maxLength", 0) > _LONG_TEXT
        out = {**field, "kind": "textarea" if long else "string", "icons": name in _MARKUP_FIELDS}
        if isinstance(schema.get("maxLength"), int):
            out["maxLength"] = schema["maxLength"]
        return out
    if kind == "array":
        items, _ = _deref(schema.get("items") or {}, resolver)
        options = _enum_strings(items)
        if options:
            return {**field, "kind": "multi", "options": options, "scalar": False}
        if items.get("type") == "string":
            return {**field, "kind": "list"}
    return {**field, "kind": "json"}


def form_fields(store: SchemaStore, schema_file: Path) -> list[dict[str, Any]]:
    """The form of a game's cards: one plain dict per field (see the module docstring), in a designer's order.

    The order: the required fields (id, title, type and the game's own), the
    card text and flavour, then the game's own fields, then the rest of the
    base ones. A field's
    description comes from the most specific schema that gives one.
    """
    root, resolver = _resolver(store, schema_file)
    found: dict[str, list[tuple[dict[str, Any], Resolver[Any]]]] = {}
    required: list[str] = []
    _walk(root, resolver, found, required)
    own = list((root.get("properties") or {}).keys())
    names = [n for n in found if n not in _FILE_FIELDS]
    first: list[str] = [
        n for n in ("id", "title", "type") if n in names
    ]  # what every card has (schema/card.schema.json)
    first += [n for n in names if n in required and n not in first]
    first += [n for n in _MARKUP_FIELDS if n in names and n not in first]  # the card text, which a designer edits most
    order = first + [n for n in own if n in names and n not in first] + [n for n in names if n not in first + own]
    fields = []
    for name in order:
        merged: dict[str, Any] = {}
        for sub, sub_resolver in reversed(found[name]):  # the game's own schema last: its keywords win
            resolved, _ = _deref(sub, sub_resolver)
            merged.update(resolved)
        last_resolver = found[name][0][1]
        field = _describe(name, merged, last_resolver)
        field["required"] = name in required
        fields.append(field)
    return fields


def required_fields(store: SchemaStore, schema_file: Path, data: dict[str, Any]) -> list[str]:
    """The fields ``data`` must have: the schema's ``required`` plus those of each ``if``/``then`` whose ``if`` holds."""
    root, resolver = _resolver(store, schema_file)
    found: dict[str, list[tuple[dict[str, Any], Resolver[Any]]]] = {}
    required: list[str] = []
    _walk(root, resolver, found, required)
    validator = store.validator(schema_file)
    for part in root.get("allOf", []):
        if isinstance(part, dict) and isinstance(part.get("if"), dict) and isinstance(part.get("then"), dict):
            try:
                holds = validator.evolve(schema=part["if"]).is_valid(data)
            except Exception:  # an ``if`` with a reference this shortcut cannot follow: say nothing
                holds = False
            if holds:
                required += [r for r in part["then"].get("required", []) if isinstance(r, str)]
    return list(dict.fromkeys(required))
