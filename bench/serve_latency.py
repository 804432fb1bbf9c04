"""Benchmark of ``printer serve`` on the real L5R cards: from a file save to the updated picture in the browser.

Run from the repository: ``.venv/bin/python bench/serve_latency.py [--cards 900] [--edits 12] [--keep DIR] [--load N]``.
Needs ../shared/data, Playwright and Debian's Chromium (``/usr/bin/chromium``).

The card files are the Oracle export imported by ``printer import oracle``; the first N cards (as
``bench/l5r_real.py`` takes them) are written one file per card type. ``printer serve`` runs in its own
process; Chromium opens the gallery and waits for the pictures in view. Then, one after the other, a card's
title is changed in its file (written as an editor saves: the whole file at once) and the time is taken from
just before the write to the ``load`` event of that card's new picture in the page (both clocks are the
machine's). Reported: each save's latency, the median, 90th percentile and maximum (the target: a median of at
most 0.25 s), how many pictures the server rendered for it (one: the card's front; its back is shared and unchanged), the
server's refresh time, the time to start and to show the first screen of pictures, and the server's memory
(resident set of the server and its render processes, from /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ORACLE = REPO.parent / "shared" / "data" / "l5r" / "oracle"
TOML = """[project]
paper = "A4"

[games.l5r]
name = "Legend of the Five Rings CCG"
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
"""
WAIT_FOR_CHANGE = """([uid, before]) => ({done: new Promise(resolve => {
  setTimeout(() => resolve(null), 60000);
  const look = () => {
    const img = document.querySelector(`figure.tile[data-uid="${uid}"] img`);
    if (img && img.dataset.key !== before) {
      const done = () => resolve({key: img.dataset.key, at: performance.timeOrigin + performance.now()});
      if (img.complete && img.naturalWidth > 0 && !img.classList.contains('loading')) done();
      else img.addEventListener('load', done, {once: true});
      return;
    }
    requestAnimationFrame(look);
  };
  look();
})})"""


def make_project(root: Path, n: int) -> list[Path]:
    """Import the Oracle export and write its first ``n`` cards into ``root``, one file per type."""
    imported = root.parent / "imported"
    files = sorted(str(p) for p in ORACLE.glob("*.json"))
    printer = str(Path(sys.executable).parent / "printer")
    subprocess.run(
        [printer, "import", "oracle", *files, "--out", str(imported), "--force"], check=True, capture_output=True
    )
    cards = [c for f in sorted(imported.glob("*.json")) for c in json.loads(f.read_text())["cards"]][:n]
    by_type: dict[str, list] = {}
    for card in cards:
        by_type.setdefault(card["type"], []).append(card)
    (root / "cards" / "l5r").mkdir(parents=True, exist_ok=True)
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    out = []
    for kind, group in by_type.items():
        path = root / "cards" / "l5r" / f"{kind.lower()}.json"
        path.write_text(
            json.dumps({"game": "l5r", "cards": group}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        out.append(path)
    return out


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and all its descendants, MiB (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo += children.get(current, [])
        try:
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        total += int(match.group(1)) if match else 0
    return total / 1024


class Server:
    def __init__(self, root: Path, workers: int | None):
        env = dict(os.environ, PYTHONPATH=str(REPO))
        args = [sys.executable, "-m", "printer", "serve", str(root), "--port", "0"]
        args += ["--workers", str(workers)] if workers is not None else []
        self.started = time.perf_counter()
        self.process = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
        self.url = self.entry = ""  # the address without the token, and as printed (with it: it signs a browser in)
        self.log: list[str] = []
        ready = threading.Event()

        def read() -> None:
            for line in self.process.stderr:
                self.log.append(line)
                found = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=[A-Za-z0-9_-]+", line)
                if found and not self.url:
                    self.url, self.entry = found.group(1), found.group(0)
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(300):
            self.process.kill()
            sys.exit("printer serve did not start:\n" + "".join(self.log))
        self.ready_seconds = time.perf_counter() - self.started

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=900, help="number of real cards in the project")
    parser.add_argument("--edits", type=int, default=12, help="number of saves measured")
    parser.add_argument("--workers", type=int, default=None, help="render processes (default: printer serve's)")
    parser.add_argument("--keep", type=Path, help="make the project in this folder and keep it")
    parser.add_argument(
        "--load", type=int, default=0, help="busy processes running meanwhile, as other work on the machine would"
    )
    parser.add_argument(
        "--busy-gallery",
        action="store_true",
        help="a second page scrolls the whole gallery to cards never rendered before each save (its pictures render "
        "while the card is saved)",
    )
    options = parser.parse_args()
    if options.edits < 10:
        parser.error("--edits: at least 10 saves, for a median and a 90th percentile that mean something")
    if not ORACLE.is_dir():
        sys.exit(f"no real data at {ORACLE}")

    with tempfile.TemporaryDirectory() as tmp:
        root = (options.keep or Path(tmp)) / "project"
        files = make_project(root, options.cards)
        shutil.rmtree(root / "build", ignore_errors=True)  # no picture cached: the gallery was never rendered
        busy = [
            subprocess.Popen([sys.executable, "-c", "while True: pass"], stdout=subprocess.DEVNULL)
            for _ in range(options.load)
        ]
        server = Server(root, options.workers)
        try:
            run(server, files, options)
        finally:
            server.stop()
            for process in busy:
                process.kill()
                process.wait()


def run(server: Server, files: list[Path], options) -> None:
    from playwright.sync_api import sync_playwright

    def stats() -> dict:
        return page.request.get(server.url + "api/stats").json()

    with sync_playwright() as p:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        opened = time.perf_counter()
        page.goto(server.entry)  # signs the page in, which then moves on to the gallery
        page.wait_for_selector("figure.tile")
        tiles_shown = time.perf_counter() - opened
        tiles = page.locator("figure.tile").count()
        page.wait_for_function(
            "() => [...document.querySelectorAll('figure.tile img')].some(i => i.complete && i.naturalWidth > 0)",
            timeout=600_000,
        )
        first_picture = time.perf_counter() - opened
        page.wait_for_function(
            """() => [...document.querySelectorAll('figure.tile img')].filter(i => {
                const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })
              .every(i => i.complete && i.naturalWidth > 0)""",
            timeout=600_000,
        )
        first_screen = time.perf_counter() - opened
        in_view = page.evaluate(
            """() => [...document.querySelectorAll('figure.tile img')].filter(i => {
                const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }).length"""
        )
        memory_loaded = rss_mib(server.process.pid)
        print(f"first screen of pictures after {first_screen:.1f} s", flush=True)
        page.select_option("#f-game", "l5r")
        other = None
        if options.busy_gallery:
            other = browser.new_page(viewport={"width": 1440, "height": 1000})
            other.goto(server.entry)
            other.wait_for_selector("figure.tile")
        rows = []
        for i in range(options.edits):
            path = files[i % len(files)]
            data = json.loads(path.read_text())
            index = (i * 7) % len(data["cards"])
            card = data["cards"][index]
            uid = f"l5r/{card['id']}"
            page.fill("#f-text", card["id"])  # show the card (as a designer would have it in view)
            page.locator(f'figure.tile[data-uid="{uid}"]').scroll_into_view_if_needed()
            before = page.wait_for_function(
                """uid => { const i = document.querySelector(`figure.tile[data-uid="${uid}"] img`);
                  return i && i.complete && i.naturalWidth > 0 && !i.classList.contains('loading') && i.dataset.key; }""",
                arg=uid,
                timeout=120_000,
            ).json_value()
            if other is not None:  # the gallery's render processes get a screen of new pictures to render
                other.evaluate(
                    "n => document.querySelectorAll('figure.tile')[n].scrollIntoView()", (i + 1) * 41 % tiles
                )
                time.sleep(0.3)
            rendered = stats()["rendered"]
            waiting = page.evaluate_handle(WAIT_FOR_CHANGE, [uid, before])
            card["title"] = f"{card['title']} ({i + 1})"
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
            saved = time.time()
            path.write_text(text, encoding="utf-8")
            shown = page.evaluate("waiting => waiting.done", waiting)
            if shown is None:
                sys.exit(f"save {i + 1}: the picture of {uid} did not change within 60 s\n" + "".join(server.log[-30:]))
            loaded = shown["at"] / 1000
            latency = loaded - saved
            after = stats()
            steps = after["last_change"].get("timeline", {})
            render = after.get("last_urgent_times", {})
            ready = max(render.get("ended", 0.0), steps.get("published", 0.0))
            rows.append(
                {
                    "file": path.name,
                    "cards in file": len(data["cards"]),
                    "latency s": latency,
                    "rendered": after["rendered"] - rendered,
                    "refresh s": after["last_change"].get("seconds", 0.0),
                    "render s": after.get("last_urgent_render", 0.0),
                    # where the time went (wall clock of this machine, the server's steps from /api/stats)
                    "watch s": steps.get("event", saved) - saved,
                    "first faces s": steps.get("queued", 0.0) - steps.get("event", 0.0),
                    "wait s": max(0.0, render.get("started", 0.0) - steps.get("queued", 0.0)),
                    "to page s": loaded - ready if ready else 0.0,
                }
            )
        memory = rss_mib(server.process.pid)
        total_rendered = stats()["rendered"]
        browser.close()
    print(f"printer serve on {tiles} real L5R cards ({len(files)} files)")
    print(
        f"start (read, validate, render HTML): {server.ready_seconds:.1f} s; a gallery never rendered before: "
        f"its {tiles} tiles (placeholders) after {tiles_shown:.1f} s, the first picture after {first_picture:.1f} s, "
        f"the first screen ({in_view} pictures) after {first_screen:.1f} s"
        + (f" (with {options.load} busy processes running)" if options.load else "")
    )
    if options.busy_gallery:
        print("each save made while another page's gallery renders a screen of new pictures (counted in 'rendered')")
    print(f"pictures rendered in all: {total_rendered}")
    steps = ["watch s", "first faces s", "wait s", "render s", "to page s"]
    print(
        f"{'save':<5}{'file':<18}{'cards':>6}{'save→picture s':>16}{'rendered':>10}{'refresh s':>11}"
        + "".join(f"{s:>15}" for s in steps)
    )
    for n, row in enumerate(rows, 1):
        print(
            f"{n:<5}{row['file']:<18}{row['cards in file']:>6}{row['latency s']:>16.3f}{row['rendered']:>10}"
            f"{row['refresh s']:>11.3f}" + "".join(f"{row[s]:>15.3f}" for s in steps)
        )
    print(
        "where the time goes (median of each step): "
        + ", ".join(f"{s.removesuffix(' s')} {statistics.median(r[s] for r in rows):.3f} s" for s in steps)
    )
    print(
        "  watch: the save to the watcher's event (inotify, then the debounce step); first faces: reading and\n"
        "  validating the changed file and rendering the changed card's HTML; wait: for the render process;\n"
        "  render: WeasyPrint laying the face out, PDFium and the PNG, in the render process; to page: from the\n"
        "  picture written (and the change pushed) to the new picture loaded in Chromium"
    )
    latencies = sorted(r["latency s"] for r in rows)
    p90 = latencies[min(len(latencies) - 1, round(0.9 * (len(latencies) - 1)))]
    print(
        f"save → updated picture: median {statistics.median(latencies):.3f} s, 90th percentile {p90:.3f} s, "
        f"max {latencies[-1]:.3f} s (target: median <= 0.25 s)"
    )
    print(
        f"server memory (with its render processes): {memory_loaded:.0f} MiB after the first screen, {memory:.0f} MiB at the end"
    )


if __name__ == "__main__":
    main()
