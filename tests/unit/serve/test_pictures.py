"""The face renderer: the card just saved goes first, to its own process; gallery pictures go in batches."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette")

import printer.serve.pictures as pictures  # noqa: E402
from printer.serve.pictures import AHEAD, URGENT, WANTED, FaceRenderer, FaceSpec, face_key  # noqa: E402


class _Project:
    def __init__(self, root):
        from printer.limits import DEFAULT

        self.root = root
        self.build_dir = root / "build"
        self.limits = DEFAULT


def test_face_keys_change_with_the_html_and_the_files_it_uses(tmp_path):
    art = tmp_path / "art.png"
    art.write_bytes(b"one")
    html = f'<img src="{art.as_uri()}">'
    first = face_key("game", html)
    assert face_key("game", html) == first and len(first) == 40
    assert face_key("other game", html) != first
    art.write_bytes(b"two!")
    assert face_key("game", html) != first


def test_a_picture_is_named_by_its_files_content_as_the_build_s_face_cache_names_a_face(tmp_path):
    from printer.sheets.cache import FaceIdentity

    art = tmp_path / "art.png"
    art.write_bytes(b"one")
    html = f'<img src="{art.as_uri()}">'
    identity = FaceIdentity()
    first = face_key("game", html, identity)
    assert first == identity.key(html, "game", "")[:40]  # one identity for both
    os.utime(art, ns=(1, 1))  # touched, same content: the same picture
    assert face_key("game", html, identity) == first == face_key("game", html)
    art.write_bytes(b"owt")  # same size, new content: a new picture
    os.utime(art, ns=(1, 1))
    assert face_key("game", html) != first


def test_urgent_faces_use_their_own_process_and_gallery_faces_are_batched(tmp_path, monkeypatch):
    calls: list[tuple[str, list[str]]] = []
    release = threading.Event()

    def fake_render(root, game, fingerprint, batch, folder, dpi, seconds=0.0, component=None):
        lane = threading.current_thread().name.split("_")[0]
        calls.append((lane, [k for k, _ in batch]))
        if lane == "gallery":
            release.wait(5)
        for key, _ in batch:
            path = pictures.picture_path(tmp_path / "faces", key)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"png")
        return {key: None for key, _ in batch}

    monkeypatch.setattr(pictures, "render_faces", fake_render)
    monkeypatch.setattr(pictures, "cache_dir", lambda project: tmp_path / "faces")
    specs = {f"{i:040x}": FaceSpec("g", "fp", f"<p>{i}</p>") for i in range(12)}
    gallery = ThreadPoolExecutor(1, thread_name_prefix="gallery")
    urgent = ThreadPoolExecutor(1, thread_name_prefix="urgent")
    keys = list(specs)

    async def scenario():
        renderer = FaceRenderer(_Project(tmp_path), gallery, 1, specs.get, urgent=urgent, batch=4)
        first = asyncio.ensure_future(renderer.picture(keys[0], WANTED))  # the gallery process is now busy
        await asyncio.sleep(0.05)
        renderer.ahead(keys[1:9], AHEAD)
        saved = await asyncio.wait_for(renderer.picture(keys[11], URGENT), 2)  # not behind the gallery's batch
        assert saved.is_file() and not first.done()
        release.set()
        await first
        await asyncio.wait_for(renderer.picture(keys[8], WANTED), 5)
        return renderer

    renderer = asyncio.run(scenario())
    gallery.shutdown()
    urgent.shutdown()
    assert calls[0] == ("gallery", [keys[0]])
    assert ("urgent", [keys[11]]) in calls
    assert [len(batch) for lane, batch in calls if lane == "gallery"][1:] == [4, 4]  # the rest in batches of 4
    assert renderer.rendered == 10


def _state(pid: int) -> str:
    """The scheduler state of process ``pid`` (``T``: stopped), from /proc."""
    from pathlib import Path

    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


#: how long the test waits for what must happen: generous, so that only a regression (never a busy machine) fails it
PATIENCE = 60.0


def _settled_state(pid: int, stopped: bool, seconds: float = PATIENCE) -> str:
    """The state of ``pid`` once it is (or is not) stopped, waiting up to ``seconds``: a signal is sent at once, but
    a busy machine may schedule the process that handles it a while later."""
    deadline = time.monotonic() + seconds
    while True:
        state = _state(pid)
        if (state == "T") == stopped or time.monotonic() > deadline:
            return state
        time.sleep(0.01)


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP") or not os.path.isdir("/proc/self"), reason="POSIX with /proc")
def test_the_gallerys_processes_are_stopped_while_a_saved_card_renders(tmp_path, monkeypatch):
    """Every step waits for an event (the gallery's batch has begun, the stand-in's state has settled) with a
    generous deadline, never for a fixed time, so a loaded machine makes it slower but never fails it."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # stands for a gallery process
    seen: dict[str, str] = {}
    during: list[str] = []  # the stand-in's state during each urgent render
    gallery_busy = threading.Event()
    release = threading.Event()

    def fake_render(root, game, fingerprint, batch, folder, dpi, seconds=0.0, component=None):
        lane = threading.current_thread().name.split("_")[0]
        if lane == "urgent":
            during.append(_settled_state(child.pid, stopped=not during))
        else:
            gallery_busy.set()
            assert release.wait(PATIENCE)
        for key, _ in batch:
            path = pictures.picture_path(tmp_path / "faces", key)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"png")
        return {key: None for key, _ in batch}

    monkeypatch.setattr(pictures, "render_faces", fake_render)
    monkeypatch.setattr(pictures, "cache_dir", lambda project: tmp_path / "faces")
    specs = {f"{i:040x}": FaceSpec("g", "fp", f"<p>{i}</p>") for i in range(3)}
    keys = list(specs)
    gallery = ThreadPoolExecutor(1, thread_name_prefix="gallery")
    urgent = ThreadPoolExecutor(1, thread_name_prefix="urgent")

    async def scenario():
        renderer = FaceRenderer(
            _Project(tmp_path), gallery, 1, specs.get, urgent=urgent, gallery_pids=lambda: [child.pid]
        )
        busy = asyncio.ensure_future(renderer.picture(keys[0], WANTED))
        assert await asyncio.to_thread(gallery_busy.wait, PATIENCE)  # a gallery batch is rendering
        await asyncio.wait_for(renderer.picture(keys[2], URGENT), PATIENCE)
        seen["after"] = _settled_state(child.pid, stopped=False)
        release.set()
        await asyncio.wait_for(busy, PATIENCE)
        await asyncio.wait_for(renderer.picture(keys[1], URGENT), PATIENCE)  # the gallery idle: nothing is stopped
        return renderer

    try:
        renderer = asyncio.run(scenario())
    finally:
        release.set()
        child.kill()
        child.wait()
        gallery.shutdown()
        urgent.shutdown()
    assert during[0] == "T"  # stopped while the saved card rendered, behind a gallery batch
    assert seen["after"] != "T" and during[1] != "T"  # continued after it; not stopped with the gallery idle
    assert renderer.paused == []


