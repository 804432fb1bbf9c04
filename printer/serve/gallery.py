"""What the gallery of ``printer serve`` shows of a card record (:class:`GalleryEntry`), what a refresh changed
(:class:`GalleryChanges`), and where a problem or a record sits in its file (:func:`card_place`, :func:`row_place`).

:class:`printer.serve.workspace.Workspace` builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printer.cards.positions import path_steps
from printer.cards.record import Record
from printer.cards.spreadsheet import SheetRecord
from printer.problems import Location

#: what a problem's place looks like when it is inside one card: ``file::$.cards[3]`` (or ``$[3]``, ``$``)


def card_place(place: Location) -> tuple[str, str]:
    """The card a problem is at, as ``(file, the card's JSON path)`` (``$.cards[3]``, ``$[3]``, ``$``: a record's
    ``file`` and ``pointer``); a problem not under a card by JSON path (a line, a cell, a translation) is
    ``(its rendering, "")``."""
    steps = path_steps(place.path) if place.path and place.line is None and place.cell is None else None
    if steps is None or place.lang or place.sheet is not None:
        return str(place), ""
    if steps[:1] == ("cards",):
        return place.file, "$.cards" + (f"[{steps[1]}]" if len(steps) > 1 and isinstance(steps[1], int) else "")
    return place.file, f"$[{steps[0]}]" if steps and isinstance(steps[0], int) else "$"


@dataclass
class GalleryEntry:
    """One card record as the gallery shows it.

    ``uid`` is stable while the card keeps its id (``game/id``; a record
    without a valid id is ``game/file#pointer``); ``front`` and ``back``
    are picture keys (``None`` when the card cannot be shown: ``error``
    says why); ``problems`` are the card's own problems.
    """

    uid: str
    game: str
    file: str
    pointer: str
    id: str | None = None
    title: str = ""
    type: str = ""
    set: str = ""
    copies: int = 1
    search: str = ""
    front: str | None = None
    back: str | None = None
    error: str | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)
    editable: bool = True
    #: the component (printer.toml's name) the card is a piece of, shown at that component's trim size; ``None``: a card
    piece: str | None = None
    #: shown in another language (:mod:`printer.serve.langs`): that language, and the translation's state
    lang: str | None = None
    translation: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class GalleryChanges:
    """What :meth:`Workspace.refresh` changed: entries new or different, uids gone, and whether problems changed."""

    changed: list[GalleryEntry] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    problems: bool = False
    reloaded: bool = False
    version: int = 0

    def __bool__(self) -> bool:
        return bool(self.changed or self.removed or self.problems or self.reloaded)


def relative_name(path: Path, root: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return str(path)


def search_text(data: dict[str, Any]) -> str:
    """Every string on a card, lower-case, for the gallery's text filter."""
    out: list[str] = []
    stack: list[object] = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            stack += list(value.values())
        elif isinstance(value, list):
            stack += value
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(str(value))
    return " ".join(out).casefold()


def row_place(record: Record) -> str:
    """Where a card is in its file, as the editor names it: the record's JSON path (``$.cards[3]``), or for a
    spreadsheet row ``Sheet1!7`` (``!7`` for a CSV file: it has no sheet name)."""
    if isinstance(record, SheetRecord):
        return f"{record.sheet or ''}!{record.row}"
    return record.pointer
