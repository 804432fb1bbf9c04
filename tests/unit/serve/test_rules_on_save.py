"""Saving a rules chapter rebuilds that game's rules reference in printer serve, whether or not a rules build
was started from the page before; other games' rules are left alone."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def with_rules(project):
    shutil.copytree(REPO / "rules" / "l5r", project / "rules" / "l5r")
    return project


def test_a_saved_chapter_rebuilds_its_games_rules_only(with_rules):
    from printer.serve.jobs import Jobs
    from printer.serve.workspace import Workspace

    workspace = Workspace(with_rules)
    jobs = Jobs(SimpleNamespace(workspace=workspace))
    started: list[str] = []
    jobs.rules = started.append  # the build itself is the next test's
    chapter = with_rules / "rules" / "l5r" / "01-overview.md"
    assert workspace.classify([chapter]) == {"rules"}
    assert jobs.rules_changed([chapter]) == ["l5r"] and started == ["l5r"]
    assert jobs.rules_changed([with_rules / "cards" / "l5r" / "fate.json"]) == []
    jobs.rules_games.add("l5r")
    assert jobs.rules_changed([], reloaded=True) == ["l5r"]  # printer.toml changed: rebuild what was built


@pytest.mark.slow
def test_saving_a_chapter_builds_the_rules_pdf_without_a_build_first(with_rules, client):
    server = client.app_state.server
    chapter = with_rules / "rules" / "l5r" / "01-overview.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\nA sentence added while serving.\n", encoding="utf-8")
    client.portal.call(server.apply, [chapter])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        builds = client.get("/api/builds").json()["builds"]
        done = [b for b in builds if b["kind"] == "rules" and b["status"] in ("done", "failed")]
        if done:
            break
        time.sleep(0.5)
    assert done and done[0]["status"] == "done", builds
    assert (with_rules / "build" / "l5r-rules.pdf").is_file()
