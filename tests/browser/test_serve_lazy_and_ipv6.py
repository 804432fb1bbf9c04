"""``printer serve`` in Chromium: a gallery never rendered before shows every tile at once and asks only for the
pictures in view; the server works on the IPv6 loopback address (``--host ::1``, ``http://[::1]:PORT/``)."""

from __future__ import annotations

import json
import socket

import pytest

from tests.browser.conftest import Served, card_count, example_project, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.enable_socket]
TILES = "figure.tile"
IN_VIEW_LOADED = """() => { const seen = [...document.querySelectorAll('figure.tile img')].filter(i => {
    const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; });
  return seen.length > 0 && seen.every(i => i.complete && i.naturalWidth > 0 && !i.classList.contains('loading')); }"""


@pytest.fixture
def fresh(tmp_path):
    """A copy of the example project with nothing rendered yet (its build/ folder, with the picture cache, is new)."""
    server = Served(example_project(tmp_path / "project"))
    yield server
    server.stop()


def test_a_new_gallery_shows_placeholders_at_once_and_renders_only_what_is_in_view(chromium, fresh, screenshots):
    context = chromium.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: "/face/" in request.url and asked.append(request.url.split("?")[0]))
    fresh.sign_in(page)  # the address printer serve printed, with its token: the gallery
    page.wait_for_selector(TILES)
    tiles = page.locator(TILES).count()
    assert tiles == card_count(
        fresh.root
    )  # every card's tile (its caption, a placeholder for the picture) before any picture
    page.screenshot(path=str(screenshots / "gallery-placeholders.png"))
    page.wait_for_function(IN_VIEW_LOADED, timeout=120_000)
    page.screenshot(path=str(screenshots / "gallery-first-screen.png"))
    stats = page.request.get(fresh.url + "api/stats").json()
    asked_for = len(set(asked))
    # the pictures near the view (and a few cards ahead, rendered in the same batches), not the whole gallery
    assert 0 < asked_for < tiles / 2, asked_for
    assert stats["rendered"] < tiles / 2, stats
    unrequested = page.eval_on_selector_all(f"{TILES} img", "imgs => imgs.filter(i => !i.getAttribute('src')).length")
    assert unrequested > tiles / 2
    # a card whose picture has not come yet is a placeholder box ("rendering…"), not a broken image
    assert page.locator(".face-box.waiting").count() >= unrequested
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.face-box.waiting img')).visibility") == "hidden"
    )
    last = page.locator(TILES).nth(tiles - 1)
    last.scroll_into_view_if_needed()  # scrolling down asks for the cards that come into view
    uid = last.get_attribute("data-uid")
    wait_for(
        lambda: page.evaluate(
            """uid => { const i = document.querySelector(`figure.tile[data-uid="${uid}"] img`);
            return i && i.complete && i.naturalWidth > 0; }""",
            uid,
        ),
        timeout=120,
    )
    context.close()


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback address")
def test_serve_on_the_ipv6_loopback_address(chromium, tmp_path, screenshots):
    server = Served(example_project(tmp_path / "project"), host="::1")
    try:
        assert server.url.startswith("http://[::1]:")
        context = chromium.new_context(viewport={"width": 1200, "height": 800})
        page = context.new_page()
        server.sign_in(page)  # the browser sends Host: [::1]:PORT, which the server accepts
        page.wait_for_selector(TILES)
        page.wait_for_function(IN_VIEW_LOADED, timeout=120_000)
        answer = page.evaluate(  # a state change from the page itself: Origin http://[::1]:PORT and the CSRF token
            """async card => {
              const token = document.querySelector('meta[name="csrf-token"]').content;
              const r = await fetch('/api/card/check', {method: 'POST', body: JSON.stringify({game: 'l5r', data: card}),
                headers: {'content-type': 'application/json', 'x-csrf-token': token}});
              return {status: r.status, body: await r.json()};
            }""",
            {"id": "ipv6", "title": "Over IPv6", "type": "Event", "deck": "Fate", "text": "Draw a card."},
        )
        assert answer["status"] == 200, json.dumps(answer)  # checked (not refused as cross-origin: 403)
        assert "problems" in answer["body"]
        page.screenshot(path=str(screenshots / "gallery-ipv6.png"))
        foreign = page.request.get(server.url, headers={"host": "evil.example"})
        assert foreign.status == 400
        context.close()
    finally:
        server.stop()
