"""``printer serve`` in a real browser: the server runs as ``printer serve PROJECT --port 0`` in its own process
and Playwright drives Debian's Chromium (``/usr/bin/chromium``; no browser is downloaded).

Every test here is marked ``browser`` (and ``enable_socket``: the browser talks to the server over loopback TCP);
they are skipped when Playwright or Chromium is missing. Screenshots of each page are written to
``$PRINTER_SCREENSHOTS`` (default: a temporary folder, printed at the end).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("PRINTER_CHROMIUM", "/usr/bin/chromium"))


@pytest.fixture(scope="package")  # closed after tests/browser: Playwright's loop must not outlive these tests
def chromium():
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian package chromium; scripts/setup installs it)")
    with playwright.sync_playwright() as p:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=args)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("PRINTER_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    yield folder
    print(f"\nscreenshots of printer serve: {folder}")


class Served:
    """A ``printer serve`` process over ``root`` (on ``host``, default 127.0.0.1).

    ``url`` is its address without the token (``http://127.0.0.1:PORT/``), ``token`` the run's access token and
    ``entry`` the address it printed (``url?token=...``); :meth:`sign_in` opens that in a page, as a user would.
    """

    def __init__(self, root: Path, workers: int = 2, host: str | None = None):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
        self.root = root
        extra = ["--host", host] if host else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "printer", "serve", str(root), "--port", "0", "--workers", str(workers), *extra],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.log: list[str] = []
        found = threading.Event()
        self.url = self.token = self.entry = ""

        def read() -> None:
            for line in self.process.stderr:
                self.log.append(line)
                match = re.search(r"(http://(?:127\.0\.0\.1|\[::1\]):\d+/)\?token=([A-Za-z0-9_-]+)", line)
                if match and not self.url:
                    self.url, self.token = match.groups()
                    self.entry = match.group(0)
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(120):
            self.stop()
            raise RuntimeError("printer serve did not start:\n" + "".join(self.log))

    def sign_in(self, page, path: str = "") -> None:
        """Open the printed address (with the token; ``path`` for another page than the gallery, such as ``decks``)
        in ``page``: the server sets the session cookie in the page's browser context and the page moves on to the
        same address without the token."""
        page.goto(f"{self.url}{path}{'&' if '?' in path else '?'}token={self.token}")
        page.wait_for_url(lambda url: url.startswith(self.url) and "token=" not in url)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def example_project(folder: Path) -> Path:
    """A copy of the repository's example project: printer.toml, the card files and the rules of the five games."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "printer.toml", folder / "printer.toml")
    shutil.copytree(REPO / "cards", folder / "cards")
    shutil.copytree(REPO / "rules", folder / "rules")
    return folder


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = example_project(tmp_path_factory.mktemp("serve") / "project")
    server = Served(root)
    yield server
    server.stop()


@pytest.fixture
def page(chromium, served):
    context = chromium.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    served.sign_in(page)
    yield page
    context.close()
    assert not errors, errors


def wait_for(predicate, timeout: float = 30.0, step: float = 0.05):
    """Poll ``predicate`` until it is true; fail after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"not true after {timeout} s")


def card_count(root: Path, game: str = "") -> int:
    """The cards of the project's JSON card files (of ``game``'s folder only, when given); translation overlays (a
    top-level ``lang``) hold no cards."""
    count = 0
    for file in sorted((root / "cards" / game).rglob("*.json")):
        data = json.loads(file.read_text())
        if isinstance(data, dict) and "lang" in data:
            continue
        count += len(data["cards"]) if isinstance(data, dict) and "cards" in data else 1
    return count
