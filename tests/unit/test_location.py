"""Locations as data: each part in its own field, written one way, read back from the text the stages wrote."""

from __future__ import annotations

import json
import pickle

import pytest

from printer.cards.positions import find_paths, path_steps, with_lines
from printer.location import Location, render
from printer.problems import Problem


@pytest.mark.parametrize(
    "text, parts",
    [
        ("cards/a.json::$.cards[2].cost", {"file": "cards/a.json", "path": "$.cards[2].cost"}),
        (
            "cards/a.json:10:7 ($.cards[2].cost)",
            {"file": "cards/a.json", "line": 10, "column": 7, "path": "$.cards[2].cost"},
        ),
        ("cards/a.json:3:1", {"file": "cards/a.json", "line": 3, "column": 1}),
        ("decks/crab.txt:12", {"file": "decks/crab.txt", "line": 12}),
        ("crew.xlsx:Sheet1!C7 ($.cost)", {"file": "crew.xlsx", "sheet": "Sheet1", "cell": "C7", "path": "$.cost"}),
        ("crew.xlsx:'Card List'!7:7", {"file": "crew.xlsx", "sheet": "Card List", "cell": "7:7"}),
        ("crew.csv:C7 ($.cost)", {"file": "crew.csv", "cell": "C7", "path": "$.cost"}),
        ("cards/ja/a.json::$.cards[0].text (ja)", {"file": "cards/ja/a.json", "path": "$.cards[0].text", "lang": "ja"}),
        ("--preset", {"file": "--preset"}),
    ],
)
def test_a_place_written_as_text_is_read_into_its_parts_and_written_back_the_same(text, parts):
    place = Location.parse(text)
    assert place.as_dict() == parts
    assert render(place) == str(place) == text
    assert Problem(text, "m").where == place == text  # a string given to a Problem is read once


def test_a_location_is_frozen_hashable_and_pickles():
    place = Location("a.json", 3, 4, "$.x")
    with pytest.raises(AttributeError):
        place.line = 5  # type: ignore[misc]
    assert {place: 1}[Location.parse("a.json:3:4 ($.x)")] == 1
    assert pickle.loads(pickle.dumps(place)) == place
    assert Problem(place, "m").as_dict()["location"] == {"file": "a.json", "line": 3, "column": 4, "path": "$.x"}


def test_a_json_path_is_found_at_its_line_and_column():
    text = '{\n  "cards": [\n    {"id": "a"},\n    {"id": "b", "x y": [1, [2, 3]],\n     "cost": 3}\n  ]\n}\n'
    wanted = [path_steps(p) for p in ("$.cards[1].cost", '$.cards[1]["x y"][1][0]', "$.cards[0].chi")]
    found = find_paths(text, wanted)
    assert found[("cards", 1, "cost")] == (5, 6)  # a member at its key
    assert found[("cards", 1, "x y", 1, 0)] == (4, 29)  # an item at its value
    assert ("cards", 0, "chi") not in found and found[("cards", 0)] == (3, 5)  # a missing field: its card
    assert json.loads(text)  # the text is JSON


def test_with_lines_reads_only_the_files_that_have_problems(tmp_path):
    file = tmp_path / "cards.json"
    file.write_text('{"cards": [\n  {"id": "a",\n   "cost": "x"}\n]}\n', encoding="utf-8")
    problems = [Problem(f"{file}::$.cards[0].cost", "bad"), Problem(f"{tmp_path / 'gone.json'}::$.x", "gone")]
    located = with_lines(problems)
    assert str(located[0].where) == f"{file}:3:4 ($.cards[0].cost)"
    assert located[1] is problems[1]  # a file that cannot be read keeps its problem as it was
    assert with_lines([Problem("x.json:1:1", "syntax")])[0].where == "x.json:1:1"


def test_with_lines_places_a_bounded_number_of_problems(tmp_path, monkeypatch):
    from printer.cards import positions

    file = tmp_path / "cards.json"
    file.write_text('{"a": 1,\n "b": 2}\n', encoding="utf-8")
    monkeypatch.setattr(positions, "MAX_PLACED", 1)
    first, second = with_lines([Problem(f"{file}::$.a", "x"), Problem(f"{file}::$.b", "y")])
    assert first.where.line == 1 and second.where.line is None  # the rest keep their JSON paths
