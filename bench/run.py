"""Every speed figure of the README's Performance table for this checkout, beside its reference, in one run.

Run from the repository: ``.venv/bin/python bench/run.py [--keep DIR] [--no-build] [--json FILE]``.

The cards are the real L5R Oracle export when ``../shared/data`` is there (imported with
``printer import oracle``: 3,535 cards, and the 319 real decklists), otherwise 3,535 invented
L5R cards and 300 invented decklists (``bench/scale.py``'s cards). Every step runs in its own
process (this checkout's ``printer``, through ``python -m printer`` with the repository first on
``PYTHONPATH``); a figure is its wall time, with the process's CPU time and peak memory (max RSS
from ``os.wait4``, per child) beside it. The references run in the same run, on the same
files:

- building the first 900 cards, fronts and backs, against ``../shared/bench/plain_weasyprint.py``
  (the same card content by hand: one Jinja2 template, one WeasyPrint call): cold with the default
  ``--jobs`` and with ``--jobs 1``, in ``--rounds`` rounds (default 3: the reference, then both builds; a
  ratio is the median of each round's own ratio, so the machine's drift moves both sides), then unchanged,
  then after editing one card's text, then with ``--watch`` (the PDF's update after a one-card save); a
  figure needing a flag this checkout's ``printer build`` lacks is skipped with a note;
- ``printer validate`` of the 3,535 cards against jsonschema-rs on the same files (one script:
  read, compile, validate), ``check-jsonschema`` (the card schema bundled into one file) and
  reading the JSON alone;
- ``printer --help`` and every command's ``--help``;
- ``printer deck check``: the card load (one decklist, the card cache warm; and the load alone,
  in-process) and decklists a second (all the decklists in one call, less one decklist's call).

Wall times on a shared machine move with its load: the load average is printed before and after.
Nothing here is asserted; the targets are printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
ORACLE = SHARED / "data" / "l5r" / "oracle"
DECKS = SHARED / "data" / "l5r" / "decks"
PLAIN = SHARED / "bench" / "plain_weasyprint.py"


def env_for(checkout: Path) -> dict[str, str]:
    """The environment that makes ``python -m printer`` run ``checkout``'s printer."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(checkout), os.environ.get("PYTHONPATH", "")]))
    env["PYTHONPATH"] = env["PYTHONPATH"].rstrip(os.pathsep)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure printer as installed: its modules compiled once
    return env


ENV = env_for(REPO)
L5R_TOML = (
    '[games.l5r]\nname = "Legend of the Five Rings CCG"\ncard_size = "poker"\nback_field = "deck"\n'
    'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n'
)
FORMAT = "l5r-ivory-extended"
BUILD_CARDS = 900
#: rounds of cold builds (reference, --jobs 1, default jobs in turn); ``--rounds`` sets it
ROUNDS = 3


@dataclass
class Run:
    """One process: wall and CPU seconds, peak MiB, exit code, the end of its output."""

    seconds: float
    cpu: float
    mib: float
    code: int
    tail: str = ""


@dataclass
class Figure:
    """One line of the table: what, this checkout's value, the reference's, the target, a note."""

    job: str
    value: float | None
    unit: str = "s"
    reference: str = ""
    ref_value: float | None = None
    target: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)


