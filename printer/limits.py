"""Limits on what one project or command may ask of printer, each a named setting with a default.

A project may come from a stranger: a decklist line ``999999999 Some Card``,
``aid_copies = 1000000000`` or a 1-km paper size would otherwise exhaust the
machine's memory. Each limit here is checked before the work it bounds and
reported as an error that names the limit and where to raise it:
printer.toml's ``[limits]`` table, for instance::

    [limits]
    cards_per_build = 50000      # a publisher's whole catalogue in one PDF

The defaults are far above any real game (a constructed deck of two 40-card decks is 80
cards; the largest bundled game prints 90).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from printer.problems import Problem, UsageError


@dataclass(frozen=True)
class Limits:
    """The limits in force; every field can be set in printer.toml's ``[limits]`` table."""

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


DEFAULT = Limits()
_HINT = "raise it in printer.toml: [limits] {name} = N"


def from_settings(table: object, where: str = "printer.toml") -> Limits:
    """The limits of a project: the defaults, overridden by printer.toml's ``[limits]`` table.

    Raises :class:`UsageError` for an unknown limit or a value that is not a
    positive number.
    """
    if not table:
        return DEFAULT
    if not isinstance(table, dict):
        raise UsageError("[limits] must be a table", [Problem(where, "[limits] must be a table", code="config")])
    known = {f.name: f for f in fields(Limits)}
    values = {}
    for name, value in table.items():
        if name not in known:
            from printer.problems import did_you_mean

            problem = Problem(
                where, f"unknown limit {name!r}", did_you_mean(name, list(known)) or ", ".join(known), code="config"
            )
            raise UsageError(problem.message, [problem])
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            problem = Problem(where, f"[limits] {name} must be a positive number, not {value!r}", code="config")
            raise UsageError(problem.message, [problem])
        values[name] = type(getattr(DEFAULT, name))(value)
    return Limits(**values)


def over(name: str, value: float, limit: float, where: str, what: str) -> Problem:
    """The error for ``what`` (``value``) over the limit ``name`` (``limit``), located at ``where``."""
    return Problem(
        where,
        f"{what}: {value:,g} is over the limit of {limit:,g} (limits.{name})",
        _HINT.format(name=name),
        code="limit",
    )
