"""``printer serve`` in Chromium: the gallery, live updates on save, the editor, the problems panel, decks, security."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from printer.cards.catalog import load_cards
from printer.project import load_project
from tests.browser.conftest import card_count, wait_for
from tests.conftest import SHARED_DATA

pytestmark = [pytest.mark.browser, pytest.mark.enable_socket]
TILES = "figure.tile"


def _keys(page) -> dict[str, str]:
    return page.eval_on_selector_all(
        TILES, "nodes => Object.fromEntries(nodes.map(n => [n.dataset.uid, n.querySelector('img')?.dataset.key]))"
    )


def _loaded(page, uid: str) -> str | None:
    """The picture key of ``uid``'s front once its image has loaded, else None."""
    return page.evaluate(
        """uid => { const img = document.querySelector(`figure.tile[data-uid="${uid}"] img`);
        return img && img.complete && img.naturalWidth > 0 && !img.classList.contains('loading') ? img.dataset.key : null; }""",
        uid,
    )


def test_the_gallery_shows_every_example_card(page, served, screenshots):
    page.goto(served.url)
    page.wait_for_selector(TILES)
    tiles = page.locator(TILES)
    total = card_count(served.root)
    assert tiles.count() == total > 140
    assert page.locator(".tile .error").count() == 0
    assert page.inner_text("#problems") == "No problems."
    for index in range(tiles.count()):  # each picture loads (lazily, as it scrolls into view)
        tile = tiles.nth(index)
        tile.scroll_into_view_if_needed()
        uid = tile.get_attribute("data-uid")
        wait_for(lambda uid=uid: _loaded(page, uid), timeout=120)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "gallery.png"))
    page.select_option("#f-game", "l5r")
    assert page.inner_text("#count") == f"{card_count(served.root, 'l5r')} of {total} cards"
    page.fill("#f-text", "tetsuya")
    wait_for(lambda: page.inner_text("#count") == f"2 of {total} cards")
    page.fill("#f-text", "")
    page.click(f'{TILES}[data-uid="l5r/ex-personality-tetsuya"] .face-box')
    page.wait_for_selector("#viewer[open]")
    width = page.eval_on_selector("#print", "n => n.getBoundingClientRect().width")
    assert abs(width - 69 / 25.4 * 96) < 2  # 63 mm trim + 2 x 3 mm bleed, at print size (96 CSS px per inch)
    page.screenshot(path=str(screenshots / "print-size.png"))
    page.uncheck("#g-bleed")
    width = page.eval_on_selector("#print", "n => n.getBoundingClientRect().width")
    assert abs(width - 63 / 25.4 * 96) < 2


def test_a_component_piece_shows_at_its_components_trim_size(page, served, screenshots):
    """The example's Imperial Favor is a 36 mm round token (printer.toml's components): its tile and the print-size
    viewer show it square, at 36 mm plus the bleed, as l5r-components.pdf prints it; a card beside it stays 63 x 88."""
    page.goto(served.url)
    page.fill("#f-text", "imperial favor")
    tile = page.locator(f'{TILES}[data-uid="l5r/imperial-favor"]')
    tile.scroll_into_view_if_needed()
    wait_for(lambda: _loaded(page, "l5r/imperial-favor"), timeout=120)
    box = tile.locator(".face-box").first.bounding_box()
    assert box is not None and abs(box["width"] - box["height"]) < 2
    natural = tile.locator("img").first.evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert natural[0] == natural[1] and abs(natural[0] - 42 / 25.4 * 150) <= 1  # 36 mm + 2 x 3 mm bleed at 150 dpi
    page.screenshot(path=str(screenshots / "piece-tile.png"))
    tile.locator(".face-box").first.click()
    page.wait_for_selector("#viewer[open]")
    size = page.eval_on_selector("#print", "n => [n.getBoundingClientRect().width, n.getBoundingClientRect().height]")
    assert abs(size[0] - 42 / 25.4 * 96) < 2 and abs(size[1] - size[0]) < 2
    assert "36 × 36 mm" in page.inner_text("#viewer-title")
    page.screenshot(path=str(screenshots / "piece-print-size.png"))
    page.goto(f"{served.url}edit?uid=l5r/imperial-favor")  # the editor's preview: square too, before and after a check
    page.wait_for_selector("#f-title")
    wait_for(lambda: page.eval_on_selector("#pv-front img", "i => i.complete && i.naturalWidth > 0"), timeout=60)
    shown = page.get_attribute("#pv-front img", "data-key")
    page.fill("#f-text", "The one and only.")  # the token shows its text, not its title
    wait_for(lambda: page.get_attribute("#pv-front img", "data-key") not in (None, shown), timeout=60)
    loaded = "i => i.complete && i.naturalWidth > 0 && !i.classList.contains('loading')"
    wait_for(lambda: page.eval_on_selector("#pv-front img", loaded), timeout=60)
    box = page.locator("#pv-front").bounding_box()
    assert box is not None and abs(box["width"] - box["height"]) < 2
    page.screenshot(path=str(screenshots / "piece-editor.png"))
    page.goto(f"{served.url}decks")  # a decklist naming it: its row's picture is square too, a card's beside it not
    page.wait_for_selector("#format option", state="attached")
    page.select_option("#format", "l5r-ivory-extended")
    page.fill("#deck-text", "1 The Imperial Favor\n1 Ishigaki Tetsuya\n")
    page.click("#check")
    page.wait_for_selector("#verdict")
    boxes = [page.locator("#deck-result .face-box").nth(i).bounding_box() for i in range(2)]
    ratios = sorted(round(b["height"] / b["width"], 2) for b in boxes if b)
    assert ratios == [1.0, round(88 / 63, 2)]
    page.screenshot(path=str(screenshots / "piece-deck.png"), full_page=True)


