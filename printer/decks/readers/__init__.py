"""Decklist readers: plain text (with section headers) and JSON decklists, each to a :class:`~printer.decks.readers.text.Decklist`."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from printer.paths import is_inside
from printer.problems import Problem

#: the endings of the decklists found in a folder besides those games register (a file named on the command line is
#: read whatever its ending)
DECK_SUFFIXES = (".txt", ".json")


def deck_suffixes() -> tuple[str, ...]:
    """The endings of the decklists found in a folder: :data:`DECK_SUFFIXES` and each game's decklist formats
    (:func:`printer.plugins.decklist_suffixes`), lower case."""
    from printer.plugins import decklist_suffixes

    return tuple(dict.fromkeys([*DECK_SUFFIXES, *decklist_suffixes()]))


def decklist_files(paths: Iterable[Path], limit: int) -> tuple[list[Path], list[Problem]]:
    """The decklists ``paths`` name: files as given, and the files under each folder ending in one of
    :func:`deck_suffixes` (sorted, hidden files and folders skipped, links out of the folder not followed).

    Returns ``(files, problems)``: a folder holding no decklist is a problem (an error), and so is finding more
    than ``limit`` decklists (``limits.decklists_per_check``; nothing is returned then).
    """
    from printer.limits import over

    suffixes = deck_suffixes()
    files: list[Path] = []
    problems: list[Problem] = []
    for path in map(Path, paths):
        if not path.is_dir():
            files.append(path)
        else:
            found = []
            for folder, dirs, names in os.walk(path):  # links to folders are not followed
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(names):
                    file = Path(folder) / name
                    if not name.lower().endswith(suffixes) or name.startswith("."):
                        continue
                    if not os.path.islink(file) or is_inside(file, [path]):  # only a link can lead out
                        found.append(file)
                if len(files) + len(found) > limit:
                    break
            if not found:
                endings = ", ".join(f"*{s}" for s in suffixes)
                problems.append(Problem(str(path), f"no decklists ({endings}) in this folder", code="no-decklists"))
            files += found
        if len(files) > limit:
            where = str(path)
            return [], [over("decklists_per_check", len(files), limit, where, "decklists")]
    return files, problems