def run(args: list[str], cwd: Path, timeout: float = 1800, env: dict[str, str] | None = None) -> Run:
    """Run ``args`` in ``cwd`` to its end (killed after ``timeout`` s); ``os.wait4`` gives its own peak memory.
    ``env`` defaults to this checkout's (:data:`ENV`)."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(list(map(str, args)), cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env or ENV)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
            time.sleep(0.002)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        tail = out.read().decode("utf-8", "replace").strip()[-600:]
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode, tail)


def printer(*args: object) -> list[str]:
    return [sys.executable, "-m", "printer", *map(str, args)]


def best(args: list[str], cwd: Path, times: int = 3) -> Run:
    """The fastest of ``times`` runs (the least disturbed by the machine's other work)."""
    return min((run(args, cwd) for _ in range(times)), key=lambda r: r.seconds)


def paired_medians(a: list[str], b: list[str], cwd: Path, times: int = 7) -> tuple[Run, Run]:
    """``a`` and ``b`` run in turn ``times`` times each (turns keep a drift of the machine's speed out of the
    difference); each one's run of median time."""
    runs: tuple[list[Run], list[Run]] = ([], [])
    for _ in range(times):
        runs[0].append(run(a, cwd))
        runs[1].append(run(b, cwd))
    a_runs, b_runs = (sorted(r, key=lambda r: r.seconds) for r in runs)
    return a_runs[times // 2], b_runs[times // 2]


def checked(result: Run, what: str, codes: tuple[int, ...] = (0,)) -> Run:
    if result.code not in codes:
        sys.exit(f"{what} failed (exit {result.code}):\n{result.tail}")
    return result


# --- the data ---------------------------------------------------------------------------------------------------


def real_cards(work: Path) -> tuple[Path, list[dict], str]:
    """The Oracle export imported into ``work/all/cards/l5r``; returns (folder, cards in file order, import time)."""
    folder = work / "all" / "cards" / "l5r"
    imported = checked(
        run(printer("import", "oracle", *sorted(ORACLE.glob("*.json")), "--out", folder, "--force"), REPO), "import"
    )
    cards = [c for f in sorted(folder.glob("*.json")) for c in json.loads(f.read_text(encoding="utf-8"))["cards"]]
    return folder, cards, f"imported in {imported.seconds:.1f} s"


def synthetic_cards(work: Path, n: int = 3535) -> tuple[Path, list[dict], str]:
    """``n`` invented cards (``bench/scale.py``), 12 files like the Oracle import."""
    sys.path.insert(0, str(Path(__file__).parent))
    from scale import card

    folder = work / "all" / "cards" / "l5r"
    folder.mkdir(parents=True)
    cards = [card(i, art=False) for i in range(n)]
    for k in range(12):
        chunk = cards[k::12]
        (folder / f"part-{k:02d}.json").write_text(json.dumps({"game": "l5r", "cards": chunk}), encoding="utf-8")
    cards = [c for f in sorted(folder.glob("*.json")) for c in json.loads(f.read_text(encoding="utf-8"))["cards"]]
    return folder, cards, "invented (bench/scale.py's cards)"


def synthetic_decks(folder: Path, cards: list[dict], n: int = 300) -> list[Path]:
    """``n`` invented decklists of 40 Dynasty and 40 Fate cards from the 300 of each kind most played, one name
    misspelt in each (real decklists share most cards and hold a typo or two)."""
    dynasty = [c["title"] for c in cards if c.get("deck") == "Dynasty"][:300]
    fate = [c["title"] for c in cards if c.get("deck") == "Fate"][:300]
    folder.mkdir(parents=True)
    decks = []
    for k in range(n):
        lines = ["# Dynasty (40)"]
        for i in range(40):
            title = dynasty[(k * 7 + i * 13) % len(dynasty)]
            lines.append(f"1 {title[:-1] if i == k % 40 else title}")
        lines.append("# Fate (40)")
        lines += [f"1 {fate[(k * 5 + i * 11) % len(fate)]}" for i in range(40)]
        path = folder / f"deck-{k:03d}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        decks.append(path)
    return decks


def project(root: Path, cards: list[dict]) -> Path:
    """A project of one L5R game holding ``cards`` in ``cards/l5r/cards.json``."""
    (root / "cards" / "l5r").mkdir(parents=True)
    (root / "printer.toml").write_text(L5R_TOML, encoding="utf-8")
    write_cards(root, cards)
    return root


def write_cards(root: Path, cards: list[dict]) -> None:
    text = json.dumps({"game": "l5r", "cards": cards}, ensure_ascii=False, indent=1)
    (root / "cards" / "l5r" / "cards.json").write_text(text, encoding="utf-8")


# --- the figures ------------------------------------------------------------------------------------------------


def help_figures() -> list[Figure]:
    top = best(printer("--help"), REPO, 5)
    commands = [["validate"], ["build"], ["align"], ["import"], ["import", "oracle"], ["deck", "check"],
                ["deck", "formats"], ["rules"], ["export", "cards"], ["games"], ["init"]]  # fmt: skip
    listed = help_text()
    extra = [[c] for c in ("clean", "watch") if re.search(rf"^\s+{c}\s", listed, re.M)]
    slowest, name = 0.0, ""
    for command in commands + extra:
        r = best(printer(*command, "--help"), REPO, 3)
        if r.code == 0 and r.seconds > slowest:
            slowest, name = r.seconds, " ".join(command)
    return [
        Figure("printer --help", top.seconds, target="< 0.3 s"),
        Figure("slowest command --help", slowest, target="< 0.3 s", note=f"printer {name} --help"),
    ]


REFERENCE_RS = textwrap.dedent(
    """
    import json, sys, pathlib
    import jsonschema_rs
    schema_dir = pathlib.Path(sys.argv[1])
    base = json.loads((schema_dir / "card.schema.json").read_text())
    card = json.loads((schema_dir / "l5r" / "card.schema.json").read_text())
    validator = jsonschema_rs.validator_for(card, retriever=lambda uri: base)
    bad = 0
    for f in sorted(pathlib.Path(sys.argv[2]).glob("*.json")):
        for c in json.loads(f.read_text())["cards"]:
            bad += not validator.is_valid(c)
    print(bad, "invalid")
    """
)
REFERENCE_JSON = (
    "import json, pathlib, sys\nfor f in sorted(pathlib.Path(sys.argv[1]).glob('*.json')): json.loads(f.read_text())"
)


def bundled_schema(work: Path) -> Path:
    """The L5R card schema and the base card schema in one file, for check-jsonschema (no network)."""
    import jsonschema_rs

    base = json.loads((REPO / "schema" / "card.schema.json").read_text(encoding="utf-8"))
    card = json.loads((REPO / "schema" / "l5r" / "card.schema.json").read_text(encoding="utf-8"))
    bundled = jsonschema_rs.bundle(card, retriever=lambda uri: base)
    wrapper = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"cards": {"type": "array", "items": {"$ref": "#/$defs/card"}}},
        "$defs": {"card": bundled},
    }
    path = work / "bundled.schema.json"
    path.write_text(json.dumps(wrapper), encoding="utf-8")
    return path


