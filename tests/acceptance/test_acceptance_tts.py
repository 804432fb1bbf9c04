"""Acceptance on the real data: a Tabletop Simulator saved object for a real L5R decklist (the Ivory Crab starter).

Skipped when ../shared/data is absent.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import SHARED_DATA
from tests.unit.sheets.test_tts_save import check_saved_object

pytestmark = pytest.mark.shared
STARTER = SHARED_DATA / "l5r" / "decks" / "ivory-starters-l5d" / "Ivory Crab Starter.l5d"


@pytest.fixture(scope="module")
def crab_save(crab_starter):
    """The Crab starter built from every Oracle card with --export tts-save; returns (folder, stdout)."""
    return crab_starter.out / "l5r-ivory-crab-starter-tts", crab_starter.run.stdout


def deck_lines() -> list[tuple[int, str]]:
    lines = STARTER.read_text(encoding="utf-8").splitlines()
    entries = [(int(line.split()[0]), line.split(None, 1)[1].strip()) for line in lines if line[:1].isdigit()]
    return [(n, re.sub(r"\s*\(\d+\)$", "", name)) for n, name in entries]  # "Name (1)": a count after the name


def test_the_starter_deck_as_a_saved_object(crab_save):
    folder, stdout = crab_save
    data = json.loads((folder / "l5r-ivory-crab-starter.json").read_text(encoding="utf-8"))
    cards = check_saved_object(data, folder)  # structure, CardIDs inside their sheets, images at their grids' size
    assert len(cards) == sum(n for n, _ in deck_lines()) >= 80  # copies included
    assert (folder / "l5r-ivory-crab-starter.png").is_file()
    assert "Saves/Saved Objects" in stdout


def test_dynasty_and_fate_are_separate_decks_holding_the_listed_cards(crab_save):
    folder, _ = crab_save
    data = json.loads((folder / "l5r-ivory-crab-starter.json").read_text(encoding="utf-8"))
    names = {o["Nickname"].rsplit("(", 1)[-1].rstrip(")"): o for o in data["ObjectStates"]}
    assert {"dynasty", "fate"} <= set(names) <= {"dynasty", "fate", "pregame", "placeholder"}
    for deck in names.values():
        backs = {entry["BackURL"] for entry in deck["CustomDeck"].values()}
        assert len(backs) == 1  # one back design per deck
    listed = {name.casefold() for _, name in deck_lines()}
    found = {c["Nickname"].casefold() for o in names.values() for c in o["ContainedObjects"]}
    assert found == listed
    for card in names.get("placeholder", {}).get("ContainedObjects", []):  # cards missing from the data say so
        assert card["Description"] == "not in the card database"
    assert sum(len(o["ContainedObjects"]) for k, o in names.items() if k in ("dynasty", "fate")) >= 78
