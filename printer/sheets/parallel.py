"""Faces laid out in batches, on this process or on an executor's workers (a process pool, a Dask cluster).

Each distinct face is independent of the others, so a build splits them
into batches and lays each batch out as one PDF of one face per page
(:func:`render_batch`). A worker process keeps its project, Jinja
environment, fonts and prepared art between batches
(:func:`_job_for` caches them by :class:`JobSpec`). The batches' PDFs are
imposed together (:mod:`printer.sheets.impose`): each batch embeds its
fonts once, so the joined PDF carries one copy of a font per batch, not per
face.

Any :class:`concurrent.futures.Executor` will do: a
:class:`~concurrent.futures.ProcessPoolExecutor` (``printer build
--jobs N``) or a Dask ``distributed`` client's executor (``--scheduler
tcp://HOST:PORT``; the workers must see the project at the same path).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from printer.pools import WorkerPids, report_pid
from printer.problems import Problem
from printer.process import collector_for_layout
from printer.sheets import fontsubsets
from printer.sheets.options import PrintOptions

if TYPE_CHECKING:
    from multiprocessing.queues import Queue

    from distributed import Client

    from printer.sheets.cache import FaceCache
    from printer.sheets.fit import Overflow
    from printer.sheets.job import SheetJob


#: a laid-out batch of faces: its PDF's bytes, or the file they were written to
FacePdf = bytes | Path


@dataclass(frozen=True)
class JobSpec:
    """What a worker needs to make the same print job: the project folder, the game, the options, extra roots."""

    root: str
    game: str
    opts: PrintOptions
    extra_roots: tuple[str, ...] = ()
    cmyk_profile: str | None = None


@dataclass(frozen=True)
class Workplace:
    """Where a build lays its faces out and keeps them: ``workers`` (a process pool or a Dask cluster; ``None``:
    this process), the ``spec`` they rebuild the job from, and the face ``cache``
    (:class:`printer.sheets.cache.FaceCache`; ``None``: none)."""

    workers: Workers | None = None
    spec: JobSpec | None = None
    cache: FaceCache | None = None


@dataclass
class BatchResult:
    """One batch laid out: its PDF (one face per page, in the order asked), warnings and text-fit results."""

    pdf: FacePdf  # a Path once written to a file (see lay_out_faces' spill)
    keys: list[str]
    problems: list[Problem] = field(default_factory=list)
    sizes: dict[tuple[str, str], float] = field(default_factory=dict)  # (face key, fit box) -> font size (pt)
    unfit: dict[tuple[str, str], Overflow] = field(default_factory=dict)
    stats: dict[str, float] = field(default_factory=dict)


class Workers:
    """The executor a build's face batches run on, started only when a batch is big enough to share out.

    ``jobs`` processes of a local pool (fork start where the platform has
    it, so workers inherit the loaded modules), or the Dask ``distributed``
    cluster at ``scheduler`` (``tcp://HOST:PORT``; needs ``printer[dask]``).
    Use it as a context manager; :meth:`executor` gives ``None`` for one job
    and no scheduler.
    """

    def __init__(self, jobs: int | None = None, scheduler: str | None = None, rehearse: bool = False) -> None:
        self.jobs = jobs if jobs is not None else default_jobs()
        self.scheduler = scheduler
        #: for a pool kept between builds (``printer build --watch``): each worker of a pool :meth:`warm` starts
        #: lays out a card of the game as it starts, and throws it away (:func:`_rehearse`), so that no save's
        #: one-face batch pays for a worker's first layout (fonts loaded, stylesheets parsed: a first face took
        #: 0.33 s in a fresh worker, the next ones 0.11-0.19 s)
        self.rehearse = rehearse
        self._used = False  # whether a build asked for the executor (a pool warmed and never used is stopped at once)
        self._executor: Executor | None = None
        self._pids: WorkerPids | None = None  # the local pool's workers, as each reported its id
        self._started = 0  # the processes warm() started
        self._client: Client | None = None

    def executor(self) -> Executor | None:
        self._used = True
        if self._executor is None and self.scheduler:
            from distributed import Client

            # distributed leaves these calls without annotations: mypy's strict checks see them as untyped
            self._client = Client(self.scheduler)  # type: ignore[no-untyped-call]
            self._executor = self._client.get_executor()  # type: ignore[no-untyped-call]
            if not self.jobs or self.jobs < 2:
                self.jobs = max(2, sum(self._client.nthreads().values()))  # type: ignore[no-untyped-call]
        elif self._executor is None and self.jobs > 1:
            self._executor = self._pool()
        return self._executor

    def _pool(self, spec: JobSpec | None = None) -> Executor:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        rehearse = self.rehearse and spec is not None
        self._pids = WorkerPids(context)
        return ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=context,
            initializer=_warm,
            initargs=(spec, os.getpid(), rehearse, self._pids.queue),
        )

    def warm(self, spec: JobSpec) -> None:
        """Start the local pool now, each worker importing WeasyPrint and loading ``spec``'s job while this process
        reads the cards and finds the faces to lay out; nothing with a scheduler, one job or a pool already
        started.

        Meant for a command's first build, when this process has not imported WeasyPrint (0.4 s): a one-card
        edit's face is then laid out by a worker that is ready for it (:func:`lay_out_faces` sends even a single
        batch to a started pool), and this process, which only imposes the faces, never imports WeasyPrint. A
        watch warms its pool before its first build, so that the first save finds it ready.
        """
        if self.can_warm:
            import multiprocessing

            import printer.sheets.job  # noqa: F401  what a worker loads the job with, imported once, before the fork:
            # this process imports it for its own build anyway, and each worker would import it again (0.1 s)

            before = {child.pid for child in multiprocessing.active_children()}
            self._executor = self._pool(spec)
            self._executor.submit(int)  # a pool starts its processes with its first task
            self._started = len({child.pid for child in multiprocessing.active_children()} - before)

    @property
    def can_warm(self) -> bool:
        """Whether :meth:`warm` would start a pool: a local one of more than one job, not started yet."""
        return self._executor is None and not self.scheduler and self.jobs > 1

    @property
    def started(self) -> bool:
        """Whether the executor is running (batches then go to it, however few)."""
        return self._executor is not None

    def close(self, cancel: bool = False) -> None:
        """Stop the workers: after their batches, or at once with ``cancel`` (the build was interrupted) or when
        no build used them (a pool :meth:`warm` started for faces that all came from the cache, or a build that
        stopped at bad cards: its workers may still be importing WeasyPrint)."""
        if self._executor is not None and not self._used and not self.scheduler:
            pids = self._pids.wait(self._started, 10) if self._pids is not None else []  # each reports at once
            for pid in pids:  # killed: they hold nothing yet, and
                with contextlib.suppress(ProcessLookupError, PermissionError):  # may catch SIGTERM as printer does
                    os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            self._executor.shutdown(wait=True, cancel_futures=True)  # the pool finds them gone and stops at once
        elif self._executor is not None:
            if cancel:
                try:
                    self._executor.shutdown(wait=False, cancel_futures=True)
                except TypeError:  # a Dask client's executor cancels nothing
                    self._executor.shutdown(wait=False)
            else:
                self._executor.shutdown(wait=True)
        if self._client is not None:
            self._client.close()  # type: ignore[no-untyped-call]  # distributed: not annotated
        self._executor = self._client = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.close(cancel=kind is not None)


def default_jobs() -> int:
    """The number of processes a build uses by default: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


