"""Parallel builds: faces laid out on worker processes (or a Dask cluster) give the same PDF as a serial build."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from helpers import REPO

from printer import api
from printer.sheets.parallel import BatchResult, _merged, batches, dealt, text_weight


def _build(tmp_path: Path, name: str, **request) -> Path:
    project = api.load_project(REPO)
    result = api.build(
        project, api.BuildRequest(games=("l5r",), out_dir=tmp_path / name, aids=False, cache=False, **request)
    )
    assert result.ok, [str(p) for g in result.games for p in g.problems]
    return result.games[0].target


def _pages(pdf: Path) -> list[tuple]:
    """Each page: its boxes (pt), and every character with its position rounded to 0.1 pt."""
    with pdfplumber.open(pdf) as doc:
        return [
            (
                tuple(round(v, 1) for v in page.mediabox),
                tuple(
                    sorted((c["text"], round(c["x0"], 1), round(c["top"], 1), round(c["size"], 1)) for c in page.chars)
                ),
            )
            for page in doc.pages
        ]


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("serial"), "out", jobs=1)


@pytest.mark.slow
def test_a_build_on_two_worker_processes_is_the_serial_build(serial, tmp_path, monkeypatch):
    from concurrent.futures import Future

    import printer.sheets.export.faces as faces
    import printer.sheets.output.chrome as chrome_step
    import printer.sheets.parallel as parallel

    monkeypatch.setattr(faces, "FACES_PER_CHUNK", 4)  # the example's 18 faces make two batches of 9
    started, events = [], []
    original = parallel.Workers.executor
    monkeypatch.setattr(parallel.Workers, "executor", lambda self: started.append(self.jobs) or original(self))
    chrome, result = chrome_step.sheets_chrome, Future.result
    monkeypatch.setattr(chrome_step, "sheets_chrome", lambda *a: events.append("marks") or chrome(*a))
    monkeypatch.setattr(Future, "result", lambda self, timeout=None: events.append("batch") or result(self, timeout))
    pooled = _build(tmp_path, "pooled", jobs=2)
    assert started and set(started) == {2}  # a pool of two processes was asked for (the cards', the pieces')
    assert events[:2] == ["marks", "batch"]  # the sheets' marks laid out here while the workers lay out faces
    assert _pages(pooled) == _pages(serial)
    assert _font_programs(pooled) <= 2 * _font_programs(serial)  # a font at most once per worker batch, not per face


def _font_programs(pdf: Path) -> int:
    import pikepdf

    with pikepdf.open(pdf) as doc:
        return sum(
            1
            for obj in doc.objects
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor"
            for key in ("/FontFile", "/FontFile2", "/FontFile3")
            if key in obj
        )


def test_faces_are_cut_into_one_batch_per_worker():
    keys = [f"f{i}" for i in range(100)]
    assert [len(b) for b in batches(keys, 2, 48)] == [50, 50]
    assert [len(b) for b in batches(keys[:30], 4, 48)] == [30]  # fewer faces than a batch: no split
    assert [len(b) for b in batches(keys, 3, 10)] == [34, 34, 32]
    assert batches([], 2, 48) == []
    assert [len(b) for b in batches([f"f{i}" for i in range(1000)], 2, 48, most=480)] == [334, 334, 332]


def test_faces_with_much_text_are_dealt_out_evenly_between_the_batches():
    """A card set whose long-text cards come first (its first expansions): each batch gets half of them, keeps its
    size and has its faces in the order they came."""
    keys = [f"f{i:03}" for i in range(100)]
    text = {key: 600 if i < 20 else 100 for i, key in enumerate(keys)}
    cut = dealt(batches(keys, 2, 48), text.__getitem__)
    assert [len(b) for b in cut] == [50, 50]
    assert sorted(k for b in cut for k in b) == keys  # each face once
    assert [sum(text[k] > 100 for k in b) for b in cut] == [10, 10]
    assert all(b == sorted(b) for b in cut)
    assert dealt([keys], text.__getitem__) == [keys]  # one batch: as it was
    assert text_weight('<div class="text-box" data-fit="text"><p>Ten <b>words</b></p></div>') == len("Ten words")


@pytest.mark.slow
@pytest.mark.enable_socket
def test_a_build_on_a_dask_cluster_is_the_serial_build(serial, tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    import printer.sheets.export.faces as faces

    monkeypatch.setattr(faces, "FACES_PER_CHUNK", 4)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_cluster = _build(tmp_path, "dask", scheduler=cluster.scheduler_address, jobs=2)
    assert _pages(on_cluster) == _pages(serial)


def test_a_pool_started_early_and_never_used_is_stopped_at_once():
    import multiprocessing
    import time

    from printer.sheets.options import PrintOptions
    from printer.sheets.parallel import JobSpec, Workers

    spec = JobSpec(str(REPO), "l5r", PrintOptions(), (), None)
    workers = Workers(2)
    before = {p.pid for p in multiprocessing.active_children()}
    workers.warm(spec)  # its workers start importing WeasyPrint and loading the job
    processes = [p for p in multiprocessing.active_children() if p.pid not in before]
    assert len(processes) == 2 and all(p.is_alive() for p in processes)
    started = time.monotonic()
    workers.close()
    assert not any(p.is_alive() for p in processes) and time.monotonic() - started < 5
    used = Workers(2)
    used.warm(spec)
    assert used.executor() is not None  # a build asked for it: closed after its batches, as before
    used.close()


def test_a_warmed_pool_s_workers_find_the_job_modules_imported_by_the_build_before_the_fork():
    """The build imports printer.sheets.job for itself: imported before the pool forks, its workers do not import it
    each again."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from printer.sheets.options import PrintOptions\n"
        "from printer.sheets.parallel import JobSpec, Workers\n"
        "assert 'printer.sheets.job' not in sys.modules\n"
        f"workers = Workers(2); workers.warm(JobSpec({str(REPO)!r}, 'l5r', PrintOptions(), (), None))\n"
        "print('printer.sheets.job' in sys.modules); workers.close()\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert found.stdout.strip() == "True", found.stderr


