"""Benchmark of print production: art preparation, text fit and the exports.

Run from the repository: ``.venv/bin/python bench/print_production.py [N]`` (default 90 cards).
It writes a throw-away project of N synthetic L5R cards, each with its own 1500 x 1000 px art
(half PNG, half JPEG) and some with text too long for its box, then times, each in its own process:

- ``build`` with a cold art cache, then again with a warm one (art prepared once);
- the same cards with short text (no text fit needed), to see what fitting costs;
- ``--export png``, ``--export tts`` and ``--export print-shop``.

Figures are wall time and peak memory (max RSS) of the ``printer`` process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[1]
PRINTER = str(Path(sys.executable).parent / "printer")
TOML = (
    '[games.l5r]\nname = "L5R"\ncard_size = "poker"\nback_field = "deck"\n'
    'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n'
)


def timed(args: list[str], cwd: Path) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(args)}\n{proc.stderr.read().decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def project(root: Path, n: int, long_text: bool) -> None:
    cards_dir = root / "cards" / "l5r"
    cards_dir.mkdir(parents=True)
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    sentence = "Battle: {bow} Bow this card: target Personality gets +2 Force until the end of the battle. "
    cards = []
    for i in range(n):
        art = f"art{i}.{'png' if i % 2 else 'jpg'}"
        Image.new("RGB", (1500, 1000), (i * 7 % 255, i * 13 % 255, 120)).save(cards_dir / art)
        text = sentence * (12 if long_text and i % 3 == 0 else 2)
        cards.append(
            {"id": f"b{i}", "title": f"Bench Card {i}", "type": "Event", "deck": "Dynasty", "text": text, "art": art}
        )
    (cards_dir / "cards.json").write_text(json.dumps({"game": "l5r", "cards": cards}), encoding="utf-8")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 90
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for long_text in (True, False):
            root = Path(tmp) / ("long" if long_text else "short")
            project(root, n, long_text)
            label = "long text" if long_text else "short text"
            rows.append((f"build, cold cache ({label})", *timed([PRINTER, "build", "l5r"], root)))
            rows.append((f"build, warm cache ({label})", *timed([PRINTER, "build", "l5r"], root)))
        root = Path(tmp) / "long"
        for kind in ("png", "tts", "print-shop"):
            rows.append((f"build + --export {kind}", *timed([PRINTER, "build", "l5r", "--export", kind], root)))
    print(f"{n} cards")
    print(f"{'step':<36}{'seconds':>10}{'peak MiB':>10}")
    for step, s, mem in rows:
        print(f"{step:<36}{s:>10.2f}{mem:>10.0f}")


if __name__ == "__main__":
    main()
