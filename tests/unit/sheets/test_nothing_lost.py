"""Nothing lost: outputs are replaced whole or not at all, whatever stops printer.

Every output (card-sheet PDF, PNG and Tabletop Simulator exports, imported
card files, rules PDFs, the art cache) goes through :mod:`printer.fsutil`:
written to ``.<name>.<pid>.<random>.tmp`` beside the target, then renamed
over it. So:

- a build that fails (a template error, a blocked fetch, ``--strict`` with
  warnings) leaves the previous PDF byte for byte;
- a build killed while it lays out (SIGKILL or SIGTERM) leaves the previous
  PDF and no temporary file; SIGTERM exits 143 after cleaning up;
- a process killed in the instant between creating the temporary file and
  renaming it leaves that file behind, and the next write of the same
  target removes it (its process is gone); a live process's temporary file
  is left alone;
- an import whose files would overwrite changed ones without ``--force``
  writes none of its files.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from printer.fsutil import atomic_open, atomic_write_bytes, remove_stale_temps


def a_pdf(path: Path, pages: int = 1) -> bytes:
    """Write a valid PDF of ``pages`` blank A6 pages to ``path`` (the "previous output"); returns its bytes."""
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(297.6, 419.5)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        writer.write(handle)
    return path.read_bytes()


def temp_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob(".*.tmp"))


@pytest.fixture
def cards(project: Path) -> Path:
    """The ``project`` (conftest) with 151 cards: two Strategy cards, one printed 150 times (17 sheets and their backs)."""
    data = [
        {
            "id": "many",
            "title": "Many Copies",
            "type": "Strategy",
            "deck": "Fate",
            "focus": 1,
            "copies": 150,
            "text": "**Battle:** {bow} " + "A long enough text to lay out. " * 6,
        },
        {"id": "one", "title": "One Copy", "type": "Strategy", "deck": "Fate", "focus": 2, "text": "Once."},
    ]
    (project / "cards" / "l5r" / "cards.json").write_text(json.dumps({"game": "l5r", "cards": data}), encoding="utf-8")
    return project


# --- atomic writes ---------------------------------------------------------------------------------


def test_an_exception_while_writing_leaves_the_target_and_no_temp_file(tmp_path):
    target = tmp_path / "out.pdf"
    before = a_pdf(target)
    with pytest.raises(RuntimeError):
        with atomic_open(target) as handle:
            handle.write(b"%PDF-half")
            raise RuntimeError("stop")
    assert target.read_bytes() == before
    assert temp_files(tmp_path) == []


def test_a_write_replaces_the_target_whole(tmp_path):
    target = tmp_path / "sub" / "out.bin"
    atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"new" and temp_files(tmp_path) == []
    assert oct(target.stat().st_mode & 0o777) == "0o644"


def _dead_pid() -> int:
    """The id of a process that has ended."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_leftovers_of_a_dead_process_are_removed_by_the_next_write(tmp_path):
    target = tmp_path / "l5r.pdf"
    dead = tmp_path / f".l5r.pdf.{_dead_pid()}.abc123.tmp"
    dead.write_bytes(b"%PDF-half-written")
    alive = tmp_path / f".l5r.pdf.{os.getppid()}.def456.tmp"  # a running process (pytest's parent) still writing
    alive.write_bytes(b"%PDF-in-progress")
    other = tmp_path / f".other.pdf.{_dead_pid()}.abc123.tmp"  # another target's: not this write's business
    other.write_bytes(b"x")
    longer = tmp_path / f".l5r.pdf.bak.{_dead_pid()}.abc123.tmp"  # l5r.pdf.bak's, though it starts like l5r.pdf's
    longer.write_bytes(b"x")
    old_style = tmp_path / ".l5r.pdf.k2j4x9_q.tmp"  # from a printer that did not name the process yet
    old_style.write_bytes(b"x")
    atomic_write_bytes(target, b"%PDF-new")
    assert not dead.exists() and not old_style.exists() and alive.exists() and other.exists() and longer.exists()
    assert remove_stale_temps(tmp_path / "other.pdf") == [other]