def test_a_pool_s_worker_pids_are_the_live_workers_that_reported_at_start(monkeypatch):
    """``WorkerPids`` names a pool's processes through public APIs only, and forgets a worker that has ended."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from printer.pools import WorkerPids

    monkeypatch.setattr(pictures, "warm_up", lambda: None)  # no WeasyPrint in the forked worker
    context = multiprocessing.get_context("fork")
    pids = WorkerPids(context)
    assert pids() == []
    pool = ProcessPoolExecutor(1, mp_context=context, initializer=pictures.start_worker, initargs=(pids.queue,))
    try:
        worker = pool.submit(os.getpid).result(timeout=PATIENCE)
        # the id travels on its own queue, and may arrive after the task's result: wait for it
        assert pids.wait(1, PATIENCE) == [worker] and worker != os.getpid()
    finally:
        pool.shutdown(wait=True)
    assert pids() == []


@pytest.mark.slow
def test_a_face_over_its_render_time_gets_the_limits_error_and_the_next_render_works(project, tmp_path):
    """``limits.face_render_seconds`` stops WeasyPrint in a render process (here the test's main thread)."""
    from printer.serve.workspace import Workspace

    workspace = Workspace(project)
    shown = [e for e in workspace.entries.values() if e.front][:2]
    specs = [workspace.face(e.front) for e in shown]
    args = (str(workspace.root), specs[0].game, specs[0].fingerprint)
    folder = pictures.cache_dir(workspace.project)  # pictures are written inside the project's own build folder only
    pictures.prepare(*args, specs[0].html)  # the project read and the fonts loaded, outside the limit
    batch = [(e.front, s.html) for e, s in zip(shown, specs)]
    stopped = pictures.render_faces(*args, batch, str(folder), seconds=0.002)  # a face takes 20 ms and more
    assert set(stopped) == {e.front for e in shown}
    for message in stopped.values():
        assert message is not None and "limits.face_render_seconds" in message
    assert not any(pictures.picture_path(folder, e.front).exists() for e in shown)
    assert pictures.render_faces(*args, batch, str(folder), seconds=30) == {e.front: None for e in shown}
    assert all(pictures.picture_path(folder, e.front).stat().st_size > 1000 for e in shown)


def test_a_face_over_its_time_gets_no_picture_even_when_every_interruption_was_dropped(project, tmp_path, monkeypatch):
    """The limit fires while the face is laid out, but the raise is taken (by a gc callback, as hypothesis' is):
    the face is laid out all the same, and its picture must still not be written (this test was flaky when the
    raise landed in hypothesis' callback)."""
    import time

    from PIL import Image

    from printer.serve.workspace import Workspace
    from printer.sheets.export import faces as export_faces

    def dropping(job, keys, layout, px):
        for key in keys:
            ends = time.monotonic() + 0.3
            while time.monotonic() < ends:
                try:
                    time.sleep(0.01)
                except pictures._TooLong:
                    pass  # dropped
            yield key, Image.new("RGB", (20, 30), "white")

    workspace = Workspace(project)
    entry = next(e for e in workspace.entries.values() if e.front)
    spec = workspace.face(entry.front)
    folder = tmp_path / "faces"
    monkeypatch.setattr(export_faces, "face_images", dropping)
    found = pictures.render_faces(str(workspace.root), spec.game, spec.fingerprint, [(entry.front, spec.html)],
                               str(folder), seconds=0.05)  # fmt: skip
    assert found == {entry.front: pictures.too_long(0.05)}
    assert not pictures.picture_path(folder, entry.front).exists()


def test_a_time_limit_dropped_once_stops_the_block_all_the_same():
    """What a garbage collector callback raises is printed and dropped: the limit fires again until it holds."""
    import time

    with pytest.raises(pictures._TooLong):
        with pictures.time_limit(0.01):
            try:
                time.sleep(5)
            except pictures._TooLong:
                pass  # dropped, as Python drops what a gc callback raises
            time.sleep(5)


def test_a_block_whose_every_time_limit_was_dropped_ends_as_too_long():
    """A library's gc callback (hypothesis installs one) may take every raise: the block still ends as too long."""
    import time

    with pytest.raises(pictures._TooLong):
        with pictures.time_limit(0.01):
            ends = time.monotonic() + 0.1
            while time.monotonic() < ends:
                try:
                    time.sleep(0.001)
                except pictures._TooLong:
                    pass  # dropped, every time


@pytest.mark.slow
def test_a_picture_has_the_pixels_of_the_png_export_though_its_pdf_is_not_deflated(project, tmp_path):
    """A render process writes each face's throwaway PDF without deflating it and its PNG deflated lightly: the
    picture's pixels are those of the PNG export's path (:func:`printer.sheets.export.faces.face_images`)."""
    from markupsafe import Markup
    from PIL import Image, ImageChops

    from printer.serve.workspace import Workspace
    from printer.sheets.export.faces import face_images, page_layout, px_of

    workspace = Workspace(project)
    shown = [e for e in workspace.entries.values() if e.front][:3]
    specs = [workspace.face(e.front) for e in shown]
    folder = pictures.cache_dir(workspace.project)  # inside the project only
    batch = [(e.front, s.html) for e, s in zip(shown, specs)]
    assert pictures.render_faces(str(workspace.root), specs[0].game, specs[0].fingerprint, batch, str(folder)) == {
        e.front: None for e in shown
    }
    job = pictures.game_job(workspace.project, workspace.project.games[specs[0].game])
    assert not job.engine.write_options.get("uncompressed_pdf")  # the export's own job deflates its PDF
    for key, html in batch:
        job.faces.html[key] = Markup(html)
    layout = page_layout(job, with_bleed=True)
    for key, image in face_images(job, [k for k, _ in batch], layout, px_of(layout.page, pictures.SCREEN_DPI)):
        with Image.open(pictures.picture_path(folder, key)) as picture:
            assert picture.size == image.size
            assert ImageChops.difference(picture.convert("RGB"), image.convert("RGB")).getbbox() is None


PIECES = """
[games.l5r.components.imperial-favor]
kind = "token"
shape = "round"
size = "36x36mm"
when = { type = "Imperial Favor" }
"""


@pytest.mark.slow
def test_a_component_piece_shows_at_its_components_trim_size_as_its_sheets_print_it(project):
    """A card printer.toml makes a component's piece (here a 36 mm round token) is shown as the components' sheets
    print it: its HTML rendered by the component's job (templates see ``component``), its picture laid out at the
    component's trim size plus the bleed; the other cards stay at the card size."""
    from PIL import Image

    from printer.api.pipeline import component_options, faces_job
    from printer.api.plan import print_options
    from printer.serve.app import _games
    from printer.serve.workspace import Workspace
    from printer.sheets.faces.items import item_for_card
    from printer.sheets.options import sheet_layout
    from printer.sheets.plan import BuildRequest
    from printer.sheets.preflight import declared_components

    with (project / "printer.toml").open("a", encoding="utf-8") as toml:
        toml.write(PIECES)
    workspace = Workspace(project)
    favor = next(e for e in workspace.entries.values() if e.type == "Imperial Favor")
    card = next(e for e in workspace.entries.values() if e.front and e.type not in ("Imperial Favor", ""))
    assert (favor.piece, card.piece) == ("imperial-favor", None)
    piece, face = workspace.face(favor.front), workspace.face(card.front)
    assert (piece.component, face.component) == ("imperial-favor", None)
    assert piece.fingerprint != face.fingerprint  # another trim size: another picture name for the same HTML

    # the piece's HTML is the components' sheets' (the build's component job)
    game = workspace.project.games["l5r"]
    request = BuildRequest()
    opts = print_options(workspace.project, game, request)
    (component,) = declared_components(workspace.project, game)
    job = faces_job(
        workspace.project, game, request, component_options(opts, component, sheet_layout(opts, project).page)
    )
    job.renderer.component = component.view()
    found = next(c for cs in workspace.cards.values() for c in cs if c.get("type") == "Imperial Favor")
    assert piece.html == str(job.faces.front_html(item_for_card(found)))

    folder = pictures.cache_dir(workspace.project)
    for key, spec in ((favor.front, piece), (card.front, face)):
        args = (str(workspace.root), spec.game, spec.fingerprint, [(key, spec.html)], str(folder))
        assert pictures.render_faces(*args, component=spec.component) == {key: None}
    px = round((36 + 2 * opts.bleed) / 25.4 * pictures.SCREEN_DPI)
    with Image.open(pictures.picture_path(folder, favor.front)) as token:
        assert abs(token.size[0] - px) <= 1 and abs(token.size[1] - px) <= 1
    with Image.open(pictures.picture_path(folder, card.front)) as front:
        assert abs(front.size[0] - round((63 + 2 * opts.bleed) / 25.4 * pictures.SCREEN_DPI)) <= 1
    (listed,) = _games(workspace)
    assert listed["pieces"] == {"imperial-favor": [36.0, 36.0]} and listed["card"] == [63.0, 88.0]


def test_a_piece_of_a_component_printer_toml_no_longer_declares_gets_an_error_not_a_crash(project):
    """A face asked for before printer.toml dropped its component: the render process answers with an error for it."""
    from printer.serve.workspace import Workspace

    workspace = Workspace(project)
    spec = workspace.face(next(e.front for e in workspace.entries.values() if e.front))
    folder = str(pictures.cache_dir(workspace.project))
    found = pictures.render_faces(
        str(project), spec.game, spec.fingerprint, [("k", spec.html)], folder, component="gone"
    )
    assert list(found) == ["k"] and "component 'gone'" in str(found["k"])
