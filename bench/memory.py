"""Peak memory of a cold build, per process, for 900 and 9,000 cards, against the memory targets.

Run from the repository: ``.venv/bin/python bench/memory.py [--cards 900 9000] [--jobs 2] [--keep DIR]``.

The cards are the real L5R cards of ``../shared/data`` imported by ``printer import oracle`` (invented ones from
``bench/scale.py`` when it is absent), repeated under new ids and titles past the 3,535 there are, so that every
card is a face of its own. Each size is built cold (``--no-cache``) by ``printer build`` in its own process; the
resident memory of that process and of each of its workers is read from /proc every 0.2 s. Printed for each
size: the peak of the printer process, of the largest worker and of all of them together, the PDF's size and the
time; then the ratio of the largest size's peaks to the smallest's (target: at most 1.2x per process, and at most
300 MB per worker).
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
TOML = (
    '[games.l5r]\nname = "Legend of the Five Rings CCG"\ncard_size = "poker"\nback_field = "deck"\n'
    'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n'
)
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))


def source_cards(work: Path) -> list[dict]:
    """The real cards (imported from the Oracle export), else 3,535 invented ones."""
    if ORACLE.is_dir():
        out = work / "imported"
        files = sorted(str(p) for p in ORACLE.glob("*.json"))
        command = [sys.executable, "-m", "printer", "import", "oracle", *files, "--out", str(out), "--force"]
        subprocess.run(command, check=True, env=ENV, cwd=work, capture_output=True)
        return [c for f in sorted(out.glob("*.json")) for c in json.loads(f.read_text(encoding="utf-8"))["cards"]]
    sys.path.insert(0, str(Path(__file__).parent))
    from scale import card

    return [card(i, art=False) for i in range(3535)]


def project(root: Path, cards: list[dict], n: int) -> Path:
    """A one-game project of ``n`` cards: ``cards`` in order, then again under new ids and titles."""
    (root / "cards" / "l5r").mkdir(parents=True)
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    chosen = []
    for i in range(n):
        card = dict(cards[i % len(cards)])
        if i >= len(cards):
            card["id"], card["title"] = f"{card['id']}-r{i}", f"{card['title']} {i}"
        chosen.append(card)
    text = json.dumps({"game": "l5r", "cards": chosen}, ensure_ascii=False)
    (root / "cards" / "l5r" / "cards.json").write_text(text, encoding="utf-8")
    return root


def _rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as children:
                for child in map(int, children.read().split()):
                    found += [child, *_descendants(child)]
    except OSError:
        pass
    return found


def measure(root: Path, jobs: int) -> dict[str, float]:
    """Build ``root`` cold; the peaks (MiB) of the printer process, its largest worker and all together."""
    command = [sys.executable, "-m", "printer", "build", "l5r", "--no-cache", "--jobs", str(jobs)]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=root, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    main = worker = total = 0.0
    while process.poll() is None:
        own = _rss_mib(process.pid)
        workers = [_rss_mib(child) for child in _descendants(process.pid)]
        main, worker, total = max(main, own), max([worker, *workers]), max(total, own + sum(workers))
        time.sleep(0.2)
    if process.returncode != 0:
        raise SystemExit(f"printer build failed in {root}:\n{process.stderr.read().decode()[-2000:]}")
    pdf = root / "build" / "l5r.pdf"
    return {
        "seconds": time.perf_counter() - started,
        "main": main,
        "worker": worker,
        "total": total,
        "pdf_mib": pdf.stat().st_size / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[900, 9000], help="project sizes (default 900 9000)")
    parser.add_argument("--jobs", type=int, default=2, help="printer build --jobs (default 2)")
    parser.add_argument("--keep", type=Path, help="make the projects in DIR and keep them")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="printer-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    cards = source_cards(work)
    figures = {}
    print(f"{'cards':>6} {'seconds':>8} {'printer MiB':>12} {'worker MiB':>11} {'all MiB':>8} {'PDF MiB':>8}")
    for n in sorted(args.cards):
        figures[n] = measure(project(work / f"p{n}", cards, n), args.jobs)
        f = figures[n]
        print(
            f"{n:>6} {f['seconds']:>8.0f} {f['main']:>12.1f} {f['worker']:>11.1f} {f['total']:>8.0f} {f['pdf_mib']:>8.1f}"
        )
    small, large = figures[min(figures)], figures[max(figures)]
    if len(figures) > 1:
        print(
            f"{max(figures)} against {min(figures)} cards: printer process {large['main'] / small['main']:.3f}x, "
            f"largest worker {large['worker'] / max(small['worker'], 1):.3f}x (target: at most 1.2x each; "
            "a worker at most 300 MB)"
        )


if __name__ == "__main__":
    main()
