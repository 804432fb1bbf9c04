"""From card files to validated :class:`~printer.cards.model.CardSet`\\ s.

This is the stage behind ``printer validate``: read every file, work out
each card's game, validate it against the game's schema, then check across
files (duplicate ids, art files that do not exist). Every problem is
collected; a card with errors is left out of the returned sets.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from printer.cards.load import FileCache, load_records
from printer.cards.model import Card, CardSet
from printer.cards.record import Record
from printer.cards.schema import SchemaStore
from printer.cards.verdicts import Verdicts
from printer.limits import Limits, over

if TYPE_CHECKING:
    from printer.cards.spreadsheet import SheetRecord
    from printer.cards.spreadsheet_cells import SchemaTypes
from printer.problems import WARNING, Problem, did_you_mean
from printer.project import Project, bundled_root


def schema_store(project: Project) -> SchemaStore:
    """The schemas of ``project``, falling back to printer's bundled ones."""
    return SchemaStore([project.root, bundled_root()])


def _game_of(record: Record, project: Project, default: str | None) -> str | None:
    if record.game:
        return record.game
    if default:
        return default
    game = project.game_for_path(record.file)
    return game.id if game else None


def load_cards(
    project: Project, paths: list[Path], game: str | None = None, store: SchemaStore | None = None
) -> tuple[dict[str, CardSet], list[Problem]]:
    """Read and validate every card under ``paths`` (:func:`read_cards`, its records left out).

    ``game`` forces the game of cards whose file does not name one.
    Returns ``({game id: CardSet}, problems)``; problems are located as
    ``file:line:col`` (syntax) or ``file::$.path`` (schema, cross-file).
    """
    found = read_cards(project, paths, game, store)
    return found.sets, found.problems


@dataclass(frozen=True)
class CardsRead:
    """What :func:`read_cards` read: every ``record`` of the files (invalid ones too), the valid cards by game
    (``sets``) and every problem, reading's first."""

    records: list[Record]
    sets: dict[str, CardSet]
    problems: list[Problem]


def read_cards(
    project: Project,
    paths: list[Path],
    game: str | None = None,
    store: SchemaStore | None = None,
    files: FileCache | None = None,
    memo: ValidationMemo | None = None,
) -> CardsRead:
    """Read every card file under ``paths`` (:func:`printer.cards.load.load_records`) and validate the records
    (:func:`check_records`): the one way cards are loaded, by a build, ``printer validate`` and the preview
    server, which keeps the records (it shows invalid cards too) and two caches between calls: ``files``
    (unchanged JSON files are not read again) and ``memo`` (unchanged records are not validated again; dropped
    when a schema changes). ``game`` forces the game of cards whose file does not name one."""
    records, problems = load_records(paths, files)
    sets, found = check_records(project, records, paths, game, store, memo)
    return CardsRead(records, sets, problems + found)


#: what :func:`check_records` may remember between calls: a record's schema problems by its schema, place and data
ValidationMemo = dict[tuple[str, str, str, str], list[Problem]]