SLOW_WRITER = """
import sys, time
from pathlib import Path
from printer.fsutil import atomic_open
with atomic_open(Path(sys.argv[1])) as handle:
    handle.write(b"%PDF-half")
    handle.flush()
    print("writing", flush=True)
    time.sleep(60)
"""


def test_sigkill_between_temp_file_and_rename_is_cleaned_up_by_the_next_run(tmp_path):
    """The one window where a leftover can stay: the next write of the target removes it."""
    target = tmp_path / "l5r.pdf"
    before = a_pdf(target)
    writer = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "writing"
        assert len(temp_files(tmp_path)) == 1  # the temporary file exists: the process is inside the window
    finally:
        writer.kill()
        writer.wait()
    assert target.read_bytes() == before
    assert len(temp_files(tmp_path)) == 1  # SIGKILL cannot be cleaned up after...
    atomic_write_bytes(target, b"%PDF-next")
    assert temp_files(tmp_path) == []  # ...the next write does it


def test_sigterm_between_temp_file_and_rename_cleans_up_at_once(tmp_path):
    target = tmp_path / "l5r.pdf"
    before = a_pdf(target)
    script = (
        "import signal, sys; from printer.cli import _terminate; signal.signal(signal.SIGTERM, _terminate)\n"
        + SLOW_WRITER
    )
    writer = subprocess.Popen([sys.executable, "-c", script, str(target)], stdout=subprocess.PIPE, text=True)
    assert writer.stdout.readline().strip() == "writing"
    writer.send_signal(signal.SIGTERM)
    assert writer.wait(timeout=30) == 143
    assert target.read_bytes() == before and temp_files(tmp_path) == []


# --- builds that fail ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "breakage, args",
    [
        ("template error", []),
        ("blocked fetch", []),
        ("--strict with a warning", ["--strict"]),
    ],
)
def test_a_failed_build_leaves_the_previous_pdf(run, cards, breakage, args):
    project = cards
    previous = a_pdf(project / "build" / "l5r.pdf", pages=3)
    templates = project / "templates" / "l5r"
    templates.mkdir(parents=True)
    if breakage == "template error":
        (templates / "card.html.j2").write_text('<div class="card">{{ card.title }}{{ nope }}</div>', encoding="utf-8")
    elif breakage == "blocked fetch":
        (templates / "card.css").write_text('.card { background: url("file:///etc/hostname"); }', encoding="utf-8")
    else:
        (templates / "card.css").write_text(".card { colr: red; }", encoding="utf-8")
    result = run("build", "l5r", "--only", "one", "--export", "png", *args, cwd=project)
    assert result.code == 1 and "Traceback" not in result.err
    assert (project / "build" / "l5r.pdf").read_bytes() == previous
    assert not (project / "build" / "l5r-png").exists()
    assert temp_files(project) == []


def test_a_failed_rules_build_leaves_the_previous_rules_pdf(run, cards):
    project = cards
    previous = a_pdf(project / "build" / "l5r-rules.pdf")
    rules = project / "rules" / "l5r"
    rules.mkdir(parents=True)
    (rules / "01.md").write_text("# Rules\n\n![a picture](https://example.com/p.png)\n", encoding="utf-8")
    result = run("rules", "l5r", cwd=project)
    assert result.code == 1
    assert (project / "build" / "l5r-rules.pdf").read_bytes() == previous and temp_files(project) == []


# --- builds that are killed ---------------------------------------------------------------------


