"""Whether a build is up to date: the same request on the same input files as the last build that wrote these outputs.

Before loading any card, a build computes a *signature* of what it was
asked (the request's fields, printer's version) and of every input file it
may read: printer.toml, the card folder, the game's template folders and
schema (its ``$ref``\\ s included), the decklist, the player aids, the CMYK
profile; each file by its path, size and modification time. When the face
cache (:mod:`printer.sheets.cache`) holds a build with the same signature
whose outputs are still there unchanged (size and modification time), that
build's result (its warnings included) is the answer, with no card loaded
and no page laid out. Anything else, and any doubt, builds; the faces then
come from the cache by content.

A face may also show files outside those folders: a card's art anywhere in
the project, an image a template names by its path from the project's
folder. The build keeps each such file it *named* (:func:`remember`), with
its size and time as they were before the build read it
(:func:`named_before`; a file the last build did not name is looked at once
the build is done), and the build is up to date only while each is as it
was (:func:`recall`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from printer.project import Game, Project

#: entries keep at most this many files per folder walk (a larger folder always builds)
MAX_FILES = 50_000


@dataclass(frozen=True)
class GameInputs:
    """The files and folders a game's faces are made from, the one list of them that a build's up-to-date
    signature (``printer.api``'s ``_build_signature``) and the local server's sorting of changed files
    (:meth:`printer.serve.workspace.Workspace.classify`) share: ``files`` (printer.toml, the game's card schema),
    the ``cards`` folder, the ``templates`` and player ``aids`` folders, and ``schemas`` (the game's schema folder
    and printer's bundled schemas, where its ``$ref`` s lead)."""

    files: tuple[Path, ...]
    cards: Path
    templates: tuple[Path, ...]
    aids: Path
    schemas: tuple[Path, ...]


def game_inputs(project: Project, game: Game) -> GameInputs:
    """The inputs of ``game``'s faces in ``project`` (see :class:`GameInputs`)."""
    from printer.paths import bundled_root

    files = (project.root / "printer.toml", game.schema)
    aids = project.root / "rules" / game.id / "aids"
    return GameInputs(
        files, game.cards, tuple(game.template_dirs), aids, (game.schema.parent, bundled_root() / "schema")
    )


class TextStore(Protocol):
    """What :func:`recall` and :func:`remember` need of a store (the build cache's ``diskcache.Cache``): text by key."""

    def get(self, key: str) -> object: ...

    def set(self, key: str, value: str) -> object: ...


def signature(request_fields: Iterable[object], files: Iterable[Path], folders: Iterable[Path]) -> str | None:
    """A digest of ``request_fields`` and the path, size and time of ``files`` and of every file under ``folders``.

    ``None`` when a folder holds more than :data:`MAX_FILES` files (too many to check quickly: build).
    """
    h = hashlib.sha256()
    for part in request_fields:
        h.update(repr(part).encode() + b"\0")
    seen: list[Path] = []
    for folder in dict.fromkeys(Path(f) for f in folders):
        if not folder.is_dir():
            h.update(f"no folder {folder}".encode())
            continue
        for base, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            seen += [Path(base) / n for n in sorted(names)]
            if len(seen) > MAX_FILES:
                return None
    for path in [*files, *seen]:
        try:
            stat = Path(path).stat()
            h.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
        except OSError:
            h.update(f"{path}\0missing\n".encode())
    return h.hexdigest()


def _stat(path: str) -> list[int] | None:
    """``[size, modification time in ns]`` of the file ``path``, ``None`` when it is not a readable file's."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return [found.st_size, found.st_mtime_ns]


def named_before(store: TextStore, key: str) -> dict[str, list[int] | None]:
    """The files the last build of ``key`` named (see :func:`remember`), each with its size and time now: taken
    before a build reads them, so that a file saved while it runs is not taken for the one it printed."""
    try:
        entry = store.get("build:" + key)
        named = json.loads(entry).get("named", {}) if isinstance(entry, str) else {}
        return {str(path): _stat(str(path)) for path in named} if isinstance(named, dict) else {}
    except Exception:  # a damaged entry: the build looks at the files afterwards
        return {}


def _outputs(paths: Iterable[Path]) -> dict[str, tuple[int, int]] | None:
    found = {}
    for path in paths:
        try:
            stat = Path(path).stat()
        except OSError:
            return None
        if not Path(path).is_file():
            continue
        found[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return found


def recall(store: TextStore, key: str, digest: str | None) -> dict[str, Any] | None:
    """The result (JSON data, as :func:`remember` was given it) stored for ``key`` when its signature is
    ``digest``, its outputs are unchanged and so is each file it named, else ``None``."""
    if digest is None:
        return None
    try:
        entry = store.get("build:" + key)
        if not isinstance(entry, str):
            return None
        stored = json.loads(entry)
        outputs = {path: tuple(found) for path, found in stored["outputs"].items()}
        if stored["digest"] != digest or _outputs(Path(p) for p in outputs) != outputs:
            return None
        named = stored.get("named", {})
        if any(_stat(path) != found for path, found in named.items()):  # None: missing then, and still
            return None
        result = stored["result"]
        return result if isinstance(result, dict) else None
    except Exception:  # a damaged entry: build
        return None


def remember(
    store: TextStore,
    key: str,
    digest: str | None,
    result: dict[str, Any],
    outputs: Iterable[Path],
    named: Iterable[Path] = (),
    before: dict[str, list[int] | None] | None = None,
) -> None:
    """Store ``result`` (JSON data) for ``key`` under ``digest`` with the size and time of its ``outputs`` (files or
    folders) and of each file its faces ``named`` (``None`` for a missing one): as in ``before``
    (:func:`named_before`, taken before the build) when it is there, else as it is now. Stored as JSON
    text, never a pickle (see :mod:`printer.sheets.cache`)."""
    if digest is None:
        return
    files: list[Path] = []
    for path in outputs:
        path = Path(path)
        files += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    found = _outputs(files)
    if found is None:
        return
    try:
        before = before or {}
        files_named = {str(p): before[str(p)] if str(p) in before else _stat(str(p)) for p in named}
        entry = {"digest": digest, "outputs": found, "result": result, "named": files_named}
        store.set("build:" + key, json.dumps(entry))
    except Exception:
        pass