def forget_verdicts() -> None:
    """Remove the user's list of card files known to pass their schema (printer.cards.verdicts), so that the next
    validate checks every card as a first read does."""
    from printer.paths import user_cache_folder

    (user_cache_folder("verdicts", ENV) / "known").unlink(missing_ok=True)


def validate_figures(work: Path, folder: Path, n: int) -> list[Figure]:
    where = work / "all"
    (where / "printer.toml").write_text(L5R_TOML, encoding="utf-8")
    forget_verdicts()
    first_read = checked(run(printer("validate", "--no-render", folder), where), "validate --no-render")
    schema_only = checked(best(printer("validate", "--no-render", folder), where), "validate --no-render")
    shutil.rmtree(where / "build" / ".cache" / "preflight", ignore_errors=True)
    forget_verdicts()
    rendered = checked(run(printer("validate", folder), where), "validate")
    again = checked(best(printer("validate", folder), where), "validate again")
    rs = checked(best([sys.executable, "-c", REFERENCE_RS, REPO / "schema", folder], where), "jsonschema-rs")
    plain = checked(best([sys.executable, "-c", REFERENCE_JSON, folder], where), "reading the JSON")
    figures = [
        Figure(f"validate {n:,} cards (schema and files), first read", first_read.seconds,
               reference="jsonschema-rs script", ref_value=rs.seconds, target="< 0.5 s",
               note="printer validate --no-render, no card file known to pass its schema yet"),
        Figure(f"validate {n:,} cards (schema and files)", schema_only.seconds, reference="jsonschema-rs script",
               ref_value=rs.seconds, target="< 0.5 s",
               note="printer validate --no-render again: files that passed their schema are not checked again"),
        Figure(f"validate {n:,} cards, templates rendered", rendered.seconds, reference="reading the JSON alone",
               ref_value=plain.seconds, target="< 0.5 s",
               note="printer validate, first run: every card's template rendered to HTML"),
        Figure(f"validate {n:,} cards, templates rendered, again", again.seconds, target="< 0.5 s",
               note="printer validate, nothing changed: only cards and backs not seen rendering clean are rendered"),
    ]  # fmt: skip
    tool = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent)) or shutil.which("check-jsonschema")
    if tool:
        files = sorted(folder.glob("*.json"))
        other = run([tool, "--schemafile", bundled_schema(work), *files], where, timeout=600)
        figures.append(Figure(f"validate {n:,} cards", schema_only.seconds, reference="check-jsonschema CLI",
                              ref_value=other.seconds if other.code == 0 else None,
                              note="" if other.code == 0 else f"check-jsonschema exit {other.code}"))  # fmt: skip
    else:
        figures.append(
            Figure(
                "validate, check-jsonschema", None, note="check-jsonschema not installed (pip install check-jsonschema)"
            )
        )
    return figures


