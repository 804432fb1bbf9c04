"""The preview server's API over a small project: gallery state, pictures, the editor's checks and writes, decks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import sign_in

pytest.importorskip("starlette")

TETSUYA = "l5r/ex-personality-tetsuya"


@pytest.mark.slow
def test_the_state_lists_every_card_with_pictures_and_no_problem(client, project):
    state = client.get("/api/state").json()
    cards = json.loads((project / "cards/l5r/dynasty.json").read_text())["cards"]
    cards += json.loads((project / "cards/l5r/fate.json").read_text())["cards"]
    cards += json.loads((project / "cards/l5r/pre-game.json").read_text())["cards"]
    cards += json.loads((project / "cards/l5r/markers.json").read_text())["cards"]  # the play aids, components
    assert {e["id"] for e in state["entries"]} == {c["id"] for c in cards}
    assert all(e["front"] and e["back"] for e in state["entries"])
    assert state["problems"] == []
    assert state["games"][0]["card"] == [63.0, 88.0]


@pytest.mark.slow
def test_a_picture_is_a_png_of_the_card_with_its_bleed_at_150_dpi(client):
    from io import BytesIO

    from PIL import Image

    entry = next(e for e in client.get("/api/state").json()["entries"] if e["uid"] == TETSUYA)
    answer = client.get(f"/face/{entry['front']}.png")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    image = Image.open(BytesIO(answer.content))
    assert image.size == (407, 555)  # (63 + 2 * 3) x (88 + 2 * 3) mm at 150 dpi
    assert "immutable" in answer.headers["cache-control"]
    assert client.get("/face/" + "0" * 40 + ".png").status_code == 404
    assert client.get("/face/not-a-key.png").status_code == 404


@pytest.mark.slow
def test_the_check_reports_schema_errors_at_the_field_and_the_fields_required(client):
    body = {
        "game": "l5r",
        "file": "cards/l5r/dynasty.json",
        "pointer": "$.cards[0]",
        "uid": TETSUYA,
        "data": {"id": "ex-personality-tetsuya", "title": "T", "type": "Personality", "deck": "Dynasty", "focus": 12},
    }
    result = client.post("/api/card/check", json=body).json()
    places = {p["where"]: p["message"] for p in result["problems"]}
    assert places["cards/l5r/dynasty.json::$.cards[0].focus"] == "12 is over the maximum of 9"
    assert "force" in result["required"] and "clan" in result["required"]
    assert result["front"] is None  # an invalid card has no picture
    body["data"] = {"id": "ex-personality-tetsuya", "title": "T", "type": "Event", "deck": "Dynasty"}
    result = client.post("/api/card/check", json=body).json()
    assert result["problems"] == [] and result["front"]
    assert client.get(f"/face/{result['front']}.png").status_code == 200


def test_the_check_says_when_an_id_is_taken(client):
    body = {"game": "l5r", "data": {"id": "ex-personality-tetsuya", "title": "T", "type": "Event", "deck": "Dynasty"}}
    result = client.post("/api/card/check", json=body).json()
    assert [p["code"] for p in result["problems"]] == ["duplicate-id"]


def _card(client, uid):
    return client.get("/api/card", params={"uid": uid}).json()


def test_save_changes_only_the_edited_field_in_the_file(client, project):
    path = project / "cards/l5r/dynasty.json"
    before = path.read_text()
    card = _card(client, TETSUYA)
    assert card["form"][0]["name"] == "id" and card["form"][0]["required"]
    data = dict(card["data"], force=5)
    answer = client.post(
        "/api/card/save",
        json={
            "game": "l5r",
            "file": "cards/l5r/dynasty.json",
            "pointer": "$.cards[0]",
            "base": card["base"],
            "data": data,
        },
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["uid"] == TETSUYA
    after = path.read_text()
    assert after == before.replace('"force": 4,', '"force": 5,', 1)
    entry = next(e for e in client.get("/api/state").json()["entries"] if e["uid"] == TETSUYA)
    assert entry["front"] != card["entry"]["front"]


def test_save_is_refused_when_the_card_changed_on_disk(client, project):
    card = _card(client, TETSUYA)
    path = project / "cards/l5r/dynasty.json"
    path.write_text(path.read_text().replace('"force": 4,', '"force": 6,', 1))
    answer = client.post(
        "/api/card/save",
        json={
            "game": "l5r",
            "file": "cards/l5r/dynasty.json",
            "pointer": "$.cards[0]",
            "base": card["base"],
            "data": card["data"],
        },
    )
    assert answer.status_code == 409
    assert '"force": 6,' in path.read_text()


@pytest.mark.parametrize(
    "name",
    [
        "../printer.toml",
        "/etc/passwd",
        "cards/../printer.toml",
        "printer.toml",
        "cards/l5r/../../x.json",
        "cards/l5r/x.txt",
    ],
)
def test_writes_stay_in_the_games_card_folder(client, project, name):
    data = {"id": "new-card", "title": "New", "type": "Event", "deck": "Dynasty"}
    answer = client.post("/api/card/new", json={"game": "l5r", "file": name, "data": data})
    assert answer.status_code in (400, 403)
    assert not (project / "x.json").exists()
    assert (project / "printer.toml").read_text().startswith("[project]")


def test_a_link_out_of_the_card_folder_is_not_written(client, project, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text('{"cards": []}')
    (project / "cards/l5r/linked.json").symlink_to(outside)
    data = {"id": "new-card", "title": "New", "type": "Event", "deck": "Dynasty"}
    answer = client.post("/api/card/new", json={"game": "l5r", "file": "cards/l5r/linked.json", "data": data})
    assert answer.status_code == 403
    assert outside.read_text() == '{"cards": []}'


@pytest.mark.slow
def test_new_duplicate_and_delete(client, project):
    data = {"id": "ex-new-event", "title": "New Event", "type": "Event", "deck": "Dynasty"}
    answer = client.post("/api/card/new", json={"game": "l5r", "new_file": "more events", "data": data})
    assert answer.status_code == 200, answer.text
    assert answer.json()["file"] == "cards/l5r/more events.json"
    made = json.loads((project / "cards/l5r/more events.json").read_text())
    assert made["game"] == "l5r" and made["cards"] == [data]
    copy = dict(data, id="ex-new-event-copy")
    answer = client.post(
        "/api/card/new", json={"game": "l5r", "file": "cards/l5r/more events.json", "after": "$.cards[0]", "data": copy}
    )
    assert answer.json() == {
        "file": "cards/l5r/more events.json",
        "pointer": "$.cards[1]",
        "uid": "l5r/ex-new-event-copy",
    }
    card = _card(client, "l5r/ex-new-event")
    answer = client.post(
        "/api/card/delete",
        json={"game": "l5r", "file": "cards/l5r/more events.json", "pointer": "$.cards[0]", "base": card["base"]},
    )
    assert answer.status_code == 200
    assert [c["id"] for c in json.loads((project / "cards/l5r/more events.json").read_text())["cards"]] == [
        "ex-new-event-copy"
    ]
    uids = {e["uid"] for e in client.get("/api/state").json()["entries"]}
    assert "l5r/ex-new-event" not in uids and "l5r/ex-new-event-copy" in uids


@pytest.mark.slow
def test_a_pasted_decklist_gives_the_clis_verdict(client, repo, run, project):
    deck = repo / "tests/fixtures/decks/ivory"
    files = sorted(p for p in deck.iterdir() if p.is_file())
    text = files[0].read_text()
    answer = client.post("/api/deck/check", json={"text": text, "name": files[0].name, "format": "l5r-ivory-extended"})
    assert answer.status_code == 200, answer.text
    report = answer.json()
    cli = run("--project", project, "deck", "check", files[0], "--format", "l5r-ivory-extended", "--json")
    expected = json.loads(cli.out)
    assert report["verdict"] == expected["verdict"] and report["status"] == expected["status"]
    assert [v["rule"] for v in report["violations"]] == [v["rule"] for v in expected["violations"]]
    assert report["summary"][-1] == "verdict: " + expected["verdict"]
    assert report["summary"][0].startswith(files[0].name + ":")


def test_an_unknown_format_is_refused(client):
    answer = client.post("/api/deck/check", json={"text": "1 X", "name": "d.txt", "format": "/etc/passwd"})
    assert "unknown format" in answer.json()["error"]


@pytest.fixture
def examples(tmp_path):
    """The client over a copy of the repository's example project (the five games)."""
    import shutil

    from starlette.testclient import TestClient

    from printer.serve.app import ServeConfig, create_app
    from printer.serve.workspace import Workspace

    root = tmp_path / "examples"
    root.mkdir()
    repo = Path(__file__).resolve().parents[3]
    shutil.copy(repo / "printer.toml", root / "printer.toml")
    shutil.copytree(repo / "cards", root / "cards")
    config = ServeConfig(host="testserver", port=8000, workers=0, watch=False)
    app = create_app(Workspace(root), config)
    with TestClient(app, base_url="http://testserver", raise_server_exceptions=False) as test_client:
        yield sign_in(test_client, config.token), root


