"""The ``markup`` template filter reports unknown icons at the card (and field) it renders, not at "template"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ARCANDUCTOR = '[games.arcanductor]\nname = "ARCANDUCTOR"\ncard_size = "tarot"\nback_field = "type"\nbacks = { "Major Arcana" = "arcana" }\n'
RES_ARCANA = '[games.res-arcana]\nname = "Res Arcana"\ncard_size = "poker"\n'


def placed(file, path: str, rest: str, err: str) -> bool:
    """Whether ``err`` has ``file:line:col (path): rest`` (a build places a JSON path at its line, as validate)."""
    return re.search(re.escape(str(file)) + r":\d+:\d+ " + re.escape(f"({path}): {rest}"), err) is not None


def write(root: Path, toml: str, game: str, cards: list[dict]) -> Path:
    (root / "printer.toml").write_text(toml, encoding="utf-8")
    (root / "cards" / game).mkdir(parents=True)
    (root / "cards" / game / "cards.json").write_text(json.dumps({"game": game, "cards": cards}), encoding="utf-8")
    return root / "cards" / game / "cards.json"


@pytest.mark.slow
def test_unknown_icon_in_a_nested_field_is_reported_at_that_field(tmp_path, run):
    cards = [
        {
            "id": "a0",
            "title": "Plain",
            "type": "Major Arcana",
            "arcanum": 0,
            "power": 1,
            "upright": {"timing": "reveal", "text": "Nothing odd."},
            "reversed": {"timing": "discard", "text": "Fine."},
        },
        {
            "id": "a1",
            "title": "Odd",
            "type": "Major Arcana",
            "arcanum": 1,
            "power": 2,
            "upright": {"timing": "reveal", "text": "Pay one {lfie}."},
            "reversed": {"timing": "discard", "text": "{nosuch}を失う。"},
        },
    ]
    file = write(tmp_path, ARCANDUCTOR, "arcanductor", cards)
    result = run("--project", tmp_path, "build", "arcanductor", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert placed(
        file, "$.cards[1].upright.text", "warning: unknown icon {lfie} (hint: did you mean 'life'?)", result.err
    )
    assert placed(file, "$.cards[1].reversed.text", "warning: unknown icon {nosuch}", result.err)
    assert "template: warning" not in result.err


@pytest.mark.slow
def test_a_list_entry_is_located_by_its_index_and_without_a_field_at_the_card(tmp_path, run):
    cards = [
        {
            "id": "x",
            "title": "Odd Lens",
            "type": "Artifact",
            "cost": {"gold": 1},
            "collect": [{"elan": 1}, {"text": "Take one {gloid}."}],
            "powers": [{"cost": {"tap": True}, "effect": {"text": "Gain {elna}."}}],
        }
    ]
    file = write(tmp_path, RES_ARCANA, "res-arcana", cards)
    result = run("--project", tmp_path, "build", "res-arcana", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert placed(file, "$.cards[0].collect[1].text", "warning: unknown icon {gloid}", result.err)
    assert placed(
        file,
        "$.cards[0].powers[0].effect.text",
        "warning: unknown icon {elna} (hint: did you mean 'elan'?)",
        result.err,
    )


def test_without_a_field_the_filter_reports_at_the_card(tmp_path, run):
    file = write(
        tmp_path,
        '[games.t]\nname = "T"\ncard_size = "poker"\n',
        "t",
        [{"id": "ok", "title": "Fine", "type": "A"}, {"id": "odd", "title": "Odd", "type": "A", "notes": "a {zap}"}],
    )
    (tmp_path / "schema" / "t").mkdir(parents=True)
    (tmp_path / "schema" / "t" / "card.schema.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://printer.invalid/schema/t/card.schema.json",
                "allOf": [{"$ref": "../card.schema.json"}],
                "unevaluatedProperties": False,
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / "templates" / "t").mkdir(parents=True)
    (tmp_path / "templates" / "t" / "card.html.j2").write_text(
        '<div class="card">{{ card.get("notes", "")|markup }}</div>', encoding="utf-8"
    )
    (tmp_path / "templates" / "t" / "back.html.j2").write_text(
        '<div class="card">{{ ("{zip} " ~ back)|markup }}</div>', encoding="utf-8"
    )
    result = run("--project", tmp_path, "build", "t", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert placed(file, "$.cards[1]", "warning: unknown icon {zap}", result.err)
    # a back belongs to no card: at the back template's line that calls the filter
    assert "templates/t/back.html.j2:1: warning: unknown icon {zip}" in result.err


@pytest.mark.parametrize("field, expected", [("upright.text", "::$.cards[1].upright.text"), ("[0]", "::$.cards[1][0]")])
def test_the_field_path_is_appended_to_the_card_location(tmp_path, field, expected):
    from printer.cards.catalog import load_cards
    from printer.project import load_project
    from printer.sheets.render import Renderer

    side = {"timing": "reveal", "text": "x"}
    write(
        tmp_path,
        ARCANDUCTOR,
        "arcanductor",
        [
            {
                "id": f"a{i}",
                "title": f"A{i}",
                "type": "Major Arcana",
                "arcanum": i,
                "power": 1,
                "upright": side,
                "reversed": side,
            }
            for i in range(2)
        ],
    )
    project = load_project(tmp_path)
    sets, problems = load_cards(project, [tmp_path / "cards" / "arcanductor"], "arcanductor")
    assert not problems
    renderer = Renderer(project.game("arcanductor"), [tmp_path])
    renderer._card = sets["arcanductor"].by_id("a1")
    renderer._markup_filter("{nope}", field)
    assert str(renderer.problems[0].where).endswith(expected)
