"""printer validate reports each translated language: counts, missing and stale cards located, unknown ids and fields
the source lacks; missing and stale are warnings unless --strict."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import write_json

from printer import api
from printer.cards.translations import LangState, source_digest

HOLD = {"id": "hold", "title": "Hold the Line", "type": "Strategy", "deck": "Fate", "focus": 3, "text": "Bow."}
STORM = {"id": "storm", "title": "Storm", "type": "Event", "deck": "Dynasty", "text": "Rain falls."}
WIND = {"id": "wind", "title": "Wind", "type": "Event", "deck": "Dynasty", "text": "Leaves fly."}
TOML = (
    '[games.l5r]\nname = "L5R"\ncard_size = "poker"\nback_field = "deck"\n'
    'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n'
)


def placed(file: str, path: str, rest: str, err: str) -> bool:
    """Whether ``err`` has the line ``file:line:col (path) rest`` (validate places a JSON path at its line)."""
    return re.search(re.escape(file) + r":\d+:\d+ " + re.escape(f"({path}) {rest}"), err) is not None


def entry(card: dict, **fields) -> dict:
    return {"id": card["id"], **fields, "from": {k: source_digest(card[k]) for k in fields}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """English cards translated into Japanese: hold and storm translated, wind not."""
    (tmp_path / "printer.toml").write_text(
        TOML + 'languages = ["en", "ja"]\ntranslatable = ["title", "text"]\n', encoding="utf-8"
    )
    write_json(tmp_path / "cards" / "l5r" / "fate.json", {"game": "l5r", "cards": [HOLD, STORM, WIND]})
    write_json(
        tmp_path / "cards" / "l5r" / "ja" / "fate.json",
        {
            "lang": "ja",
            "cards": [entry(HOLD, title="戦線維持", text="屈服せよ。"), entry(STORM, title="嵐", text="雨。")],
        },
    )
    return tmp_path


def test_validate_counts_translated_and_missing_cards(project, run):
    result = run("validate", "--no-render", cwd=project)
    assert result.code == 0, result.err
    assert "l5r ja: 2 translated, 1 missing, 0 stale" in result.out.splitlines()
    assert placed("cards/l5r/fate.json", "$.cards[2]", "(ja): warning: card 'wind' has no ja translation", result.err)
    report = api.validate(api.load_project(project), render=False)
    assert report.translations is not None
    assert report.translations.states == {"l5r": [LangState("ja", 2, ["wind"], [])]}


def test_missing_and_stale_fail_under_strict(project, run):
    assert run("validate", "--no-render", "--strict", cwd=project).code == 1


def test_a_stale_translation_after_a_source_edit(project, run):
    edited = dict(STORM, text="Rain falls hard.")
    write_json(project / "cards" / "l5r" / "fate.json", {"game": "l5r", "cards": [HOLD, edited, WIND]})
    result = run("validate", "--no-render", cwd=project)
    assert result.code == 0, result.err
    assert "l5r ja: 1 translated, 1 missing, 1 stale" in result.out
    stale = next(line for line in result.err.splitlines() if "translation of 'storm'" in line)
    assert re.match(r"cards/l5r/ja/fate\.json:\d+:\d+ \(\$\.cards\[1\]\.text\) \(ja\): warning:", stale)
    assert source_digest("Rain falls hard.") in stale


def test_an_unknown_id_and_a_field_the_source_lacks_are_errors(project, run):
    (project / "printer.toml").write_text(
        TOML + 'languages = ["en", "ja"]\ntranslatable = ["title", "text", "flavor"]\n', encoding="utf-8"
    )
    write_json(
        project / "cards" / "l5r" / "ja" / "more.json",
        {"lang": "ja", "cards": [{"id": "wnid", "title": "風"}, {"id": "wind", "flavor": "葉が舞う。"}]},
    )
    result = run("validate", "--no-render", cwd=project)
    assert result.code == 1
    err = result.err
    assert placed("cards/l5r/ja/more.json", "$.cards[0].id", "(ja): error: no l5r card has the id 'wnid'", err)
    assert "did you mean 'wind'?" in err
    assert placed(
        "cards/l5r/ja/more.json", "$.cards[1].flavor", "(ja): error: card 'wind' has no 'flavor' to translate", err
    )


def test_a_game_with_one_language_reads_no_translations(tmp_path, run):
    (tmp_path / "printer.toml").write_text(TOML, encoding="utf-8")
    write_json(tmp_path / "cards" / "l5r" / "fate.json", {"game": "l5r", "cards": [HOLD]})
    result = run("validate", "--no-render", cwd=tmp_path)
    assert result.code == 0 and "translated" not in result.out
    report = api.validate(api.load_project(tmp_path), render=False)
    assert report.translations is not None and report.translations.states == {}


def test_translations_of_a_game_with_one_language_are_reported(project, run):
    (project / "printer.toml").write_text(TOML, encoding="utf-8")
    result = run("validate", "--no-render", cwd=project)
    assert result.code == 1
    assert placed("cards/l5r/ja/fate.json", "$.lang", "(ja): error: 'l5r' has no language 'ja'", result.err)
    assert "add it to [games.l5r] languages" in result.err


def test_languages_without_translatable_fields_warn(project, run):
    (project / "printer.toml").write_text(TOML + 'languages = ["en", "ja"]\nschema = "schema/plain.json"\n', "utf-8")
    plain = {"$id": "https://printer.invalid/schema/plain.json", "allOf": [{"$ref": "card.schema.json"}]}
    write_json(project / "schema" / "plain.json", plain)
    result = run("validate", "--no-render", cwd=project)
    assert "declares languages ['en', 'ja'] but no translatable field" in result.err


def test_an_overlay_validated_alone_is_checked_against_its_schema(project, run):
    path = project / "cards" / "l5r" / "ja" / "fate.json"
    write_json(path, {"lang": "ja", "cards": [{"title": "嵐"}]})
    result = run("validate", "--no-render", path, cwd=project)
    assert result.code == 1
    assert placed("cards/l5r/ja/fate.json", "$.cards[0]", "(ja): error: missing required field 'id'", result.err)
    good = project / "cards" / "l5r" / "fate.json"
    assert run("validate", "--no-render", good, cwd=project).code == 0
