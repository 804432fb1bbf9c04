"""Finding the project and reading its ``printer.toml``.

A printer project is a folder holding ``printer.toml``, ``schema/``,
``cards/<game>/``, ``templates/<game>/`` and ``build/``. ``printer.toml``
names the games and their settings::

    [project]
    paper = "A4"                # default sheet size for `printer build`

    [games.starfall]
    name = "Starfall"
    card_size = "poker"         # a named trim size or "63x88mm"

Every path of a game (``schema``, ``cards``, ``templates``) defaults to the
conventional place and is looked up in the project first, then among the
schemas and templates bundled with printer, so that a user's project only
holds what it changes (the mkdocs model).

A project may come from a stranger: what it cannot decide for itself takes the
user's own word (:mod:`printer.userconfig`). A ``[project] read_also`` folder
outside the project is read only when the user allows it (``--read-also DIR`` or
the user's config), else it is dropped with a warning in :attr:`Project.problems`;
a ``[limits]`` value above printer's default (or the user's) is not used, with a
warning (:func:`printer.limits.from_settings`).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import Limits
from printer.limits import from_settings as limits_from_settings
from printer.location import toml_error_place
from printer.paths import GAME_ID, bundled_folders, contained, contained_or_raise, is_inside, write_problem
from printer.paths import bundled_root as bundled_root  # re-exported: the stages import it with Project
from printer.problems import WARNING, Location, Problem, UsageError, did_you_mean
from printer.userconfig import UserWord
from printer.userconfig import load as load_user_word

PROJECT_FILE = "printer.toml"


@dataclass
class Game:
    """One game of a project, with its resolved paths.

    ``template_dirs`` is the Jinja2 search path, most specific first: the
    project's ``templates/<game>``, its ``templates/``, then the bundled
    ones. ``settings`` keeps every other key of the game's table.
    """

    id: str
    name: str
    schema: Path
    cards: Path
    template_dirs: list[Path]
    card_size: str = "poker"
    settings: dict[str, Any] = field(default_factory=dict)

    def template_view(self) -> dict[str, Any]:
        """What templates see as ``game``: ``id``, ``name``, ``card_size`` and the other ``settings`` (no paths)."""
        return {"id": self.id, "name": self.name, "card_size": self.card_size, "settings": dict(self.settings)}


@dataclass
class Project:
    """A project root and its games (``games`` maps game id to :class:`Game`)."""

    root: Path
    games: dict[str, Game]
    settings: dict[str, Any] = field(default_factory=dict)
    #: read-only folders the project may read: its ``[project] read_also`` ones inside it or allowed by the user,
    #: and the user's own (:mod:`printer.userconfig`)
    read_also: list[Path] = field(default_factory=list)
    #: what one build may ask for (printer.toml ``[limits]`` within the user's word, :mod:`printer.limits`)
    limits: Limits = DEFAULT_LIMITS
    #: warnings of printer.toml that do not stop the project from loading (a refused read_also folder or limit)
    problems: list[Problem] = field(default_factory=list)

    def contained(self, name: str | Path, key: str, where: str) -> Path:
        """``name`` (relative to the root) when its real path is inside the project, its ``read_also`` folders or
        printer's bundled schema/ and templates/; raises :class:`UsageError` naming ``key`` at ``where`` otherwise
        (:func:`printer.paths.contained`)."""
        return contained_or_raise(self.root, name, key, where, [*self.read_also, *bundled_folders()])

    def write_problem(self, path: Path, where: str | None = None) -> Problem | None:
        """Why printer may not write the card file ``path`` (outside the project, in a ``read_also`` folder, in
        printer's bundled files), or ``None`` (:func:`printer.paths.write_problem`)."""
        return write_problem(path, self.root, self.read_also, where)

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    def game(self, game_id: str) -> Game:
        """The game named ``game_id``; raises :class:`UsageError` with a hint."""
        try:
            return self.games[game_id]
        except KeyError:
            hint = did_you_mean(game_id, list(self.games)) or (
                "known games: " + ", ".join(sorted(self.games)) if self.games else None
            )
            raise UsageError(
                f"unknown game {game_id!r}",
                [Problem(str(self.root / PROJECT_FILE), f"unknown game {game_id!r}", hint, code="unknown-game")],
            ) from None

    def game_for_path(self, path: Path) -> Game | None:
        """The game whose card folder holds ``path``, or whose id names one of its folders."""
        path = path.resolve()
        for game in self.games.values():
            if path.is_relative_to(game.cards.resolve()):
                return game
        for part in reversed(path.parts[:-1]):
            if part in self.games:
                return self.games[part]
        return None


def find_root(start: Path | None = None) -> Path | None:
    """The nearest folder at or above ``start`` holding ``printer.toml``."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder
    return None


def _resolve(root: Path, relative: str) -> Path:
    """``relative`` under the project if it exists there, else the bundled copy."""
    own = root / relative
    if own.exists():
        return own
    bundled = bundled_root() / relative
    return bundled if bundled.exists() else own


def load_project(root: Path | None = None, user: UserWord | None = None) -> Project:
    """Read ``printer.toml`` from ``root`` (or the nearest one above the cwd).

    ``user`` is what the user allows (default: :func:`printer.userconfig.load`, the user's config file and the
    command line). Raises :class:`UsageError` when there is no project file or it is not
    valid TOML, or the user's config is not valid; the problem carries ``file:line:col`` where TOML gives one.
    """
    if root is None:
        root = find_root()
        if root is None:
            raise UsageError(
                "no printer.toml here or in any parent folder",
                [
                    Problem(
                        str(Path.cwd()),
                        f"no {PROJECT_FILE} here or in any parent folder",
                        "run printer from inside a project, or pass --project DIR",
                        code="no-project",
                    )
                ],
            )
    root = root.resolve()
    path = root / PROJECT_FILE
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM, as Windows editors write, is not an error
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise UsageError(
            f"{path} not found", [Problem(str(path), "project file not found", code="no-project")]
        ) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        place, reason = toml_error_place(path, exc)
        raise UsageError(f"{path}: {exc}", [Problem(place, f"not valid TOML: {reason}", code="toml-syntax")]) from None
    except RecursionError:
        message = "not valid TOML: nested too deeply"
        raise UsageError(f"{path}: {message}", [Problem(str(path), message, code="toml-syntax")]) from None

    where = str(path)
    problems: list[Problem] = []
    project_table = data.get("project")
    settings: dict[str, Any] = project_table if isinstance(project_table, dict) else {}
    from printer.config import check_game_files, check_project_file, key_lines, locate, raise_if_errors

    if user is None:
        user = load_user_word()
    # every problem of the file is reported at once: each part below goes on past the problems of the others
    lines = key_lines(text)
    table = data.get("limits")
    located = {name: locate(path, lines, ("limits", name)) for name in table} if isinstance(table, dict) else {}
    limits, refused = limits_from_settings(table, where, user.limits, located)
    limit_errors = [p for p in refused if p.is_error]
    refused = [p for p in refused if not p.is_error]
    bad: set[tuple[str, ...]] = set()  # the keys whose values the schema refused: not read further
    # unknown keys and bad values, at their lines
    problems += check_project_file(path, text, data, limits.size_mm, bad)
    said = {located.get(k[1], where) if len(k) > 1 else where for k in bad if k[:1] == ("limits",)}
    problems += [p for p in limit_errors if p.where not in said]  # the schema said it already
    read_also, warnings = _read_also(
        root, settings.get("read_also"), user, locate(path, lines, ("project", "read_also"))
    )
    problems += [p for p in warnings if p.is_error]
    warnings = [p for p in warnings if not p.is_error]
    games: dict[str, Game] = {}
    listed = data.get("games")
    for game_id, table in listed.items() if isinstance(listed, dict) else ():
        if not isinstance(table, dict) or any(k[:2] == ("games", game_id) or k in {(), ("games",)} for k in bad):
            continue  # a value the schema refused: the game is not read further (its problem is reported)
        if not GAME_ID.fullmatch(game_id):
            problems.append(
                Problem(
                    where,
                    f"game id {game_id!r} is not allowed: it becomes a folder and file name",
                    "use lower-case letters, digits and '-' (e.g. my-game)",
                    code="bad-game-id",
                )
            )
            continue
        table = dict(table)
        name = table.pop("name", game_id)
        schema = _resolve(root, table.pop("schema", f"schema/{game_id}/card.schema.json"))
        cards = root / table.pop("cards", f"cards/{game_id}")
        templates = table.pop("templates", f"templates/{game_id}")
        for key, value in (("schema", schema), ("cards", cards), ("templates", root / templates)):
            if is_inside(value, bundled_folders()):
                continue
            _, problem = contained(root, value, f"[games.{game_id}] {key}", where, read_also)
            if problem:
                problems.append(problem)
        template_dirs = [
            root / templates,
            root / "templates",
            bundled_root() / "templates" / game_id,
            bundled_root() / "templates",
        ]
        unique_dirs = list(dict.fromkeys(d.resolve() for d in template_dirs if d.is_dir()))
        card_size = table.pop("card_size", "poker")
        games[game_id] = Game(game_id, name, schema, cards, unique_dirs, card_size, table)
    project = Project(root, games, settings, read_also, limits, warnings + refused)
    problems += check_game_files(path, text, data, project)  # the files it names exist
    # with the warnings: a folder refused is often why a path is outside the project
    raise_if_errors(problems + warnings + refused, path)
    return project


def _read_also(root: Path, listed: object, user: UserWord, where: str | Location) -> tuple[list[Path], list[Problem]]:
    """The folders the project may read besides its own: its ``read_also`` ones inside it or allowed by the user,
    then the user's own; and the problems (a warning for each folder the user did not allow)."""
    problems: list[Problem] = []
    if listed is None:
        listed = []
    if not isinstance(listed, list):
        problems.append(Problem(where, "[project] read_also must be a list of folder names", code="config"))
        listed = []
    home = Path(os.path.realpath(root))
    allowed = [Path(os.path.realpath(folder)) for folder in user.read_also]
    folders: list[Path] = []
    for i, folder in enumerate(listed):
        if not isinstance(folder, str):
            problems.append(Problem(where, f"[project] read_also[{i}] must be a folder name", code="config"))
            continue
        real = Path(os.path.realpath(root / folder))
        if real.is_relative_to(home) or any(real.is_relative_to(mine) for mine in allowed):
            folders.append(real)
            continue
        config = user.config or "~/.config/printer/config.toml"
        problems.append(
            Problem(
                where,
                f"[project] read_also = {folder!r} ({real}) is not read: a project cannot let printer read outside "
                "its folder on its own",
                f"if you trust this project, allow the folder yourself: printer --read-also {real} COMMAND, or "
                f'read_also = ["{real}"] in your own config ({config})',
                severity=WARNING,
                code="read-also-refused",
            )
        )
    return list(dict.fromkeys([*folders, *allowed])), problems
