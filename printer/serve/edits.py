"""What the card editor may do to files: check a draft, save a card, add one, delete one.

Only JSON card files inside a game's card folder are written, each path
resolved by the project's resolver (:meth:`printer.project.Project.contained`,
:func:`printer.paths.is_inside`: no ``..``, no absolute path, no symbolic
link out of the folder) and allowed by the one rule of every writer
(:meth:`printer.project.Project.write_problem`: inside the project's real
folder, not in a ``read_also`` folder, not in printer's bundled files),
atomically (:mod:`printer.fsutil`), changing only
the card's text (:mod:`printer.cards.edit`). A save names the card's data
as the editor loaded it (``base``, a hash): if the file changed on disk
since, the save is refused (409) instead of overwriting someone's edit.
A card read from a CSV or XLSX file is saved into its row
(:mod:`printer.cards.sheet_edit`), checked the same way (the row's data as the
editor loaded it) and read back before the file is replaced; ODS and XLS files
are shown read-only.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from printer.cards.edit import CardEditError, card_at, delete_card, insert_card, replace_card
from printer.cards.sheet_edit import (
    WRITABLE,
    append_csv_row,
    delete_csv_row,
    edit_workbook,
    replace_csv_row,
    row_values,
)
from printer.cards.spreadsheet import SheetRecord, read_records
from printer.cards.spreadsheet_cells import SchemaTypes, convert
from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.paths import is_inside, read_text, regular_file_problem, safe_file_name
from printer.problems import UsageError
from printer.serve.workspace import Workspace

_WRITING = threading.Lock()


class EditRefused(Exception):
    """An edit that is not made: ``status`` is the HTTP status, ``problem`` the located reason."""

    def __init__(self, status: int, message: str, problem: dict[str, Any] | None = None):
        super().__init__(message)
        self.status = status
        self.problem = problem


def digest(data: object) -> str:
    """The hash naming a card's data as the editor loaded it."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def card_file(workspace: Workspace, game_id: str, name: object, must_exist: bool = True, writing: bool = True) -> Path:
    """The card file ``name`` (relative to the project) of ``game_id``, checked (``writing``: a file printer may
    write, :meth:`printer.project.Project.write_problem`); raises :class:`EditRefused`."""
    project = workspace.project
    if game_id not in project.games:
        raise EditRefused(400, f"no game {game_id!r} in this project")
    if not isinstance(name, str) or not name or "\0" in name:
        raise EditRefused(400, "no card file named")
    try:
        path = project.contained(name, "file", "editor")
    except UsageError as exc:
        raise EditRefused(403, str(exc), exc.problems[0].as_dict() if exc.problems else None) from None
    refused = project.write_problem(path, name) if writing else None
    if refused is not None:
        raise EditRefused(403, f"{refused.message}: not written", refused.as_dict())
    game = project.games[game_id]
    if not is_inside(path, [game.cards]) or ".." in Path(name).parts:
        raise EditRefused(403, f"{name} is not in the card folder of {game_id} ({game.cards.name}/)")
    if path.suffix.lower() not in (".json", *WRITABLE):
        raise EditRefused(
            400, f"{name}: only JSON, CSV and XLSX card files are edited here (edit this spreadsheet in its program)"
        )
    if path.is_symlink():
        raise EditRefused(403, f"{name} is a symbolic link: not written")
    if must_exist and not path.is_file():
        raise EditRefused(404, f"{name} does not exist")
    special = regular_file_problem(path)
    if special is not None:
        raise EditRefused(400, special.message)
    return path


def _text(path: Path) -> str:
    text, problem = read_text(path)
    if problem is not None:
        raise EditRefused(400, problem.message, problem.as_dict())
    assert text is not None  # read_text gives the text or a problem
    return text


def _data(body: dict[str, Any]) -> dict[str, Any]:
    data = body.get("data")
    if not isinstance(data, dict):
        raise EditRefused(400, "the card must be a JSON object")
    return data


