"""A card as read (:class:`Record`) and the JSON wording every card reader shares: the JSON path step of a key
(:func:`json_key`), the JSON name of a value's type (:func:`json_type`) and the size limit of a card file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

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


def json_key(name: object) -> str:
    """One step of a JSON path: ``[3]`` for an index, ``.cost`` for a plain name, ``["two words"]`` otherwise."""
    if isinstance(name, int):
        return f"[{name}]"
    text = str(name)
    return f".{text}" if text.isidentifier() else "[" + json.dumps(text, ensure_ascii=False) + "]"


def json_type(value: object) -> str:
    """The JSON name of ``value``'s type, with the value when short: ``a string ("x")``, ``null``, ``a number (3)``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({json.dumps(value)})"
    if isinstance(value, (int, float)):
        return f"a number ({value})" if len(str(value)) <= 20 else "a number"
    if isinstance(value, str):
        return f"a string ({json.dumps(value, ensure_ascii=False)})" if len(value) <= 40 else "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"
