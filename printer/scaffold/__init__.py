"""``printer init``: a new project that validates, builds, checks a deck and prints its rules out of the box.

:func:`scaffold` writes the files under ``files/`` (a three-type example game: Ships, Crew, Events), with
``__GAME__`` and ``__NAME__`` replaced by the game's id and name; :func:`copy_game` starts from one of the
bundled example games instead.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

from printer.jsonvalue import JSON
from printer.problems import Problem, UsageError

FILES = Path(__file__).resolve().parent / "files"
_GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def game_id_for(folder: Path) -> str:
    """A game id from a folder name: ``My Game`` -> ``my-game``."""
    slug = re.sub(r"[^a-z0-9]+", "-", folder.resolve().name.lower()).strip("-")
    return slug or "game"


def _check_target(dest: Path) -> None:
    if (dest / "printer.toml").exists():
        raise UsageError(
            f"{dest} already holds a printer project",
            [Problem(str(dest / "printer.toml"), "a project is already here", "choose a new folder", code="usage")],
        )
    if dest.exists() and not dest.is_dir():
        raise UsageError(f"{dest} is a file", [Problem(str(dest), "is a file, not a folder", code="usage")])


def scaffold(dest: Path, game: str, name: str) -> list[Path]:
    """Write the example project into ``dest`` (made when missing); returns the files written. The ``name`` is
    written as each file's syntax needs it (:func:`name_for`), so quotes, backslashes and braces in it stay text.

    Raises :class:`UsageError` when ``dest`` already holds a ``printer.toml``, ``game`` is not a valid id or
    ``name`` is empty or holds a control character (a line break) or bytes that are not UTF-8.
    """
    if not _GAME_ID.match(game):
        raise UsageError(
            f"game id {game!r} is not valid",
            [Problem("command line", f"game id {game!r}", "lower-case letters, digits and '-'", code="usage")],
        )
    if not name.strip() or any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in name):
        raise UsageError(
            f"game name {name!r} is not valid",
            [
                Problem(
                    "--name",
                    f"game name {name!r} is empty or holds a line break, a control character or bytes that are not UTF-8",
                    "one line of text, such as 'Starfall'",
                    code="usage",
                )
            ],
        )
    _check_target(dest)
    written = []
    for source in sorted(FILES.rglob("*")):
        if not source.is_file():
            continue
        relative = Path(*[part.replace("__GAME__", game) for part in source.relative_to(FILES).parts])
        target = dest / relative
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        data = source.read_bytes().replace(b"__GAME__", game.encode())
        data = data.replace(b"__NAME__", name_for(name, source.suffix).encode())
        target.write_bytes(data)
        written.append(target)
    return written


def name_for(name: str, suffix: str) -> str:
    """``name`` as the scaffold's files of ``suffix`` hold it: inside a TOML or JSON string (and a TOML comment) with
    its quotes and backslashes escaped; in a template's HTML text and Jinja comment as HTML character references
    for ``&<>"'{}#`` (so ``{{`` or ``#}`` stay text); in a CSS comment with ``*/`` broken; elsewhere as it is."""
    if suffix in (".toml", ".json"):
        return json.dumps(name, ensure_ascii=False)[1:-1]
    if suffix == ".j2":
        return "".join(f"&#{ord(c)};" if c in "&<>\"'{}#" else c for c in name)
    if suffix == ".css":
        return name.replace("*/", "* /")
    return name


def copy_game(dest: Path, game: str) -> list[Path]:
    """A project holding a copy of printer's example ``game`` (schema, formats, templates, cards, rules).

    Raises :class:`UsageError` naming the closest example game when ``game`` is not one.
    """
    from printer.project import bundled_root, load_project

    _check_target(dest)
    root = bundled_root()
    source = load_project(root) if (root / "printer.toml").is_file() else None
    if source is None or game not in source.games:
        known = sorted(source.games) if source else []
        from printer.problems import did_you_mean

        raise UsageError(
            f"no example game {game!r}",
            [
                Problem(
                    "command line",
                    f"no example game {game!r}",
                    did_you_mean(game, known)
                    or ("example games: " + ", ".join(known) if known else None)
                    or "the example games' cards and rules come with a source checkout of printer, not with an "
                    "installed package",
                    code="usage",
                )
            ],
        )
    written = []
    for folder in (f"schema/{game}", f"templates/{game}", f"cards/{game}", f"rules/{game}"):
        if (root / folder).is_dir():
            shutil.copytree(root / folder, dest / folder, dirs_exist_ok=True)
            written += [p for p in (dest / folder).rglob("*") if p.is_file()]
    text = (root / "printer.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)["games"][game]
    lines = ["# printer project, started from printer's example game " + game, "[project]", 'paper = "A4"', ""]
    lines.append(f"[games.{game}]")
    for key, value in table.items():
        lines.append(f"{key} = {_toml(value)}")
    (dest / "printer.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [dest / "printer.toml", *written]


def _toml(value: JSON) -> str:
    import json

    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)
