"""printer serve in another language (printer.serve.langs): the gallery's cards translated, the editor's translation
beside its source with the missing and stale marks, a translation saved into its overlay file with its digest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import REPO, TOML
from helpers import sign_in

from printer.cards.translations import source_digest

CARD = "l5r/ex-strategy-hold-line"


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "proj"
    (root / "cards").mkdir(parents=True)
    shutil.copytree(REPO / "cards" / "l5r", root / "cards" / "l5r")
    (root / "printer.toml").write_text(TOML + 'languages = ["en", "ja"]\n', encoding="utf-8")
    return root


def _client(project: Path):
    from starlette.testclient import TestClient

    from printer.serve.app import ServeConfig, create_app
    from printer.serve.workspace import Workspace

    config = ServeConfig(host="testserver", port=8000, workers=0, watch=False)
    app = create_app(Workspace(project), config)
    client = TestClient(app, base_url="http://testserver", raise_server_exceptions=False)
    return client, config, app


@pytest.fixture
def client(project):
    pytest.importorskip("starlette")
    test_client, config, app = _client(project)
    with test_client:
        sign_in(test_client, config.token)
        test_client.app_state = app.state
        yield test_client


def _entry(client, lang: str | None, uid: str = CARD) -> dict:
    body = client.get("/api/state" + (f"?lang={lang}" if lang else "")).json()
    return next(e for e in body["entries"] if e["uid"] == uid)


def _refresh(client, *paths: Path) -> None:
    client.app_state.server.workspace.refresh(list(paths))


def test_the_pages_offer_the_games_languages(client):
    page = client.get("/").text
    assert '<select id="lang"><option value="en">en</option><option value="ja">ja</option></select>' in page
    assert client.get("/api/state").json()["languages"] == {"l5r": ["en", "ja"]}


def test_the_gallery_in_japanese_shows_the_translated_cards(client):
    english, japanese = _entry(client, None), _entry(client, "ja")
    assert english["title"] == "Hold the Line" and english["lang"] is None
    assert japanese["title"] == "踏みとどまれ" and japanese["lang"] == "ja" and japanese["translation"] == "translated"
    assert japanese["front"] and japanese["front"] != english["front"]
    workspace = client.app_state.server.workspace
    html = workspace.html.get(japanese["front"])
    assert "踏みとどまれ" in html and "Hold the Line" not in html
    assert ' lang="ja"' in html.split(">", 1)[0]  # the face's root element, as printer build --lang marks it
    assert ' lang="' not in workspace.html.get(english["front"]).split(">", 1)[0]
    assert workspace.face(japanese["front"]) is not None  # its picture can be asked for
    assert "踏みとどまれ" in japanese["search"] and "hold the line" in japanese["search"]


def test_a_card_without_a_translation_is_marked_missing_and_shown_in_the_source(client, project):
    overlay = project / "cards" / "l5r" / "ja" / "fate.json"
    data = json.loads(overlay.read_text(encoding="utf-8"))
    data["cards"] = [c for c in data["cards"] if c["id"] != "ex-strategy-hold-line"]
    overlay.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    _refresh(client, overlay)
    japanese = _entry(client, "ja")
    assert japanese["translation"] == "missing" and japanese["title"] == "Hold the Line"
    shown = client.get("/api/translation", params={"uid": CARD, "lang": "ja"}).json()
    assert {f["field"]: f["state"] for f in shown["fields"]}["title"] == "missing"


def test_the_editor_gets_each_field_beside_its_source(client):
    shown = client.get("/api/translation", params={"uid": CARD, "lang": "ja"}).json()
    assert shown["lang"] == "ja" and shown["source_lang"] == "en" and shown["file"] == "cards/l5r/ja/fate.json"
    html = client.app_state.server.workspace.html.get(shown["front"])
    assert "踏みとどまれ" in html and shown["size"] == {"id": "l5r", "card": [63.0, 88.0], "bleed": 3.0, "safe": 3.0}
    fields = {f["field"]: f for f in shown["fields"]}
    assert fields["title"] == {
        "field": "title",
        "source": "Hold the Line",
        "value": "踏みとどまれ",
        "digest": source_digest("Hold the Line"),
        "from": source_digest("Hold the Line"),
        "state": "translated",
    }
    assert client.get("/api/translation", params={"uid": CARD, "lang": "fr"}).status_code == 404
    assert client.get("/api/translation", params={"uid": "l5r/nope", "lang": "ja"}).status_code == 404


def test_a_source_edit_makes_it_stale_and_saving_the_translation_stamps_the_new_digest(client, project):
    source = project / "cards" / "l5r" / "fate.json"
    source.write_text(source.read_text(encoding="utf-8").replace("gets +2 Force", "gets +4 Force"), encoding="utf-8")
    _refresh(client, source)
    assert _entry(client, "ja")["translation"] == "stale"
    text = {f["field"]: f for f in client.get("/api/translation", params={"uid": CARD, "lang": "ja"}).json()["fields"]}
    assert text["text"]["state"] == "stale" and text["title"]["state"] == "translated"
    overlay = project / "cards" / "l5r" / "ja" / "fate.json"
    before = overlay.read_text(encoding="utf-8")
    new = text["text"]["value"].replace("+2", "+4")
    answer = client.post("/api/translation/save", json={"uid": CARD, "lang": "ja", "fields": {"text": new}})
    assert answer.status_code == 200, answer.text
    assert answer.json()["files"] == ["cards/l5r/ja/fate.json"]
    fields = {f["field"]: f for f in answer.json()["translation"]["fields"]}
    assert fields["text"]["state"] == "translated" and fields["text"]["value"] == new
    saved = json.loads(overlay.read_text(encoding="utf-8"))
    entry = next(c for c in saved["cards"] if c["id"] == "ex-strategy-hold-line")
    current = json.loads(source.read_text(encoding="utf-8"))["cards"][0]["text"]
    assert entry["text"] == new and entry["from"]["text"] == source_digest(current)
    others = [c for c in json.loads(before)["cards"] if c["id"] != "ex-strategy-hold-line"]
    assert [c for c in saved["cards"] if c["id"] != "ex-strategy-hold-line"] == others  # the rest as it was
    assert _entry(client, "ja")["translation"] == "translated"


def test_saving_a_translation_is_guarded_like_a_card_save(client, project):
    overlay = project / "cards" / "l5r" / "ja" / "fate.json"
    before = overlay.read_bytes()
    body = {"uid": CARD, "lang": "ja", "fields": {"title": "新しい題"}}
    csrf = client.headers.pop("x-csrf-token")
    assert client.post("/api/translation/save", json=body).status_code == 403  # no CSRF token
    client.headers["x-csrf-token"] = csrf
    assert client.post("/api/translation/save", json=body, headers={"origin": "http://evil.example"}).status_code == 403
    bad = client.post("/api/translation/save", json={**body, "fields": {"type": "Holding"}})
    assert bad.status_code == 400 and "not a translatable field" in bad.json()["error"]
    assert client.post("/api/translation/save", json={**body, "uid": "l5r/../../x"}).status_code == 404
    icon = client.post("/api/translation/save", json={**body, "fields": {"text": "{gold} です"}})
    assert icon.status_code == 400  # an icon code the source does not have
    assert overlay.read_bytes() == before


def test_a_first_translation_goes_into_a_new_overlay_beside_the_cards_file(client, project):
    shutil.rmtree(project / "cards" / "l5r" / "ja")
    _refresh(client, project / "cards" / "l5r" / "ja" / "fate.json")
    assert _entry(client, "ja")["translation"] == "missing"
    answer = client.post("/api/translation/save", json={"uid": CARD, "lang": "ja", "fields": {"title": "踏みとどまれ"}})
    assert answer.status_code == 200, answer.text
    written = json.loads((project / "cards" / "l5r" / "ja" / "fate.json").read_text(encoding="utf-8"))
    assert written["lang"] == "ja" and written["cards"] == [
        {"id": "ex-strategy-hold-line", "title": "踏みとどまれ", "from": {"title": source_digest("Hold the Line")}}
    ]
    assert _entry(client, "ja")["title"] == "踏みとどまれ"


def test_a_translation_is_never_written_through_a_link_out_of_the_card_folder(client, project, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text((project / "cards" / "l5r" / "ja" / "fate.json").read_text(encoding="utf-8"), encoding="utf-8")
    before = outside.read_bytes()
    overlay = project / "cards" / "l5r" / "ja" / "fate.json"
    overlay.unlink()
    overlay.symlink_to(outside)
    _refresh(client, overlay)
    body = {"uid": CARD, "lang": "ja", "fields": {"title": "別の題"}}
    answer = client.post("/api/translation/save", json=body)
    assert answer.status_code in (400, 403) and outside.read_bytes() == before
    assert overlay.is_symlink()


def test_a_face_whose_html_the_workspace_let_go_is_rendered_again(client):
    workspace = client.app_state.server.workspace
    first = _entry(client, "ja")["front"]
    workspace.html.keep([], slack=0)  # as a refresh does past its slack: the faces not shown go
    assert workspace.html.get(first) is None
    assert _entry(client, "ja")["front"] == first and workspace.face(first) is not None
