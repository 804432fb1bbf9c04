"""What several acceptance modules read, made once a test run (once per pytest-xdist worker): the Oracle export
imported (3,535 cards) and the Ivory Crab starter built from it. Skipped when ../shared/data is absent."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED_DATA

STARTER = SHARED_DATA / "l5r" / "decks" / "ivory-starters-l5d" / "Ivory Crab Starter.l5d"
PRINTER = [sys.executable, "-m", "printer", "--project", str(REPO)]


@pytest.fixture(scope="session")
def oracle_cards(tmp_path_factory) -> Path:
    """Every card of the Oracle export imported by ``printer import oracle``: the folder of card files. The tests
    only read it."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not here")
    out = tmp_path_factory.mktemp("oracle") / "l5r"
    files = sorted(str(p) for p in (SHARED_DATA / "l5r" / "oracle").glob("*.json"))
    imported = subprocess.run(PRINTER + ["import", "oracle", *files, "--out", str(out)], capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr[-2000:]
    return out


@dataclass
class CrabBuild:
    """``printer build l5r --cards ORACLE --deck STARTER --export tts-save``: ``out`` its folder, ``run`` its run."""

    out: Path
    run: subprocess.CompletedProcess[str]


@pytest.fixture(scope="session")
def crab_starter(tmp_path_factory, oracle_cards: Path) -> CrabBuild:
    """The Ivory Crab starter printed as proxies from the imported cards, with its Tabletop Simulator saved object
    (one build for the PDF's tests and the saved object's)."""
    out = tmp_path_factory.mktemp("crab") / "out"
    deck = ["build", "l5r", "--cards", str(oracle_cards), "--deck", str(STARTER), "--out", str(out)]
    built = subprocess.run(PRINTER + deck + ["--export", "tts-save"], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    return CrabBuild(out, built)
