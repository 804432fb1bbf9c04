"""What every job of the API shares: loading a project and its cards, usage errors, ``--strict``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from printer.problems import ERROR, Location, Problem, UsageError, did_you_mean
from printer.project import Project as Project
from printer.project import find_root as find_root
from printer.project import load_project as _load_project

if TYPE_CHECKING:
    from printer.cards.model import CardSet
    from printer.cards.schema import SchemaStore


def load_cards(
    project: Project, paths: list[Path], game: str | None = None, store: SchemaStore | None = None
) -> tuple[dict[str, CardSet], list[Problem]]:
    """:func:`printer.cards.catalog.load_cards`, imported when first called (``printer --help`` imports no validator)."""
    from printer.cards.catalog import load_cards as load

    return load(project, paths, game, store)


#: codes of the errors found in files already written (preflight of a preset, budgets): the files stay on disk
WRITTEN_BUT = ("preflight-", "budget-")


def usage_error(message: str, hint: str | None = None, where: str | Location = "command line") -> UsageError:
    """A :class:`UsageError` (exit 2) carrying one located problem."""
    return UsageError(message, [Problem(where, message, hint, code="usage")])


def check_paths_exist(paths: Sequence[Path], where: str) -> None:
    """Raise :class:`UsageError` (exit 2) naming the first of ``paths`` (given on the command line as ``where``)
    that does not exist, with the closest name beside it."""
    for path in paths:
        if not Path(path).exists():
            folder = Path(path).parent
            siblings = [p.name for p in folder.iterdir()] if folder.is_dir() else []
            hint = did_you_mean(Path(path).name, siblings) or (None if folder.is_dir() else f"no folder {folder}")
            raise usage_error(f"{path}: no such file or folder", hint, where)


def load_project(path: str | Path | None = None) -> Project:
    """The project at ``path`` (a folder holding printer.toml), or the nearest one above the current folder.

    What printer.toml may not decide alone (a ``read_also`` folder outside the project, a limit raised) takes the
    user's word (:mod:`printer.userconfig`); what is refused is in ``Project.problems`` as warnings.
    Raises :class:`UsageError` when there is none or printer.toml (or the user's config) is invalid.
    """
    return _load_project(Path(path) if path is not None else None)


def user_word_environment(read_also: list[str], allow_limit: list[str]) -> dict[str, str]:
    """The environment variables that carry the command line's ``--read-also DIR`` and ``--allow-limit NAME=VALUE``
    to every project loaded in this run (:func:`printer.userconfig.command_line`). Raises :class:`UsageError` for an
    unknown limit or a value that is not a positive number."""
    from printer.userconfig import command_line

    return command_line(read_also, allow_limit)


def _strictly(problems: list[Problem], strict: bool) -> list[Problem]:
    return [p.with_severity(ERROR) for p in problems] if strict else problems
