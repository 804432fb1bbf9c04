"""A decklist as read, whatever its syntax: :class:`Decklist` of :class:`Entry` lines (the readers in
:mod:`printer.decks.readers.text` and :mod:`printer.decks.readers.json_deck` make them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from printer.location import Location


@dataclass(frozen=True)
class Entry:
    """One decklist line: ``count`` copies of the card written ``name``.

    ``name`` is as written (variant notation, case and typos kept; only
    the count prefix, a ``(1)`` count suffix and a trailing comment are
    removed). ``section`` is the innermost section header in effect, or the
    label of a labelled line (``"Main deck"``, ``"Spells"``...), or ``None`` before
    any header. ``line`` is the 1-based line in the file.
    """

    count: int
    name: str
    section: str | None
    line: int


@dataclass
class Decklist:
    """A decklist as read.

    ``source`` is the file; ``entries`` its card lines in order; ``syntax``
    is ``"text"``, ``"json"`` or the kind a game registers for the file's suffix. ``headers`` maps each section
    name to the line of its first header. ``name`` and ``format`` are the
    JSON deck file's fields (``None`` for text lists).
    """

    source: Path
    entries: list[Entry] = field(default_factory=list)
    syntax: str = "text"
    headers: dict[str, int] = field(default_factory=dict)
    #: every section header in order: (line, section name, the count it states or None); see :func:`header_counts`
    stated_counts: list[tuple[int, str, int | None]] = field(default_factory=list)
    name: str | None = None
    format: str | None = None

    def where(self, line: int | None = None) -> Location:
        """``file:line`` for a problem at ``line`` (the file alone without one)."""
        return Location(str(self.source), line or None)

    @property
    def total(self) -> int:
        """The number of cards (sum of the counts)."""
        return sum(e.count for e in self.entries)
