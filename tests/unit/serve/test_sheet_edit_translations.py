"""Saving a spreadsheet card in printer serve's editor leaves its translation columns (title@ja, from@ja) as they
were: they are not the card's fields."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from helpers import sign_in

TOML = """[games.l5r]
name = "L5R"
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
languages = ["en", "ja"]
translatable = ["title", "text"]
"""
HEADER = ["id", "title", "type", "deck", "focus", "text", "title@ja", "from@ja"]
ROW = ["hold", "Hold the Line", "Strategy", "Fate", "3", "Bow.", "戦線維持", "title=35a37c9b196f"]


@pytest.fixture
def client(tmp_path: Path):
    from starlette.testclient import TestClient

    from printer.serve.app import ServeConfig, create_app
    from printer.serve.workspace import Workspace

    (tmp_path / "printer.toml").write_text(TOML, encoding="utf-8")
    (tmp_path / "cards" / "l5r").mkdir(parents=True)
    with (tmp_path / "cards" / "l5r" / "fate.csv").open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream).writerows([HEADER, ROW])
    config = ServeConfig(host="testserver", port=8000, workers=0, watch=False)
    test_client = TestClient(create_app(Workspace(tmp_path), config), base_url="http://testserver")
    with test_client:
        yield sign_in(test_client, config.token)


def test_a_saved_row_keeps_its_translation_cells(client, tmp_path):
    state = client.get("/api/state").json()
    entry = next(e for e in state["entries"] if e["title"] == "Hold the Line")
    card = client.get("/api/card", params={"uid": entry["uid"]}).json()
    assert "title@ja" not in card["data"]
    data = dict(card["data"], text="Bow twice.")
    entry = card["entry"]
    answer = client.post(
        "/api/card/save",
        json={"game": "l5r", "file": entry["file"], "pointer": entry["pointer"], "base": card["base"], "data": data},
    )
    assert answer.status_code == 200, answer.text
    with (tmp_path / "cards" / "l5r" / "fate.csv").open(encoding="utf-8", newline="") as stream:
        header, row = list(csv.reader(stream))
    assert header == HEADER
    assert row == [*ROW[:5], "Bow twice.", "戦線維持", "title=35a37c9b196f"]
