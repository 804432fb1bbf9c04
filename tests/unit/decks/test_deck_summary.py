"""``printer deck check`` ends with one truthful count, and its hints name the project's own formats."""

from __future__ import annotations

from pathlib import Path

from printer.scaffold import scaffold

DECK = """# Fleet (2)
1 Dawn Runner
1 Iron Lantern
# Deck (7)
3 Navigator Osei
2 Deckhand Pell
2 Solar Flare
0 Solar Flare
9 Nobody Here
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    scaffold(root, "demo", "Demo")
    (root / "decks" / "bad.txt").write_text(DECK, encoding="utf-8")
    return root


def test_one_count_of_every_problem_at_the_end(run, tmp_path):
    root = _project(tmp_path)
    result = run("deck", "check", "decks/bad.txt", "--format", "demo-standard", cwd=root)
    assert result.code == 1
    counts = [line for line in result.err.splitlines() if " error" in line and " warning" in line]
    assert counts == ["1 error, 2 warnings"], result.err
    assert result.err.splitlines()[-1] == "1 error, 2 warnings"


def test_several_decks_one_count_each(run, tmp_path):
    root = _project(tmp_path)
    (root / "decks" / "also.txt").write_text(DECK, encoding="utf-8")
    result = run("deck", "check", "decks", "--format", "demo-standard", cwd=root)
    counts = [line for line in result.err.splitlines() if " error" in line and " warning" in line]
    assert counts == ["1 error, 2 warnings", "1 error, 2 warnings"], result.err


def test_without_format_the_hint_lists_the_projects_formats(run, tmp_path):
    root = _project(tmp_path)
    formats = root / "schema" / "demo" / "formats"
    (formats / "open.json").write_text(
        (formats / "standard.json").read_text("utf-8").replace('"demo-standard"', '"demo-open"'), encoding="utf-8"
    )
    result = run("deck", "check", "decks/bad.txt", cwd=root)
    assert result.code == 2
    assert "(hint: pass --format FORMAT (demo-open, demo-standard))" in result.err
    assert "l5r" not in result.err
