"""printer.toml checked by its own schema: unknown keys, bad values and missing files, each at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from printer.config import key_lines
from printer.problems import UsageError
from printer.project import load_project

GOOD = """\
# a project
[project]
paper = "A4"

[games.l5r]
name = "L5R"
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
"""


def problems_of(tmp_path: Path, text: str) -> list:
    (tmp_path / "printer.toml").write_text(text, encoding="utf-8")
    (tmp_path / "cards" / "l5r").mkdir(parents=True, exist_ok=True)
    with pytest.raises(UsageError) as info:
        load_project(tmp_path)
    assert info.value.exit_code == 2
    return info.value.problems


def test_a_good_file_loads(tmp_path):
    (tmp_path / "printer.toml").write_text(GOOD, encoding="utf-8")
    assert list(load_project(tmp_path).games) == ["l5r"]


def test_the_repository_project_is_valid():
    assert len(load_project(Path(__file__).resolve().parents[3]).games) == 5


def test_unknown_key_has_did_you_mean_and_its_line(tmp_path):
    problems = problems_of(tmp_path, GOOD.replace("back_field", "backfield"))
    assert [(p.where, p.message) for p in problems] == [
        (f"{tmp_path / 'printer.toml'}:8:1", "unknown key 'backfield' in [games.l5r]")
    ]
    assert problems[0].hint.startswith("did you mean 'back_field'")


def test_a_toml_syntax_error_is_at_its_line_and_column(tmp_path):
    problems = problems_of(tmp_path, GOOD.replace('name = "L5R"', 'name = "L5R'))
    assert [(str(p.where), p.message.split(":")[0]) for p in problems] == [
        (f"{tmp_path / 'printer.toml'}:6:12", "not valid TOML")  # where tomllib finds the string unclosed
    ]
    assert "(at line" not in problems[0].message


def test_a_schema_or_format_file_that_is_not_json_is_at_its_line_and_column(tmp_path, run):
    root = _starfall(tmp_path, '{"allOf": [{"$ref": "../card.schema.json"}], "unevaluatedProperties": false}')
    broken = root / "schema" / "starfall" / "formats" / "broken.json"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text('{"id": "starfall-x",\n "game": "starfall",, }', encoding="utf-8")
    result = run("--project", root, "validate")
    assert result.code == 2 and "broken.json:2:21: error: not valid JSON: Expecting property name" in result.err


def test_unknown_table_and_project_key(tmp_path):
    problems = problems_of(tmp_path, GOOD.replace("[project]", "[projects]").replace('paper = "A4"', "papper = 1"))
    assert str(problems[0].where).endswith("printer.toml:2:1")
    assert "did you mean 'project'?" == problems[0].hint


def test_bad_card_size_is_reported_at_printer_toml(tmp_path):
    problems = problems_of(tmp_path, GOOD.replace('"poker"', '"pokr"'))
    assert problems[0].where == f"{tmp_path / 'printer.toml'}:7:1"
    assert "card size" in problems[0].message and "poker" in problems[0].hint


def test_bad_enum_value_at_its_line(tmp_path):
    problems = problems_of(tmp_path, GOOD + 'marks = "crops"\n')
    assert str(problems[0].where).endswith("printer.toml:10:1")
    assert problems[0].hint == "did you mean 'crop'?"


def test_a_wrong_type_at_its_line(tmp_path):
    problems = problems_of(tmp_path, GOOD.replace('name = "L5R"', "name = 5"))
    assert str(problems[0].where).endswith("printer.toml:6:1") and "string" in problems[0].message


def test_a_misnamed_card_css_is_an_error(tmp_path):
    text = GOOD.replace("[games.l5r]", "[games.starfall]").replace("backs = ", "# backs = ")
    (tmp_path / "schema" / "starfall").mkdir(parents=True)
    (tmp_path / "schema" / "starfall" / "card.schema.json").write_text("{}", encoding="utf-8")
    templates = tmp_path / "templates" / "starfall"
    templates.mkdir(parents=True)
    (templates / "card.html.j2").write_text("<div class=card>{{ title }}</div>", encoding="utf-8")
    (templates / "cards.css").write_text(".card {}", encoding="utf-8")
    problems = problems_of(tmp_path, text)
    assert [p.message.split(":")[0] for p in problems] == ["game 'starfall'"]
    assert "no card.css" in problems[0].message and problems[0].hint == "did you mean 'cards.css'?"
    assert str(problems[0].where).endswith("printer.toml:5:1")


def test_missing_sheet_layout_file_and_cards_folder(tmp_path):
    problems = problems_of(tmp_path, GOOD + 'sheet_layout = "layouts/shop.toml"\ncards = "kards/l5r"\n')
    assert [str(p.where).rsplit(":", 2)[-2] for p in problems] == ["11", "10"] or sorted(
        str(p.where).rsplit(":", 2)[-2] for p in problems
    ) == ["10", "11"]


def test_key_lines_reads_headers_dotted_and_quoted_keys():
    text = '[games."my game"]\nname = "x"\ncost.gold = 2\n"a b" = 1\ntext = """\nnot = key\n"""\nlast = 1\n'
    lines = key_lines(text)
    assert lines[("games", "my game")] == (1, 1)
    assert lines[("games", "my game", "cost", "gold")] == (3, 1)
    assert lines[("games", "my game", "a b")] == (4, 1)
    assert ("games", "my game", "not") not in lines
    assert lines[("games", "my game", "last")] == (8, 1)


def _starfall(tmp_path: Path, schema: str) -> Path:
    (tmp_path / "printer.toml").write_text('[games.starfall]\nname = "Starfall"\n', encoding="utf-8")
    for folder in ("schema/starfall", "cards/starfall", "templates/starfall"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / "schema/starfall/card.schema.json").write_text(schema, encoding="utf-8")
    (tmp_path / "templates/starfall/card.html.j2").write_text('<div class="card">{{ name }}</div>', encoding="utf-8")
    (tmp_path / "templates/starfall/back.html.j2").write_text('<div class="card">{{ back }}</div>', encoding="utf-8")
    (tmp_path / "cards/starfall/a.json").write_text('[{"id": "a", "title": "A", "type": "Ship"}]', encoding="utf-8")
    return tmp_path


def test_a_schema_without_id_resolves_its_relative_ref(tmp_path, run):
    root = _starfall(tmp_path, '{"allOf": [{"$ref": "../card.schema.json"}], "unevaluatedProperties": false}')
    result = run("--project", root, "validate")
    assert result.code == 0, result.err


def test_an_unresolvable_ref_is_a_located_error_not_a_traceback(tmp_path, run):
    root = _starfall(tmp_path, '{"allOf": [{"$ref": "card.schema.jsn"}], "unevaluatedProperties": false}')
    result = run("--project", root, "validate")
    assert result.code == 2
    assert "Traceback" not in result.err
    assert "card.schema.json::$.allOf[0].$ref: error: $ref 'card.schema.jsn' does not resolve" in result.err


def test_rules_toml_unknown_setting_at_its_line(tmp_path):
    from printer.book.source import read_settings

    path = tmp_path / "rules.toml"
    path.write_text('title = "T"\n\n[glosary]\nBow = "turn it"\n', encoding="utf-8")
    _, problems = read_settings(path)
    assert [(p.where, p.hint) for p in problems] == [(f"{path}:3:1", "did you mean 'glossary'?")]


def test_the_rules_toml_schema_lists_the_settings_read_settings_knows():
    import json

    from printer.book.source import SETTINGS
    from printer.paths import bundled_root

    schema = json.loads((bundled_root() / "schema/config/rules-toml.schema.json").read_text(encoding="utf-8"))
    assert list(schema["properties"]) == list(SETTINGS)
    kinds = {str: "string", int: "integer", list: "array", dict: "object"}
    assert {k: p["type"] for k, p in schema["properties"].items()} == {k: kinds[t] for k, (t, _) in SETTINGS.items()}


def test_every_bundled_rules_toml_is_valid_by_its_schema():
    import json
    import tomllib

    import jsonschema
    from helpers import REPO

    schema = json.loads((REPO / "schema/config/rules-toml.schema.json").read_text(encoding="utf-8"))
    for path in REPO.glob("rules/**/rules.toml"):
        jsonschema.validate(tomllib.loads(path.read_text(encoding="utf-8")), schema)


def test_every_problem_of_printer_toml_is_reported_in_one_run(tmp_path):
    text = (
        GOOD.replace("back_field", "backfield")  # an unknown key (the schema)
        .replace('paper = "A4"', 'paper = "A44"')  # a paper size no parser reads
        .replace('name = "L5R"', 'name = "L5R"\ncards = "nowhere"')  # a folder that is not there
        + "\n[limits]\ncards_per_build = -1\n"  # a limit that is not a positive number
    )
    problems = problems_of(tmp_path, text)
    file = tmp_path / "printer.toml"
    assert len(problems) == 4, [str(p) for p in problems]
    assert any("unknown key 'backfield'" in p.message and p.where == f"{file}:9:1" for p in problems)
    assert any("A44" in p.message and p.where == f"{file}:3:1" for p in problems)
    assert any("'nowhere' not found" in p.message and p.where == f"{file}:7:1" for p in problems)
    assert any("minimum of 0" in p.message and p.where == f"{file}:13:1" for p in problems)  # once, not twice


def test_a_game_whose_table_the_schema_refuses_is_reported_with_the_others(tmp_path):
    text = GOOD.replace('card_size = "poker"', "card_size = 5").replace('paper = "A4"', 'paper = "A44"')
    problems = problems_of(tmp_path, text)
    assert len(problems) == 2, [str(p) for p in problems]  # no traceback reading the game's 5 as a size
    assert {p.where.line for p in problems} == {3, 7}
