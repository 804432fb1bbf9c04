"""``printer serve`` attacked as another account on the machine, a page on another port, or a flood of idle
connections would: each case runs a real server (``printer serve PROJECT --port 0``, uvicorn on 127.0.0.1) in its
own process and talks to it over loopback TCP.

- another user (the test runs a client as ``nobody`` with ``runuser`` when it runs as root; skipped otherwise)
  gets 403 for every request, reads no card and writes no file;
- a PDF page whose picture would be huge is refused from its size, before anything is drawn;
- 1,100 idle connections neither exhaust the server's 1,024 file descriptors nor keep a real request out, and a
  connection that sends nothing is closed;
- a file of ``build/`` is never served as a script or a page.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytestmark = pytest.mark.enable_socket

REPO = Path(__file__).resolve().parents[2]
TOML = """[games.l5r]
name = "L5R"
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
"""
TETSUYA = "l5r/ex-personality-tetsuya"
ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+/)\?token=([A-Za-z0-9_-]+)")


def _project(folder: Path) -> Path:
    root = folder / "project"
    (root / "cards").mkdir(parents=True)
    shutil.copytree(REPO / "cards" / "l5r", root / "cards" / "l5r")
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    return root


class Server:
    """``printer serve ROOT --port 0 --workers 0`` with at most ``files`` file descriptors (as most systems give)."""

    def __init__(self, root: Path, files: int = 1024):
        self.root = root
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            [sys.executable, "-m", "printer", "serve", str(root), "--port", "0", "--workers", "0"],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env=env,
            preexec_fn=limit,
        )
        self.log: list[str] = []
        self.url = self.token = ""
        found = threading.Event()

        def read() -> None:
            for line in self.process.stderr:
                self.log.append(line)
                match = ADDRESS.search(line)
                if match and not self.url:
                    self.url, self.token = match.groups()
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(120):
            self.stop()
            pytest.fail("printer serve did not print an address with a token:\n" + "".join(self.log))
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def get(self, path: str, timeout: float = 30) -> tuple[int, bytes, dict]:
        """GET ``path`` with the run's token; ``(status, body, headers)``."""
        sep = "&" if "?" in path else "?"
        try:
            with urllib.request.urlopen(f"{self.url}{path}{sep}token={self.token}", timeout=timeout) as answer:
                return answer.status, answer.read(), dict(answer.headers)
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), dict(exc.headers)

    def files(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def peak_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Server(_project(tmp_path_factory.mktemp("serve")))
    yield server
    server.stop()


# -- another user of the machine ---------------------------------------------------------------------------------------

#: what another account runs: the attack that worked before the token (GET / for a cookie and the CSRF token, read a
#: card, save it changed), with the standard library only; prints {request: status}
INTRUDER = r"""
import json, re, sys, urllib.error, urllib.request
from http.cookiejar import CookieJar
base, uid = sys.argv[1], sys.argv[2]
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
def ask(path, body=None, headers=None):
    request = urllib.request.Request(base + path, data=body, headers=headers or {}, method="POST" if body else "GET")
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")
seen = {}
seen["/"], page = ask("")
found = re.search(r'name="csrf-token" content="([^"]*)"', page)
seen["/api/state"], _ = ask("api/state")
seen["/api/card"], text = ask("api/card?uid=" + uid)
seen["/static/app.js"], _ = ask("static/app.js")
try:
    card = json.loads(text)
except ValueError:
    card = {"data": {"id": "x"}, "base": "", "entry": {"file": "cards/l5r/dynasty.json", "pointer": "$.cards[0]"}}
data = dict(card.get("data") or {}, title="Owned by another user")
entry = card.get("entry") or {}
body = {"game": "l5r", "file": entry.get("file"), "pointer": entry.get("pointer"), "base": card.get("base"), "data": data}
headers = {"content-type": "application/json", "origin": base.rstrip("/"), "x-csrf-token": found.group(1) if found else ""}
seen["POST /api/card/save"], _ = ask("api/card/save", json.dumps(body).encode(), headers)
seen["the refusal"] = page[:300]
print(json.dumps(seen))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run the intruding client as another user (nobody)")
@pytest.mark.skipif(shutil.which("runuser") is None, reason="needs runuser (util-linux) to switch users")
def test_another_user_of_the_machine_gets_403_for_every_request(served):
    cards = served.root / "cards" / "l5r" / "dynasty.json"
    before = cards.read_bytes()
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    done = subprocess.run(
        ["runuser", "-u", "nobody", "--", python, "-c", INTRUDER, served.url, TETSUYA],
        capture_output=True,
        text=True,
        timeout=120,
        cwd="/",
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    refusal = seen.pop("the refusal")
    assert seen == dict.fromkeys(seen, 403), seen
    assert set(seen) == {"/", "/api/state", "/api/card", "/static/app.js", "POST /api/card/save"}
    assert "printer serve" in refusal and "?token=" in refusal  # it says what to open
    assert "Tetsuya" not in refusal
    assert cards.read_bytes() == before
    # the person who started the server, with the address it printed, is let in
    status, body, _ = served.get("api/state")
    assert status == 200 and TETSUYA in body.decode()


def test_a_request_without_the_token_is_refused_over_tcp(served):
    for path in (
        "",
        "api/state",
        "api/events",
        "static/app.css",
        f"api/card?uid={TETSUYA}",
        "file/x",
        "icon/l5r/a.svg",
    ):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(served.url + path, timeout=30)
        assert refused.value.code == 403, path
        assert b"printer serve" in refused.value.read()


# -- pictures of huge pages --------------------------------------------------------------------------------------------


def _pdf(path: Path, side_pt: float) -> Path:
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(side_pt, side_pt))
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.save(path)
    return path


def test_a_huge_pdf_page_is_refused_from_its_size_before_it_is_drawn(served):
    build = served.root / "build"
    # 9,000 pt at the pictures' 60 dpi: 7,500 x 7,500 px, 56 million pixels (225 MB to draw), over the 40 million
    huge = _pdf(build / "huge.pdf", 9000)
    assert huge.stat().st_size < 2000
    _pdf(build / "small.pdf", 612)
    before = served.peak_mib()
    started = time.perf_counter()
    status, body, _ = served.get("page/huge.pdf?page=1")
    assert status == 413, body[:200]
    message = body.decode()
    assert "7,500 x 7,500 pixels" in message and "40,000,000 pixels" in message and "not rendered" in message
    assert time.perf_counter() - started < 10
    assert served.peak_mib() - before < 100  # nothing was drawn
    status, body, headers = served.get("page/small.pdf?page=1")  # a page of a usual size still is
    assert status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n" and headers["content-type"] == "image/png"


# -- idle connections --------------------------------------------------------------------------------------------------


@pytest.fixture
def own_server(tmp_path):
    server = Server(_project(tmp_path))
    yield server
    server.stop()


def test_idle_connections_do_not_starve_the_server(own_server):
    server = own_server
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 1400:
        pytest.skip(f"this process may open only {hard} files; the test opens 1,100 connections")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1400), hard))
    idle: list[socket.socket] = []
    try:
        for _ in range(1100):  # more than the server's 1,024 file descriptors; none sends a byte
            sock = socket.socket()
            sock.settimeout(5)
            try:
                sock.connect(("127.0.0.1", server.port))
            except OSError:  # the backlog is full: the server stopped accepting
                sock.close()
                break
            idle.append(sock)
        assert len(idle) == 1100
        # connections past the limit are closed as soon as the server's loop gets to them (a busy machine may
        # accept many first), the others once idle: the server does not keep its files filled
        wait_until = time.monotonic() + 20
        while server.files() >= 200 and time.monotonic() < wait_until:
            time.sleep(0.25)
        assert server.files() < 200
        # a real request gets through while the idle ones are still open (within the idle timeout and a margin)
        end = time.monotonic() + 30
        status = None
        while time.monotonic() < end:
            try:
                status, _, _ = server.get("static/app.css", timeout=5)
            except OSError:  # closed at once: the server holds as many connections as it may
                status = None
            if status == 200:
                break
            time.sleep(0.5)
        assert status == 200
    finally:
        for sock in idle:
            sock.close()


def test_a_connection_that_sends_nothing_is_closed(own_server):
    with socket.create_connection(("127.0.0.1", own_server.port), timeout=30) as sock:
        started = time.monotonic()
        assert sock.recv(1) == b""  # closed by the server
        assert time.monotonic() - started < 25


# -- files of build/ ---------------------------------------------------------------------------------------------------


def test_build_files_are_never_served_as_a_script_or_a_page(served):
    build = served.root / "build"
    build.mkdir(exist_ok=True)
    (build / "x.js").write_text("alert(document.cookie)\n")
    (build / "x.html").write_text("<script src=/file/x.js></script>\n")
    (build / "x.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n')
    for name in ("x.js", "x.html", "x.svg"):
        status, body, headers = served.get(f"file/{name}")
        assert status == 200, name
        kind = headers["content-type"]
        assert "javascript" not in kind and "html" not in kind and "svg" not in kind, (name, kind)
        assert kind == "application/octet-stream"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["content-disposition"].startswith("attachment")
        assert "sandbox" in headers["content-security-policy"]
    _pdf(build / "sheet.pdf", 612)
    status, body, headers = served.get("file/sheet.pdf")
    assert status == 200 and headers["content-type"] == "application/pdf" and body[:5] == b"%PDF-"
