"""Where a problem is: :class:`Location`, and the one way it is written (:func:`render`).

A location holds the parts a stage knows, each in its own field: the file, a line and column (1-based), a JSON path
(``$.cards[2].cost``), a spreadsheet's sheet and cell (``Sheet1`` and ``C7``; a row ``7:7``, a column ``F:F``) and
the language of a translation. :func:`render` writes them one way, for the command line and ``printer serve``
alike:

- ``cards/crab.json:10:7 ($.cards[2].cost)``: a line and column, with the JSON path when there is one;
- ``cards/crab.json::$.cards[2].cost``: a JSON path whose line is not known;
- ``cards/crew.xlsx:Sheet1!C7 ($.cost)``: a spreadsheet cell (``'Card List'!C7`` when the sheet's name needs
  quotes, as Excel writes it; a CSV file has no sheet: ``crew.csv:C7``);
- ``decks/crab.txt:12``: a decklist line;
- ``... (ja)`` after any of them: the problem is in the Japanese translation.

A location read from text (:meth:`Location.parse`, for code that still writes a place as a string) gives back the
same text when rendered; text in none of these shapes (``--preset``, ``project``) is kept whole as ``file``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

_PLAIN_SHEET = r"[A-Za-z_][A-Za-z0-9_.]*"
_CELL_LIKE = r"[A-Za-z]{1,3}[0-9]+|[RrCc][0-9]*"


def sheet_prefix(name: str | None) -> str:
    """``Sheet1!`` or ``'Card List'!`` (quoted as Excel writes it in a reference); ``""`` for CSV (``None``)."""
    if name is None:
        return ""
    if re.fullmatch(_PLAIN_SHEET, name) and not re.fullmatch(_CELL_LIKE, name):  # re keeps them compiled
        return f"{name}!"
    return "'" + name.replace("'", "''") + "'!"


@dataclass(frozen=True, slots=True, eq=False)
class Location:
    """Where a problem is; every part but ``file`` is optional.

    ``file``: the file's path as the stage names it (or what the problem is about when it is no file: ``--preset``,
    ``project``); ``line``, ``column``: 1-based; ``path``: the JSON path from the file's root (``$.cards[2].cost``);
    ``sheet``: a workbook's sheet name; ``cell``: a cell (``C7``), row (``7:7``) or column (``F:F``) reference;
    ``lang``: the language of the translation the problem is in.

    Two locations are equal when they render the same, and a location equals the string it renders as.
    """

    file: str = ""
    line: int | None = None
    column: int | None = None
    path: str | None = None
    sheet: str | None = None
    cell: str | None = None
    lang: str | None = None

    def __str__(self) -> str:
        return render(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Location):
            return render(self) == render(other)
        if isinstance(other, str):
            return render(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(render(self))

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Location | str):
            return render(self) < str(other)
        return NotImplemented

    def below(self, steps: str) -> Location:
        """This place with its JSON path followed by ``steps`` (``.cost``, ``[2]``)."""
        path = (self.path or "$") + steps  # the constructor, not dataclasses.replace: a few times faster
        return Location(self.file, self.line, self.column, path, self.sheet, self.cell, self.lang)

    def in_lang(self, lang: str | None) -> Location:
        """This place in the translation into ``lang``."""
        return replace(self, lang=lang)

    def as_dict(self) -> dict[str, str | int]:
        """The parts that are set, by name (JSON output)."""
        out: dict[str, str | int] = {}
        for name in Location.__slots__:
            value = getattr(self, name)
            if value is not None and value != "":
                out[name] = value
        return out

    @staticmethod
    def parse(text: str) -> Location:
        """The location ``text`` names, in one of the shapes :func:`render` writes; ``Location(text)`` for any
        other text. ``render(Location.parse(text)) == text`` always."""
        found = _parse(text)
        return found if found is not None and render(found) == text else Location(text)


def render(place: Location) -> str:
    """``place`` as text, the one way printer writes a location (see the module's docstring)."""
    text = place.file
    placed = True
    if place.cell is not None:
        text += ":" + sheet_prefix(place.sheet) + place.cell
    elif place.sheet is not None:
        text += ":" + sheet_prefix(place.sheet)
    elif place.line is not None:
        text += f":{place.line}" if place.column is None else f":{place.line}:{place.column}"
    else:
        placed = False
    if place.path is not None:
        text += f" ({place.path})" if placed else f"::{place.path}"
    if place.lang:
        text += f" ({place.lang})"
    return text


def as_location(where: object) -> Location:
    """``where`` as a :class:`Location`: itself, or text (or a path) read by :meth:`Location.parse`."""
    if isinstance(where, Location):
        return where
    return Location.parse(str(where))


_PATH = r"(?: \((?P<path>\$.*)\))?"
_SHEET_CELL = r"(?P<sheet>'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!(?P<cell>[A-Z]*[0-9]*(?::[A-Z]*[0-9]*)?)"


@cache
def _shapes() -> tuple[re.Pattern[str], ...]:
    """The shapes :func:`render` writes, compiled when a place is first read from text (not at import)."""
    return (
        re.compile(r"(?P<rest>.*) \((?P<lang>[a-zA-Z]{2,3}(?:-[A-Za-z0-9]+)*)\)", re.S),
        re.compile(r"(?P<file>.*?)::(?P<path>\$.*)", re.S),
        re.compile(r"(?P<file>.+?):" + _SHEET_CELL + _PATH, re.S),
        re.compile(r"(?P<file>.+?):(?P<cell>[A-Z]{1,3}[0-9]+)" + _PATH, re.S),
        re.compile(r"(?P<file>.+?):(?P<line>[0-9]+)(?::(?P<column>[0-9]+))?" + _PATH, re.S),
    )


def _parse(text: str) -> Location | None:
    lang_shape, json_shape, sheet_shape, cell_shape, line_shape = _shapes()
    lang = None
    found = lang_shape.fullmatch(text)
    if found and not found.group("lang").isdigit():
        text, lang = found.group("rest"), found.group("lang")
    match = json_shape.fullmatch(text)
    if match:
        return Location(match.group("file"), path=match.group("path"), lang=lang)
    match = sheet_shape.fullmatch(text)
    if match:
        sheet = match.group("sheet")
        sheet = sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet
        return Location(
            match.group("file"), path=match.group("path"), sheet=sheet, cell=match.group("cell") or None, lang=lang
        )
    match = cell_shape.fullmatch(text)
    if match:
        return Location(match.group("file"), path=match.group("path"), cell=match.group("cell"), lang=lang)
    match = line_shape.fullmatch(text)
    if match:
        column = match.group("column")
        return Location(
            match.group("file"),
            int(match.group("line")),
            int(column) if column else None,
            match.group("path"),
            lang=lang,
        )
    return Location(text, lang=lang) if lang else None


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)")


def toml_error_place(path: object, error: Exception) -> tuple[str, str]:
    """``(where, reason)`` of a ``tomllib`` error in the file ``path``: ``file:line:col`` when the error says where
    (``Cannot declare ('games', 'q') twice (at line 12, column 9)``) and the reason without that part; else the
    file and the whole message."""
    text = str(error)
    found = _TOML_AT.search(text)
    if found is None:
        return str(path), text
    return f"{path}:{found.group(1)}:{found.group(2)}", _TOML_AT.sub("", text).strip()