def _start_build(project: Path) -> subprocess.Popen:
    """``printer build l5r`` in a subprocess, once it has started laying out (its progress label is on stderr).

    Without the face cache, so that it lays every face out (a build from the cache can end within the wait).
    """
    build = subprocess.Popen(
        [sys.executable, "-m", "printer", "--project", str(project), "build", "l5r", "--no-cache"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines = []
    while not (lines and lines[-1].startswith("l5r: 151 cards")):  # other lines (a font warning, say) may come first
        lines.append(build.stderr.readline())
        assert lines[-1] and len(lines) < 50, lines
    time.sleep(0.3)  # well inside the layout, which takes seconds
    assert build.poll() is None, "the build ended before it could be interrupted"
    return build


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_build_killed_while_laying_out_leaves_the_previous_pdf(cards, how):
    project = cards
    previous = a_pdf(project / "build" / "l5r.pdf", pages=2)
    build = _start_build(project)
    build.send_signal(how)
    code = build.wait(timeout=60)
    assert code == (143 if how == signal.SIGTERM else -signal.SIGKILL)
    assert (project / "build" / "l5r.pdf").read_bytes() == previous
    assert len(PdfReader(project / "build" / "l5r.pdf").pages) == 2
    left = temp_files(
        project
    )  # SIGKILL runs no clean-up: only the folder of face batches, which the next build removes
    assert left == [] if how == signal.SIGTERM else all(p.is_dir() and f".{build.pid}." in p.name for p in left)


@pytest.mark.slow
def test_the_build_after_a_killed_one_writes_the_new_pdf(cards):
    project = cards
    a_pdf(project / "build" / "l5r.pdf")
    build = _start_build(project)
    build.kill()
    build.wait()
    (project / "build" / f".l5r.pdf.{_dead_pid()}.zz.tmp").write_bytes(b"%PDF-left by a kill during the rename")
    spill = project / "build" / f".l5r.pdf.{_dead_pid()}.faces.tmp"  # the face batches of a build killed earlier
    spill.mkdir()
    (spill / "batch-1.pdf").write_bytes(b"%PDF-")
    done = subprocess.run(
        [sys.executable, "-m", "printer", "--project", str(project), "build", "l5r", "--only", "one"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert len(PdfReader(project / "build" / "l5r.pdf").pages) == 2  # one sheet of fronts, one of backs
    assert temp_files(project) == []


# --- imports -------------------------------------------------------------------------------------


def _tarot_source(path: Path, rename: str | None = None) -> Path:
    names = [
        "The Fool",
        "The Magician",
        "The High Priestess",
        "The Empress",
        "The Emperor",
        "The Hierophant",
        "The Lovers",
        "The Chariot",
        "Strength",
        "The Hermit",
        "Wheel of Fortune",
        "Justice",
        "The Hanged Man",
        "Death",
        "Temperance",
        "The Devil",
        "The Tower",
        "The Star",
        "The Moon",
        "The Sun",
        "Judgement",
        "The World",
    ]
    if rename:
        names[0] = rename
    cards = [{"name": n, "rank": i, "suit": "major"} for i, n in enumerate(names)]
    path.write_text(json.dumps({"tarot_interpretations": cards}), encoding="utf-8")
    return path


def test_an_import_that_would_overwrite_writes_nothing(run, tmp_path):
    out = tmp_path / "cards"
    source = _tarot_source(tmp_path / "tarot.json")
    assert run("import", "tarot", source, "--out", out).code == 0
    first = (out / "major-arcana.json").read_bytes()
    changed = _tarot_source(tmp_path / "tarot.json", rename="The Jester")
    result = run("import", "tarot", changed, "--out", out)
    assert result.code == 2 and "--force" in result.err
    assert (out / "major-arcana.json").read_bytes() == first and temp_files(tmp_path) == []
    result = run("import", "tarot", changed, "--out", out, "--dry-run")
    assert result.code == 2 and "changed" in result.out and (out / "major-arcana.json").read_bytes() == first
    assert run("import", "tarot", changed, "--out", out, "--force").code == 0
    assert "The Jester" in (out / "major-arcana.json").read_text(encoding="utf-8") and temp_files(tmp_path) == []


def test_an_unreadable_import_source_changes_nothing(run, tmp_path):
    out = tmp_path / "cards"
    assert run("import", "tarot", _tarot_source(tmp_path / "tarot.json"), "--out", out).code == 0
    first = (out / "major-arcana.json").read_bytes()
    broken = tmp_path / "broken.json"
    broken.write_text('{"tarot_interpretations": [', encoding="utf-8")
    result = run("import", "tarot", broken, "--out", out, "--force")
    assert result.code in (1, 2) and "Traceback" not in result.err and f"{broken}:1:" in result.err
    assert (out / "major-arcana.json").read_bytes() == first