LOAD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from printer import api
    from printer.decks.card_cache import load_cards_cached
    project = api.load_project(Path(sys.argv[1]))
    import printer.decks
    start = time.perf_counter()
    sets, problems, how = load_cards_cached(project, [Path(sys.argv[2])], "l5r")
    from printer.decks.resolve import name_index
    name_index(sets["l5r"])
    print(f"{time.perf_counter() - start:.4f} {how} {len(sets['l5r'])}")
    """
)


CHECK = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from printer import api
    project = api.load_project(Path(sys.argv[1]))
    decks = sorted(Path(sys.argv[2]).iterdir())
    start = time.perf_counter()
    api.check_decks(project, decks[:1], sys.argv[3], [Path(sys.argv[4])])
    one = time.perf_counter() - start
    start = time.perf_counter()
    api.check_decks(project, decks, sys.argv[3], [Path(sys.argv[4])])
    print(f"{(len(decks) - 1) / (time.perf_counter() - start - one):.1f}")
    """
)


def deck_figures(work: Path, folder: Path, cards: list[dict], real: bool) -> list[Figure]:
    where = work / "all"
    decks_dir = work / "decks"
    if real and DECKS.is_dir():
        decks = sorted(p for p in DECKS.rglob("*") if p.suffix.lower() in (".txt", ".l5d") and "Banned" not in p.name)
        decks_dir.mkdir()
        for i, deck in enumerate(decks):
            shutil.copy(deck, decks_dir / f"{i:04d}{deck.suffix}")
        decks = sorted(decks_dir.iterdir())
    else:
        decks = synthetic_decks(decks_dir, cards)
    shutil.rmtree(where / "build" / ".cache", ignore_errors=True)
    one = printer("deck", "check", decks[0], "--format", FORMAT, "--cards", folder)
    cold = checked(run(one, where), "deck check", (0, 1))
    load = checked(run([sys.executable, "-c", LOAD, where, folder], where), "card load")
    in_process = float(load.tail.split()[0]) if load.tail.split()[1:2] == ["hit"] else None
    all_decks = printer("deck", "check", decks_dir, "--format", FORMAT, "--cards", folder)
    many, warm = paired_medians(all_decks, one, where)  # medians of 7 runs each, taken in turns
    checked(many, "decks", (0, 1)), checked(warm, "deck check", (0, 1))
    rate = (len(decks) - 1) / max(many.seconds - warm.seconds, 1e-9)
    api_rate = checked(run([sys.executable, "-c", CHECK, where, decks_dir, FORMAT, folder], where), "api rate")
    summary = many.tail.splitlines()[-1] if many.tail else ""
    return [
        Figure("deck check, 1 decklist, cards cached", warm.seconds, target="",
               note=f"end to end, process start included; first call (cache written) {cold.seconds:.2f} s"),
        Figure(f"card load ({len(cards):,} cards, from the cache)", in_process, target="< 0.3 s",
               note="in-process: cache read and name index"),
        Figure(f"decklists checked a second ({len(decks)} in one call)", rate, unit="/s", target=">= 1,000/s",
               note=f"printer deck check FOLDER, (N - 1) / (time of N - time of 1), medians of 7 runs each, output included; "
                    f"api.check_decks alone {float(api_rate.tail.split()[-1]):,.0f}/s; {summary}",
               extra={"peak_mib": many.mib}),
    ]  # fmt: skip


