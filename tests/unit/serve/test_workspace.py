"""The workspace refreshes only what changed: one card's picture key after its edit, all after a CSS change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from printer.serve.workspace import Workspace  # noqa: E402

REPO = Path(__file__).resolve().parents[3]


def _keys(workspace):
    return {uid: (e.front, e.back) for uid, e in workspace.entries.items()}


def test_an_edit_changes_that_cards_picture_and_no_other(project):
    workspace = Workspace(project)
    before = _keys(workspace)
    path = project / "cards/l5r/fate.json"
    data = json.loads(path.read_text())
    data["cards"][1]["title"] += " Again"
    path.write_text(json.dumps(data, indent=2))
    changes = workspace.refresh([path])
    uid = f"l5r/{data['cards'][1]['id']}"
    assert [e.uid for e in changes.changed] == [uid]
    after = _keys(workspace)
    assert after[uid][0] != before[uid][0] and after[uid][1] == before[uid][1]
    assert {k: v for k, v in after.items() if k != uid} == {k: v for k, v in before.items() if k != uid}
    assert not workspace.refresh([path])  # nothing new


def test_an_invalid_card_shows_its_error_and_the_others_stay(project):
    workspace = Workspace(project)
    path = project / "cards/l5r/fate.json"
    data = json.loads(path.read_text())
    data["cards"][0]["focus"] = "many"
    path.write_text(json.dumps(data, indent=2))
    changes = workspace.refresh([path])
    (entry,) = changes.changed
    assert entry.front is None and "should be of type integer" in entry.error
    assert entry.problems[0]["where"] == "cards/l5r/fate.json::$.cards[0].focus"
    assert [p.where for p in workspace.problems] == [str(path) + "::$.cards[0].focus"]
    (shown,) = workspace.problem_dicts()
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if '"focus": "many"' in text)
    # the problem list writes the place as printer validate does: file:line:col and the JSON path
    assert shown["where"] == f"cards/l5r/fate.json:{line}:7 ($.cards[0].focus)"
    assert shown["location"] == {"file": "cards/l5r/fate.json", "line": line, "column": 7, "path": "$.cards[0].focus"}
    assert sum(1 for e in workspace.entries.values() if e.front) == len(workspace.entries) - 1
    data["cards"][0]["focus"] = 2
    path.write_text(json.dumps(data, indent=2))
    changes = workspace.refresh([path])
    assert changes.problems and workspace.problems == [] and changes.changed[0].front


def test_a_file_that_does_not_parse_is_one_tile_with_its_location(project):
    workspace = Workspace(project)
    path = project / "cards/l5r/fate.json"
    path.write_text(path.read_text().replace('"focus"', '"focus" "', 1))
    changes = workspace.refresh([path])
    tile = workspace.entries["l5r/cards/l5r/fate.json#file"]
    assert "invalid JSON" in tile.error and tile.problems[0]["where"].startswith("cards/l5r/fate.json:")
    assert len(changes.removed) == 5  # the file's cards are gone from the gallery until it parses again
    assert workspace.entries["l5r/ex-personality-tetsuya"].front  # other files still show


def test_a_stylesheet_change_gives_every_face_of_the_game_a_new_picture(project):
    workspace = Workspace(project)
    before = _keys(workspace)
    css = project / "templates" / "l5r" / "card.css"
    css.parent.mkdir(parents=True)
    from printer.project import bundled_root

    css.write_text((bundled_root() / "templates/l5r/card.css").read_text() + "\n.card { outline: 0; }\n")
    changes = workspace.refresh([css])
    assert len(changes.changed) == len(before)
    assert all(workspace.entries[uid].front != keys[0] for uid, keys in before.items())


def test_a_template_change_renders_only_the_cards_whose_html_changes(project):
    from printer.project import bundled_root

    workspace = Workspace(project)
    before = _keys(workspace)
    folder = project / "templates" / "l5r"
    folder.mkdir(parents=True)
    back = (bundled_root() / "templates/l5r/back.html.j2").read_text()
    (folder / "back.html.j2").write_text(back.replace("</div>", "</div><!-- new -->", 1))
    changes = workspace.refresh([folder / "back.html.j2"])
    assert changes.changed
    assert all(workspace.entries[uid].front == keys[0] for uid, keys in before.items())  # fronts untouched
    assert all(workspace.entries[uid].back != keys[1] for uid, keys in before.items())


def test_new_art_gives_that_card_a_new_picture(project):
    from PIL import Image

    path = project / "cards/l5r/fate.json"
    data = json.loads(path.read_text())
    art = project / "cards/l5r/art.png"
    Image.new("RGB", (800, 1100), "red").save(art)
    data["cards"][0]["art"] = "art.png"
    path.write_text(json.dumps(data, indent=2))
    workspace = Workspace(project)
    uid = f"l5r/{data['cards'][0]['id']}"
    before = _keys(workspace)
    Image.new("RGB", (800, 1100), "blue").save(art)
    changes = workspace.refresh([art])
    assert [e.uid for e in changes.changed] == [uid]
    assert _keys(workspace)[uid][0] != before[uid][0]


def test_the_faces_of_a_saved_card_are_known_before_the_full_refresh(project):
    workspace = Workspace(project)
    path = project / "cards/l5r/dynasty.json"
    data = json.loads(path.read_text())
    data["cards"][4]["title"] = "Summer Storms"
    path.write_text(json.dumps(data, indent=2))
    early = workspace.first_faces([path])
    workspace.refresh([path])
    entry = workspace.entries[f"l5r/{data['cards'][4]['id']}"]
    assert early[0] == entry.front  # the picture started early is the one the gallery asks for
    assert workspace.first_faces([path]) == []  # nothing changed since


def test_following_gives_the_next_fronts_in_gallery_order(project):
    workspace = Workspace(project)
    fronts = [e.front for e in workspace.entries.values()]
    assert workspace.following(fronts[0], 3) == fronts[1:4]
    assert workspace.following("0" * 40, 3) == []


def test_a_pasted_decklist_keeps_the_suffix_of_a_format_a_game_registers(project):
    from printer.plugins import decklist_suffixes
    from printer.project import load_project
    from printer.serve.jobs import deck_file

    loaded = load_project(project)
    registered = sorted(decklist_suffixes())
    assert registered  # the bundled games register their decklist formats
    assert deck_file(loaded, "1 Card", "crab" + registered[0]).suffix == registered[0]
    assert deck_file(loaded, "1 Card", "crab.json").suffix == ".json"
    assert deck_file(loaded, "1 Card", "crab.doc").name == "crab.doc.txt"  # anything else is read as text


def test_a_schema_where_the_game_names_it_is_a_schema_change_as_the_build_sees_it(project):
    from printer.sheets.uptodate import game_inputs

    schemas = project / "data" / "schemas"
    schemas.mkdir(parents=True)
    (schemas / "card.schema.json").write_bytes((REPO / "schema" / "l5r" / "card.schema.json").read_bytes())
    toml = project / "printer.toml"
    toml.write_text(
        toml.read_text().replace('card_size = "poker"', 'card_size = "poker"\nschema = "data/schemas/card.schema.json"')
    )
    workspace = Workspace(project)
    game = workspace.project.games["l5r"]
    assert schemas.resolve() in [p.resolve() for p in game_inputs(workspace.project, game).schemas]  # the build's
    assert workspace.classify([schemas / "card.schema.json"]) == {"schema"}
    assert "schema" not in workspace.classify([project / "schema" / "l5r" / "other.json"])  # not this game's


def test_the_problem_list_writes_a_place_as_printer_validate_does(project, run):
    path = project / "cards/l5r/fate.json"
    data = json.loads(path.read_text())
    data["cards"][0]["focus"] = "many"
    path.write_text(json.dumps(data, indent=2))
    (shown,) = [p for p in Workspace(project).problem_dicts() if p["severity"] == "error"]
    result = run("validate", "--no-render", cwd=project)
    assert result.code == 1
    assert any(line.startswith(f"{shown['where']}: error: {shown['message']}") for line in result.err.splitlines())
