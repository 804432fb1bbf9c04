"""Scale: 10,000 card files in one folder validate, and a 10,000-line decklist checks, in under 500 MB.

Run from the repository: ``.venv/bin/python bench/scale.py [--cards 10000] [--one-file] [--no-art] [--keep DIR]``.

Makes a project of invented L5R cards (Personalities, Holdings, Strategies,
Items; ``--cards`` of them, one file each in ``cards/l5r/``, or all in one
file with ``--one-file``), every card's ``art`` one of 20 small JPEGs (so the
art checks run), and a decklist naming every card once, one line each, under
``# Dynasty`` and ``# Fate`` headers. Then runs, each in its own process:

1. ``printer validate`` of the folder;
2. ``printer deck check DECK --format l5r-ivory-extended`` (reads and
   validates the same cards, resolves 10,000 names, checks the rules: the
   deck is illegal, of course, its sections being far too large);
3. ``printer validate --strict`` of the same folder with one broken file
   added, to time the error path.

For each: wall time, CPU time (user + system) and the process's peak memory
(max RSS, MiB), against a budget of 500 MB. Figures are printed,
never asserted in the tests (timing tests are not allowed there).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRINTER = str(Path(sys.executable).parent / "printer")
BUDGET_MIB = 500 * 1000 * 1000 / 2**20  # 500 MB
N_ART = 20
CLANS = ["Crab", "Crane", "Dragon", "Lion", "Phoenix", "Scorpion", "Unicorn", "Mantis", "Spider"]


def card(i: int, art: bool) -> dict:
    """The ``i``-th invented card: four kinds in turn, every one valid against the bundled L5R schema."""
    kind = i % 4
    base = {
        "id": f"bench-{i:05d}",
        "legality": ["A Brother's Destiny (Ivory Edition)"],
        "text": f"**Battle:** {{bow}} Card {i}: move target Follower home. Gain {{gold:2}}.",
        "flavor": "Numbers, not words.",
    }
    if art:
        base["art"] = f"art/picture-{i % N_ART:02d}.jpg"
    if kind == 0:
        return dict(
            base,
            title=f"Bench Samurai {i:05d}",
            type="Personality",
            deck="Dynasty",
            clan=CLANS[i % len(CLANS)],
            cost=5,
            force=3,
            chi=2,
            honor_requirement=2,
            personal_honor=1,
            keywords=["Samurai"],
        )
    if kind == 1:
        return dict(base, title=f"Bench Holding {i:05d}", type="Holding", deck="Dynasty", cost=2, gold_production=2)
    if kind == 2:
        return dict(base, title=f"Bench Strategy {i:05d}", type="Strategy", deck="Fate", focus=2)
    return dict(base, title=f"Bench Item {i:05d}", type="Item", deck="Fate", cost=1, force="+1", chi="+0", focus=1)


def make_project(root: Path, n: int, one_file: bool, art: bool) -> tuple[Path, Path]:
    """Write the project (printer.toml, the cards, the art, the decklist); returns (card folder, decklist)."""
    from PIL import Image

    (root / "printer.toml").write_text('[games.l5r]\nname = "L5R"\n', encoding="utf-8")
    folder = root / "cards" / "l5r"
    (folder / "art").mkdir(parents=True)
    if art:
        for k in range(N_ART):
            buffer = io.BytesIO()
            Image.new("RGB", (160, 120), (40 + k * 10, 90, 140)).save(buffer, "JPEG", quality=80)
            (folder / "art" / f"picture-{k:02d}.jpg").write_bytes(buffer.getvalue())
    cards = [card(i, art) for i in range(n)]
    if one_file:
        (folder / "all.json").write_text(json.dumps({"game": "l5r", "cards": cards}, indent=1), encoding="utf-8")
    else:
        for c in cards:
            (folder / f"{c['id']}.json").write_text(json.dumps(c), encoding="utf-8")
    dynasty = [c["title"] for c in cards if c["deck"] == "Dynasty"]
    fate = [c["title"] for c in cards if c["deck"] == "Fate"]
    deck = root / "deck.txt"
    deck.write_text(
        "# Dynasty\n" + "".join(f"1 {t}\n" for t in dynasty) + "\n# Fate\n" + "".join(f"1 {t}\n" for t in fate),
        encoding="utf-8",
    )
    return folder, deck


def measured(args: list[str], cwd: Path) -> dict:
    """Run ``args`` in ``cwd``: wall and CPU seconds, peak MiB (``wait4``), exit code, the last lines of output."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return {
            "seconds": seconds,
            "cpu": usage.ru_utime + usage.ru_stime,
            "mib": usage.ru_maxrss / 1024,
            "code": os.waitstatus_to_exitcode(status),
            "out": out.read().decode().strip().splitlines()[-2:],
            "err": err.read().decode().strip().splitlines()[-2:],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000, help="number of cards (and decklist lines)")
    parser.add_argument("--one-file", action="store_true", help="all cards in one file instead of one file per card")
    parser.add_argument("--no-art", action="store_true", help="cards without art")
    parser.add_argument("--keep", type=Path, help="make the project in DIR and keep it")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="printer-scale-"))
    root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    folder, deck = make_project(root, args.cards, args.one_file, not args.no_art)
    print(
        f"{args.cards} cards ({'one file' if args.one_file else 'one file each'}, "
        f"{'no art' if args.no_art else f'art from {N_ART} JPEGs'}) and a {args.cards}-line decklist "
        f"({deck.stat().st_size // 1024} KiB) made in {time.perf_counter() - started:.1f} s under {root}"
    )
    steps = [
        ("validate", [PRINTER, "validate", str(folder)], 0),
        (
            "deck check",
            [PRINTER, "deck", "check", str(deck), "--format", "l5r-ivory-extended", "--cards", str(folder)],
            1,
        ),
    ]
    broken = folder / "zz-broken.json"
    rows = []
    for name, command, expected in steps:
        rows.append((name, measured(command, root), expected))
    broken.write_text('{"id": "broken", "title": "Broken", "type": "Personalty",}', encoding="utf-8")
    rows.append(
        ("validate --strict, one broken file", measured([PRINTER, "validate", str(folder), "--strict"], root), 1)
    )
    broken.unlink()
    print(f"\n{'step':<36}{'wall s':>8}{'cpu s':>8}{'peak MiB':>10}{'cards/s':>10}  exit  within 500 MB")
    for name, row, expected in rows:
        ok = "yes" if row["mib"] <= BUDGET_MIB else "NO"
        flag = "" if row["code"] == expected else f" (expected {expected})"
        print(
            f"{name:<36}{row['seconds']:>8.1f}{row['cpu']:>8.1f}{row['mib']:>10.0f}{args.cards / row['seconds']:>10.0f}"
            f"  {row['code']}{flag:<14}{ok:>5}"
        )
    for name, row, _ in rows:
        print(f"\n{name}: " + " | ".join(row["out"] + row["err"]))
    if not args.keep:
        import shutil

        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