def help_text(*command: str) -> str:
    return subprocess.run(printer(*command, "--help"), capture_output=True, text=True, env=ENV, cwd=REPO).stdout


def build_flags() -> set[str]:
    """The flags the benchmark times (``--jobs``, ``--no-cache``, ``--watch``) that ``printer build`` has here."""
    text = help_text("build")
    return {flag for flag in ("--jobs", "--no-cache", "--watch") if re.search(rf"(^|[\s,]){flag}\b", text, re.M)}


def build_figures(work: Path, cards: list[dict], rounds: int = ROUNDS) -> list[Figure]:
    """The cold builds against the reference, in ``rounds`` rounds (reference, ``--jobs 1``, default jobs, in
    turn): the ratios are the medians of each round's own ratios, so that the machine's drift during the run
    (a third within minutes on a shared machine) moves the reference and printer together."""
    subset = cards[:BUILD_CARDS]
    root = project(work / f"build{BUILD_CARDS}", subset)
    flags = build_flags()
    figures: list[Figure] = []
    source = work / "plain-cards.json"
    source.write_text(json.dumps({"cards": subset}, ensure_ascii=False), encoding="utf-8")
    refs: list[Run] = []
    ones: list[Run] = []
    colds: list[Run] = []
    for _ in range(rounds):
        if PLAIN.is_file():
            refs.append(checked(run([sys.executable, PLAIN, source, BUILD_CARDS, work / "plain.pdf"], work), "reference"))  # fmt: skip
        if "--jobs" in flags:
            shutil.rmtree(root / "build", ignore_errors=True)
            ones.append(checked(run(printer("build", "l5r", "--jobs", "1"), root), "build --jobs 1"))
        shutil.rmtree(root / "build", ignore_errors=True)
        colds.append(checked(run(printer("build", "l5r"), root), "build"))
    ref_note = "" if refs else "../shared/bench/plain_weasyprint.py absent: no reference"
    ref_s = median([r.seconds for r in refs]) if refs else None

    def paired(runs: list[Run]) -> tuple[dict, str]:
        """The ratio column (the median of each round's own ratio) and the note's spread of rounds."""
        if not refs:
            return {}, ref_note
        ratios = [r.seconds / ref.seconds for r, ref in zip(runs, refs)]
        return {"ratio": f"{median(ratios):.2f}x"}, (
            f"median of {len(ratios)} rounds, each against the reference run just before it: ratios "
            f"{', '.join(f'{x:.2f}' for x in ratios)}; times {spread([r.seconds for r in runs])}, "
            f"reference {spread([r.seconds for r in refs])}"
        )

    if ones:
        ratio, note = paired(ones)
        figures.append(Figure(f"build {BUILD_CARDS} cards cold, --jobs 1", median([r.seconds for r in ones]),
                              reference="plain WeasyPrint", ref_value=ref_s, target="<= 0.7x", extra=ratio,
                              note=f"peak {max(r.mib for r in ones):.0f} MiB; {note}"))  # fmt: skip
    else:
        figures.append(
            Figure(f"build {BUILD_CARDS} cards cold, --jobs 1", None, note="printer build has no --jobs yet")
        )
    jobs = "default --jobs" if "--jobs" in flags else "one process (no --jobs yet)"
    peak = max(r.mib for r in colds)
    ratio, note = paired(colds)
    figures.append(Figure(f"build {BUILD_CARDS} cards cold, {jobs}", median([r.seconds for r in colds]),
                          reference="plain WeasyPrint", ref_value=ref_s, target="<= 0.35x", extra={"peak_mib": peak, **ratio},
                          note=f"peak {peak:.0f} MiB" + (f", reference {max(r.mib for r in refs):.0f} MiB" if refs else "")
                               + f"; {note}"))  # fmt: skip
    again = checked(run(printer("build", "l5r"), root), "rebuild")
    figures.append(Figure("build again, nothing changed", again.seconds, target="< 0.5 s",
                          note="" if "--no-cache" in flags else "no face cache yet: everything is built again"))  # fmt: skip
    return figures + edit_figures(root, subset, flags)