class _FakeJob:
    """What lay_out_faces reads of a print job: each face's HTML, the text-fit results, the counters."""

    def __init__(self, keys):
        from collections import defaultdict
        from types import SimpleNamespace

        from printer.sheets.fit import FitSizes

        self.faces = SimpleNamespace(html={k: f"<p>{k}</p>" for k in keys})
        self.fitter = FitSizes()
        self.engine = SimpleNamespace(stats=defaultdict(int))


def test_batches_are_handed_to_the_workers_a_few_at_a_time_and_come_back_in_order_as_files(tmp_path, monkeypatch):
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from printer.sheets import parallel
    from printer.sheets.parallel import AHEAD, BatchResult, Workers, lay_out_faces

    running, most, lock = [0], [0], threading.Lock()

    def fake_batch(spec, faces, title="", padded=False):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.01)
        with lock:
            running[0] -= 1
        return BatchResult(("|".join(k for k, _ in faces)).encode(), [k for k, _ in faces])

    monkeypatch.setattr(parallel, "render_batch", fake_batch)
    monkeypatch.setattr(parallel, "batches", lambda keys, *_: [keys[i : i + 2] for i in range(0, len(keys), 2)])
    keys = [f"k{i}" for i in range(40)]
    workers = Workers(jobs=2)
    pool = ThreadPoolExecutor(8)  # room for more at once than the feeder may hand over
    first_from = []
    submit = pool.submit
    pool.submit = lambda *a, **k: (first_from.append(threading.current_thread()), submit(*a, **k))[1]
    workers._executor = pool
    with workers:
        where, problems = lay_out_faces(_FakeJob(keys), keys, workers=workers, spec=object(), spill=tmp_path)
    assert problems == [] and most[0] <= AHEAD * 2
    assert first_from[0] is threading.main_thread()  # a pool forks its processes on its first task: from here
    assert set(where) == set(keys)
    for key, (pdf, index) in where.items():
        assert isinstance(pdf, Path) and pdf.parent == tmp_path
        assert pdf.read_bytes().split(b"|")[index] == key.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"batch-{i}.pdf" for i in range(1, 21))


