"""A card as read (:class:`Record`) and the JSON wording every card reader shares: the JSON path step of a key
(:func:`json_key`), the JSON name of a value's type (:func:`json_type`) and the size limit of a card file."""

from __future__ import annotations

import json
import pickle
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING

from printer.jsonvalue import JSONObject
from printer.location import Location

if TYPE_CHECKING:
    from printer.spill import Spill

MAX_FILE_BYTES = 50 * 1024 * 1024
#: held while a packed record or card is read back (two threads reading one must get the same dict)
UNPACKING = threading.RLock()


@dataclass(slots=True)  # no dict of its own: one a card (SheetRecord is a slots dataclass too)
class Record:
    """One card as read: its JSON ``data``, ``file`` and JSON path ``pointer``.

    ``game`` is the game named by the file (its ``game`` field or the game
    folder in its ``$schema``), or ``None`` when the file does not say.
    ``flat`` is true when the reader knows the card holds no nested object
    (its file's only JSON objects are its cards and their wrapper), so that
    its number of fields is its number of keys.
    """

    data: JSONObject
    file: Path
    pointer: str
    game: str | None = None
    flat: bool = field(default=False, kw_only=True, compare=False)
    _packed: bytes | int | None = field(default=None, init=False, repr=False, compare=False)  # see pack
    _spill: Spill | None = field(default=None, init=False, repr=False, compare=False)  # where an int _packed is

    def where(self, path: str = "") -> Location:
        """Where a problem at ``path`` (``.cost``, ``[2]``) under this card is: its file and JSON path
        (``file::$.cards[3].cost``)."""
        return Location(str(self.file), path=self.pointer + path)

    def pack(self, spill: Spill | None = None) -> None:
        """Hold ``data`` pickled (bytes), in ``spill`` when given, until it is next read, when it is unpickled and
        held as before.

        A build packs its cards' data while their faces are laid out (:func:`printer.cards.model.pack_cards`): a
        card's data read from JSON takes about 2 KB as Python objects and 0.7 KB pickled (measured on a published
        catalogue of 3,535 real cards, repeated to 9,000: 18 MB against 6), and a handle in a spill file
        (:class:`printer.spill.Spill`) about 40 bytes. Packing and reading back take a few microseconds a card. When
        the spill cannot take the pickle (a full disk) it is held in memory. Only bytes pickled here are ever
        unpickled."""
        if self._packed is not None:
            return
        try:
            packed = pickle.dumps(self.data, pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 (a value pickle cannot take, e.g. from a caller's own record: kept as it is)
            return
        self._packed = packed
        if spill is not None:
            try:
                self._packed, self._spill = spill.put(packed), spill
            except OSError:  # the spill takes no more: held here
                pass
        del self.data

    def __getstate__(self) -> dict[str, object]:
        """What pickle and copy take of a record: its fields (a subclass's too), ``data`` only when not packed; a
        pickle held in a spill file is read from it (a spill file cannot be pickled); the copy stays packed until
        read."""
        state = held_fields(self)
        if isinstance(self._packed, int):
            state["_packed"], state["_spill"] = self.packed(), None
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        """A record from what :meth:`__getstate__` gave."""
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def packed(self) -> bytes | None:
        """The pickle of a packed record's ``data`` (read from its spill file when there), else ``None``."""
        if isinstance(self._packed, int):
            assert self._spill is not None
            return self._spill.get(self._packed)
        return self._packed

    if not TYPE_CHECKING:  # else mypy would take any attribute missing from the class for one held

        def __getattr__(self, name: str):
            """``data`` of a packed record, unpickled and held again (called only for attributes not held)."""
            return held_again(self, name, self._unpack)

    def _unpack(self) -> JSONObject | None:
        packed = self.packed()
        if packed is None:
            return None
        data: JSONObject = pickle.loads(packed)
        self.data = data
        self._packed = self._spill = None
        return data


def held_fields(obj: object) -> dict[str, object]:
    """The dataclass fields ``obj`` holds, by name, without reading a packed one back (``data``: asking a slot not
    held for its value would call ``__getattr__``, which reads it back)."""
    state: dict[str, object] = {}
    for name in (f.name for f in fields(obj)):  # type: ignore[arg-type]  # obj: a dataclass instance
        try:
            state[name] = object.__getattribute__(obj, name)
        except AttributeError:
            pass
    return state


def held_again(owner: object, name: str, unpack: Callable[[], JSONObject | None]) -> JSONObject:
    """What a packed record's or card's ``__getattr__`` gives: for ``data``, what another thread read back meanwhile,
    else ``unpack()`` (``None``: not packed); :data:`UNPACKING` held. Raises ``AttributeError`` for anything
    else."""
    if name == "data":
        with UNPACKING:
            try:
                held: JSONObject = object.__getattribute__(owner, "data")
                return held
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
