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

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from printer.decks.readers.decklist import Decklist, Entry
from printer.problems import Problem

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore


def _card_lines(text: str, count: int) -> list[int]:
    """The line of the opening ``{`` of each of the ``count`` items of ``$.cards`` in the JSON ``text`` (0 where one
    is not found), by :func:`printer.cards.positions.find_paths`, which reads the text with the documented
    :meth:`json.JSONDecoder.raw_decode` only."""
    from printer.cards.positions import find_paths

    found = find_paths(text, [("cards", i) for i in range(count)])
    return [found.get(("cards", i), (0, 0))[0] for i in range(count)]


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
        data = json.loads(text)
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
    for item, line in zip(data["cards"], _card_lines(text, len(data["cards"])), strict=True):
        section = item.get("section")
        deck.entries.append(Entry(item["count"], item["name"].strip(), section, line))
        if section is not None:
            deck.headers.setdefault(section, line)
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
