"""Symbolic links in a stranger's project lead nowhere: not ``build/``, not an icon, not a format file, not the watcher.

Each case is a small project beside an ``outside`` folder holding a secret. ``printer serve`` runs as it does for a
user (its own process on 127.0.0.1, port 0); builds and deck commands run in-process. No byte of the secret may be
answered or printed, nothing may be written outside the project, and a save keeps what the file was: its
permissions, and JSON that parses.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SECRET = "TOP-SECRET-5be1"
CARD = {"id": "a", "title": "A Card", "type": "Strategy", "deck": "Fate", "focus": 1, "text": "Hello {key}."}
L5R = '[games.l5r]\nname = "L5R"\ncard_size = "poker"\nback_field = "deck"\nbacks = { Fate = "fate" }\n'


def _project(tmp_path: Path) -> tuple[Path, Path]:
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "cards" / "l5r").mkdir(parents=True)
    (project / "printer.toml").write_text(L5R, encoding="utf-8")
    text = json.dumps({"game": "l5r", "cards": [CARD]}, indent=2) + "\n"
    (project / "cards" / "l5r" / "a.json").write_text(text, encoding="utf-8")
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (outside / "secret.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>{SECRET}</text></svg>', encoding="utf-8"
    )
    (outside / "format.json").write_text(json.dumps({"id": "l5r-evil", "name": SECRET, "game": "l5r"}))
    return project, outside


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


class Serve:
    """``printer serve PROJECT --port 0 --workers 0`` in its own process; :meth:`get` and :meth:`post` speak to it as
    the pages do (the address it prints first, then its cookie, Origin and CSRF token)."""

    def __init__(self, project: Path):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "printer", "serve", str(project), "--port", "0", "--workers", "0"],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.log: list[str] = []
        self.url = ""
        found = threading.Event()

        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self.log.append(line)
                match = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", line)
                if match and not self.url:
                    self.url = match.group(1)
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        found.wait(120)
        self.code = self.process.poll()
        self.base = self.url.split("?")[0]
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        if self.url:
            self.get(self.url)  # the printed address, with the run's token: it sets the session cookie
            status, page = self.get(self.base)
            match = re.search(r'name="csrf-token" content="([^"]*)"', page.decode())
            self.csrf = match.group(1) if match else ""

    def said(self) -> str:
        return "".join(self.log)

    def _open(self, request: urllib.request.Request) -> tuple[int, bytes]:
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get(self, path: str) -> tuple[int, bytes]:
        return self._open(urllib.request.Request(path if path.startswith("http") else self.base + path.lstrip("/")))

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        headers = {"content-type": "application/json", "origin": self.base.rstrip("/"), "x-csrf-token": self.csrf}
        request = urllib.request.Request(self.base + path.lstrip("/"), body, headers, method="POST")
        return self._open(request)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture
def serve():
    started: list[Serve] = []

    def start(project: Path) -> Serve:
        server = Serve(project)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _wait_for(predicate, timeout: float = 30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return predicate()


# --- build/ as a link ------------------------------------------------------------------------------------------------


@pytest.mark.enable_socket
@pytest.mark.parametrize("link", ["build", "build/.cache"])
def test_serve_refuses_to_start_when_build_or_its_cache_is_a_link(tmp_path, serve, link):
    project, outside = _project(tmp_path)
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(outside, target_is_directory=True)
    before = _files(outside)
    server = serve(project)
    server.process.wait(60)
    said = server.said()
    assert not server.url, f"the server started over a linked {link}/:\n{said}"
    assert server.process.returncode == 2, said
    assert f"{project / link}: error: " in said and "symbolic link" in said and "Traceback" not in said, said
    assert _files(outside) == before


def test_a_build_file_is_never_reached_through_a_linked_build_folder(tmp_path):
    from printer.project import load_project
    from printer.serve.jobs import build_file

    project, outside = _project(tmp_path)
    (project / "build").symlink_to(outside, target_is_directory=True)
    assert build_file(load_project(project), "secret.txt") is None


@pytest.mark.enable_socket
def test_file_and_pictures_never_go_through_a_link_made_while_serving(tmp_path, serve):
    project, outside = _project(tmp_path)
    import pikepdf

    (project / "build").mkdir()
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 300))
    pdf.save(project / "build" / "sheet.pdf")
    server = serve(project)
    assert server.url, server.said()
    status, state = server.get("/api/state")
    front = json.loads(state)["entries"][0]["front"]
    assert status == 200 and front
    # printer serve checked build/ when it started; a link put there later (by anyone) is refused request by request
    shutil_move = project / "build-real"
    (project / "build").rename(shutil_move)
    (project / "build").symlink_to(outside, target_is_directory=True)
    status, body = server.get("/file/secret.txt")
    assert status == 404 and SECRET.encode() not in body
    (project / "build").unlink()
    shutil_move.rename(project / "build")
    (project / "build" / ".cache").mkdir(exist_ok=True)
    (project / "build" / ".cache" / "serve").symlink_to(outside, target_is_directory=True)
    before = _files(outside)
    status, body = server.get("/page/sheet.pdf?page=1")
    assert status != 200 and SECRET.encode() not in body
    server.get(f"/face/{front}.png")  # an error picture: the face cannot be kept where the link points
    assert _files(outside) == before, "nothing is written through the link"
    assert "Traceback" not in server.said()


@pytest.mark.enable_socket
def test_a_picture_planted_as_a_link_in_the_cache_is_not_served(tmp_path, serve):
    project, outside = _project(tmp_path)
    server = serve(project)
    assert server.url, server.said()
    front = json.loads(server.get("/api/state")[1])["entries"][0]["front"]
    planted = project / "build" / ".cache" / "serve" / "faces" / front[:2] / f"{front}.png"
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.symlink_to(outside / "secret.txt")
    status, body = server.get(f"/face/{front}.png")
    assert SECRET.encode() not in body
    assert (outside / "secret.txt").read_text() == SECRET


# --- icons as links --------------------------------------------------------------------------------------------------


def _linked_icon(project: Path, outside: Path) -> Path:
    icons = project / "templates" / "l5r" / "icons"
    icons.mkdir(parents=True)
    (icons / "key.svg").symlink_to(outside / "secret.svg")
    return icons / "key.svg"


@pytest.mark.enable_socket
def test_an_icon_that_links_out_of_the_project_is_not_served(tmp_path, serve):
    project, outside = _project(tmp_path)
    _linked_icon(project, outside)
    server = serve(project)
    assert server.url, server.said()
    status, body = server.get("/icon/l5r/key.svg")
    assert status == 404 and SECRET.encode() not in body
    status, body = server.get("/api/card?game=l5r")
    assert status == 200 and "key" not in json.loads(body)["icons"]


def test_a_build_refuses_an_icon_that_links_out_of_the_project(tmp_path, run):
    project, outside = _project(tmp_path)
    link = _linked_icon(project, outside)
    result = run("--project", project, "build", "l5r")
    said = result.out + result.err
    assert result.code == 1 and "Traceback" not in said and SECRET not in said
    assert f"{link}: error: " in said and "outside the project (a symbolic link" in said, said
    for file in _files(project / "build") if (project / "build").exists() else []:
        assert SECRET.encode() not in file.read_bytes()


# --- format files as links -------------------------------------------------------------------------------------------


def test_deck_formats_and_deck_check_refuse_a_format_file_that_links_out(tmp_path, run):
    project, outside = _project(tmp_path)
    formats = project / "schema" / "l5r" / "formats"
    formats.mkdir(parents=True)
    (formats / "evil.json").symlink_to(outside / "format.json")
    (project / "deck.txt").write_text("# Fate\n1 A Card\n", encoding="utf-8")
    listed = run("--project", project, "deck", "formats")
    said = listed.out + listed.err
    assert listed.code == 1 and SECRET not in said and "Traceback" not in said
    assert f"{formats / 'evil.json'}: error: " in said and "outside the project" in said, said
    assert "l5r-evil" not in listed.out
    checked = run("--project", project, "deck", "check", project / "deck.txt", "--format", "l5r-evil")
    said = checked.out + checked.err
    assert checked.code == 2 and SECRET not in said and "Traceback" not in said
    assert f"{formats / 'evil.json'}: error: " in said and "symbolic link" in said, said
    validated = run("--project", project, "validate")  # validate reads the project's formats too: not this one
    said = validated.out + validated.err
    assert validated.code == 1 and SECRET not in said and "Traceback" not in said
    assert f"{formats / 'evil.json'}: error: " in said and "symbolic link" in said, said


# --- the watcher -----------------------------------------------------------------------------------------------------


def _inotify_watches(pid: int | str = "self") -> int:
    """The inotify watches the process ``pid`` holds (one ``inotify wd:`` line each in /proc/PID/fdinfo)."""
    count = 0
    for info in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            count += info.read_text().count("inotify wd:")
        except OSError:
            continue
    return count


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir() or not Path("/usr/share").is_dir(), reason="Linux only")
def test_the_build_watch_does_not_follow_a_link_out_of_the_project(tmp_path):
    from printer.watching import Changes

    project, _ = _project(tmp_path)
    (project / "cards" / "l5r" / "usr").symlink_to("/usr", target_is_directory=True)
    before = _inotify_watches()
    with Changes(project, lambda path: True) as changes:
        assert changes.wait_ready()
        assert _inotify_watches() - before < 20, "one watch per real folder of the project"
        (project / "cards" / "l5r" / "a.json").write_text("{}", encoding="utf-8")
        assert str(project / "cards" / "l5r" / "a.json") in changes.wait(10)
        (project / "cards" / "l5r" / "new").mkdir()  # a folder made while watching is watched too
        time.sleep(0.5)
        (project / "cards" / "l5r" / "new" / "b.json").write_text("{}", encoding="utf-8")
        found: set[str] = set()
        _wait_for(lambda: found.update(changes.wait(0.5)) or str(project / "cards/l5r/new/b.json") in found, 10)
        assert str(project / "cards" / "l5r" / "new" / "b.json") in found


def _title_shown(server: Serve, title: str) -> bool:
    status, body = server.get("/api/state")
    return status == 200 and any(e["title"] == title for e in json.loads(body)["entries"])


@pytest.mark.enable_socket
@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir() or not Path("/usr/share").is_dir(), reason="Linux only")
def test_serve_watches_only_the_real_project_and_stays_live(tmp_path, serve):
    project, _ = _project(tmp_path)
    (project / "cards" / "l5r" / "usr").symlink_to("/usr", target_is_directory=True)
    server = serve(project)
    assert server.url, server.said()
    time.sleep(1)
    assert _inotify_watches(server.process.pid) < 50, "a link to /usr is not followed"
    path = project / "cards" / "l5r" / "a.json"
    path.write_text(path.read_text().replace("A Card", "A Card Renamed"), encoding="utf-8")
    assert _wait_for(lambda: _title_shown(server, "A Card Renamed")), server.said()


@pytest.mark.enable_socket
@pytest.mark.skipif(
    os.geteuid() == 0,
    reason="as root every folder can be read, so a link to / cannot stop the watch with 'Permission denied' (and the "
    "old watcher would walk the whole file system); the /usr case holds the rule that links are not followed",
)
def test_a_link_to_the_root_folder_does_not_stop_live_updates(tmp_path, serve):
    project, _ = _project(tmp_path)
    (project / "cards" / "l5r" / "everything").symlink_to("/", target_is_directory=True)
    server = serve(project)
    assert server.url, server.said()
    path = project / "cards" / "l5r" / "a.json"
    path.write_text(path.read_text().replace("A Card", "A Card Renamed"), encoding="utf-8")
    assert _wait_for(lambda: _title_shown(server, "A Card Renamed")), server.said()


# --- saves -----------------------------------------------------------------------------------------------------------


def test_an_atomic_write_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    from printer.fsutil import atomic_write_text

    private, new = tmp_path / "private.json", tmp_path / "new.json"
    private.write_text("{}", encoding="utf-8")
    private.chmod(0o600)
    atomic_write_text(private, '{"a": 1}')
    atomic_write_text(new, "{}")
    assert (private.stat().st_mode & 0o777, new.stat().st_mode & 0o777) == (0o600, 0o644)


@pytest.mark.enable_socket
def test_a_save_keeps_the_card_file_private_and_refuses_numbers_json_has_not(tmp_path, serve):
    project, _ = _project(tmp_path)
    path = project / "cards" / "l5r" / "a.json"
    path.chmod(0o600)
    server = serve(project)
    assert server.url, server.said()
    card = json.loads(server.get("/api/card?uid=l5r/a")[1])
    body = {"game": "l5r", "file": "cards/l5r/a.json", "pointer": card["entry"]["pointer"], "base": card["base"]}
    for number in ("NaN", "Infinity", "-Infinity", "1e999"):
        raw = json.dumps({**body, "data": {**card["data"], "focus": 7}}).replace('"focus": 7', f'"focus": {number}')
        status, answer = server.post("/api/card/save", raw.encode())
        assert status == 400, (number, answer)
        assert "$.data.focus" in json.loads(answer)["error"], answer
    # half of a surrogate pair is no character: no card file could hold it (a whole pair, an emoji, is saved below)
    raw = json.dumps({**body, "data": {**card["data"], "title": "x\ud800"}})
    status, answer = server.post("/api/card/save", raw.encode())
    assert status == 400 and "$.data.title" in json.loads(answer)["error"], answer
    half = json.dumps({**body, "data": {**card["data"], "title": "xHALF"}}).encode().replace(b"HALF", b"\xed\xa0\x80")
    status, answer = server.post("/api/card/save", half)  # the same half pair as raw bytes: no UTF-8, refused
    assert status == 400 and "not UTF-8" in json.loads(answer)["error"], answer
    assert json.loads(path.read_text())["cards"][0]["focus"] == 1  # untouched, and still JSON
    pair = {**card["data"], "focus": 2, "title": "x\U0001f600"}
    status, answer = server.post("/api/card/save", json.dumps({**body, "data": pair}).encode())
    assert status == 200, answer
    saved = json.loads(path.read_text())["cards"][0]
    assert (saved["focus"], saved["title"]) == (2, "x\U0001f600")
    assert path.stat().st_mode & 0o777 == 0o600
