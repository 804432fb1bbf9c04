"""JSON deck files (``schema/deck.schema.json``), read with the line of each card.

Shape::

    {
      "$schema": "https://printer.invalid/schema/deck.schema.json",
      "name": "Storm",                  (optional)
      "game": "starfall",               (optional)
      "format": "starfall-standard",    (optional: the default for --format)
      "cards": [
        {"count": 1, "name": "The Tower of Winds", "section": "Leader"},
        {"count": 3, "name": "Captain Ardent", "section": "Main deck"}
      ]
    }

Every card object becomes an :class:`~printer.decks.readers.text.Entry` whose
``line`` is the line of its opening ``{``. Schema problems are located
``file::$.cards[3].count``; a file with any error yields no entries.
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.decks.readers.decklist import Decklist, Entry
from printer.problems import Problem

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore


class _LineDict(dict[str, Any]):
    """A JSON object that remembers the line it starts on."""

    line = 0


def _loads_with_lines(text: str) -> Any:
    """``json.loads`` whose objects are :class:`_LineDict` with their line number."""
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]
    decoder = json.JSONDecoder()

    def parse_object(
        s_and_end: tuple[str, int],
        strict: bool,
        scan_once: Callable[[str, int], tuple[Any, int]],
        object_hook: Callable[[dict[str, Any]], Any] | None,
        object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None,
        memo: dict[str, str] | None = None,
        _w: Callable[[str, int], re.Match[str] | None] = json.decoder.WHITESPACE.match,  # type: ignore[attr-defined]  # real, left out of typeshed's stubs
    ) -> tuple[_LineDict, int]:
        start = s_and_end[1] - 1  # the '{'
        # the pure-Python decoder's object parser, which typeshed's json stubs leave undeclared too
        obj, end = json.decoder.JSONObject(  # type: ignore[attr-defined]  # see the line above
            s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo, _w
        )
        result = _LineDict(obj)
        result.line = bisect.bisect_right(newlines, start) + 1
        return result, end

    # the pure-Python decoder's hooks: real attributes, which typeshed's json stubs leave undeclared
    decoder.parse_object = parse_object  # type: ignore[attr-defined]  # see the line above
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]  # as above
    return decoder.decode(text)


@lru_cache(maxsize=1)
def _deck_schema_validator() -> tuple[SchemaStore, Path] | None:
    """A validator for ``deck.schema.json`` (``None`` when the schema cannot be loaded)."""
    from printer.cards.schema import SchemaStore
    from printer.paths import bundled_root, bundled_schema

    schema_file = bundled_schema("deck.schema.json")
    try:
        store = SchemaStore([bundled_root()])
        store.validator(schema_file)
    except Exception:  # a broken schema elsewhere must not stop deck reading  # noqa: BLE001
        return None
    return store, schema_file


def parse_json(text: str, source: Path) -> tuple[Decklist, list[Problem]]:
    """Parse a JSON deck file (shape in the module docstring)."""
    deck = Decklist(Path(source), syntax="json")
    where = str(source)
    try:
        data = _loads_with_lines(text)
    except json.JSONDecodeError as exc:
        return deck, [Problem(f"{where}:{exc.lineno}:{exc.colno}", f"invalid JSON: {exc.msg}", code="json-syntax")]
    except RecursionError:
        return deck, [Problem(where, "JSON nested too deeply", code="json-syntax")]
    checker = _deck_schema_validator()
    if checker is not None:
        store, schema_file = checker
        problems = store.validate(data, schema_file, f"{where}::$")
    else:
        problems = _minimal_check(data, where)
    if problems:
        return deck, problems
    deck.name = data.get("name")
    deck.format = data.get("format")
    for item in data["cards"]:
        section = item.get("section")
        deck.entries.append(Entry(item["count"], item["name"].strip(), section, getattr(item, "line", 0)))
        if section is not None:
            deck.headers.setdefault(section, getattr(item, "line", 0))
    if not deck.entries:
        return deck, [Problem(f"{where}::$.cards", "the deck has no cards", code="empty-deck")]
    return deck, []


def _minimal_check(data: object, where: str) -> list[Problem]:
    """The essentials of the schema, for when the schema file itself cannot be used."""
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return [Problem(f"{where}::$", "a JSON deck is an object with a 'cards' list", code="schema")]
    problems = []
    for i, item in enumerate(data["cards"]):
        ok = (
            isinstance(item, dict)
            and isinstance(item.get("count"), int)
            and not isinstance(item.get("count"), bool)
            and 1 <= item["count"] <= 999
            and isinstance(item.get("name"), str)
            and item["name"].strip()
            and isinstance(item.get("section", ""), str)
        )
        if not ok:
            problems.append(Problem(f"{where}::$.cards[{i}]", 'a card is {"count": N, "name": "..."}', code="schema"))
    return problems
