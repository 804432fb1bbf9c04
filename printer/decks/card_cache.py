"""The cards of a project, loaded once and kept in ``build/.cache/cards/`` for the next command.

:func:`load_cards_cached` returns what :func:`printer.cards.catalog.load_cards`
returns (the valid cards of each game and the problems found; each card also
matched by its translations' titles, :func:`printer.decks.resolve.translated_titles`), reading and
validating the card files only when something they depend on changed. An
entry is keyed by a SHA-256 over everything that can change the outcome:

- each card file under the paths read, by path and content hash (a file
  linked from outside the folder, which is never read, by its path only);
- each schema file of the project and of printer, by path and content hash,
  and ``printer.toml``;
- the game asked for, the folders read, printer's version, the installed
  games (their name variants give the name keys), the cache format and the
  modification times of printer's card-reading modules;
- each art file the cards name, by path, size and modification time
  (checked again on every load: art is not in the card files).

An entry is one file: a first line of JSON holding the key and the SHA-256
of the rest, then the cards and problems as JSON. It is written atomically
(:mod:`printer.fsutil`); an entry whose key differs, whose digest does not
match (cut short, edited, corrupt), that does not parse or has the wrong
shape is ignored and rebuilt, never trusted. Two commands writing the same
entry at once each rename a whole file into place. There is one entry per
game and set of folders (older keys are overwritten). JSON, not pickle: a
project shared by a stranger may ship a ``build/.cache``, and reading it
must never run code.

Used by ``printer deck check`` (:func:`printer.api.check_decks`), which
reads the whole card database for every call.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, cast

from printer.cards.load import card_files
from printer.cards.model import Card, CardSet
from printer.cards.record import MAX_FILE_BYTES, Record
from printer.jsonvalue import JSONObject
from printer.paths import cache_folder, is_inside, output_path, regular_file_problem
from printer.problems import Problem, Severity, UsageError

if TYPE_CHECKING:
    from printer.cards.spreadsheet import SheetRecord
from printer.paths import bundled_root
from printer.project import Project

#: bump when the entry's shape or the meaning of its key changes
FORMAT = 3
#: the folder under the project's build/.cache holding the entries
FOLDER = "cards"
#: an entry larger than this many times the card files it was made from (plus 1 MiB) is not read
MAX_ENTRY_RATIO = 4


def load_cards_cached(
    project: Project, paths: list[Path], game: str | None = None
) -> tuple[dict[str, CardSet], list[Problem], str]:
    """:func:`printer.cards.catalog.load_cards` through the cache; returns ``(sets, problems, how)``.

    ``how`` is ``"hit"`` (read from the cache), ``"miss"`` (loaded, then
    written to the cache) or ``"off"`` (loaded; the cache could not be used:
    the build folder is a link, or cannot be written).
    """
    from printer.cards.catalog import load_cards

    entry = _entry_path(project, paths, game)
    key, card_bytes = _key(project, paths, game)
    if entry is not None:
        found = _read(entry, key, card_bytes)
        if found is not None:
            return found[0], found[1], "hit"
    from printer.decks.resolve import remember_titles, translated_titles

    sets, problems = load_cards(project, paths, game)
    titles = translated_titles(project, paths, sets)
    for game_id, card_set in sets.items():
        remember_titles(card_set, titles.get(game_id, {}))
    if entry is None:
        return sets, problems, "off"
    try:
        _write(entry, key, sets, problems, titles)
    except (OSError, TypeError, ValueError):  # a read-only build folder, data JSON cannot hold: no cache, same result
        return sets, problems, "off"
    return sets, problems, "miss"


def _entry_path(project: Project, paths: list[Path], game: str | None) -> Path | None:
    """The entry's file: ``build/.cache/cards/<game>-<hash of the folders read>.json``; ``None`` when the cache
    folder is not safe to write (:func:`printer.paths.cache_folder`: a build folder that is a link, or outside
    the project)."""
    folder = cache_folder(project.root, project.build_dir, FOLDER)
    if folder is None:
        return None
    targets = "\n".join(str(Path(p).resolve()) for p in paths)
    name = f"{game or 'all'}-{hashlib.sha256(targets.encode()).hexdigest()[:16]}.json"
    try:
        return output_path(folder, name)
    except UsageError:
        return None


def _key(project: Project, paths: list[Path], game: str | None) -> tuple[str, int]:
    """The entry's key (hex SHA-256) and the bytes of card files it covers."""
    digest = hashlib.sha256()

    def add(*parts: object) -> None:
        for part in parts:
            digest.update(str(part).encode("utf-8", "surrogatepass") + b"\0")

    from printer import __version__
    from printer.plugins import installed_games

    add("printer-card-cache", FORMAT, __version__, game, project.root.resolve())
    add("games", *(f"{g.id} {g.source}" for g in installed_games().values()))  # their name variants key the names
    package = Path(__file__).resolve().parents[1]
    code = [*sorted((package / "cards").glob("*.py")), *(package / "decks" / n for n in ("names.py", "resolve.py"))]
    for module in [*code, Path(__file__).resolve()]:  # a developer's change to the code reading cards and names
        add(module.name, module.stat().st_mtime_ns)
    toml = project.root / "printer.toml"
    add("printer.toml", _file_hash(toml) if toml.is_file() else "-")
    for root in (project.root, bundled_root()):
        folder = root / "schema"
        for file in sorted(folder.rglob("*.json")) if folder.is_dir() else []:
            add("schema", file, _file_hash(file))
    total = 0
    for target in paths:
        target = Path(target)
        add("target", target.resolve(), target.is_dir())
        for file in card_files([target]):
            if target.is_dir() and not is_inside(file, [target]):  # a link out of the folder is never read
                add("card-file", file, "outside", os.path.realpath(file))
                continue
            try:
                st = file.stat()
            except OSError as exc:
                add("card-file", file, "unreadable", exc.errno)
                continue
            if regular_file_problem(file) is not None or st.st_size > MAX_FILE_BYTES:  # refused unread by load_cards
                add("card-file", file, "refused", st.st_mode, st.st_size, st.st_mtime_ns)
                continue
            try:
                data = file.read_bytes()
            except OSError as exc:
                add("card-file", file, "unreadable", exc.errno)
                continue
            total += len(data)
            add("card-file", file, hashlib.sha256(data).hexdigest())
    return digest.hexdigest(), total