def check_records(
    project: Project,
    records: list[Record],
    paths: list[Path],
    game: str | None = None,
    store: SchemaStore | None = None,
    memo: ValidationMemo | None = None,
    verdicts: Verdicts | None = None,
) -> tuple[dict[str, CardSet], list[Problem]]:
    """Validate records read from ``paths`` (:func:`printer.cards.load.load_records`) into card sets.

    As :func:`load_cards`, for a caller that keeps the records (a preview
    server showing invalid cards too). ``memo`` (a dict the caller keeps)
    remembers each JSON record's schema problems by schema file, location
    and data, so that validating the same project again after one card
    changed validates that card only; it must be dropped when a schema
    file changes. ``verdicts`` are the card files known to pass their
    schema, whose check is skipped (:mod:`printer.cards.verdicts`; default:
    the user's list, unless ``memo`` is given: a caller that validates
    again after each change keeps its own). Returns ``({game id: CardSet}, problems)``.
    """
    store = store or schema_store(project)
    if verdicts is None and memo is None:
        verdicts = Verdicts(store)
    games = [_game_of(record, project, game) for record in records]
    passed, keys = _known_files(project, records, games, verdicts) if verdicts else (set(), {})
    failed: set[Path] = set()
    problems: list[Problem] = []
    roots = art_roots(project, paths)
    art_seen: dict[Path, str | None] = {}
    sets: dict[str, CardSet] = {}
    seen_ids: dict[tuple[str, str], Record] = {}
    sheet_types: dict[Path, SchemaTypes] = {}
    field_limit = project.limits.fields_per_card
    for record, game_id in zip(records, games):
        if game_id is None or game_id not in project.games:
            where = record.where(".game" if "game" in record.data else "")
            what = f"unknown game {game_id!r}" if game_id else "cannot tell which game this card belongs to"
            hint = (did_you_mean(game_id, list(project.games)) if game_id else None) or (
                'put it under cards/<game>/, add "game": "<id>", or pass --game; games: '
                + ", ".join(sorted(project.games))
            )
            problems.append(Problem(where, what, hint, code="unknown-game"))
            continue
        fields = record.data if type(record) is Record else cast("SheetRecord", record).cells
        if not record.flat or len(fields) > field_limit:
            too_many = too_many_fields(fields, record, project.limits)
            if too_many is not None:  # refused unread: explaining 100,000 unknown fields would take minutes
                problems.append(too_many)
                failed.add(record.file)
                continue
        if type(record) is not Record:  # a spreadsheet row (SheetRecord): type its cells by the schema, locate by cell
            row = cast("SheetRecord", record)
            found = row.relocate(convert_cells(row, store, project.games[game_id].schema, sheet_types))
        elif record.file in passed:
            found = []
        else:
            found = _validate(store, record, project.games[game_id].schema, memo)
        problems += found
        if found:
            failed.add(record.file)
            continue
        card = Card(game_id, record.data, record)
        key = (game_id, card.id)
        if key in seen_ids:
            first = seen_ids[key]
            problems.append(
                Problem(
                    record.where(".id"),
                    f"duplicate id {card.id!r}, first used at {first.where('.id')}",
                    "give every card of a game its own id",
                    code="duplicate-id",
                )
            )
            continue
        seen_ids[key] = record
        problems += _check_art(card, roots, art_seen)
        sets.setdefault(game_id, CardSet(game_id)).add(card)
    for cards in sets.values():
        problems += _check_back_cards(cards)
    if verdicts:
        for file, verdict in keys.items():
            if file not in failed and file not in passed:
                verdicts.add(verdict)
        verdicts.save()
    return sets, problems


def _known_files(
    project: Project, records: list[Record], games: list[str | None], verdicts: Verdicts
) -> tuple[set[Path], dict[Path, str]]:
    """The JSON card files among ``records``' whose verdict is known to pass (their schema check is skipped), and
    the verdict key of every JSON card file whose cards all have a game (:mod:`printer.cards.verdicts`)."""
    checks: dict[Path, list[tuple[str, Path]] | None] = {}
    for record, game_id in zip(records, games):
        file = record.file
        if type(record) is not Record or file.suffix.lower() != ".json":
            continue
        held = checks.setdefault(file, [])
        if held is None or game_id is None or game_id not in project.games:
            checks[file] = None
        else:
            held.append((game_id, project.games[game_id].schema))
    keys = {}
    for file, held in checks.items():
        key = verdicts.key(file, held) if held else None
        if key is not None:
            keys[file] = key
    return {file for file, key in keys.items() if verdicts.known(key)}, keys


def field_count(data: object) -> int:
    """The fields of ``data`` (a card), counted in all its nested objects and lists of objects."""
    count = 0
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            count += len(value)
            stack += [v for v in value.values() if isinstance(v, (dict, list))]
        elif isinstance(value, list):
            stack += [v for v in value if isinstance(v, (dict, list))]
    return count


def too_many_fields(data: object, record: Record, limits: Limits) -> Problem | None:
    """The problem of a card with more fields than ``limits.fields_per_card``, located at the card, or ``None``."""
    limit = limits.fields_per_card
    count = field_count(data)
    if count <= limit:
        return None
    return over("fields_per_card", count, limit, record.where(), "this card has too many fields (nested ones included)")


def _validate(store: SchemaStore, record: Record, schema: Path, memo: ValidationMemo | None) -> list[Problem]:
    if memo is None:
        return store.validate(record.data, schema, record.where)
    key = (
        str(schema),
        str(record.file),
        record.pointer,
        json.dumps(record.data, sort_keys=True, ensure_ascii=False, default=str),
    )
    found = memo.get(key)
    if found is None:
        found = memo[key] = store.validate(record.data, schema, record.where)
    return list(found)


