"""What a build of one game decided before any face is laid out (:class:`BuildPlan`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from printer.cards.model import CardSet
    from printer.problems import Problem
    from printer.project import Game
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.layout import SheetLayout
    from printer.sheets.options import PrintOptions
    from printer.sheets.parallel import JobSpec
    from printer.sheets.plan.request import BuildRequest


@dataclass(frozen=True)
class BuildPlan:
    """Every decision a build of one ``game`` (in one language) makes before rendering, as ``request`` asks.

    ``opts`` are the sheet options resolved (printer.toml, then the command line) and ``layout`` the sheet they
    give; ``spec`` is what a worker needs to lay the faces out; ``source`` the card folder read and ``out_dir``
    where the files go, each named with ``suffix`` (``-ja`` in one language). ``cards`` are the game's valid
    cards; ``items`` the faces to print on the card sheets, in order (``--only``, ``--deck``, the player aids,
    once per player where the game says so, in ``request.lang``), ``components`` each declared component with
    the items it holds, ``target`` the PDF and ``sheets`` how many sheets it has (within the project's limits).
    ``locate`` finds a translated field's place for a problem (``None`` without ``--lang``). ``problems`` are
    every problem found so far; ``failure`` says why nothing is printed (``None``: go on), and then
    ``problems`` are the ones to report. ``notes`` are what the user must know about the layout.
    """

    game: Game
    request: BuildRequest
    opts: PrintOptions
    layout: SheetLayout
    spec: JobSpec
    source: Path
    out_dir: Path
    suffix: str = ""
    notes: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    failure: str | None = None
    cards: CardSet | None = None
    items: tuple[PrintItem, ...] = ()
    components: tuple[tuple[Any, tuple[PrintItem, ...]], ...] = ()
    target: Path | None = None
    sheets: int = 0
    players: int = 1
    locate: Callable[[Any, str], str | None] | None = None

    @property
    def extra_roots(self) -> list[Path]:
        """The folders beyond the project the faces may read (the card folder, a decklist's folder)."""
        return [Path(r) for r in self.spec.extra_roots]
