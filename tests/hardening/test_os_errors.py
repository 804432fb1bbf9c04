"""OS errors (disk full, name too long, permission, read-only file system) are one line with the path, exit 1,
and the previous output stays intact; names that would be too long for a file system are shortened."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

import printer.fsutil

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.ENAMETOOLONG, errno.EACCES, errno.EROFS])
def test_an_os_error_while_writing_is_one_line_and_keeps_the_old_pdf(code, project: Path, run, monkeypatch):
    card = {"id": "a", "title": "A", "type": "Strategy", "deck": "Fate", "focus": 1}
    (project / "cards" / "l5r" / "a.json").write_text(json.dumps({"game": "l5r", "cards": [card]}), encoding="utf-8")
    target = project / "build" / "l5r.pdf"
    target.parent.mkdir()
    target.write_bytes(b"previous")

    def failing(*args, dir=None, **kwargs):
        raise OSError(code, os.strerror(code), str(dir))

    monkeypatch.setattr(printer.fsutil.tempfile, "mkstemp", failing)
    result = run("--project", project, "build", "l5r")
    assert result.code == 1
    assert "Traceback" not in result.err
    line = [entry for entry in result.err.splitlines() if os.strerror(code) in entry]
    assert len(line) == 1 and "build" in line[0]
    assert target.read_bytes() == b"previous"


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_failure_while_writing_names_the_file_asked_for_not_the_temporary_one(code, project: Path, run, monkeypatch):
    card = {"id": "a", "title": "A", "type": "Strategy", "deck": "Fate", "focus": 1}
    (project / "cards" / "l5r" / "a.json").write_text(json.dumps({"game": "l5r", "cards": [card]}), encoding="utf-8")

    def failing(fd: int) -> None:  # the disk fills up (or the folder turns read-only) as the PDF is written
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(printer.fsutil.os, "fsync", failing)
    result = run("--project", project, "build", "l5r")
    assert result.code == 1 and "Traceback" not in result.err
    (line,) = [entry for entry in result.err.splitlines() if os.strerror(code) in entry]
    assert "l5r.pdf: error: cannot write it: " in line and ".tmp" not in line
    assert not list((project / "build").glob(".*.tmp"))


@pytest.mark.slow
def test_long_names_are_shortened_with_a_hash(project: Path, run, tmp_path: Path):
    back = "b" * 300
    cards = [{"id": "long", "title": "Long", "type": "Strategy", "deck": "Fate", "focus": 1, "back": back}]
    (project / "cards" / "l5r" / "a.json").write_text(json.dumps({"game": "l5r", "cards": cards}), encoding="utf-8")
    templates = project / "templates" / "l5r"
    templates.mkdir(parents=True)
    (templates / "back.html.j2").write_text("<div class='card'>{{ back[:5] }}</div>", encoding="utf-8")
    deck = tmp_path / ("d" * 249 + ".txt")
    try:
        deck.write_text("# Fate\n1 Long\n", encoding="utf-8")
    except OSError:
        pytest.skip("this file system refuses a 253-character name")
    result = run("--project", project, "build", "l5r", "--export", "png", "--dpi", "36")
    assert result.code == 0, result.err
    names = [p.name for p in (project / "build" / "l5r-png").iterdir()]
    assert all(len(n.encode()) <= 130 for n in names) and len(names) == 2
    result = run("--project", project, "build", "l5r", "--deck", deck)
    assert result.code == 0, result.err
    assert [p for p in (project / "build").glob("l5r-d*.pdf") if len(p.name) <= 130]


def test_safe_file_names_never_leave_the_folder_or_grow_past_the_limit():
    from printer.paths import safe_file_name

    assert "/" not in safe_file_name("../../etc/passwd") and not safe_file_name("../x").startswith(".")
    long_a, long_b = safe_file_name("x" * 300 + "a"), safe_file_name("x" * 300 + "b")
    assert len(long_a.encode()) <= 120 and long_a != long_b
    assert len(safe_file_name("漢" * 200).encode()) <= 120
