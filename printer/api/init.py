"""``printer init``: a new project that works out of the box, or a copy of one of printer's example games."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class InitResult:
    """What :func:`init_project` wrote: the ``game`` id and the ``written`` files."""

    game: str
    written: list[Path] = field(default_factory=list)


def init_project(
    folder: Path, from_game: str | None = None, game_id: str | None = None, name: str | None = None
) -> InitResult:
    """Write a project into ``folder`` (:mod:`printer.scaffold`): a copy of the example game ``from_game``, or a new
    game ``game_id`` (default: from the folder's name, ``My Game`` -> ``my-game``) called ``name`` (default: the
    folder's name, ``starfall`` -> ``Starfall``). Raises :class:`~printer.problems.UsageError` when ``folder``
    already holds a project or ``from_game`` is not one of printer's examples."""
    from printer.scaffold import copy_game, game_id_for, scaffold

    if from_game:
        return InitResult(from_game, copy_game(folder, from_game))
    game = game_id or game_id_for(folder)
    folder_name = folder.resolve().name
    title = name or (folder_name.replace("-", " ").title() if folder_name.islower() else folder_name)
    return InitResult(game, scaffold(folder, game, title))
