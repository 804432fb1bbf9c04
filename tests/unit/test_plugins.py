"""Games as plugins: the five games load through the printer.games entry points, a sixth installs from its own
package, and the core names no game."""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from printer import plugins

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "tests" / "fixtures" / "plugin_game"


@pytest.fixture
def starfall(tmp_path: Path, monkeypatch):
    """printer-starfall installed: its package and its metadata (entry points) on the import path."""
    dist = tmp_path / "printer_starfall-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: printer-starfall\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[printer.games]\nstarfall = printer_starfall:SUPPORT\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(PLUGIN))
    plugins.refresh()
    yield
    plugins.refresh()


def test_the_five_games_load_through_the_entry_points() -> None:
    points = {p.name for p in importlib.metadata.entry_points(group=plugins.GROUP)}
    assert {"l5r", "res-arcana", "via-magica", "arcanductor", "edelweiss"} <= points
    assert set(plugins.installed_games()) >= points - {"starfall"}
    assert "l5r.sensei-clan" in plugins.all_checks() and "oracle" in plugins.importers()


def test_a_sixth_game_adds_a_check_a_format_may_name(starfall, tmp_path: Path) -> None:
    from printer.decks import load_format_file

    assert "starfall" in plugins.installed_games()
    fmt_file = tmp_path / "fleet.json"
    fmt_file.write_text(
        json.dumps(
            {
                "id": "starfall-fleet",
                "game": "starfall",
                "name": "Fleet",
                "sections": [{"name": "Fleet", "types": ["Ship", "Captain"], "min": 1}],
                "checks": ["starfall.one-captain"],
            }
        ),
        encoding="utf-8",
    )
    fmt = load_format_file(fmt_file)
    assert fmt.checks == ["starfall.one-captain"]
    assert plugins.find_check("one-captain", "starfall") is plugins.all_checks()["starfall.one-captain"]


def test_removing_a_game_removes_it_from_games_and_nothing_else(monkeypatch) -> None:
    real = importlib.metadata.entry_points

    def without_l5r(**kwargs):
        return [p for p in real(**kwargs) if p.name != "l5r"]

    monkeypatch.setattr(plugins, "entry_points", without_l5r)
    plugins.installed_games.cache_clear()
    try:
        assert "l5r" not in plugins.installed_games() and "res-arcana" in plugins.installed_games()
        assert not any(name.startswith("l5r.") for name in plugins.all_checks())
        assert "oracle" not in plugins.importers()
    finally:
        plugins.installed_games.cache_clear()


def test_printer_games_lists_games_and_formats() -> None:
    out = subprocess.run([sys.executable, "-m", "printer", "games"], capture_output=True, text=True, check=True).stdout
    assert "l5r\tLegend of the Five Rings CCG" in out and "l5r-ivory-extended" in out and "l5r.sensei-clan" in out
    assert "  decklists: .l5d" in out  # the decklist files a game reads (printer deck check --help points here)


def test_deck_checks_name_no_game_outside_the_games_package() -> None:
    """The deck stage's checks are the core's; each game's checks live in printer/games/<id>/."""
    text = (REPO / "printer" / "decks" / "checks.py").read_text(encoding="utf-8")
    assert not re.search(r"sensei|significator|arcana|via.magica|edelweiss|res.arcana", text, re.IGNORECASE)


def test_a_sixth_game_adds_name_variants_labels_and_a_decklist_format(starfall, tmp_path: Path) -> None:
    from printer.decks.names import split_name
    from printer.decks.readers.text import read_decklist

    assert split_name("Captain Ardent - vet2").key == split_name("captain ardent \u2022 Veteran 2").key
    assert split_name("Captain Ardent - vet2").key != split_name("Captain Ardent").key
    assert split_name("Akodo Kano - exp2").key == "akodo kano \u2022 experienced 2"  # L5R's still there
    deck_file = tmp_path / "fleet.sfd"
    deck_file.write_text("Leader: Captain Ardent\n# Fleet\n2 Gold Runner (2)\n", encoding="utf-8")
    deck, problems = read_decklist(deck_file)
    assert not problems and deck.syntax == "starfall"
    assert [(e.count, e.name, e.section) for e in deck.entries] == [
        (1, "Captain Ardent", "Leader"),
        (2, "Gold Runner", "Fleet"),
    ]


def test_without_the_game_its_label_is_not_a_label(tmp_path: Path) -> None:
    from printer.decks.readers.text import parse_text

    deck, problems = parse_text("Leader: Captain Ardent\n", tmp_path / "x.txt")
    assert deck.entries == [] or deck.entries[0].section != "Leader"