def _file_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        return f"unreadable {exc.errno}"


def _art_state(art: list[str]) -> list[object]:
    """Each art path's (size, modification time, real path), or ``None`` when missing."""
    state: list[object] = []
    for name in art:
        try:
            st = os.stat(name)
            state.append([st.st_size, st.st_mtime_ns, os.path.realpath(name)])
        except OSError:
            state.append(None)
    return state


def _write(
    entry: Path, key: str, sets: dict[str, CardSet], problems: list[Problem], titles: dict[str, dict[str, list[str]]]
) -> None:
    from printer.decks.resolve import card_names
    from printer.fsutil import atomic_write_bytes

    cards = []
    art: list[str] = []
    for game_id, card_set in sets.items():
        for card in card_set:
            also = titles.get(game_id, {}).get(card.id, ())
            cards.append([game_id, card.data, *_record_fields(card.record), card_names(card, also)])
            if card.get("art"):
                art.append(str(card.art_path()))
    art = sorted(set(art))
    payload = {
        "cards": cards,
        "problems": [[str(p.where), p.message, p.hint, str(p.severity), p.code] for p in problems],
        "art": art,
        "art_state": _art_state(art),
    }
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    head = json.dumps({"format": FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()}).encode("utf-8")
    atomic_write_bytes(entry, head + b"\n" + body)


def _record_fields(record: Record) -> list[object]:
    """A record as JSON: ``[file, pointer, game, sheet fields or None]`` (a spreadsheet row keeps its place)."""
    sheet = None
    if type(record) is not Record:  # printer.cards.spreadsheet.SheetRecord: its cell references
        row = cast("SheetRecord", record)
        sheet = {"sheet": row.sheet, "row": row.row, "columns": row.columns, "typed": row.typed}
    return [str(record.file), record.pointer, record.game, sheet]


def _read(entry: Path, key: str, card_bytes: int) -> tuple[dict[str, CardSet], list[Problem]] | None:
    """The entry's cards and problems when it is whole and its key is ``key``; ``None`` otherwise."""
    try:
        if entry.is_symlink() or not entry.is_file():
            return None
        if entry.stat().st_size > MAX_ENTRY_RATIO * card_bytes + 2**20:
            return None
        raw = entry.read_bytes()
    except OSError:
        return None
    head, _, body = raw.partition(b"\n")
    try:
        header = json.loads(head)
        if header.get("format") != FORMAT or header.get("key") != key:
            return None
        if header.get("sha256") != hashlib.sha256(body).hexdigest():
            return None
        payload = json.loads(body)
        return _rebuild(payload)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):  # not what _write writes: rebuild it
        return None


def _rebuild(payload: JSONObject) -> tuple[dict[str, CardSet], list[Problem]] | None:
    art = payload["art"]
    if _art_state(art) != payload["art_state"]:  # an art file appeared, vanished or changed
        return None
    sets: dict[str, CardSet] = {}
    names: dict[str, list[tuple[str, str, str, list[str]]]] = {}
    files: dict[str, Path] = {}
    for game_id, data, file, pointer, record_game, sheet, card_names in payload["cards"]:
        if not (isinstance(game_id, str) and isinstance(data, dict) and isinstance(data.get("id"), str)):
            return None
        if not (isinstance(data.get("title"), str) and isinstance(data.get("type"), str)):
            return None
        key, title, loose, translated = card_names
        if not (isinstance(key, str) and isinstance(title, str) and isinstance(loose, str)):
            return None
        if not (isinstance(translated, list) and all(isinstance(t, str) for t in translated)):
            return None
        path = files.get(file) or files.setdefault(file, Path(file))
        if sheet is None:
            record = Record(data, path, pointer, record_game)
        else:
            from printer.cards.spreadsheet import SheetRecord

            record = SheetRecord(data, path, pointer, record_game, converted=True, **sheet)
        sets.setdefault(game_id, CardSet(game_id)).add(Card(game_id, data, record))
        names.setdefault(game_id, []).append((key, title, loose, translated))
    from printer.decks.resolve import remember_index

    for game_id, card_set in sets.items():
        remember_index(card_set, names[game_id])
    problems = [
        Problem(where, message, hint, Severity(severity), code)
        for where, message, hint, severity, code in payload["problems"]
    ]
    return sets, problems
