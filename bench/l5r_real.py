"""Benchmark on the real L5R card database: import, validate, and build 90 / 450 / 900 cards.

Run from the repository: ``.venv/bin/python bench/l5r_real.py``. Needs ../shared/data.
Each step runs the ``printer`` command in its own process; the figures are wall time,
cards per second and the process's peak memory (max RSS).
"""

from __future__ import annotations

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


def timed(args: list[str]) -> tuple[float, float]:
    """Run ``args``; return (seconds, peak MiB). Exits on failure."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    stderr = proc.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(args)}\n{stderr[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    if not ORACLE.is_dir():
        sys.exit(f"no real data at {ORACLE}")
    files = sorted(str(p) for p in ORACLE.glob("*.json"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "l5r"
        rows = []
        s, mem = timed([PRINTER, "import", "oracle", *files, "--out", str(out)])
        cards = [c for f in sorted(out.glob("*.json")) for c in json.loads(f.read_text())["cards"]]
        rows.append(("import oracle", len(cards), s, mem))
        s, mem = timed([PRINTER, "validate", str(out)])
        rows.append(("validate", len(cards), s, mem))
        for n in (90, 450, 900):
            subset = Path(tmp) / f"subset-{n}" / "l5r"
            subset.mkdir(parents=True)
            (subset / "cards.json").write_text(json.dumps({"game": "l5r", "cards": cards[:n]}), encoding="utf-8")
            s, mem = timed([PRINTER, "build", "l5r", "--cards", str(subset), "--out", str(Path(tmp) / "out")])
            rows.append((f"build {n} cards", n, s, mem))
    print(f"{'step':<18}{'cards':>7}{'seconds':>10}{'cards/s':>10}{'peak MiB':>10}")
    for step, n, s, mem in rows:
        print(f"{step:<18}{n:>7}{s:>10.2f}{n / s:>10.0f}{mem:>10.0f}")


if __name__ == "__main__":
    main()