def edit_only(work: Path, cards: list[dict], against: Path | None) -> list[Figure]:
    """``--edit-only``: the first 900 cards built cold once (filling the cache), then :func:`edit_figures`."""
    subset = cards[:BUILD_CARDS]
    root = project(work / f"build{BUILD_CARDS}", subset)
    checked(run(printer("build", "l5r"), root), "build")
    return edit_figures(root, subset, build_flags(), against.resolve() if against else None)


def edit_figures(root: Path, cards: list[dict], flags: set[str], against: Path | None = None) -> list[Figure]:
    """The one-card edit and watch figures on the project ``root`` (built before, so its cache is full); with
    ``against`` (another checkout, e.g. main's), the same on a copy of the project built by that checkout, its
    edits taking turns with this checkout's, as the reference."""
    other = None
    if against is not None:
        other = root.with_name(root.name + "-against")
        shutil.rmtree(other, ignore_errors=True)
        project(other, list(cards))
        checked(run(printer("build", "l5r"), other, env=env_for(against)), "build by --against")
    setups = [(root, ENV, list(cards))] + ([(other, env_for(against), list(cards))] if other else [])
    edits = edit_times(setups, EDITS)
    figures = [Figure("build after editing one card's text", median(edits[0]), target="<= 0.8 s",
                      reference=f"{against}" if against else "", ref_value=median(edits[1]) if other else None,
                      note=f"median of {EDITS} edits, each another card, process start included: {spread(edits[0])}"
                           + (f"; {against}: {spread(edits[1])}" if other else ""))]  # fmt: skip
    if "--watch" in flags:
        saves = [watch_times(where, env, cards, EDITS) for where, env, cards in setups]
        figures.append(Figure("watch: PDF updated after a one-card save", median(saves[0]), target="<= 0.2 s",
                              reference=f"{against}" if against else "", ref_value=median(saves[1]) if other else None,
                              note=f"median of {EDITS} saves, from the card file's write to the PDF's atomic replace: "
                                   f"{spread(saves[0])}" + (f"; {against}: {spread(saves[1])}" if other else "")))  # fmt: skip
    else:
        figures.append(
            Figure("watch: PDF updated after a one-card save", None, note="printer build has no --watch yet")
        )
    return figures


#: one-card edits timed for the edit and watch figures (each another card; the median is the figure)
EDITS = 7