#: the jobs this worker process loaded, by spec: module-level because a pool's worker is handed only a picklable
#: :class:`JobSpec` and keeps what it loads (project, templates, fonts) for its next batches
_JOBS: dict[bytes, SheetJob] = {}


def _job_for(spec: JobSpec) -> SheetJob:
    """The print job a worker keeps for ``spec`` (loaded once per process)."""
    key = pickle.dumps(spec)
    if key not in _JOBS:
        _JOBS[key] = _make_job(spec)
    return _JOBS[key]


def _warm(
    spec: JobSpec | None, parent: int | None = None, rehearse: bool = False, pids: Queue[int] | None = None
) -> None:
    """A pool worker's start: its id put on ``pids`` first (:class:`~printer.pools.WorkerPids`), then WeasyPrint
    imported (:mod:`printer.sheets.pdf`), ``spec``'s job loaded and what its first face would do first done
    (:func:`printer.sheets.pdf.prepare`) before its first batch; with ``rehearse``, a face laid out too
    (:func:`_rehearse`). What fails here is left for that batch to raise, with its own message. With
    ``parent`` (the pid of the process that started the pool), the worker ends itself once that process is gone
    (:func:`_orphaned`)."""
    report_pid(pids)
    if parent is not None:
        import threading

        threading.Thread(target=_orphaned, args=(parent,), name="printer-parent", daemon=True).start()
    try:
        from printer.sheets import pdf

        if spec is not None:
            job = _job_for(spec)
            pdf.prepare(job.engine.roots, job.renderer.stylesheets())
    except Exception:  # noqa: BLE001 (the batch loads the job again and reports)
        _JOBS.clear()
        return
    if rehearse and spec is not None:
        try:
            _rehearse(spec)
        except Exception:  # noqa: BLE001, S110 (a card that does not lay out is the build's to report)
            pass


