"""Limits on what one project or command may ask of printer, each a named setting with a default.

A project may come from a stranger: a decklist line ``999999999 Some Card``,
``aid_copies = 1000000000`` or a 1-km paper size would otherwise exhaust the
machine's memory. Each limit here is checked before the work it bounds and
reported as an error that names the limit and how to change it.

A project may *lower* a limit in printer.toml's ``[limits]`` table. Raising one
above printer's default takes the user's own word, never the project's: the
command line's ``--allow-limit NAME=VALUE`` or the ``[limits]`` table of the
user's own config file (:mod:`printer.userconfig`), for instance::

    [limits]
    cards_per_build = 50000      # a publisher's whole catalogue in one PDF
    sheets_per_build = 6000      # its 5,556 sheets of 9 cards

A project's value over what the user allows is not used (a warning says so and
how to allow it); the user's value, else the default, is used instead.

The defaults are far above any real game (a constructed deck of two 40-card decks is 80
cards; the largest bundled game prints 90).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields

from printer.location import Location
from printer.problems import WARNING, Problem, did_you_mean


@dataclass(frozen=True)
class Limits:
    """The limits in force; a project may lower each one in printer.toml's ``[limits]`` table, the user may raise it
    (``--allow-limit NAME=VALUE``, or ``[limits]`` in the user's own config)."""

    #: copies of one card on one decklist line
    copies_per_line: int = 1_000
    #: cards (faces printed as fronts, with their copies) in one build of one game
    cards_per_build: int = 20_000
    #: sheets (pages of fronts) in one build of one game
    sheets_per_build: int = 5_000
    #: copies of each player aid (rules.toml ``aid_copies``)
    aid_copies: int = 100
    #: the longest side of a sheet of paper or of a card, mm
    size_mm: float = 2_000.0
    #: the HTML one card face's template may produce, characters
    face_html_chars: int = 2_000_000
    #: card slots in one sheet layout file
    layout_slots: int = 1_000
    #: nesting depth of Markdown (lists in quotes in lists...)
    markdown_nesting: int = 20
    #: decklists one ``printer deck check`` reads (a folder's, or named)
    decklists_per_check: int = 10_000
    #: the body of one request to ``printer serve`` (a card saved from the form, a decklist pasted), bytes
    request_bytes: int = 2 * 2**20
    #: one decklist pasted or uploaded in ``printer serve``, characters
    decklist_chars: int = 200_000
    #: one decklist pasted or uploaded in ``printer serve``, lines
    decklist_lines: int = 10_000
    #: the files one download of ``printer serve`` puts in a zip (the PNG or TTS folder of a build), bytes
    download_bytes: int = 500 * 2**20
    #: card drafts ``printer serve`` keeps while the form is edited (each draft's picture is rendered), oldest dropped
    drafts: int = 200
    #: laying out one card face's picture in ``printer serve`` (WeasyPrint), seconds; a face over it shows the error
    face_render_seconds: float = 30.0
    #: fields of one card, counted in all its nested objects (a card file, a spreadsheet row, a card the editor checks)
    fields_per_card: int = 1_000
    #: the HTML of all the distinct card faces of one build of one game together (``printer serve``: of the faces it
    #: shows), characters
    face_html_total_chars: int = 200_000_000
    #: entries (a card's field each) of one translations file ``printer import translations`` reads
    translation_entries: int = 100_000


DEFAULT = Limits()
#: where the user's own config file usually is (:func:`printer.userconfig.config_file`), as hints name it
USER_CONFIG = "~/.config/printer/config.toml"
_HINT = (
    "lower it in printer.toml ([limits] {name} = N); raise it with --allow-limit {name}=N on the command line "
    "or [limits] {name} = N in your own config (" + USER_CONFIG + ")"
)
NAMES = tuple(f.name for f in fields(Limits))


def check_value(
    name: object, value: object, where: str | Location, what: str = "[limits]"
) -> tuple[float | None, Problem | None]:
    """``value`` as the type of the limit ``name``, or ``(None, problem)`` for an unknown name or a value that is not a
    positive finite number (``what`` names the table or option in the message)."""
    if name not in NAMES:
        hint = did_you_mean(str(name), list(NAMES)) or "known limits: " + ", ".join(NAMES)
        return None, Problem(where, f"unknown limit {name!r}", hint, code="config")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return None, Problem(where, f"{what} {name} must be a positive number, not {value!r}", code="config")
    return type(getattr(DEFAULT, str(name)))(value), None


def from_settings(
    table: object,
    where: str = "printer.toml",
    allowed: Mapping[str, float] | None = None,
    located: Mapping[str, str | Location] | None = None,
) -> tuple[Limits, list[Problem]]:
    """The limits of a project and the problems of its ``[limits]``: ``(limits, problems)``.

    ``table`` is printer.toml's ``[limits]`` (at ``where``; ``located`` maps a limit's name to its
    ``file:line:col``); ``allowed`` holds the user's own values (``--allow-limit``, the user config's
    ``[limits]``). Each limit is the user's value, else the default; a project's own value is used when it is
    not above that, and is refused with a warning (naming how to allow it) when it is. An unknown limit, a value
    that is not a positive number and a ``[limits]`` that is not a table are errors among the problems (the limit
    keeps its value without it), so that the caller reports them with the file's other problems.
    """
    allowed = dict(allowed or {})
    located = located or {}
    problems: list[Problem] = []
    if table is not None and not isinstance(table, dict):
        problems.append(Problem(where, "[limits] must be a table", code="config"))
        table = None
    values: dict[str, float] = {name: value for name, value in allowed.items() if name in NAMES}
    for name, raw in (table or {}).items():
        here = located.get(name, where)
        value, problem = check_value(name, raw, here)
        if problem is not None:
            problems.append(problem)
            continue
        assert value is not None  # check_value gives a value or a problem
        ceiling = values.get(name, getattr(DEFAULT, name))
        if value <= ceiling:
            values[name] = value
            continue
        whose = "you allow" if name in allowed else "printer's default"
        asked, held = _number(value), _number(ceiling)
        problems.append(
            Problem(
                here,
                f"[limits] {name} = {asked} is not used: a project may lower a limit, not raise it above "
                f"{held} ({whose}); {held} is used",
                f"if you trust this project, allow it yourself: --allow-limit {name}={asked} on the command line, "
                f"or [limits] {name} = {asked} in your own config ({USER_CONFIG})",
                severity=WARNING,
                code="limit-raise",
            )
        )
    if not values:
        return DEFAULT, problems
    return Limits(**values), problems  # type: ignore[arg-type]  # check_value gives each name its own type


def _number(value: float) -> str:
    """``value`` written so that it reads back the same (``2097152``, ``0.5``), for a message to copy from."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def hint(name: str) -> str:
    """How to change the limit ``name``: lower it in printer.toml, raise it with the user's own word."""
    return _HINT.format(name=name)


def over(name: str, value: float, limit: float, where: str | Location, what: str) -> Problem:
    """The error for ``what`` (``value``) over the limit ``name`` (``limit``), located at ``where``."""
    return Problem(
        where,
        f"{what}: {value:,g} is over the limit of {limit:,g} (limits.{name})",
        hint(name),
        code="limit",
    )
