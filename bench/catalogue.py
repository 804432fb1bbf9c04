"""The whole catalogue: a cold build of every imported L5R card, and a 50,000-card catalogue on a Dask cluster.

Run from the repository, on a shared machine at the lowest priority:
``nice -n 19 .venv/bin/python bench/catalogue.py [--only all|catalogue] [--cards 50000] [--workers 2] [--keep DIR]
[--json FILE]``.

1. ``all``: the 3,535 real L5R cards of ``../shared/data``, imported by ``printer import oracle`` (the import of
   ``bench/run.py``) into a project of their own, built cold (no ``build`` folder yet) with the default
   ``--jobs``. Skipped, with a note, without ``../shared/data``.
2. ``catalogue``: ``--cards`` cards (default 50,000) made from those 3,535, then again and again under new ids and
   titles (``Title 3535``, ``Title 3536``...: every face a face of its own; ``bench/memory.py``'s projects), or
   from 3,535 invented cards (``bench/scale.py``'s) without ``../shared/data``; built cold by
   ``printer build l5r --scheduler ADDRESS`` on a ``distributed.LocalCluster`` of ``--workers`` worker processes
   of one thread each, started by this script on this machine. The build raises ``cards_per_build`` and
   ``sheets_per_build`` with ``--allow-limit``, as a publisher would; its workers run with Dask's worker profiler
   off (``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False``), as README.md advises. Skipped, with a note, when ``distributed``
   is not installed (``pip install 'printer[dask]'``).

For each build: its wall time; its CPU time (user + system, the printer process with its pool's workers from
``os.wait4``; on the cluster, plus the CPU the Dask workers spent during the build, from /proc); the peak resident
memory of each process, read from /proc every 0.2 s (``bench/memory.py``): the printer process, each worker (a
pool's, or a Dask worker's), all of them at once; and the PDF's size. The bench process itself runs the Dask
scheduler: its peak is printed as the scheduler's. Nothing is asserted; the worker target (at most 300 MB) is
printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory import _descendants, _rss_mib  # noqa: E402
from memory import project as repeated_project  # noqa: E402
from run import (  # noqa: E402
    ENV,
    L5R_TOML,
    ORACLE,
    REPO,
    Figure,
    machine,
    printer,
    real_cards,
    synthetic_cards,
    table,
)

#: the cards of the catalogue build by default
CATALOGUE = 50_000
#: a worker's memory target (MB) printed beside the figures
WORKER_TARGET_MIB = 300 * 1000 * 1000 / 2**20


def _hwm_mib(pid: int) -> float:
    """The peak resident memory (VmHWM) of ``pid`` so far, MiB; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_seconds(pid: int) -> float:
    """The user + system CPU time ``pid`` has used so far, seconds (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(args: list[str], cwd: Path, workers: tuple[int, ...] = (), timeout: float | None = None) -> dict:
    """Run ``args`` in ``cwd`` (this checkout's printer), sampling /proc every 0.2 s: the peak of the process, of
    each of its descendants and of each of ``workers`` (other processes working for it: Dask workers), and of all
    at once. Its output goes to ``cwd/build.log`` as it comes; every minute a line says how far it is (the batch
    PDFs the build has set aside) and each process's memory then. After ``timeout`` seconds it is killed and the
    figures so far are returned (``stopped`` set). Exits on failure (the end of its output printed)."""
    before = {pid: _cpu_seconds(pid) for pid in workers}
    with open(cwd / "build.log", "w+b") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(list(map(str, args)), cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=ENV)
        peaks: dict[int, float] = {}
        total = 0.0
        stopped = False
        shown = start
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            elapsed = time.perf_counter() - start
            if timeout is not None and elapsed > timeout and not stopped:
                stopped = True
                cpu_then = sum(_cpu_seconds(pid) - before[pid] for pid in workers)
                proc.kill()  # its pool's workers end themselves when it is gone
            now: dict[int, float] = {}
            for child in [proc.pid, *_descendants(proc.pid), *workers]:
                now[child] = _rss_mib(child)
                peaks[child] = max(peaks.get(child, 0.0), now[child], _hwm_mib(child))
            total = max(total, sum(now.values()))
            if time.perf_counter() - shown >= 60:
                shown = time.perf_counter()
                done = len(list((cwd / "build").rglob("batch-*.pdf")))
                print(f"  {elapsed:5.0f} s: {done} batch PDFs set aside; MiB now: printer {now.get(proc.pid, 0):.0f}, "
                      f"others {', '.join(f'{m:.0f}' for p, m in now.items() if p != proc.pid)}", flush=True)  # fmt: skip
            time.sleep(0.2)
        seconds = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        tail = out.read().decode("utf-8", "replace").strip()
    if code != 0 and not stopped:
        sys.exit(f"{' '.join(map(str, args[2:]))} failed (exit {code}):\n{tail[-3000:]}")
    extra = cpu_then if stopped else sum(_cpu_seconds(pid) - before[pid] for pid in workers)
    main = peaks.pop(proc.pid, 0.0)
    row = {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime + extra, "main": main, "workers": peaks}
    return row | {"total": total, "tail": tail, "stopped": stopped}


def figure(job: str, row: dict, pdf: Path, note: str, worker_kind: str) -> Figure:
    """One table line for a measured build: wall time; CPU, peaks and PDF size in the note."""
    workers = sorted(row["workers"].values(), reverse=True)
    listed = ", ".join(f"{m:.0f}" for m in workers) or "none"
    size = pdf.stat().st_size / 2**20 if pdf.is_file() and not row["stopped"] else None
    note = (
        f"CPU {row['cpu']:.0f} s; peak MiB: printer process {row['main']:.0f}, {worker_kind} {listed} "
        f"(target <= {WORKER_TARGET_MIB:.0f} each), all at once {row['total']:.0f}; "
        + (f"PDF {size:.1f} MiB; {note}" if size is not None else f"stopped at --timeout, no PDF; {note}")
    )
    extra = {
        "cpu": row["cpu"],
        "main_mib": row["main"],
        "worker_mib": workers,
        "total_mib": row["total"],
        "pdf_mib": size,
    }
    return Figure(job, row["seconds"], note=note, extra=extra)


def summary_line(tail: str) -> str:
    """The build's last line that names the PDF (its summary), for the note."""
    lines = [line for line in tail.splitlines() if ".pdf" in line]
    return " ".join(lines[-1].split()) if lines else ""


def all_cards(work: Path, folder: Path | None, timeout: float | None = None) -> Figure:
    """The imported 3,535 cards built cold with the default ``--jobs``."""
    if folder is None:
        return Figure("build the 3,535 real cards cold", None, note="skipped: no ../shared/data (real cards only)")
    root = folder.parents[1]
    (root / "printer.toml").write_text(L5R_TOML, encoding="utf-8")
    shutil.rmtree(root / "build", ignore_errors=True)
    row = measure(printer("build", "l5r"), root, timeout=timeout)
    n = sum(len(json.loads(f.read_text(encoding="utf-8"))["cards"]) for f in folder.glob("*.json"))
    return figure(
        f"build all {n:,} real cards cold, default --jobs",
        row,
        root / "build" / "l5r.pdf",
        f"the {len(list(folder.glob('*.json')))} imported files as they are; {summary_line(row['tail'])}",
        "pool workers",
    )


def catalogue(
    work: Path, cards: list[dict], source: str, n: int, n_workers: int, timeout: float | None = None
) -> Figure:
    """``n`` cards made from ``cards`` built cold on a LocalCluster of ``n_workers`` one-thread processes."""
    job = f"build a {n:,}-card catalogue cold on a LocalCluster of {n_workers}"
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        return Figure(job, None, note="skipped: distributed not installed (pip install 'printer[dask]')")
    root = repeated_project(work / f"catalogue{n}", cards, n)
    sheets = math.ceil(n / 9) * 2  # fronts and backs, 9 a sheet, with room to spare
    args = printer(
        "build", "l5r", "--jobs", n_workers, "--allow-limit", f"cards_per_build={max(n, 20_000)}",
        "--allow-limit", f"sheets_per_build={max(sheets, 5_000)}",
    )  # fmt: skip
    # Dask's worker profiler keeps the call stacks it samples from each task: WeasyPrint's deep layouts made each
    # worker grow by about 8 MiB a batch (10,000 cards: peaks of 327 and 321 MiB; with it off, 160 and 159 MiB, and 13 % less CPU time)
    # (set in this process's Dask configuration: a LocalCluster's nannies hand it to the workers they start)
    import dask

    dask.config.set({"distributed.worker.profile.enabled": False})
    os.environ["PYTHONPATH"] = ENV["PYTHONPATH"]  # the workers import this checkout's printer: a spawned
    sys.path.insert(0, str(REPO))  # process takes its path from this one's sys.path, not from $PYTHONPATH
    with (
        LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        pids = list(client.run(os.getpid).values())
        row = measure([*args, "--scheduler", cluster.scheduler_address], root, tuple(pids), timeout)
    scheduler = _hwm_mib(os.getpid())
    return figure(
        job,
        row,
        root / "build" / "l5r.pdf",
        f"cards: {source}, varied (new ids and titles) past the first {len(cards):,}; "
        f"the Dask scheduler (this bench's process) peaked at {scheduler:.0f} MiB; {summary_line(row['tail'])}",
        "Dask workers",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("all", "catalogue"), help="run one of the two builds")
    parser.add_argument("--cards", type=int, default=CATALOGUE, help="cards in the catalogue (default %(default)s)")
    parser.add_argument("--workers", type=int, default=2, help="Dask worker processes (default %(default)s)")
    parser.add_argument(
        "--timeout", type=float, help="stop a build after SECONDS and print its figures so far (default: none)"
    )
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it (cards, projects, PDFs)")
    parser.add_argument("--json", type=Path, help="also write the figures to FILE as JSON")
    options = parser.parse_args()
    work = options.keep or Path(tempfile.mkdtemp(prefix="printer-catalogue-"))
    work.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "printer")], env=ENV, check=False)
    figures: list[Figure] = []
    try:
        real = ORACLE.is_dir()
        folder, cards, source = real_cards(work) if real else synthetic_cards(work)
        print(f"{len(cards):,} cards: {source}; {machine()}; load average {load_before[0]:.2f}", flush=True)
        steps = {
            "all": lambda: all_cards(work, folder if real else None, options.timeout),
            "catalogue": lambda: catalogue(
                work, cards, "real" if real else "invented", options.cards, options.workers, options.timeout
            ),
        }
        for name, step in steps.items():
            if options.only in (None, name):
                try:
                    figures.append(step())
                except (Exception, SystemExit) as exc:  # one build failing still reports the other
                    figures.append(Figure(name, None, note=f"failed: {str(exc).strip()[-600:]}"))
                print(table(figures[-1:]), flush=True)
    finally:
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(table(figures))
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} (2 cores busy = 2.0)")
    if options.json:
        rows = [f.__dict__ for f in figures]
        options.json.write_text(json.dumps({"machine": machine(), "cards": source, "figures": rows}, indent=1))


if __name__ == "__main__":
    main()
