"""``printer serve`` in Chromium in another language: the switch, the gallery's Japanese cards, the editor's
translation beside its source with the stale mark, and a translation saved into its overlay file."""

from __future__ import annotations

import json
import shutil

import pytest

from printer.cards.translations import source_digest
from tests.browser.conftest import REPO, Served, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.enable_socket]
TOML = """[games.l5r]
name = "Legend of the Five Rings CCG"
languages = ["en", "ja"]
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
"""
UID = "l5r/ex-strategy-hold-line"
TILE = f'figure.tile[data-uid="{UID}"]'


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve-lang") / "project"
    (root / "cards").mkdir(parents=True)
    shutil.copytree(REPO / "cards" / "l5r", root / "cards" / "l5r")
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    server = Served(root, workers=1)
    yield server
    server.stop()


def _picture(where, selector: str) -> bool:
    """Whether the first picture ``selector`` finds in ``where`` (a page or a locator) has loaded."""
    js = "i => i.complete && i.naturalWidth > 0 && !i.classList.contains('loading')"
    return where.locator(selector).first.evaluate(js)


def test_switch_to_japanese_edit_a_stale_translation(page, served, screenshots):
    page.goto(served.url)
    page.wait_for_selector(TILE)
    assert "Hold the Line" in page.inner_text(f"{TILE} figcaption")
    page.select_option("#lang", "ja")
    page.wait_for_url(lambda url: "lang=ja" in url)
    wait_for(lambda: "踏みとどまれ" in page.inner_text(f"{TILE} figcaption"), timeout=30)
    assert page.get_attribute(f"{TILE} .title", "lang") == "ja"
    for tile in page.locator("figure.tile").all():
        tile.scroll_into_view_if_needed()
        wait_for(lambda tile=tile: _picture(tile, "img"), timeout=120)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "gallery-ja.png"))

    source = served.root / "cards" / "l5r" / "fate.json"  # the English text changes: the Japanese is stale
    source.write_text(source.read_text(encoding="utf-8").replace("gets +2 Force", "gets +4 Force"), encoding="utf-8")
    wait_for(lambda: page.locator(f"{TILE} .tr-stale").count() == 1, timeout=30)

    page.goto(f"{served.url}edit?uid={UID}&lang=ja")
    row = page.wait_for_selector('#translation .tr-row[data-field="text"][data-state="stale"]')
    assert "stale" in row.inner_text() and "+4 Force" in row.inner_text()
    assert page.input_value("#tr-title") == "踏みとどまれ"
    wait_for(lambda: _picture(page, "#pv-front img"), timeout=60)
    page.screenshot(path=str(screenshots / "editor-ja.png"))
    fixed = page.input_value("#tr-text").replace("+2", "+4")
    page.fill("#tr-text", fixed)
    page.click("#tr-save")
    page.wait_for_selector('#translation .tr-row[data-field="text"][data-state="translated"]')
    assert page.locator("#translation .tr-stale").count() == 0
    assert "saved to cards/l5r/ja/fate.json" in page.inner_text("#tr-status")
    overlay = json.loads((served.root / "cards" / "l5r" / "ja" / "fate.json").read_text(encoding="utf-8"))
    entry = next(c for c in overlay["cards"] if c["id"] == "ex-strategy-hold-line")
    current = json.loads(source.read_text(encoding="utf-8"))["cards"][0]["text"]
    assert entry["text"] == fixed and entry["from"]["text"] == source_digest(current)
    wait_for(lambda: _picture(page, "#translation .tr-picture img"), timeout=60)  # the card as translated now
    page.screenshot(path=str(screenshots / "editor-ja-saved.png"))