def median(values: list[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def spread(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values) + " s" if values else "none"


def edit_card(root: Path, cards: list[dict], index: int, word: str) -> None:
    """Add ``word`` to card ``index``'s text and save the card file, as an editor would."""
    cards[index] = dict(cards[index], text=(cards[index].get("text") or "") + f" {word}")
    write_cards(root, cards)


def edit_times(setups: list[tuple[Path, dict[str, str], list[dict]]], n: int) -> list[list[float]]:
    """For each ``(project, environment, cards)`` of ``setups``, ``printer build l5r`` run after each of ``n``
    one-card edits (cards 0, 2, 4...): each wall time, process start included; the setups take turns. Each
    project was built before, so its face cache holds every other face."""
    times: list[list[float]] = [[] for _ in setups]
    for k in range(n):
        for (root, env, cards), found in zip(setups, times):
            edit_card(root, cards, 2 * k, f"Edited{k}.")
            found.append(checked(run(printer("build", "l5r"), root, env=env), "edited rebuild").seconds)
    return times


def _pdf_state(pdf: Path) -> tuple[int, int] | None:
    try:
        stat = pdf.stat()
    except OSError:
        return None
    return stat.st_ino, stat.st_mtime_ns


def watch_times(root: Path, env: dict[str, str], cards: list[dict], n: int) -> list[float]:
    """Start ``printer build l5r --watch``; after its first build, save ``n`` one-card edits (cards 1, 3, 5...) one
    at a time and time each from the file's write to the PDF's replace (a new inode or time: the build writes it
    atomically), waiting for the build's summary line before the next save."""
    import queue
    import threading

    pdf = root / "build" / "l5r.pdf"
    proc = subprocess.Popen(printer("build", "l5r", "--watch"), cwd=root, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout or ()], daemon=True).start()

    def built(timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if str(pdf) in lines.get(timeout=0.1):
                    return True
            except queue.Empty:
                if proc.poll() is not None:
                    return False
        return False

    times: list[float] = []
    try:
        if not built(600):
            return times
        for k in range(n):
            time.sleep(0.5)  # the watcher is waiting again
            before = _pdf_state(pdf)
            saved = time.perf_counter()
            edit_card(root, cards, 2 * k + 1, f"Saved{k}.")
            deadline = saved + 60
            while time.perf_counter() < deadline and _pdf_state(pdf) == before:
                time.sleep(0.002)
            if _pdf_state(pdf) == before:
                break
            times.append(time.perf_counter() - saved)
            built(60)
        return times
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


# --- the report -------------------------------------------------------------------------------------------------


def machine() -> str:
    model = ""
    with open("/proc/cpuinfo", encoding="utf-8") as handle:
        model = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), "")
    return f"{os.cpu_count()} cores ({model or platform.processor()}), Python {platform.python_version()}"


def show(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}{unit}" if unit == "/s" else f"{value:.2f} {unit}"


def table(figures: list[Figure]) -> str:
    rows = [("job", "this checkout", "reference (same run)", "ratio", "target", "note")]
    for f in figures:
        ratio = f.extra.get("ratio") or (f"{f.value / f.ref_value:.2f}x" if f.value and f.ref_value else "")
        reference = f"{f.reference} {show(f.ref_value, 's')}" if f.reference else ""
        rows.append((f.job, show(f.value, f.unit), reference, ratio, f.target, " ".join(f.note.split())))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = []
    for k, row in enumerate(rows):
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row[:5], widths)) + " | " + row[5] + " |")
        if k == 0:
            lines.append("| " + " | ".join("-" * w for w in widths) + " | --- |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it (cards, projects, PDFs)")
    parser.add_argument("--no-build", action="store_true", help="skip the builds (the slow part)")
    parser.add_argument("--json", type=Path, help="also write the figures to FILE as JSON")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds of cold builds (default: %(default)s)")
    parser.add_argument("--invented", action="store_true", help="invented cards and decklists even with ../shared/data")
    parser.add_argument(
        "--edit-only",
        action="store_true",
        help="only the one-card edit and watch figures (after one cold build that fills the cache)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="CHECKOUT",
        help="with --edit-only: time another checkout's printer (e.g. main's) on the same edits",
    )
    options = parser.parse_args()
    work = options.keep or Path(tempfile.mkdtemp(prefix="printer-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "printer")], env=ENV, check=False)
    try:
        real = ORACLE.is_dir() and not options.invented
        folder, cards, source = real_cards(work) if real else synthetic_cards(work)
        print(f"{len(cards):,} cards: {source}; {machine()}; load average {load_before[0]:.2f}", flush=True)
        steps = [
            ("--help", help_figures),
            ("validate", lambda: validate_figures(work, folder, len(cards))),
            ("deck check", lambda: deck_figures(work, folder, cards, real)),
        ]
        if options.edit_only:
            steps = [("edit", lambda: edit_only(work, cards, options.against))]
        elif not options.no_build:
            steps.append(("build", lambda: build_figures(work, cards, options.rounds)))
        figures: list[Figure] = []
        for name, step in steps:
            try:
                figures += step()
            except (Exception, SystemExit) as exc:  # one step failing still reports the others
                figures.append(Figure(name, None, note=f"failed: {str(exc).strip()[-300:]}"))
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