def check_card(workspace: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    """Validate and render a draft: ``{"problems", "front", "back", "error", "required"}`` (see Workspace.preview)."""
    from printer.serve.form import required_fields

    game_id = body.get("game")
    if not isinstance(game_id, str) or game_id not in workspace.project.games:
        raise LookupError(f"no game {game_id!r}")
    data = body.get("data")
    if not isinstance(data, dict):
        raise LookupError("the card must be a JSON object")
    game = workspace.project.games[game_id]
    name = body.get("file")
    try:
        path = card_file(workspace, game_id, name, must_exist=False, writing=False)
    except EditRefused:
        path = game.cards / "new.json"
    pointer = body.get("pointer")
    if not isinstance(pointer, str) or not pointer.startswith("$"):  # a new card, or a spreadsheet row (Sheet1!7)
        pointer = "$.cards[0]" if not isinstance(pointer, str) else "$"
    uid = body.get("uid") if isinstance(body.get("uid"), str) else None
    result = workspace.preview(game_id, path, pointer, data, uid)
    result["required"] = required_fields(workspace.store, game.schema, data)
    return result


def edit_card(workspace: Workspace, action: str, body: dict[str, Any]) -> tuple[dict[str, Any], Path]:
    """Make one edit (``save``, ``new`` or ``delete``); returns ``({"file", "pointer"}, the file written)``."""
    game_id = body.get("game")
    if not isinstance(game_id, str):
        raise EditRefused(400, "no game named")
    with _WRITING:
        if action in ("save", "new", "delete") and _sheet_file(workspace, game_id, body, action):
            return _edit_sheet(workspace, game_id, action, body)
        if action == "save":
            path = card_file(workspace, game_id, body.get("file"))
            pointer, data = _pointer(body), _data(body)
            text = _text(path)
            current = card_at(text, pointer)
            if current is None or digest(current) != body.get("base"):
                raise EditRefused(409, "the card changed on disk since it was opened: reload it, then edit again")
            new_text = _edit(lambda: replace_card(text, pointer, data))
        elif action == "new":
            data = _data(body)
            path = card_file(workspace, game_id, _new_name(body, game_id, workspace), must_exist=False)
            if path.is_file():
                text = _text(path)
                after = body.get("after") if isinstance(body.get("after"), str) else None
                parsed = _parse(text)
                list_pointer = "$.cards" if isinstance(parsed, dict) else "$"
                new_text, pointer = _edit(lambda: insert_card(text, after, data, list_pointer))
            else:
                from printer.cards.importing import card_file_text

                schema = workspace.project.games[game_id].schema.resolve().as_uri()
                new_text, pointer = card_file_text(game_id, [data], schema), "$.cards[0]"
        elif action == "delete":
            path = card_file(workspace, game_id, body.get("file"))
            pointer = _pointer(body)
            text = _text(path)
            current = card_at(text, pointer)
            if current is None or digest(current) != body.get("base"):
                raise EditRefused(409, "the card changed on disk since it was opened: reload, then delete again")
            new_text = _edit(lambda: delete_card(text, pointer))
        else:
            raise EditRefused(404, f"no editor action {action!r}")
        atomic_write_text(path, new_text)
    return {"file": str(path.relative_to(workspace.root)), "pointer": pointer}, path


# --- spreadsheet rows --------------------------------------------------------------------------------------------


def _sheet_file(workspace: Workspace, game_id: str, body: dict[str, Any], action: str) -> bool:
    name = body.get("file")
    return isinstance(name, str) and Path(name).suffix.lower() in WRITABLE and (action != "new" or bool(name))


def _sheet_row(body: dict[str, Any], key: str = "pointer") -> tuple[str | None, int]:
    """``(sheet, row)`` from a place ``Sheet1!7`` (``!7`` in a CSV file), as the workspace names spreadsheet rows."""
    place = body.get(key)
    sheet, _, row = place.rpartition("!") if isinstance(place, str) and "!" in place else ("", "", "")
    if not row.isdigit() or int(row) < 1:
        raise EditRefused(400, "no spreadsheet row named")
    return sheet or None, int(row)


def _sheet_rows(workspace: Workspace, game_id: str, path: Path) -> tuple[list[SheetRecord], SchemaTypes]:
    """The card rows of the spreadsheet at ``path``, their cells converted by the game's schema."""
    records, problems = read_records(path)
    if any(p.is_error for p in problems) and not records:
        raise EditRefused(409, problems[0].message, problems[0].as_dict())
    types = SchemaTypes(workspace.store, workspace.project.games[game_id].schema)
    for record in records:
        convert(record, types)
    return records, types


def _edit_sheet(workspace: Workspace, game_id: str, action: str, body: dict[str, Any]) -> tuple[dict[str, Any], Path]:
    """Save, add or delete one card's row of a CSV or XLSX card file (:mod:`printer.cards.sheet_edit`)."""
    path = card_file(workspace, game_id, body.get("file"))
    records, types = _sheet_rows(workspace, game_id, path)
    typed = path.suffix.lower() != ".csv"
    if action == "new":
        data = _data(body)
        sheet, after = _sheet_row(body, "after") if isinstance(body.get("after"), str) else (None, 0)
        same = [r for r in records if r.sheet == sheet] if body.get("after") else records[:1]
        if not same:
            raise EditRefused(409, f"{path.name}: no card row to take the sheet's columns from")
        sheet, columns = same[0].sheet, same[0].columns
        cells = _edit(lambda: row_values(data, columns, types, typed, same[0].where()))
        if typed:
            new, row = _edit(lambda: edit_workbook(path, sheet or "", after, cells, insert_after=True))
        else:
            new, row = _edit(lambda: append_csv_row(path, after or None, cells))
    else:
        sheet, row = _sheet_row(body)
        record = next((r for r in records if (r.sheet, r.row) == (sheet, row)), None)
        if record is None or digest(record.data) != body.get("base"):
            raise EditRefused(409, "the card changed on disk since it was opened: reload it, then edit again")
        if action == "delete":
            data = None
            new = _edit(lambda: edit_workbook(path, sheet or "", row, None)[0] if typed else delete_csv_row(path, row))
        else:
            data = _data(body)
            cells = _edit(lambda: row_values(data, record.columns, types, typed, record.where()))
            new = _edit(
                lambda: edit_workbook(path, sheet or "", row, cells)[0] if typed else replace_csv_row(path, row, cells)
            )
    if data is not None:
        _check_read_back(workspace, game_id, path, new, sheet, row, data)
    atomic_write_bytes(path, new)
    return {"file": str(path.relative_to(workspace.root)), "pointer": f"{sheet or ''}!{row}"}, path


def _check_read_back(
    workspace: Workspace, game_id: str, path: Path, new: bytes, sheet: str | None, row: int, data: dict[str, Any]
) -> None:
    """Refuse (409) a spreadsheet that would not read back as ``data`` in its ``row``."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / path.name
        probe.write_bytes(new)
        records, _ = _sheet_rows(workspace, game_id, probe)
    back = next((r.data for r in records if (r.sheet, r.row) == (sheet, row)), None)
    wanted = {k: v for k, v in data.items() if k not in ("$schema", "game")}
    if back != wanted:
        raise EditRefused(
            409,
            f"{path.name}: the row would not read back as the card ({back!r}): edit it in the spreadsheet program",
        )


def _pointer(body: dict[str, Any]) -> str:
    pointer = body.get("pointer")
    if not isinstance(pointer, str) or not pointer.startswith("$") or len(pointer) > 200:
        raise EditRefused(400, "no card place named")
    return pointer


def _parse(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise EditRefused(409, f"the file is not valid JSON now ({exc}): fix it first") from None


_Made = TypeVar("_Made")


def _edit(make: Callable[[], _Made]) -> _Made:
    try:
        return make()
    except CardEditError as exc:
        raise EditRefused(409, exc.problem.message, exc.problem.as_dict()) from None
    except ValueError as exc:
        raise EditRefused(409, f"the file is not valid JSON now ({exc}): fix it first") from None


def _new_name(body: dict[str, Any], game_id: str, workspace: Workspace) -> str:
    """The file a new card goes to: the one named, else ``<card folder>/<name>.json`` for a new file."""
    name = body.get("file")
    if isinstance(name, str) and name:
        return name
    new = body.get("new_file")
    if not isinstance(new, str) or not new.strip():
        raise EditRefused(400, "name the file the new card goes to")
    stem = safe_file_name(new.strip().removesuffix(".json"))
    path = workspace.project.games[game_id].cards / f"{stem}.json"
    refused = workspace.project.write_problem(path)
    if refused is not None:
        raise EditRefused(403, f"{refused.message}: not written", refused.as_dict())
    return str(path.relative_to(workspace.root))


__all__ = ["EditRefused", "card_file", "check_card", "digest", "edit_card"]
