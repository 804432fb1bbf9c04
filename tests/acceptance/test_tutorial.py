"""docs/tutorial.md, followed to the letter: its files are written and its commands run, each must succeed."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from helpers import REPO
from pypdf import PdfReader

pytestmark = pytest.mark.slow
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)


PLACED = re.compile(r"^(?P<path>\S+) \((?P<where>at the end|before the (?P<name>[a-z]+) line)\)$")


def steps(text: str):
    """("file", path, content) for each fenced block with a title, ("sh", line) for each command; a title
    "path (at the end)" or "path (before the power line)" gives ("add", path, content, None or "power")."""
    for match in FENCE.finditer(text):
        info, body = match["info"].strip(), match["body"]
        title = re.search(r'title="([^"]+)"', info)
        placed = PLACED.match(title.group(1)) if title else None
        if placed:
            yield "add", placed["path"], body, placed["name"]
        elif title:
            yield "file", title.group(1), body
        elif info == "sh":
            for line in body.splitlines():
                line = line.split("  #")[0].strip()
                if line:
                    yield "sh", line


def test_the_tutorial_works(tmp_path, run):
    here = tmp_path
    outputs = []
    for step in steps((REPO / "docs/tutorial.md").read_text(encoding="utf-8")):
        if step[0] == "file":
            path = here / step[1]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(step[2], encoding="utf-8")
            continue
        if step[0] == "add":
            path = here / step[1]
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            at = next(i for i, line in enumerate(lines) if f'class="{step[3]}"' in line) if step[3] else len(lines)
            path.write_text("".join(lines[:at]) + step[2] + "".join(lines[at:]), encoding="utf-8")
            continue
        words = shlex.split(step[1])
        if words[0] == "cd":
            here = here / words[1]
            continue
        assert words[0] == "printer", step
        result = run(*words[1:], cwd=here)
        assert result.code == 0, f"{step[1]}: {result.err}"
        outputs.append((step[1], result.out))
    project = tmp_path / "starfall"
    said = dict(outputs)
    assert "8 valid cards (starfall: 8)" in [out.strip() for cmd, out in outputs if cmd == "printer validate"][-1]
    assert "verdict: legal" in said["printer deck check decks/sample.txt"]
    assert "starfall: 24 faces on 4 sheets print as they look alone" in said["printer check-print"]
    text = " ".join(page.extract_text() for page in PdfReader(project / "build/starfall.pdf").pages)
    assert "Kepler Haven" in text and "Rust Moon" in text
    assert (project / "build/starfall-rules.pdf").is_file() and (project / "starfall.xlsx").is_file()
    validated = [out for cmd, out in outputs if cmd == "printer validate"][-1]
    assert "starfall ja: 0 translated, 7 missing, 1 stale" in validated  # as the page says
    japanese = " ".join(page.extract_text() for page in PdfReader(project / "build/starfall-ja.pdf").pages)
    assert "暁の疾走艇" in japanese and "Iron Lantern" in japanese  # a card not translated prints in English
    assert 'msgctxt "dawn-runner.title"' in (project / "ja.po").read_text(encoding="utf-8")


def test_the_tutorials_spreadsheet_error_is_the_one_printer_gives(tmp_path, run):
    """The page quotes the message a bad population gives: keep it true."""
    page = (REPO / "docs/tutorial.md").read_text(encoding="utf-8")
    quoted = re.search(r"answers `(cards/starfall/planets.csv:E2[^`]*)`", page).group(1)
    section = page.split("## 3.")[1].split("\n## ")[0]  # the spreadsheet's section, not the translations'
    files = {s[1]: s[2] for s in steps(section) if s[0] == "file"}
    assert run("init", tmp_path / "starfall").code == 0
    for name, body in files.items():
        (tmp_path / "starfall" / name).write_text(body.replace(",1200,", ",12.5,"), encoding="utf-8")
    result = run("validate", cwd=tmp_path / "starfall")
    assert quoted in result.err
    assert Path(tmp_path / "starfall/cards/starfall/planets.csv").is_file()
