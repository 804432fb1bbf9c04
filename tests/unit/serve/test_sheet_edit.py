"""Cards read from spreadsheets are edited in printer serve's form like JSON cards: a save writes the card's row
(CSV and XLSX), new and delete add and remove rows, every other row reads back as it was; a workbook with
formulas is not written, and an ODS file is shown read-only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import sign_in

from printer.cards.catalog import schema_store
from printer.cards.spreadsheet import read_records
from printer.cards.spreadsheet_cells import SchemaTypes, convert
from printer.project import load_project

REPO = Path(__file__).resolve().parents[3]
TOML = """[games.l5r]
name = "Legend of the Five Rings CCG"
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
"""


def rows(root: Path, sheet: Path) -> dict[tuple, dict]:
    """The spreadsheet's cards as the reader gives them, by (sheet, row)."""
    project = load_project(root)
    types = SchemaTypes(schema_store(project), project.games["l5r"].schema)
    records, problems = read_records(sheet)
    assert not [p for p in problems if p.is_error], problems
    for record in records:
        convert(record, types)
    return {(r.sheet, r.row): r.data for r in records}


def make(tmp_path: Path, run, suffix: str) -> tuple[Path, Path]:
    """A project whose L5R cards are the repository's example cards exported to ``cards/l5r/cards<suffix>``."""
    source = tmp_path / "source"
    shutil.copytree(REPO / "cards" / "l5r", source / "cards" / "l5r")
    (source / "printer.toml").write_text(TOML, encoding="utf-8")
    root = tmp_path / "sheets"
    (root / "cards" / "l5r").mkdir(parents=True)
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    sheet = root / "cards" / "l5r" / f"cards{suffix}"
    assert run("--project", source, "export", "cards", "l5r", "--to", sheet).code == 0
    return root, sheet


def serve(root: Path):
    from starlette.testclient import TestClient

    from printer.serve.app import ServeConfig, create_app
    from printer.serve.workspace import Workspace

    config = ServeConfig(host="testserver", port=8000, workers=0, watch=False)
    app = create_app(Workspace(root), config)
    client = TestClient(app, base_url="http://testserver", raise_server_exceptions=False)
    client.__enter__()
    return sign_in(client, config.token)


@pytest.fixture(params=[".xlsx", ".csv"])
def sheet_project(request, tmp_path, run):
    root, sheet = make(tmp_path, run, request.param)
    client = serve(root)
    yield client, root, sheet
    client.__exit__(None, None, None)


def opened(client, title: str) -> dict:
    state = client.get("/api/state").json()
    entry = next(e for e in state["entries"] if e["title"] == title)
    assert entry["editable"] and "!" in entry["pointer"], entry
    return client.get("/api/card", params={"uid": entry["uid"]}).json()


def test_a_saved_card_changes_its_row_only(sheet_project):
    client, root, sheet = sheet_project
    before = rows(root, sheet)
    card = opened(client, "Sayo of the Tide")
    data = dict(card["data"], title="Sayo of the Tide, Reborn", keywords=["Samurai", "Champion"])
    entry = card["entry"]
    answer = client.post(
        "/api/card/save",
        json={"game": "l5r", "file": entry["file"], "pointer": entry["pointer"], "base": card["base"], "data": data},
    )
    assert answer.status_code == 200, answer.text
    after = rows(root, sheet)
    changed = [place for place in before if before[place] != after.get(place)]
    assert len(changed) == 1 and after[changed[0]]["title"] == "Sayo of the Tide, Reborn"
    assert after[changed[0]]["keywords"] == ["Samurai", "Champion"]
    assert set(after) == set(before)
    again = client.post(  # the same save again: the card on disk is not the one the form opened any more
        "/api/card/save",
        json={"game": "l5r", "file": entry["file"], "pointer": entry["pointer"], "base": card["base"], "data": data},
    )
    assert again.status_code == 409


def test_new_and_delete_add_and_remove_a_row(sheet_project):
    client, root, sheet = sheet_project
    before = rows(root, sheet)
    card = opened(client, "Sayo of the Tide")
    entry = card["entry"]
    copy = dict(card["data"], id="sayo-copy", title="Sayo Again")
    added = client.post(
        "/api/card/new", json={"game": "l5r", "file": entry["file"], "after": entry["pointer"], "data": copy}
    )
    assert added.status_code == 200, added.text
    now = rows(root, sheet)
    assert len(now) == len(before) + 1
    assert [d for d in now.values() if d.get("id") == "sayo-copy"] == [
        {k: v for k, v in copy.items() if k not in ("$schema", "game")}
    ]
    place = added.json()["pointer"]
    deleted = client.post(
        "/api/card/delete",
        json={"game": "l5r", "file": entry["file"], "pointer": place, "base": _digest(now, place)},
    )
    assert deleted.status_code == 200, deleted.text
    assert sorted(d["id"] for d in rows(root, sheet).values()) == sorted(d["id"] for d in before.values())


def _digest(found: dict, place: str) -> str:
    from printer.serve.edits import digest

    sheet, _, row = place.rpartition("!")
    return digest(found[(sheet or None, int(row))])


def test_a_field_without_a_column_is_refused_with_the_header_to_add(sheet_project):
    client, root, sheet = sheet_project
    card = opened(client, "Sayo of the Tide")
    entry = card["entry"]
    data = dict(card["data"], notes="a field no example card has")
    before = sheet.read_bytes()
    answer = client.post(
        "/api/card/save",
        json={"game": "l5r", "file": entry["file"], "pointer": entry["pointer"], "base": card["base"], "data": data},
    )
    assert answer.status_code in (400, 409) and "column" in answer.text
    assert sheet.read_bytes() == before


def test_a_workbook_with_formulas_is_not_written(tmp_path, run):
    import openpyxl

    root, sheet = make(tmp_path, run, ".xlsx")
    book = openpyxl.load_workbook(sheet)
    book.worksheets[0]["Z1"] = "=1+1"
    book.save(sheet)
    client = serve(root)
    try:
        before = sheet.read_bytes()
        state = client.get("/api/state").json()
        entry = next(e for e in state["entries"] if e["title"] == "Sayo of the Tide")
        card = client.get("/api/card", params={"uid": entry["uid"]}).json()
        answer = client.post(
            "/api/card/save",
            json={"game": "l5r", "file": entry["file"], "pointer": entry["pointer"], "base": card["base"],
                  "data": dict(card["data"], title="Changed")},
        )  # fmt: skip
        assert answer.status_code == 409 and "formulas" in answer.text
        assert sheet.read_bytes() == before
    finally:
        client.__exit__(None, None, None)


def test_an_ods_file_is_shown_read_only(tmp_path, run):
    pytest.importorskip("odf")
    root, sheet = make(tmp_path, run, ".ods")
    client = serve(root)
    try:
        entries = client.get("/api/state").json()["entries"]
        assert entries and not any(e["editable"] for e in entries)
        entry = entries[0]
        answer = client.post(
            "/api/card/save", json={"game": "l5r", "file": entry["file"], "pointer": entry["pointer"], "data": {}}
        )
        assert answer.status_code == 400 and "edit this spreadsheet in its program" in answer.text
    finally:
        client.__exit__(None, None, None)
