"""Benchmark on the real L5R card database: import, validate, and build 90 / 450 / 900 cards.

Run from the repository: ``.venv/bin/python bench/l5r_real.py [--sizes 90,450,900] [--keep DIR]``.
Needs ../shared/data. Each step runs the ``printer`` command in its own process; the figures
are wall time, CPU time (user + system: steadier than wall time on a shared machine), cards
per second (wall), the process's peak memory (max RSS) and, for builds, the PDF's size and
what the build laid out: pages of sheets, sheets laid out again after text fit, one-face
pages of the text-fit passes, and WeasyPrint layouts (each one document). ``--keep DIR``
keeps the card files and PDFs there (to look at them as PNG).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ORACLE = REPO.parent / "shared" / "data" / "l5r" / "oracle"
PRINTER = str(Path(sys.executable).parent / "printer")
STATS = "PRINTER_BENCH_STATS"


def worker(args: list[str]) -> None:
    """Run ``printer ARGS`` in this process and write the print job's counters to $PRINTER_BENCH_STATS."""
    import printer.sheets.assemble as build
    from printer.cli import main

    original = build.build_sheets

    def counted(job, *a, **k):
        try:
            return original(job, *a, **k)
        finally:
            Path(os.environ[STATS]).write_text(json.dumps(dict(getattr(job, "stats", {}))), encoding="utf-8")

    build.build_sheets = counted
    main(args)


def timed(args: list[str], stats: Path | None = None) -> dict:
    """Run ``args``; return wall and CPU seconds, peak MiB (and the job's counters). Exits on failure."""
    env = dict(os.environ, **({STATS: str(stats)} if stats else {}))
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    stderr = proc.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(args)}\n{stderr[-2000:]}")
    row = {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "mib": usage.ru_maxrss / 1024}
    if stats and stats.is_file():
        row.update(json.loads(stats.read_text(encoding="utf-8")))
    return row


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return worker(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="90,450,900", help="card counts to build, comma-separated")
    parser.add_argument("--keep", type=Path, help="keep the card files and PDFs in this folder")
    options = parser.parse_args()
    if not ORACLE.is_dir():
        sys.exit(f"no real data at {ORACLE}")
    files = sorted(str(p) for p in ORACLE.glob("*.json"))
    with tempfile.TemporaryDirectory() as tmp:
        work = options.keep or Path(tmp)
        out = work / "l5r"
        rows = []
        rows.append(("import oracle", 3535, timed([PRINTER, "import", "oracle", *files, "--out", str(out), "--force"])))
        cards = [c for f in sorted(out.glob("*.json")) for c in json.loads(f.read_text())["cards"]]
        rows.append(("validate", len(cards), timed([PRINTER, "validate", str(out)])))
        for n in (int(s) for s in options.sizes.split(",")):
            subset = work / f"subset-{n}" / "l5r"
            subset.mkdir(parents=True, exist_ok=True)
            (subset / "cards.json").write_text(json.dumps({"game": "l5r", "cards": cards[:n]}), encoding="utf-8")
            target = work / f"out-{n}"
            row = timed(
                [sys.executable, __file__, "--worker", "build", "l5r", "--cards", str(subset), "--out", str(target)],
                Path(tmp) / f"stats-{n}.json",
            )
            row["pdf"] = (target / "l5r.pdf").stat().st_size / 2**20
            rows.append((f"build {n} cards", n, row))
    head = (
        f"{'step':<17}{'cards':>6}{'wall s':>8}{'cpu s':>8}{'cards/s':>8}{'peak MiB':>9}{'PDF MiB':>8}"
        f"{'pages':>6}{'again':>6}{'fit pg':>7}{'layouts':>8}"
    )
    print(head)
    for step, n, r in rows:
        line = f"{step:<17}{n:>6}{r['seconds']:>8.2f}{r['cpu']:>8.2f}{n / r['seconds']:>8.0f}{r['mib']:>9.0f}"
        if "pdf" in r:
            line += (
                f"{r['pdf']:>8.2f}{r.get('pages', 0):>6}{r.get('pages again', 0):>6}{r.get('fit pages', 0):>7}"
                f"{r.get('layouts', 0) + r.get('fit layouts', 0):>8}"
            )
        print(line)


if __name__ == "__main__":
    main()