def test_an_outside_edit_changes_that_cards_picture_and_no_other(page, served):
    page.goto(served.url)
    page.wait_for_selector(TILES)
    uid = "l5r/ex-personality-sayo"
    page.locator(f'{TILES}[data-uid="{uid}"]').scroll_into_view_if_needed()
    old = wait_for(lambda: _loaded(page, uid), timeout=60)
    before = _keys(page)
    path = served.root / "cards" / "l5r" / "dynasty.json"
    text = path.read_text()
    assert '"title": "Sayo of the Tide"' in text
    path.write_text(text.replace('"title": "Sayo of the Tide"', '"title": "Sayo of the Turning Tide"'))
    new = wait_for(lambda: (k := _loaded(page, uid)) and k != old and k, timeout=30)
    after = _keys(page)
    assert after[uid] == new != old
    assert {k: v for k, v in after.items() if k != uid} == {k: v for k, v in before.items() if k != uid}
    assert "Turning Tide" in page.inner_text(f'{TILES}[data-uid="{uid}"] figcaption')


def test_a_schema_error_shows_in_the_problems_panel_and_goes_when_fixed(page, served, screenshots):
    page.goto(served.url)
    page.wait_for_selector(TILES)
    path = served.root / "cards" / "l5r" / "fate.json"
    text = path.read_text()
    data = json.loads(text)
    focus = data["cards"][0]["focus"]
    path.write_text(text.replace(f'"focus": {focus}', '"focus": 12', 1))
    try:  # the card file is put back whatever happens: the other tests of this module serve the same project
        item = page.wait_for_selector("#problems li.error")
        line = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if '"focus": 12' in row)
        col = path.read_text().splitlines()[line - 1].index('"focus"') + 1
        assert item.inner_text().startswith(f"cards/l5r/fate.json:{line}:{col} ($.cards[0].focus)")  # as validate
        assert "12 is over the maximum of 9" in item.inner_text()
        uid = f"l5r/{data['cards'][0]['id']}"
        tile = page.locator(f"{TILES}.has-error").first
        assert "Cannot show this card" in tile.inner_text()
        page.screenshot(path=str(screenshots / "gallery-problem.png"))
    finally:
        path.write_text(text)
    wait_for(lambda: page.inner_text("#problems") == "No problems.")
    page.locator(f'{TILES}[data-uid="{uid}"]').scroll_into_view_if_needed()
    wait_for(lambda: _loaded(page, uid), timeout=60)


def test_an_edit_in_the_form_saves_a_file_that_validates_and_rebuilds(page, served, screenshots):
    uid = "l5r/ex-event-spring-storms"
    path = served.root / "cards" / "l5r" / "dynasty.json"
    before = path.read_text()
    assert '"title": "Spring Storms"' in before
    page.goto(f"{served.url}edit?uid={uid}")
    page.wait_for_selector("#f-title")
    wait_for(lambda: page.eval_on_selector("#pv-front img", "i => i.complete && i.naturalWidth > 0"), timeout=60)
    page.screenshot(path=str(screenshots / "editor.png"))
    page.fill("#f-title", "Spring Gales")
    page.wait_for_selector("#save:not([disabled])")
    page.click("#save")
    wait_for(lambda: "Saved to cards/l5r/dynasty.json" in page.inner_text("#status"), timeout=30)
    after = path.read_text()
    assert after == before.replace('"title": "Spring Storms"', '"title": "Spring Gales"', 1)
    project = load_project(served.root)
    sets, problems = load_cards(project, [served.root / "cards" / "l5r"], "l5r")
    assert not [p for p in problems if p.is_error]
    page.goto(served.url)
    page.locator(f'{TILES}[data-uid="{uid}"]').scroll_into_view_if_needed()
    wait_for(lambda: _loaded(page, uid), timeout=60)
    assert "Spring Gales" in page.inner_text(f'{TILES}[data-uid="{uid}"] figcaption')


