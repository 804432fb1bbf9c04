"""The core names no game: game knowledge lives in printer/games/<id>/ and reaches the core through plugins."""

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "printer"
CORE = [
    "cards",
    "sheets",
    "decks",
    "book",
    "api",
    "problems.py",
    "project.py",
    "plugins.py",
    "paths.py",
    "limits.py",
    "config.py",
    "fsutil.py",
    "process.py",
    "spill.py",
    "watching.py",
    "serve",
    "cli",
]

# the five bundled games' ids and names, and the terms only one of them uses
GAME_WORDS = re.compile(
    r"\b(l5r|res[-_ ]arcana|via[-_ ]magica|arcanductor|edelweiss|legend of the five rings|stronghold|sensei|"
    r"dynasty|experienced|inexperienced|oracle of the void|l5d|p'an ku|mages?|artifacts?|animus|portals?|"
    r"significator|major arcana|clans?)\b",
    re.IGNORECASE,
)


def _core_files() -> list[Path]:
    files = []
    for name in CORE:
        path = PACKAGE / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_names_no_game(path):
    hits = [
        f"{path.relative_to(PACKAGE)}:{number}: {match.group(0)!r}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in GAME_WORDS.finditer(line)
    ]
    assert not hits, "the core names a game; move this to printer/games/<id>/:\n" + "\n".join(hits)


def test_the_grep_finds_game_words():
    assert GAME_WORDS.search("a Stronghold and a Sensei")
    assert GAME_WORDS.search("printer/games/res_arcana")
    assert not GAME_WORDS.search("image tarot sheet")
