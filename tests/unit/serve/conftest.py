"""A small project (the repository's L5R example cards) served in-process through Starlette's TestClient."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
TOML = """[project]
paper = "A4"

[games.l5r]
name = "Legend of the Five Rings CCG"
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
"""


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "proj"
    (root / "cards").mkdir(parents=True)
    shutil.copytree(REPO / "cards" / "l5r", root / "cards" / "l5r")
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    return root


@pytest.fixture
def client(project):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from printer.serve.app import ServeConfig, create_app
    from printer.serve.workspace import Workspace

    app = create_app(Workspace(project), ServeConfig(host="testserver", port=8000, workers=0, watch=False))
    with TestClient(app, base_url="http://testserver", raise_server_exceptions=False) as test_client:
        page = test_client.get("/")
        token = page.text.split('name="csrf-token" content="')[1].split('"')[0]
        test_client.headers.update({"origin": "http://testserver", "x-csrf-token": token})
        test_client.app_state = app.state
        yield test_client