def _rehearse(spec: JobSpec) -> None:
    """Lay out the front of the first card of ``spec``'s game, as a batch of its own, and throw it away: the
    fonts, images and stylesheets a face uses are loaded then, not by the first face a build sends."""
    from printer.cards.catalog import load_cards
    from printer.project import load_project

    job = _job_for(spec)
    game = job.renderer.game
    sets, _ = load_cards(load_project(Path(spec.root)), [game.cards], game.id)
    cards = sets.get(game.id)
    if cards is not None and len(cards):
        render_batch(spec, [("rehearsal", str(job.renderer.front(next(iter(cards)))))])


def _orphaned(parent: int, every: float = 0.5) -> None:
    """End this worker (exit code 1) once ``parent`` is no longer its parent: a build killed with SIGKILL runs no
    code to stop its pool, and its workers would wait on the pool's queue for ever, each holding its memory."""
    import time

    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def _make_job(spec: JobSpec) -> SheetJob:
    from printer.project import load_project
    from printer.sheets.job import make_job

    project = load_project(Path(spec.root))
    game = project.games[spec.game]
    profile = Path(spec.cmyk_profile) if spec.cmyk_profile else None
    return make_job(project, game, spec.opts, [Path(r) for r in spec.extra_roots], cmyk_profile=profile)


def render_batch(spec: JobSpec, faces: Sequence[tuple[str, str]], title: str = "", padded: bool = False) -> BatchResult:
    """Lay out ``faces`` (``(key, html)`` pairs) one per page at trim size plus bleed, their fonts' new subsets
    padded with ``padded`` (:func:`printer.sheets.fontsubsets.padded`); runs in a worker."""
    job = _job_for(spec).fresh()
    for key, html in faces:
        job.faces.put(key, html)
    with fontsubsets.padded(padded):
        return _render(job, [key for key, _ in faces], title)


def _render(job: SheetJob, keys: Sequence[str], title: str) -> BatchResult:
    """Lay out the faces ``keys`` of ``job`` (their HTML in ``job.faces.html``): a worker's job, or the build's own when
    it has no workers (whose faces' HTML may be set aside in a spill: read once, here)."""
    from printer.sheets.export.faces import FACES_PER_CHUNK, page_layout, single_sheets

    before = len(job.renderer.problems)
    keys = list(keys)
    layout = page_layout(job, with_bleed=True)
    sheets = single_sheets(job, keys, layout)
    chunks = [sheets[i : i + FACES_PER_CHUNK] for i in range(0, len(sheets), FACES_PER_CHUNK)]
    # a chunk or more: the collector set for it (a watch's one-face save would pay a full collection for nothing)
    with collector_for_layout() if len(keys) >= FACES_PER_CHUNK else contextlib.nullcontext():
        data, problems = job.fitter.pdf(chunks, layout, title, label=False, fit_problems=False)
    return BatchResult(
        data,
        keys,
        job.renderer.problems[before:] + problems,
        {k: v for k, v in job.fitter.sizes.items() if k[0] in job.faces.html},
        {k: v for k, v in job.fitter.unfit.items() if k[0] in job.faces.html},
        job.engine.stats,
    )


#: the most faces one batch lays out: a worker's memory grows with its batch (its PDF is written as one
#: document), so a large build is cut into more batches than workers rather than into longer ones
MAX_BATCH = 480