def convert_cells(
    record: SheetRecord, store: SchemaStore, schema: Path, cache: dict[Path, SchemaTypes] | None = None
) -> list[Problem]:
    """Type a spreadsheet row's cells by ``schema`` (:func:`printer.cards.spreadsheet_cells.convert`), then validate it.

    ``cache`` keeps the schema's field types between rows."""
    from printer.cards.spreadsheet_cells import SchemaTypes, convert

    cache = {} if cache is None else cache
    if schema not in cache:
        cache[schema] = SchemaTypes(store, schema)
    found = convert(record, cache[schema])
    if found:  # a cell that cannot be read: validating the rest would only add "missing field" for it
        return found
    return store.validate(record.data, schema, record.where)


def _check_back_cards(cards: CardSet) -> list[Problem]:
    """Every ``back_card`` names a card of the same game, and no card is the back of two cards."""
    problems: list[Problem] = []
    used: dict[str, str] = {}  # back card id -> the id of the card it is the back of
    for card in cards:
        ref = card.get("back_card")
        if ref is None:
            continue
        back = cards.by_id(ref)
        if back is None:
            hint = did_you_mean(ref, [c.id for c in cards])
            problems.append(
                Problem(
                    card.record.where(".back_card"),
                    f"no card with id {ref!r} for this card's back",
                    hint,
                    code="unknown-back-card",
                )
            )
        elif ref in used:
            problems.append(
                Problem(
                    card.record.where(".back_card"),
                    f"card {ref!r} is already the back of {used[ref]!r}",
                    code="duplicate-back-card",
                )
            )
        elif ref == card.id or back.get("back_card"):
            problems.append(
                Problem(
                    card.record.where(".back_card"),
                    f"card {ref!r} has a back_card of its own, so neither card would print",
                    f"give back_card to one side only (the front): remove it from {ref!r}",
                    code="back-card-loop",
                )
            )
        used.setdefault(ref, card.id)
    return problems


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def art_roots(project: Project, paths: list[Path]) -> list[Path]:
    """The folders art may come from: the project and the card folders (a card file's folder) being read."""
    roots = [project.root.resolve()]
    for path in paths:
        path = Path(path).resolve()
        roots.append(path if path.is_dir() else path.parent)
    return roots


def _check_art(card: Card, roots: list[Path], seen: dict[Path, str | None] | None = None) -> list[Problem]:
    """The card's ``art`` is an image file inside ``roots``.

    A URL, a missing file, a file reached through ``..``, an absolute path
    or a symbolic link out of the project (rendering would refuse to read
    it), and a file Pillow cannot open or that is over its
    decompression-bomb limit are problems. Missing and unreadable art are
    warnings (a build prints a labelled placeholder in their place, and
    ``--strict`` makes them errors), the rest errors. Only the image's header
    is read: a truncated file shows at ``printer build``. ``seen`` caches the
    header check of each file.
    """
    text = card.get("art")
    art = card.art_path()
    if not text or art is None:
        return []
    where = card.record.where(".art")
    if _URL.match(text):
        return [
            Problem(
                where,
                f"art {text[:80]!r} is a URL: printer reads only image files inside the project",
                "download the image into the project and give its path relative to the card file",
                code="art-url",
            )
        ]
    if not art.is_file():
        kind = "is a folder, not an image file" if art.is_dir() else "not found"
        return [Problem(where, f"art file {kind}: {art}", _art_hint(art), WARNING, "missing-art")]
    resolved = art.resolve()
    if not any(resolved.is_relative_to(root) for root in roots):
        return [
            Problem(
                where,
                f"art file {resolved} is outside the project (through '..', an absolute path or a symbolic link)",
                "put the art inside the project folder",
                code="art-outside",
            )
        ]
    seen = {} if seen is None else seen
    if resolved not in seen:
        seen[resolved] = _unreadable_image(resolved)
    if seen[resolved]:
        return [
            Problem(where, f"art file {art.name} cannot be used: {seen[resolved]}", severity=WARNING, code="bad-art")
        ]
    return []


def _unreadable_image(path: Path) -> str | None:
    """Why the image at ``path`` cannot be opened (header only; an SVG file is parsed as XML), or ``None``."""
    if path.suffix.lower() == ".svg":
        from printer.cards.art import svg_problem

        return svg_problem(path)
    from printer.cards.art import open_image

    try:
        with open_image(path):
            return None
    except OSError as exc:
        return str(exc)


def _art_hint(art: Path) -> str | None:
    folder = art.parent
    if not folder.is_dir():
        return f"folder {folder} does not exist"
    return did_you_mean(art.name, [p.name for p in folder.iterdir() if p.is_file()])