def test_the_editor_shows_schema_errors_inline_before_saving(page, served):
    page.goto(f"{served.url}edit?uid=l5r/ex-personality-tetsuya")
    page.wait_for_selector("#f-force")
    page.fill("#f-force", "lots")
    field = page.wait_for_selector('.field.invalid[data-field="force"]')
    assert "does not match the expected form" in field.inner_text()
    assert page.locator('.field.required[data-field="chi"]').count() == 1  # required for a Personality
    page.fill("#f-force", "4")
    wait_for(lambda: page.locator(".field.invalid").count() == 0)


def test_a_decklist_pasted_gives_the_clis_verdict(page, served, run, screenshots):
    deck = Path(__file__).resolve().parents[1] / "fixtures" / "decks" / "ivory" / "dynasty-39.txt"
    cli = run("--project", served.root, "deck", "check", deck, "--format", "l5r-ivory-extended", "--json")
    expected = json.loads(cli.out)
    page.goto(f"{served.url}decks")
    page.wait_for_selector("#format option", state="attached")
    page.select_option("#format", "l5r-ivory-extended")
    page.fill("#deck-name", deck.name)
    page.fill("#deck-text", deck.read_text())
    page.click("#check")
    verdict = page.wait_for_selector("#verdict")
    assert verdict.inner_text() == expected["verdict"]
    assert page.inner_text("#summary").splitlines()[-1] == f"verdict: {expected['verdict']}"
    for violation in expected["violations"]:
        assert violation["message"] in page.inner_text("#deck-result")
    page.screenshot(path=str(screenshots / "decks.png"), full_page=True)


def test_a_cross_origin_post_and_a_wrong_host_are_refused(page, served):
    target = served.root / "cards" / "l5r" / "fate.json"
    before = target.read_text()
    # a page of another origin that posts a card to the server, as a CSRF attack would
    form = f"""<form id=f method=post action="{served.url}api/card/new" enctype="text/plain">
    <input name='{{"game":"l5r","file":"cards/l5r/fate.json","data":{{"id":"pwned","title":"x","type":"Event","deck":"Dynasty"}},"x":"' value='"}}'>
    </form><script>document.getElementById('f').submit()</script>"""
    attacker = ThreadingHTTPServer(("127.0.0.1", 0), _page_handler(form))
    threading.Thread(target=attacker.serve_forever, daemon=True).start()
    try:
        statuses = []
        page.on("response", lambda r: statuses.append((r.url, r.status)) if "/api/card/new" in r.url else None)
        page.goto(f"http://127.0.0.1:{attacker.server_address[1]}/")
        wait_for(lambda: statuses, timeout=20)
        assert statuses[0][1] == 403
        answer = page.request.fetch(
            f"{served.url}api/card/new",
            method="POST",
            headers={"origin": "http://evil.example", "content-type": "application/json"},
            data=json.dumps({"game": "l5r", "file": "cards/l5r/fate.json", "data": {"id": "pwned"}}),
        )
        assert answer.status == 403
        assert target.read_text() == before
        rebinding = page.request.get(f"{served.url}api/state", headers={"host": "evil.example"})
        assert rebinding.status == 400
        assert not [h for h in page.request.get(f"{served.url}api/state").headers if h.startswith("access-control")]
    finally:
        attacker.shutdown()