def test_meanwhile_is_told_whether_workers_are_laying_the_faces_out_while_it_runs(monkeypatch):
    """The build makes its manifest while workers lay out (``True``); faces laid out here come first (``False``)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from printer.sheets import parallel
    from printer.sheets.parallel import BatchResult, Workers, lay_out_faces

    release = threading.Event()

    def fake_batch(spec, faces, title="", padded=False):
        release.wait(10)
        return BatchResult(b"", [k for k, _ in faces])

    monkeypatch.setattr(parallel, "render_batch", fake_batch)
    monkeypatch.setattr(parallel, "_render", lambda job, keys, title: BatchResult(b"", list(keys)))
    monkeypatch.setattr(parallel, "batches", lambda keys, *_: [keys[i : i + 2] for i in range(0, len(keys), 2)])
    keys = [f"k{i}" for i in range(4)]
    calls = []

    def meanwhile(waiting):
        calls.append((waiting, release.is_set()))
        release.set()

    workers = Workers(jobs=2)
    workers._executor = ThreadPoolExecutor(2)
    with workers:
        lay_out_faces(_FakeJob(keys), keys, workers=workers, spec=object(), meanwhile=meanwhile)
    lay_out_faces(_FakeJob(keys), keys, meanwhile=meanwhile)
    assert calls == [(True, False), (False, True)]  # the batches still waited on; then after the faces


def test_a_failed_batch_is_raised_and_no_more_are_handed_over(monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from printer.sheets import parallel
    from printer.sheets.parallel import Workers, lay_out_faces

    seen = []

    def fake_batch(spec, faces, title="", padded=False):
        seen.append(faces[0][0])
        raise RuntimeError("template failed")

    monkeypatch.setattr(parallel, "render_batch", fake_batch)
    monkeypatch.setattr(parallel, "batches", lambda keys, *_: [keys[i : i + 2] for i in range(0, len(keys), 2)])
    keys = [f"k{i}" for i in range(40)]
    workers = Workers(jobs=2)
    workers._executor = ThreadPoolExecutor(2)
    with pytest.raises(RuntimeError, match="template failed"), workers:
        lay_out_faces(_FakeJob(keys), keys, workers=workers, spec=object())
    assert len(seen) < 20


@pytest.mark.slow
def test_a_worker_ends_itself_once_the_process_that_started_its_pool_is_gone(tmp_path):
    import os
    import subprocess
    import sys
    import time

    pid_file = tmp_path / "worker.pid"
    worker = (
        "import os, pathlib; from printer.sheets.parallel import _orphaned; "
        f"pathlib.Path({str(pid_file)!r}).write_text(str(os.getpid())); _orphaned(os.getppid(), 0.05)"
    )
    starter = (
        f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {worker!r}]); import time; time.sleep(1)"
    )
    subprocess.run([sys.executable, "-c", starter], check=True, timeout=30)  # starts the worker, then is gone
    pid = int(pid_file.read_text())
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the orphaned worker is still running")


def test_batches_merge_into_the_job_under_its_own_face_keys():
    from printer.sheets.fit import Overflow

    job = _FakeJob([])  # merging needs no renderer
    keys = [f"f{i}" for i in range(1, 4)]
    copy = "".join  # a worker's keys come back as equal strings, not the same
    over = Overflow(copy("f3"), "text", ratio=1.2, size_pt=6.0, min_pt=6.0)
    sizes, unfit = {(copy("f2"), "text"): 7.5}, {(copy("f3"), "text"): over}
    part = BatchResult(b"%PDF", [copy(k) for k in keys], sizes=sizes, unfit=unfit)
    where, _ = _merged(job, keys, [part])
    assert [next(k for k in where if k == key) is key for key in keys] == [True, True, True]
    assert where["f2"] == (b"%PDF", 1) and job.fitter.sizes == {("f2", "text"): 7.5}
    assert next(iter(job.fitter.sizes))[0] is keys[1] and next(iter(job.fitter.unfit))[0] is keys[2]


def test_a_finished_batch_s_future_is_let_go_before_the_build_ends(tmp_path, monkeypatch):
    """A Dask cluster keeps a task's result in its worker's memory while the client holds its future: the build
    holds none once the batch's result is kept, so a catalogue's workers do not keep every batch's PDF."""
    import gc
    import weakref
    from concurrent.futures import ThreadPoolExecutor

    from printer.sheets import parallel
    from printer.sheets.parallel import BatchResult, Workers, lay_out_faces

    monkeypatch.setattr(
        parallel,
        "render_batch",
        lambda spec, faces, title="", padded=False: BatchResult(b"%PDF", [k for k, _ in faces]),
    )
    monkeypatch.setattr(parallel, "batches", lambda keys, *_: [keys[i : i + 2] for i in range(0, len(keys), 2)])
    futures = []
    pool = ThreadPoolExecutor(2)
    submit = pool.submit
    pool.submit = lambda *a, **k: (futures.append(weakref.ref(f := submit(*a, **k))), f)[1]
    workers = Workers(jobs=2)
    workers._executor = pool
    taken = []
    keys = [f"k{i}" for i in range(12)]
    with workers:
        lay_out_faces(_FakeJob(keys), keys, workers=workers, spec=object(), spill=tmp_path,
                      on_batch=lambda done, total: (gc.collect(), taken.append(sum(f() is not None for f in futures))))  # fmt: skip
    assert len(futures) == 6
    assert all(held <= 4 for held in taken), taken  # at most the batches handed over and not finished yet
    gc.collect()
    assert [f() for f in futures] == [None] * 6
