"""The players setting: printer.toml ``players``, ``printer build --players N``, and what prints once per player."""

from __future__ import annotations

import pdfplumber
import pytest

from printer import api
from printer.sheets.players import MAX_PLAYERS, PerPlayer, check_players, per_player, read_players
from tests.unit.sheets.test_components import make_project

PER_PLAYER = """
[games.t.per_player]
when = { type = "A", id = ["a0", "a1"] }

[games.t.components.coin]
kind = "token"
shape = "round"
size = "20x20mm"
when = { type = "Coin" }
copies_field = "count"
per_player = true

[games.t.components.chit]
kind = "token"
shape = "square"
size = "15x15mm"
when = { type = "Chit" }
"""


def test_the_game_setting_wins_over_the_project_and_the_table_is_read():
    players, per, problems = read_players(
        {"players": 4}, {"players": 2, "per_player": {"when": {"type": ["Summary", "Aid"]}, "aids": True}}, "g", "p"
    )
    assert (players, problems) == (2, [])
    assert per.aids and per.holds({"type": "Aid"}) and not per.holds({"type": "Portal"})
    assert read_players({"players": 3}, {}, "g", "p")[:2] == (3, PerPlayer())
    assert read_players({}, {}, "g", "p")[0] == 1


@pytest.mark.parametrize("value", [0, -1, MAX_PLAYERS + 1, "2", True, 2.5])
def test_a_bad_player_count_is_located(value):
    players, _, problems = read_players({}, {"players": value}, "g", "printer.toml")
    assert players == 1
    assert [p.where for p in problems] == ["printer.toml: [games.g] players"]
    assert f"1 to {MAX_PLAYERS}" in problems[0].message and problems[0].hint


def test_a_bad_per_player_table_is_located():
    _, _, problems = read_players({}, {"per_player": {"when": "Summary", "aids": "yes"}}, "g", "printer.toml")
    assert [p.where for p in problems] == [
        "printer.toml: [games.g.per_player] when",
        "printer.toml: [games.g.per_player] aids",
    ]
    assert check_players(2, "x") is None


def test_per_player_items_stay_together_as_one_set_per_player():
    items = ["a", "S1", "b", "S2", "c"]
    assert per_player(items, 3, lambda i: i.startswith("S")) == ["a", "S1", "S2", "S1", "S2", "S1", "S2", "b", "c"]
    assert per_player(items, 1, lambda i: i.startswith("S")) == items
    assert per_player(items, 2, lambda i: False) == items


def _build(root, players=None):
    request = api.BuildRequest(out_dir=root / "out", cache=False, jobs=1, players=players)
    result = api.build(api.load_project(root), request)
    assert result.ok, result.problems
    return result.games[0]


def _components_line(outcome) -> str:
    return next(line for line in outcome.exports if "components" in line)


@pytest.mark.slow
def test_players_prints_per_player_cards_and_components(tmp_path):
    root = make_project(tmp_path / "p", PER_PLAYER)
    one = _build(root)
    assert one.cards == 3 + 3 + 1 and "12 coins, 5 chits" in _components_line(one)  # 3 cards, 3 hexes, the mat
    three = _build(root, players=3)
    assert three.cards == 3 * 2 + 1 + 3 + 1  # a0 and a1 for each player; a2, the hexes and the mat once
    assert "36 coins, 5 chits" in _components_line(three)
    with pdfplumber.open(root / "out" / "t.pdf") as pdf:
        text = " ".join(p.extract_text() or "" for p in pdf.pages)
    assert text.count("Card 0") == 3 and text.count("Card 1") == 3 and text.count("Card 2") == 1
    (root / "printer.toml").write_text(
        (root / "printer.toml").read_text().replace("[games.t]\n", "[games.t]\nplayers = 2\n"), encoding="utf-8"
    )
    two = _build(root)
    assert "24 coins" in _components_line(two)
    assert "36 coins" in _components_line(_build(root, players=3))  # the command line wins


def test_players_out_of_range_is_a_usage_error(tmp_path, run):
    root = make_project(tmp_path / "p", PER_PLAYER)
    for value in ("0", str(MAX_PLAYERS + 1)):
        result = run("--project", root, "build", "t", "--players", value, "--out", tmp_path / "out")
        assert result.code == 2 and "--players" in result.err and "Traceback" not in result.err
    with pytest.raises(api.UsageError) as caught:
        api.build(api.load_project(root), api.BuildRequest(players=0))
    assert caught.value.problems[0].where == "command line: --players"


def test_players_in_printer_toml_is_checked_by_its_schema(tmp_path, run):
    root = make_project(tmp_path / "p", PER_PLAYER)
    toml = root / "printer.toml"
    toml.write_text(toml.read_text().replace("[games.t]\n", "[games.t]\nplayers = 0\n"), encoding="utf-8")
    result = run("--project", root, "validate")
    assert result.code != 0 and "printer.toml:5:" in result.err and "minimum of 1" in result.err