def test_the_sheets_and_rules_pages(page, served, screenshots):
    page.goto(f"{served.url}sheets")
    page.select_option("#game", "l5r")
    page.click("#build")
    page.wait_for_selector(".job.done .pages img", timeout=120_000)
    link = page.locator(".job.done .downloads a").first
    assert link.get_attribute("href") == "/file/l5r.pdf"
    assert page.request.get(f"{served.url}file/l5r.pdf").body()[:5] == b"%PDF-"
    wait_for(lambda: page.eval_on_selector(".job.done .pages img", "i => i.complete && i.naturalWidth > 0"), timeout=60)
    page.screenshot(path=str(screenshots / "sheets.png"))
    page.goto(f"{served.url}rules")
    page.select_option("#game", "l5r")
    page.click("#build")
    page.wait_for_selector(".job.done .pages img", timeout=120_000)
    wait_for(lambda: page.eval_on_selector(".job.done .pages img", "i => i.complete && i.naturalWidth > 0"), timeout=60)
    page.screenshot(path=str(screenshots / "rules.png"))
    chapter = sorted((served.root / "rules" / "l5r").glob("*.md"))[0]
    jobs = page.locator(".job").count()
    chapter.write_text(chapter.read_text() + "\n\nA line added while the page is open.\n")
    wait_for(lambda: page.locator(".job").count() > jobs, timeout=30)  # rebuilt when a chapter is saved
    page.wait_for_selector(f".job.done >> nth={0}", timeout=120_000)


@pytest.mark.shared
def test_a_real_decklist_on_the_real_cards(chromium, tmp_path, run, screenshots):
    from tests.browser.conftest import Served

    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not here")
    root = tmp_path / "real"
    (root / "cards").mkdir(parents=True)
    (root / "printer.toml").write_text(
        '[games.l5r]\nname = "L5R"\nback_field = "deck"\n'
        'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n'
    )
    oracle = sorted(str(p) for p in (SHARED_DATA / "l5r" / "oracle").glob("*.json"))
    assert run("--project", root, "import", "oracle", *oracle, "--out", root / "cards" / "l5r").code == 0
    deck = SHARED_DATA / "l5r" / "decks" / "ivory-starters-l5d" / "Ivory Crab Starter.l5d"
    expected = json.loads(run("--project", root, "deck", "check", deck, "--format", "l5r-ivory-extended", "--json").out)
    server = Served(root)
    try:
        context = chromium.new_context(viewport={"width": 1440, "height": 1000})
        page = context.new_page()
        server.sign_in(page, "decks")
        page.wait_for_selector("#format option", state="attached")
        page.select_option("#format", "l5r-ivory-extended")
        page.set_input_files("#deck-file", str(deck))
        wait_for(lambda: page.input_value("#deck-name") == deck.name)
        page.click("#check")
        assert page.wait_for_selector("#verdict", timeout=60_000).inner_text() == expected["verdict"]
        cards = page.locator(".deck-cards figure")
        assert cards.count() == len(expected["cards"])
        page.screenshot(path=str(screenshots / "decks-real.png"))
        context.close()
    finally:
        server.stop()


def _page_handler(html: str):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            body = html.encode()
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Handler


def test_a_card_from_a_spreadsheet_is_edited_in_the_form(chromium, tmp_path, run, screenshots):
    """The example L5R cards exported to CSV: the form opens a card of the sheet, a save writes its row."""
    from tests.browser.conftest import Served, example_project

    source = example_project(tmp_path / "source")
    root = tmp_path / "sheet"
    (root / "cards" / "l5r").mkdir(parents=True)
    (root / "printer.toml").write_text((source / "printer.toml").read_text())
    sheet = root / "cards" / "l5r" / "cards.csv"
    assert run("--project", source, "export", "cards", "l5r", "--to", sheet).code == 0
    before = sheet.read_text(encoding="utf-8-sig")
    server = Served(root, workers=1)
    try:
        context = chromium.new_context(viewport={"width": 1440, "height": 1000})
        page = context.new_page()
        server.sign_in(page, "edit?uid=l5r/ex-event-spring-storms")
        page.wait_for_selector("#f-title")
        page.fill("#f-title", "Spring Gales")
        page.wait_for_selector("#save:not([disabled])")
        page.click("#save")
        wait_for(lambda: "Saved to cards/l5r/cards.csv" in page.inner_text("#status"), timeout=30)
        wait_for(lambda: page.eval_on_selector("#pv-front img", "i => i.complete && i.naturalWidth > 0"), timeout=60)
        page.screenshot(path=str(screenshots / "editor-spreadsheet.png"))
        assert page.is_enabled("#delete")  # a row can be deleted like a card of a JSON list
        context.close()
    finally:
        server.stop()
    after = sheet.read_text(encoding="utf-8-sig")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(changed) == 1 and "Spring Gales" in changed[0][1] and "Spring Storms" in changed[0][0]
    assert len(after.splitlines()) == len(before.splitlines())
