"""``printer serve`` lets in the browser that opened the address it printed, and nothing else: the token becomes an
``HttpOnly``, ``SameSite=Strict`` cookie and leaves the address bar and the history; without it every request is
refused with a message that says what to open; a page on another port of 127.0.0.1 (the same site, so the browser
sends it the cookie) cannot make the server work for it."""

from __future__ import annotations

import stat
import threading
import webbrowser
from http.server import ThreadingHTTPServer

import pytest

from tests.browser.conftest import wait_for
from tests.browser.test_serve_browser import _page_handler

pytestmark = [pytest.mark.browser, pytest.mark.enable_socket]


def test_the_printed_address_signs_in_and_leaves_no_token_behind(chromium, served, screenshots):
    context = chromium.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.goto(served.entry)
    page.wait_for_url(served.url)
    page.wait_for_function(  # the first pictures (a fresh server renders them first: allow for a busy machine)
        "() => [...document.querySelectorAll('figure.tile img')].some(i => i.complete && i.naturalWidth > 0)",
        timeout=120_000,
    )
    assert page.locator("figure.tile").count() > 100
    page.screenshot(path=str(screenshots / "gallery-signed-in.png"))
    (cookie,) = context.cookies()
    assert cookie["name"].startswith("printer_session_") and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert served.token not in page.content() and served.token not in cookie["value"]
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script of the page reads it
    page.go_back()
    assert served.token not in page.url  # the tokened address is not in the history
    context.close()


def test_without_the_token_every_request_is_refused_with_what_to_open(chromium, served, screenshots):
    context = chromium.new_context(viewport={"width": 1000, "height": 400})
    page = context.new_page()
    answer = page.goto(served.url)
    assert answer.status == 403
    text = page.inner_text("body")
    assert "Open the address that `printer serve` printed" in text and "?token=" in text
    page.screenshot(path=str(screenshots / "refused-without-token.png"))
    for path in ("api/state", "static/app.js", "api/events", "edit", "file/l5r.pdf"):
        assert page.request.get(served.url + path).status == 403, path
    assert page.request.get(f"{served.url}api/state?token={'x' * 43}").status == 403
    context.close()


def test_open_goes_through_a_file_only_the_user_can_read(chromium, served, monkeypatch):
    """``--open`` hands the browser a file, not the tokened address: a browser's command line is visible to every
    user. The first visit then comes from a file: page (another site), the case a 303 redirect would break."""
    from printer.serve import _open

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *args, **kwargs: opened.append(url))
    path = _open(served.entry)
    try:
        assert opened == [path.as_uri()] and served.token not in opened[0]
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        context = chromium.new_context()
        page = context.new_page()
        page.goto(opened[0])
        page.wait_for_url(served.url)
        page.wait_for_selector("figure.tile")
        assert page.request.get(served.url + "api/state").status == 200
        context.close()
    finally:
        path.unlink()


def test_a_page_on_another_port_cannot_make_the_server_work(chromium, served, tmp_path):
    context = chromium.new_context()
    signed = context.new_page()
    served.sign_in(signed, "decks")  # the browser holds the cookie: a page of the same site would get it sent along
    signed.close()
    build = served.root / "build"
    build.mkdir(exist_ok=True)
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(612, 792))
    pdf.save(build / "other.pdf")
    asked = [f"{served.url}page/other.pdf?page=1", f"{served.url}api/state", f"{served.url}static/app.js"]
    html = f'<img src="{asked[0]}"><img src="{asked[1]}"><script src="{asked[2]}"></script>'
    other = ThreadingHTTPServer(("127.0.0.1", 0), _page_handler(html))
    threading.Thread(target=other.serve_forever, daemon=True).start()
    ended: set[str] = set()
    statuses: dict[str, int] = {}
    page = context.new_page()  # the other port's page, in the browser that holds the cookie
    page.on("requestfailed", lambda r: ended.add(r.url))  # answers the browser blocks (Cross-Origin-Resource-Policy)
    page.on("requestfinished", lambda r: ended.add(r.url))
    page.on("response", lambda r: statuses.__setitem__(r.url, r.status) if r.url.startswith(served.url) else None)
    try:
        page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        wait_for(lambda: ended >= set(asked), timeout=60)
        assert set(statuses.values()) <= {403}, statuses
        pictures = build / ".cache" / "serve" / "pages"
        assert not pictures.is_dir() or not list(pictures.glob("*.png"))  # no page was drawn for it
    finally:
        other.shutdown()
        context.close()
