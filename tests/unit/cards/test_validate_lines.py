"""printer validate places a schema error in a JSON card at its line and column, with its JSON path."""

from __future__ import annotations

import json

from helpers import PERSONALITY

from printer import api
from printer.location import Location
from printer.project import load_project


def _bad_file(project):
    cards = [dict(PERSONALITY, id="a"), dict(PERSONALITY, id="b"), dict(PERSONALITY, id="c", cost="lots")]
    path = project / "cards" / "l5r" / "crab.json"
    path.write_text(json.dumps({"cards": cards}, indent=2), encoding="utf-8")
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if '"cost": "lots"' in text)
    return path, line


def test_the_cli_prints_file_line_column_and_the_json_path(run, project):
    path, line = _bad_file(project)
    result = run("validate", "--no-render", cwd=project)
    assert result.code == 1
    assert f'cards/l5r/crab.json:{line}:7 ($.cards[2].cost): error: "lots" does not match the expected form' in (
        result.err
    ), result.err


def test_the_api_gives_a_location_with_each_part(project):
    path, line = _bad_file(project)
    report = api.validate(load_project(project), [path], render=False)
    (problem,) = [p for p in report.problems if p.is_error]
    assert isinstance(problem.where, Location)
    assert (problem.where.file, problem.where.line, problem.where.column) == (str(path), line, 7)
    assert problem.where.path == "$.cards[2].cost"
    assert problem.as_dict()["location"] == {"file": str(path), "line": line, "column": 7, "path": "$.cards[2].cost"}


def test_clean_cards_are_not_read_again_for_lines(project, monkeypatch):
    from printer.cards import positions

    read = []
    monkeypatch.setattr(positions, "find_paths", lambda text, wanted: read.append(wanted) or {})
    report = api.validate(load_project(project), render=False)
    assert not [p for p in report.problems if p.is_error] and read == []


def test_every_repeated_key_is_placed_at_its_repeat_with_its_path():
    from printer.cards.positions import repeated_keys

    text = (
        '{"game": "x", "cards": [{"id": "a", "cost": 1, "cost": 2},\n {"id": "b", "t": {"k": 1, "k": 2}}], "game": "y"}'
    )
    assert repeated_keys(text) == [
        (("cards", 0, "cost"), (1, 48)),
        (("cards", 1, "t", "k"), (2, 28)),
        (("game",), (2, 39)),
    ]
    # a key three times: each repeat; the same nested repeat in two repeated parents: both
    assert [
        steps for steps, _ in repeated_keys('{"a": {"x": 1, "x": 2}, "a": {"x": 3, "x": 4}, "b": 1, "b": 2, "b": 3}')
    ] == [
        ("a", "x"),
        ("a",),
        ("a", "x"),
        ("b",),
        ("b",),
    ]
