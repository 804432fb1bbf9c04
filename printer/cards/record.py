"""A card as read (:class:`Record`) and the JSON wording every card reader shares: the JSON path step of a key
(:func:`json_key`), the JSON name of a value's type (:func:`json_type`) and the size limit of a card file."""

from __future__ import annotations

import json
import pickle
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

MAX_FILE_BYTES = 50 * 1024 * 1024
#: held while a packed record or card is read back (two threads reading one must get the same dict)
UNPACKING = threading.RLock()


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
    _packed: bytes | None = field(default=None, init=False, repr=False, compare=False)  # see pack

    def where(self, path: str = "") -> str:
        """``file::$.pointer.path`` for a problem at ``path`` under this card."""
        return f"{self.file}::{self.pointer}{path}"

    def pack(self) -> None:
        """Hold ``data`` pickled (bytes) until it is next read, when it is unpickled and held as before.

        A build packs its cards' data while their faces are laid out (:func:`printer.cards.model.pack_cards`): a
        card's data read from JSON takes about 2 KB as Python objects and 0.7 KB pickled (measured on a published
        catalogue of 3,535 real cards, repeated to 9,000: 18 MB against 6). Packing and reading back take a few
        microseconds a card. Only bytes pickled here are ever unpickled."""
        if self._packed is not None:
            return
        try:
            packed = pickle.dumps(self.data, pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 (a value pickle cannot take, e.g. from a caller's own record: kept as it is)
            return
        self._packed = packed
        del self.data

    if not TYPE_CHECKING:  # else mypy would take any attribute missing from the class for one held

        def __getattr__(self, name: str):
            """``data`` of a packed record, unpickled and held again (called only for attributes not held)."""
            return held_again(self, name, self._unpack)

    def _unpack(self) -> dict | None:
        if self._packed is None:
            return None
        self.data = data = pickle.loads(self._packed)
        self._packed = None
        return data


def held_again(owner: object, name: str, unpack: Callable[[], dict | None]) -> dict:
    """What a packed record's or card's ``__getattr__`` gives: for ``data``, what another thread read back meanwhile,
    else ``unpack()`` (``None``: not packed); :data:`UNPACKING` held. Raises ``AttributeError`` for anything
    else."""
    if name == "data":
        with UNPACKING:
            try:
                return object.__getattribute__(owner, "data")
            except AttributeError:
                data = unpack()
                if data is not None:
                    return data
    raise AttributeError(f"{type(owner).__name__!r} object has no attribute {name!r}")


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
