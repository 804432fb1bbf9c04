"""``printer games`` lists the project's own game; shell completion offers game and format ids, cheaply."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.shell_completion import ShellComplete

from printer.cli import cli
from printer.scaffold import scaffold

REPO = Path(__file__).resolve().parents[3]


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    scaffold(root, "demo", "Demo")
    return root


def test_games_lists_the_projects_own_game(run, tmp_path):
    root = _project(tmp_path)
    result = run("games", cwd=root)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    at = lines.index("demo\tDemo\t(this project: printer.toml)")
    assert lines[at + 1] == "  formats: demo-standard"
    assert any(line.startswith("l5r\t") for line in lines)


def test_games_outside_a_project_lists_the_installed_games(run, tmp_path):
    result = run("games", cwd=tmp_path)
    assert result.code == 0 and "l5r\t" in result.out and "this project" not in result.out


def _complete(args: list[str], incomplete: str) -> list[str]:
    return [
        item.value for item in ShellComplete(cli, {}, "printer", "_PRINTER_COMPLETE").get_completions(args, incomplete)
    ]


def test_completion_offers_game_ids(tmp_path, monkeypatch):
    monkeypatch.chdir(_project(tmp_path))
    assert _complete(["build"], "") == ["arcanductor", "demo", "edelweiss", "l5r", "res-arcana", "via-magica"]
    assert _complete(["build", "demo"], "l") == ["l5r"]
    assert _complete(["validate", "--game"], "d") == ["demo"]
    assert _complete(["box"], "re") == ["res-arcana"]
    assert "demo" not in _complete(["init", "x", "--from"], "")  # only printer's example games


def test_completion_offers_format_ids(tmp_path, monkeypatch):
    monkeypatch.chdir(_project(tmp_path))
    assert _complete(["deck", "check", "decks/sample.txt", "--format"], "demo") == ["demo-standard"]
    assert "l5r-ivory-extended" in _complete(["deck", "check", "x.txt", "--format"], "l5r")


def test_completion_imports_no_weasyprint(tmp_path):
    root = _project(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO), "COMP_WORDS": "printer build ", "COMP_CWORD": "2"}
    env["_PRINTER_COMPLETE"] = "bash_complete"
    code = (
        "import sys\nfrom printer.cli import main\ntry:\n    main([])\nexcept SystemExit:\n    pass\n"
        "print('weasyprint' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=60)
    assert "plain,demo" in out.stdout and out.stdout.strip().endswith("False"), out.stdout + out.stderr