@pytest.mark.slow
def test_every_example_game_has_a_form_and_saves_its_cards_unchanged(examples):
    client, root = examples
    state = client.get("/api/state").json()
    assert state["problems"] == []
    games = {e["game"] for e in state["entries"]}
    assert games == {"l5r", "res-arcana", "via-magica", "arcanductor", "edelweiss"}
    for game in sorted(games):
        entry = next(e for e in state["entries"] if e["game"] == game)
        card = client.get("/api/card", params={"uid": entry["uid"]}).json()
        names = [f["name"] for f in card["form"]]
        assert names[:3] == ["id", "title", "type"] and all(f["kind"] for f in card["form"])
        check = client.post(
            "/api/card/check",
            json={
                "game": game,
                "file": entry["file"],
                "pointer": entry["pointer"],
                "uid": entry["uid"],
                "data": card["data"],
            },
        ).json()
        assert check["problems"] == [] and check["front"] == entry["front"], game
        before = (root / entry["file"]).read_bytes()
        body = {
            "game": game,
            "file": entry["file"],
            "pointer": entry["pointer"],
            "base": card["base"],
            "data": card["data"],
        }
        assert client.post("/api/card/save", json=body).status_code == 200
        assert (root / entry["file"]).read_bytes() == before, game  # saving an unchanged card changes nothing


def test_a_decklist_row_of_a_components_piece_says_which_component(examples):
    """The Decks page crops a row's picture at its card's trim size: a piece's row names its component."""
    client, _ = examples
    text = "1 The Imperial Favor\n1 Ishigaki Tetsuya\n"
    answer = client.post("/api/deck/check", json={"text": text, "name": "d.txt", "format": "l5r-ivory-extended"})
    assert answer.status_code == 200, answer.text
    rows = {row["name"]: row for row in answer.json()["cards"]}
    favor = next(row for name, row in rows.items() if "Imperial Favor" in name)
    assert favor["piece"] == "imperial-favor" and favor["front"]
    others = [row for row in rows.values() if row is not favor and row.get("card")]
    assert others and all(row["piece"] is None and row["front"] for row in others)
