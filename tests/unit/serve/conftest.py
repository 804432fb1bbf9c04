"""A small project (the repository's L5R example cards) served in-process through Starlette's TestClient."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import sign_in

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

    config = ServeConfig(host="testserver", port=8000, workers=0, watch=False)
    app = create_app(Workspace(project), config)
    with TestClient(app, base_url="http://testserver", raise_server_exceptions=False) as test_client:
        sign_in(test_client, config.token)
        test_client.app_state = app.state
        test_client.access_token = config.token
        yield test_client
