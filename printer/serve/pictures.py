"""Card faces as PNG pictures for the browser, rendered by the same engine that prints the PDF.

A face is the HTML the game's template gives for one card front or back
(:class:`printer.sheets.render.Renderer`); its picture is that HTML laid
out by WeasyPrint on a page of the card's trim size plus the bleed on every
side (a component piece's, a token's or a tile's, at that component's trim size, as it prints:
:mod:`printer.sheets.components`), text fitted as on the sheets (:mod:`printer.sheets.fit`), and turned
into a PNG by pypdfium2 (:func:`printer.sheets.export.faces.face_images`,
the path of ``printer build --export png``).

Each picture is named by a **content hash** (:func:`face_key`): the face's
HTML, the game's stylesheets and sheet template, the trim size, bleed, safe
area and resolution, and the content of every file the HTML or the
stylesheets point at (art, icons, fonts): the same content digests the
build's face cache names faces by (:class:`printer.sheets.cache.FaceIdentity`). Pictures are kept in
``build/.cache/serve/`` under that name, so an unchanged card is never
rendered twice, even across restarts, and a template, CSS or icon change
gives new names only to the faces it changes.

Pictures are rendered off the server's event loop in a pool of worker
processes (:class:`FaceRenderer`), faces the designer is waiting for
first: a card just saved in a process of its own, while the gallery's
processes are stopped (:meth:`FaceRenderer.pause_gallery`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import os
import re
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from printer.paths import check_output_folder, output_folder_problem, url2pathname
from printer.pools import WorkerPids, report_pid
from printer.project import Game, Project
from printer.serve.time_limit import Clock, time_limit
from printer.serve.time_limit import TooLong as _TooLong

if TYPE_CHECKING:  # at run time the sheets stage is imported where a face is rendered, not with the server
    from multiprocessing.queues import Queue

    from printer.sheets.cache import FaceIdentity
    from printer.sheets.components import Component
    from printer.sheets.job import SheetJob

log = logging.getLogger("printer.serve")

#: pixels per inch of the pictures: a 63 x 88 mm card with 3 mm bleed is 407 x 555 px, sharp at print size on a
#: screen of 96 CSS px per inch and still light enough for a gallery of 900 cards
SCREEN_DPI = 150
#: the most pixels of one picture the server renders (a card face, a page of a PDF in build/): 40 million, 160 MB
#: while it is drawn (4 bytes a pixel); checked from the size before anything is drawn
PICTURE_PIXELS = 40_000_000
#: how hard a picture's PNG is deflated (0-9): 1 takes 9 ms a face where 6 took 14, for files 4 % larger
PNG_LEVEL = 1
#: bump when the way pictures are made changes, so that old cached pictures are not used
_VERSION = "serve-faces-1"
KEY = re.compile(r"[0-9a-f]{40}")


def over_budget(width_px: float, height_px: float, what: str) -> str | None:
    """Why a picture of ``width_px`` x ``height_px`` pixels is not rendered (over :data:`PICTURE_PIXELS`), or
    ``None`` when it may be."""
    pixels = width_px * height_px
    if pixels <= PICTURE_PIXELS:
        return None
    return (
        f"{what} would be a picture of {width_px:,.0f} x {height_px:,.0f} pixels ({pixels:,.0f}), over the "
        f"{PICTURE_PIXELS:,} pixels printer serve draws at most: not rendered"
    )


def cache_dir(project: Project) -> Path:
    """Where the pictures are kept: ``build/.cache/serve/faces`` of the project."""
    return project.build_dir / ".cache" / "serve" / "faces"


def check_cache_dir(project: Project) -> Path:
    """:func:`cache_dir`, checked before the server starts: raises :class:`~printer.problems.UsageError` when
    ``build/`` or a folder under it on the way is a symbolic link (:func:`printer.paths.check_output_folder`)."""
    check_output_folder(project.build_dir, project.root)
    return check_output_folder(cache_dir(project), project.root)


def picture_path(folder: Path, key: str) -> Path:
    """The PNG file of the face ``key`` (40 hex digits) in ``folder``; raises ``ValueError`` for another key."""
    if not KEY.fullmatch(key):
        raise ValueError(f"not a face key: {key!r}")
    return folder / key[:2] / f"{key}.png"


def game_job(project: Project, game: Game, lang: str | None = None, component: Component | None = None) -> SheetJob:
    """The :class:`~printer.sheets.job.SheetJob` a build of ``game`` renders its faces with
    (:func:`printer.api.pipeline.faces_job`), at the print options of a build without options on the command line
    (:func:`printer.api.plan.print_options`); ``lang``: its faces in that language, as ``build --lang``;
    ``component``: the faces of that component's pieces, at its trim size and with templates shown ``component``,
    as its sheets print them (:func:`printer.api.pipeline.component_options`). Raises
    :class:`~printer.problems.UsageError` for options printer.toml gives wrong."""
    from printer.api.pipeline import component_options, faces_job
    from printer.api.plan import print_options
    from printer.sheets.plan import BuildRequest

    request = BuildRequest(lang=lang)
    opts = print_options(project, game, request)
    if component is None:
        return faces_job(project, game, request, opts)
    from printer.sheets.options import sheet_layout

    job = faces_job(project, game, request, component_options(opts, component, sheet_layout(opts, project.root).page))
    job.renderer.component = component.view()
    return job


def picture_job(project: Project, game: Game, component: str | None = None) -> SheetJob:
    """:func:`game_job` as a render process uses it (``component``: the name of the component whose pieces it
    renders, ``None`` for the cards): each face's PDF, read once by PDFium and thrown away, is written
    without deflating its streams (the same pixels; 8 % less time a face, as 0.26 of 0.29 s on the bench's real
    cards, where the fonts' streams are the most). Raises ``KeyError`` for a component printer.toml does not
    declare (any more)."""
    from dataclasses import replace

    from printer.sheets.preflight import declared_components

    piece = None
    if component is not None:
        piece = {c.name: c for c in declared_components(project, game)}[component]
    job = game_job(project, game, component=piece)
    job.engine.options = replace(job.engine.options, write={**job.engine.options.write, "uncompressed_pdf": True})
    return job


def game_fingerprint(job: SheetJob, dpi: int = SCREEN_DPI, identity: FaceIdentity | None = None) -> str:
    """What every face of a game shares: print options and resolution, the game's stylesheets and sheet template
    with the files they name, by content: the context a build's face cache names the game's faces in
    (:meth:`printer.sheets.cache.FaceIdentity.context`; ``identity`` keeps the files' digests)."""
    from printer.sheets.cache import FaceIdentity

    opts = job.opts
    files = [Path(url2pathname(unquote(urlparse(uri).path))) for uri in job.renderer.stylesheets()]
    template = job.renderer.find_file("sheet.html.j2")
    files += [template] if template is not None else []
    parts = (_VERSION, opts.card, opts.bleed, opts.safe, dpi)
    return (identity if identity is not None else FaceIdentity()).context(parts, files)


def face_key(fingerprint: str, html: str, identity: FaceIdentity | None = None, base_url: str = "") -> str:
    """The content hash naming a face's picture: the game's ``fingerprint``, the HTML and the content of the files it
    points at (relative ones read from ``base_url``), as the face cache keys a build's face
    (:meth:`printer.sheets.cache.FaceIdentity.key`), cut to 40 hex digits."""
    from printer.sheets.cache import FaceIdentity

    return (identity if identity is not None else FaceIdentity()).key(html, fingerprint, base_url)[:40]


# -- rendering (runs in a worker process) ------------------------------------------------------------------------

#: the jobs this render process loaded, by project, game, fingerprint and component: module-level because a worker
#: is handed only plain values and keeps what it loads for the next pictures
_JOBS: dict[tuple[str, str, str, str | None], SheetJob] = {}


def too_long(seconds: float) -> str:
    """The error of a face whose picture took over ``seconds`` (``limits.face_render_seconds``)."""
    return (
        f"laying out this face took over {seconds:g} s (limits.face_render_seconds): make its text or art lighter, "
        "or raise the limit yourself: --allow-limit face_render_seconds=N, or [limits] face_render_seconds = N in your "
        "own config (~/.config/printer/config.toml)"
    )


def render_faces(
    root: str,
    game_id: str,
    fingerprint: str,
    faces: Sequence[tuple[str, str]],
    folder: str,
    dpi: int = SCREEN_DPI,
    seconds: float = 0.0,
    component: str | None = None,
) -> dict[str, str | None]:
    """Render ``faces`` (``(key, html)``) of one game to ``<folder>/<key[:2]>/<key>.png``; ``component``: they
    are the pieces of that component (:func:`picture_job`).

    Runs in a worker process: the project is read there once per
    ``fingerprint``. Returns ``{key: None}`` for each picture written and
    ``{key: message}`` for a face that could not be rendered. ``seconds``
    (``limits.face_render_seconds``, 0 for none) bounds each face's layout:
    a batch gets ``seconds`` per face; a batch over its time is rendered
    again face by face, and a face over its own time gets :func:`too_long`
    as its error (see :func:`time_limit` for where the bound holds).
    """
    from markupsafe import Markup

    from printer.fsutil import atomic_write_bytes
    from printer.sheets.export.faces import face_images, page_layout, png_bytes, px_of

    try:
        job = _job(root, game_id, fingerprint, component)
    except KeyError:  # printer.toml changed since the face was asked for: the page asks again for the new one
        return {key: f"printer.toml has no game {game_id!r} or component {component!r} any more" for key, _ in faces}
    layout = page_layout(job, with_bleed=True)
    px = px_of(layout.page, dpi)
    huge = over_budget(px[0], px[1], f"a face of {layout.page[0]:g} x {layout.page[1]:g} mm at {dpi} dpi")
    if huge is not None:
        return {key: huge for key, _ in faces}
    results: dict[str, str | None] = {}

    def run(batch: Sequence[tuple[str, str]], clock: Clock) -> None:
        for key, html in batch:
            job.faces.html[key] = Markup(html)
        for key, image in face_images(job, [k for k, _ in batch], layout, px):
            if clock.over:  # out of time, the interruption dropped (a gc callback took it): no picture
                raise _TooLong()
            target = picture_path(Path(folder), key)
            check_output_folder(target.parent, Path(root))  # never written through a link
            atomic_write_bytes(target, png_bytes(image, dpi, PNG_LEVEL))
            results[key] = None

    try:
        with time_limit(seconds * len(faces)) as clock:
            run(faces, clock)
    except (Exception, _TooLong) as exc:  # a face WeasyPrint cannot lay out (in time): find which, render the others
        if len(faces) == 1:
            problems = getattr(exc, "problems", None)
            if isinstance(exc, _TooLong):
                results[faces[0][0]] = too_long(seconds)
            else:
                results[faces[0][0]] = problems[0].message if problems else f"{type(exc).__name__}: {exc}"
        else:
            for face in faces:
                if face[0] not in results:
                    results.update(render_faces(root, game_id, fingerprint, [face], folder, dpi, seconds, component))
    finally:
        for key, _ in faces:
            job.faces.html.pop(key, None)
    return results


def _job(root: str, game_id: str, fingerprint: str, component: str | None) -> SheetJob:
    """The render job of ``game_id``'s faces (``component``: that component's pieces) for ``fingerprint``, made
    once per process; the jobs of the game's older fingerprints are let go (a template change made them useless)."""
    from printer.project import load_project

    ident = (root, game_id, fingerprint, component)
    job = _JOBS.get(ident)
    if job is None:
        project = load_project(Path(root))
        job = picture_job(project, project.games[game_id], component)
        for old in [k for k in _JOBS if k[:2] == ident[:2] and k[3] == component]:
            del _JOBS[old]
        _JOBS[ident] = job
    return job


def prepare(
    root: str, game_id: str, fingerprint: str, html: str, dpi: int = SCREEN_DPI, component: str | None = None
) -> None:
    """Read the project and lay out one face in a worker, writing nothing: the next face there is quick."""
    from markupsafe import Markup

    from printer.sheets.export.faces import face_images, page_layout, px_of

    job = _job(root, game_id, fingerprint, component)
    layout = page_layout(job, with_bleed=True)
    px = px_of(layout.page, dpi)
    if over_budget(px[0], px[1], "a face") is not None:  # its faces are refused: nothing to warm up
        return
    job.faces.html["warm-up"] = Markup(html)
    try:
        for _ in face_images(job, ["warm-up"], layout, px):
            pass
    finally:
        job.faces.html.pop("warm-up", None)


def warm_up() -> None:
    """Import WeasyPrint in a worker before the first face is asked for; its font subsets take Latin text's glyphs
    (:func:`printer.sheets.fontsubsets.pad_subsets`: its PDFs are only rasterised)."""
    import printer.sheets.export.faces  # noqa: F401
    from printer.sheets.fontsubsets import pad_subsets

    pad_subsets()


# -- the queue ----------------------------------------------------------------------------------------------------

#: how soon a face is wanted: a card just edited, a picture the page asks for, a picture rendered ahead
URGENT, WANTED, AHEAD = 0, 1, 2


@dataclass(frozen=True)
class FaceSpec:
    """What a worker needs to render one face: its game, the fingerprint of its faces (:func:`game_fingerprint`), the
    HTML, and the name of the component it is a piece of (``None``: a card)."""

    game: str
    fingerprint: str
    html: str
    component: str | None = None

    @property
    def job(self) -> tuple[str, str, str | None]:
        """What the render job of this face is made from: faces of the same ``job`` can share a batch."""
        return self.game, self.fingerprint, self.component


class RenderFailed(Exception):
    """A face could not be rendered; the message says why."""


class FaceRenderer:
    """Renders pictures in ``executor``, at most ``slots`` batches at a time, the most wanted faces first.

    ``lookup(key)`` gives the :class:`FaceSpec` of a face key (``None``
    for a key no card has). :meth:`picture` waits for one picture;
    :meth:`ahead` asks for pictures without waiting. A face already being
    rendered is not rendered again. Urgent faces go one per batch (lowest
    latency); others up to ``batch`` at a time. ``gallery_pids()`` gives the process ids of ``executor``'s
    render processes, which :meth:`pause_gallery` stops while a card just saved renders (none: nothing is stopped).
    """

    def __init__(
        self,
        project: Project,
        executor: Executor,
        slots: int,
        lookup: Callable[[str], FaceSpec | None],
        dpi: int = SCREEN_DPI,
        batch: int = 6,
        urgent: Executor | None = None,
        gallery_pids: Callable[[], Iterable[int]] = tuple,
    ):
        self.project = project
        self.gallery_pids = gallery_pids
        self.folder = cache_dir(project)
        self.executor = executor
        self.urgent = urgent
        self._urgent_running = 0
        self.slots = max(1, slots)
        self.lookup = lookup
        self.dpi = dpi
        self.batch = batch
        self._heap: list[tuple[int, int, str]] = []
        self._queued: dict[str, int] = {}
        self._futures: dict[str, asyncio.Future[None]] = {}
        self._running = 0
        self._seq = itertools.count()
        self.rendered = 0  # faces rendered since start (for tests and the bench)
        self.last_urgent = 0.0  # seconds the last urgent face took, in its process
        self.last_urgent_times: dict[str, float] = {}  # wall-clock start and end of the last urgent face's render
        self.paused: list[int] = []  # the gallery's render processes stopped while an urgent face renders

    def path(self, key: str) -> Path:
        return picture_path(self.folder, key)

    def cached(self, key: str) -> Path | None:
        path = self.path(key)
        return path if path.is_file() and output_folder_problem(path, self.project.root) is None else None

    async def picture(self, key: str, priority: int = WANTED) -> Path:
        """The PNG file of face ``key``, rendered first when needed. Raises :class:`RenderFailed` or ``KeyError``."""
        found = self.cached(key)
        if found is not None:
            return found
        future = self._want(key, priority)
        if future is None:
            raise KeyError(key)
        await asyncio.shield(future)
        return self.path(key)

    def ahead(self, keys: Sequence[str], priority: int = AHEAD) -> None:
        """Queue the pictures of ``keys`` that are not cached yet, without waiting."""
        for key in keys:
            if key not in self._futures and self.cached(key) is None:
                self._want(key, priority)

    def _want(self, key: str, priority: int) -> asyncio.Future[None] | None:
        loop = asyncio.get_running_loop()
        future = self._futures.get(key)
        if future is None:
            if self.lookup(key) is None:
                return None
            future = self._futures[key] = loop.create_future()
            future.add_done_callback(lambda f: f.exception() if not f.cancelled() else None)
            self._queued[key] = priority
            heapq.heappush(self._heap, (priority, next(self._seq), key))
        elif key in self._queued and priority < self._queued[key]:  # queued: move it up; running: wait for it
            self._queued[key] = priority
            heapq.heappush(self._heap, (priority, next(self._seq), key))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        while self._heap:
            priority, _, key = self._heap[0]
            if self._queued.get(key) != priority:
                heapq.heappop(self._heap)
                continue  # a stale entry: the face was queued again more urgently, or already taken
            lane = None
            if priority == URGENT and self.urgent is not None and self._urgent_running == 0:
                lane = "urgent"  # a process kept for the card just saved: it never waits behind a gallery batch
            elif self._running < self.slots and not self._urgent_running:
                lane = "normal"  # (no gallery batch starts while a saved card renders: it would take its CPU)
            if lane is None:
                break
            heapq.heappop(self._heap)
            spec = self.lookup(key)
            del self._queued[key]
            if spec is None:
                self._finish({key: "no card has this face any more"})
                continue
            batch = [(key, spec.html)]
            limit = 1 if priority == URGENT else self.batch
            kept = []
            while self._heap and len(batch) < limit:
                item = heapq.heappop(self._heap)
                other = item[2]
                if self._queued.get(other) != item[0]:
                    continue
                other_spec = self.lookup(other)
                if other_spec is None or other_spec.job != spec.job:
                    kept.append(item)
                    continue
                del self._queued[other]
                batch.append((other, other_spec.html))
            for item in kept:
                heapq.heappush(self._heap, item)
            self._start(spec, batch, lane)

    def _start(self, spec: FaceSpec, batch: list[tuple[str, str]], lane: str = "normal") -> None:
        loop = asyncio.get_running_loop()
        if lane == "urgent":
            self._urgent_running += 1
            if self._running:
                self.pause_gallery()
        else:
            self._running += 1
        started, wall = time.perf_counter(), time.time()
        call = loop.run_in_executor(
            self.urgent if lane == "urgent" else self.executor,
            render_faces,
            str(self.project.root),
            spec.game,
            spec.fingerprint,
            batch,
            str(self.folder),
            self.dpi,
            self.project.limits.face_render_seconds,
            spec.component,
        )

        def done(task: asyncio.Future[dict[str, str | None]]) -> None:
            if lane == "urgent":
                self._urgent_running -= 1
                self.last_urgent = time.perf_counter() - started
                self.last_urgent_times = {"started": wall, "ended": time.time()}
                self.resume_gallery()
            else:
                self._running -= 1
            try:
                results = task.result()
            except Exception as exc:  # the worker died (out of memory, killed): every face of the batch failed
                log.error("rendering %d face(s) failed: %s", len(batch), exc)
                results = {key: f"the renderer stopped: {exc}" for key, _ in batch}
            self.rendered += sum(1 for v in results.values() if v is None)
            self._finish(results)
            self._dispatch()

        call.add_done_callback(done)

    def pause_gallery(self) -> None:
        """Stop the gallery's render processes (``SIGSTOP``) while the urgent one renders a card just saved.

        On two cores shared with other work, the gallery's batches would otherwise take the CPU time the saved
        card needs; lowering their priority instead (``nice``) left them a tenth of the CPU against any other
        program, and a gallery never rendered took four times as long to fill its first screen. A process
        stopped in the middle of a batch goes on where it was when :meth:`resume_gallery` continues it. Only
        the processes ``gallery_pids()`` names are stopped (POSIX); a thread pool (tests) names none.
        """
        if self.paused or not hasattr(signal, "SIGSTOP"):
            return
        for pid in self.gallery_pids():
            try:
                os.kill(pid, signal.SIGSTOP)
            except (ProcessLookupError, PermissionError):
                continue
            self.paused.append(pid)

    def resume_gallery(self) -> None:
        """Continue the render processes :meth:`pause_gallery` stopped (``SIGCONT``)."""
        paused, self.paused = self.paused, []
        for pid in paused:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGCONT)

    def _finish(self, results: dict[str, str | None]) -> None:
        for key, error in results.items():
            future = self._futures.pop(key, None)
            if future is None or future.done():
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(RenderFailed(error))


def start_worker(pids: Queue[int]) -> None:
    """A render process's initializer: report its process id (:class:`~printer.pools.WorkerPids`), then
    :func:`warm_up`."""
    report_pid(pids)
    warm_up()


@dataclass(frozen=True)
class Pools:
    """The executors of :class:`FaceRenderer`: the gallery's ``executor`` with ``slots`` batches at a time, the
    ``urgent`` one for a card just saved (``None``: none), and ``gallery_pids`` naming the gallery's processes."""

    executor: Executor
    slots: int
    urgent: Executor | None
    gallery_pids: Callable[[], Iterable[int]] = tuple


def make_executor(workers: int) -> Pools:
    """A pool of ``workers`` processes and one more process for the faces of a card just saved; with 0 workers,
    one thread in this process and no urgent process (tests)."""
    if workers <= 0:
        from concurrent.futures import ThreadPoolExecutor

        return Pools(ThreadPoolExecutor(1, thread_name_prefix="printer-faces"), 1, None)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")  # no fork of a process running an event loop and threads
    # the gallery's processes are stopped while the urgent one renders a card just saved (FaceRenderer.pause_gallery)
    pids = WorkerPids(context)
    executor = ProcessPoolExecutor(workers, mp_context=context, initializer=start_worker, initargs=(pids.queue,))
    urgent = ProcessPoolExecutor(1, mp_context=context, initializer=warm_up)
    return Pools(executor, workers, urgent, pids)


def default_workers() -> int:
    """One worker per core, at most 4 (each holds WeasyPrint, about 150 MiB)."""
    return max(1, min(4, os.cpu_count() or 1))