def batches(keys: Sequence[str], jobs: int, per_batch: int, most: int = MAX_BATCH) -> list[list[str]]:
    """``keys`` cut into batches of about equal size, each at least ``per_batch`` long (bar the last): one per
    worker (``jobs``), or more when that would put over ``most`` faces in one.

    One batch per worker keeps one copy of each font per worker in the joined PDF; past ``most`` faces a batch,
    the worker's memory matters more than a few more font copies.
    """
    if not keys:
        return []
    count = max(1, min(jobs, -(-len(keys) // max(per_batch, 1))), -(-len(keys) // max(most, 1)))
    size = -(-len(keys) // count)
    return [list(keys[i : i + size]) for i in range(0, len(keys), size)]


_TAG = re.compile(r"<[^>]*>")


def text_weight(html: str) -> int:
    """How much text a face's HTML shows: its length without tags (an estimate of its layout's cost, for
    :func:`dealt`)."""
    return len(_TAG.sub("", html))


def dealt(cut: list[list[str]], weight: Callable[[str], int]) -> list[list[str]]:
    """The faces of ``cut``'s batches dealt out again so that each batch's total ``weight`` is about the same,
    each batch keeping its size and its faces in the order ``cut`` had them.

    The faces are dealt heaviest first, each to the batch with the least weight so far that has room. The
    faces whose text is long enough to need text fit cost three to four layouts each, and a card set often
    holds them together (the first half of 900 real cards of a long-running game, its earliest expansions, had
    34 such faces, the second half 11, and its batch took 0.5 s longer); dealt by the length of their text,
    each batch gets about as many.
    """
    if len(cut) < 2:
        return cut
    sizes = [len(batch) for batch in cut]
    order = {key: i for i, key in enumerate(k for batch in cut for k in batch)}
    weights = {key: weight(key) for key in order}
    totals = [0] * len(cut)
    out: list[list[str]] = [[] for _ in cut]
    for key in sorted(order, key=lambda key: -weights[key]):  # stable: equal weights keep their order
        i = min((j for j in range(len(cut)) if len(out[j]) < sizes[j]), key=lambda j: (totals[j], j))
        out[i].append(key)
        totals[i] += weights[key]
    return [sorted(batch, key=order.__getitem__) for batch in out]


def lay_out_faces(  # noqa: PLR0913  the faces, where they are laid out, and each keyword saying how
    job: SheetJob,
    keys: Sequence[str],
    title: str = "",
    workers: Workers | None = None,
    spec: JobSpec | None = None,
    on_batch: Callable[[int, int], None] | None = None,
    meanwhile: Callable[[bool], object] | None = None,
    spill: Path | None = None,
    padded: bool = False,
) -> tuple[dict[str, tuple[FacePdf, int]], list[Problem]]:
    """Every face of ``keys`` laid out once; returns ``({key: (pdf, page index)}, problems)``.

    With ``workers`` of more than one job (and the ``spec`` they rebuild the
    job from) and more faces than one batch holds, batches run on their
    executor, as does a single batch when the executor is already started
    (:meth:`Workers.warm`); otherwise in this process, on ``job`` itself.
    A batch is handed to the executor when one of the last :data:`AHEAD`
    per worker finishes, not all at once: the HTML waiting to be sent is
    held a few batches at a time (9,000 faces' HTML waiting was 21 MB).
    ``on_batch(done, total)`` is called as batches finish. The text-fit
    sizes and unfit boxes the workers found are merged into ``job.fitter``.
    ``meanwhile(waiting)`` is called once, in this process: while the workers
    lay out their batches (``waiting`` true), or after the faces when they
    are laid out here (false; the build lays out the sheets' marks then, so
    that they are not left for after the last batch). What it raises is
    raised. With ``spill`` (a
    folder), each batch's PDF is written there as it comes and the result
    maps each face to that file's ``Path`` instead of the PDF's bytes. With ``padded``, the fonts' new subsets
    are padded (:func:`printer.sheets.fontsubsets.padded`).
    """
    from printer.sheets.export.faces import FACES_PER_CHUNK

    cut = batches(keys, workers.jobs, FACES_PER_CHUNK) if workers is not None and spec is not None else []
    executor = workers.executor() if workers is not None and (len(cut) > 1 or (cut and workers.started)) else None
    if executor is not None and workers is not None and 1 < len(cut) <= workers.jobs:  # one batch a worker: even them
        cut = dealt(cut, lambda key: text_weight(job.faces.html[key]))
    parts: list[BatchResult] = []
    if executor is None or spec is None or workers is None:  # spec is set whenever cut has batches
        serial = batches(keys, 1, FACES_PER_CHUNK)  # one batch, or several past MAX_BATCH faces
        for done, batch in enumerate(serial, 1):
            with fontsubsets.padded(padded):
                parts.append(_kept(_render(job, batch, title), spill, done))
            if on_batch:
                on_batch(done, len(serial))
        if meanwhile:
            meanwhile(False)
    else:
        feeder = _Feeder(executor, spec, job, cut, title, AHEAD * workers.jobs, spill, padded)
        try:
            if meanwhile:
                meanwhile(True)
            for done in range(1, len(cut) + 1):
                parts.append(feeder.result(done - 1))  # its PDF spilled as it finished
                if on_batch:
                    on_batch(done, len(cut))
        finally:
            feeder.stop()
    return _merged(job, keys, parts)


def _merged(
    job: SheetJob, keys: Sequence[str], parts: Sequence[BatchResult]
) -> tuple[dict[str, tuple[FacePdf, int]], list[Problem]]:
    """What :func:`lay_out_faces` gives from the batches ``parts``: each face's PDF and page, and the problems;
    their text-fit sizes and unfit boxes merged into ``job.fitter``, their counters into ``job.engine.stats``. Faces are
    keyed by the job's own strings of ``keys``, not a worker's copies (9,000 fitted faces held 0.5 MB of them)."""
    where: dict[str, tuple[FacePdf, int]] = {}
    problems: list[Problem] = []
    own = {key: key for key in keys}  # a worker's keys are copies: the job's own strings are kept instead
    for part in parts:
        for index, key in enumerate(part.keys):
            where[own.get(key, key)] = (part.pdf, index)
        job.fitter.sizes.update({(own.get(face, face), box): size for (face, box), size in part.sizes.items()})
        for (face, box), over in part.unfit.items():
            job.fitter.unfit.setdefault((own.get(face, face), box), over)
        if part.stats is not job.engine.stats:  # a worker's counters (this process's job counted its own)
            for name, value in part.stats.items():
                job.engine.stats[name] += value
        problems += [p for p in part.problems if p not in problems]
    return where, problems


#: how many batches per worker are handed to the executor before the first of them finishes
AHEAD = 2


def _kept(part: BatchResult, spill: Path | None, number: int) -> BatchResult:
    """``part`` with its PDF written to a file of ``spill`` (its ``pdf`` then that file's path), when given and the
    file can be written."""
    if spill is not None and isinstance(part.pdf, bytes):
        path = spill / f"batch-{number}.pdf"
        try:
            path.write_bytes(part.pdf)
        except OSError:  # a full disk: the PDF stays in memory
            return part
        part.pdf = path
    return part


class _Feeder:
    """Hands ``cut``'s batches to ``executor`` (laid out with their fonts' subsets padded with ``padded``), at most
    ``ahead`` of them unfinished at a time, and has each one's PDF written to ``spill`` (:func:`_kept`) as soon as
    it finishes, so that finished batches not read yet hold no PDF, and its future let go then; :meth:`result`
    waits for one batch, in order.

    The first batch is handed over from the calling thread (a local pool forks its processes with its first task:
    from this thread, not from ours while the calling one lays out with WeasyPrint), the others from a thread of
    its own as earlier ones finish."""

    def __init__(
        self,
        executor: Executor,
        spec: JobSpec,
        job: SheetJob,
        cut: list[list[str]],
        title: str,
        ahead: int,
        spill: Path | None,
        padded: bool = False,
    ) -> None:
        import threading

        self._futures: list[Future[BatchResult] | None] = [None] * len(cut)
        self._results: list[BatchResult | None] = [None] * len(cut)  # a finished batch's, until result() takes it
        self._ready = [threading.Event() for _ in cut]  # finished and its PDF spilled, failed, or never handed over
        self._room = threading.Semaphore(max(1, ahead))
        self._stopped = False
        self._failed: BaseException | None = None

        def done(index: int, future: Future[BatchResult]) -> None:
            try:
                if not future.cancelled() and future.exception() is None:
                    self._results[index] = _kept(future.result(), spill, index + 1)
                    # a Dask cluster keeps a task's result in its worker's memory while its future is held
                    self._futures[index] = None
                else:  # the build raises it: no more batches are handed over
                    self._stopped = True
            finally:
                self._room.release()
                self._ready[index].set()

        def submit(index: int) -> None:
            faces = [(k, str(job.faces.html[k])) for k in cut[index]]
            future = executor.submit(render_batch, spec, faces, title, padded)
            self._futures[index] = future
            future.add_done_callback(partial(done, index))

        def feed() -> None:
            try:
                for index in range(1, len(cut)):
                    self._room.acquire()
                    if self._stopped:
                        return
                    submit(index)
            except BaseException as exc:  # noqa: BLE001 (an executor shut down: raised by result())
                self._failed = exc
                for event in self._ready:
                    event.set()

        self._room.acquire()
        submit(0)
        self._thread = threading.Thread(target=feed, name="printer-batches", daemon=True)
        self._thread.start()

    def result(self, index: int) -> BatchResult:
        """Batch ``index``'s result, once (its future is let go when it finishes, so that a Dask worker does not
        keep every batch's PDF to the end of the build); raises what the batch raised."""
        self._ready[index].wait()
        part, self._results[index] = self._results[index], None
        if part is not None:
            return part
        future = self._futures[index]
        if future is None:
            raise self._failed or RuntimeError("a batch was not handed to the workers")
        return future.result()

    def stop(self) -> None:
        """Hand over no more batches (the build is done or failed) and wait for the thread."""
        self._stopped = True
        self._room.release()
        self._thread.join()
