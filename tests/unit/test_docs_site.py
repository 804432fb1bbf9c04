"""The documentation site builds with mkdocs build --strict (no broken link, no page left out)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from helpers import REPO


@pytest.mark.slow
def test_mkdocs_build_strict(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocs_click")
    mkdocs = shutil.which("mkdocs", path=os.path.dirname(sys.executable)) or "mkdocs"
    done = subprocess.run(
        [mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site/tutorial/index.html").is_file()
    assert "printer export cards" in (tmp_path / "site/cli/index.html").read_text(encoding="utf-8")


def test_each_game_page_shows_a_rendered_card():
    text = (REPO / "docs/games.md").read_text(encoding="utf-8")
    for game in ("l5r", "res-arcana", "arcanductor", "via-magica", "edelweiss"):
        assert f"(img/{game}-card.png)" in text and (REPO / f"docs/img/{game}-card.png").is_file()
