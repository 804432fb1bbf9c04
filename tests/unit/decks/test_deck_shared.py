"""Acceptance: the real decklists of ../shared/data/l5r/decks against the Oracle's cards, in every L5R format.

Skipped when ../shared is absent. The cards come from the Oracle export
through ``printer.games.l5r.oracle`` into a temporary folder. The verdicts
asserted here were checked by hand against the rules (seed 004, 事前準備)
and the card data.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from printer.cards.catalog import load_cards
from printer.decks import check_file, load_format
from printer.project import load_project

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared"
DECKS = SHARED / "data" / "l5r" / "decks"
ORACLE = SHARED / "data" / "l5r" / "oracle"
FORMATS = ["l5r-ivory-extended", "l5r-twenty-festivals", "l5r-emperor"]
NOT_DECKLISTS = {"Banned List.txt", "General.txt"}

pytestmark = pytest.mark.shared


@pytest.fixture(scope="module")
def card_dir(tmp_path_factory) -> Path:
    if not ORACLE.is_dir() or not DECKS.is_dir():
        pytest.skip("../shared/data/l5r is not here")
    oracle = pytest.importorskip("printer.games.l5r.oracle")
    result = oracle.import_oracle(sorted(ORACLE.glob("*.json")))
    out = tmp_path_factory.mktemp("l5r-cards")
    for name, cards in result.by_file().items():
        (out / name).write_text(json.dumps({"game": "l5r", "cards": cards}, ensure_ascii=False), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def cards(card_dir):
    sets, problems = load_cards(load_project(REPO), [card_dir], "l5r")
    assert [p for p in problems if p.is_error] == []
    return sets["l5r"]


@pytest.fixture(scope="module")
def reports(cards) -> dict[tuple[str, str], object]:
    files = sorted(p for p in DECKS.rglob("*") if p.is_file())
    result = {}
    for format_id in FORMATS:
        fmt = load_format(format_id)
        for file in files:
            result[format_id, str(file.relative_to(DECKS))] = check_file(file, cards, fmt)
    return result


def test_every_file_runs_through_every_format(reports):
    assert len({deck for _, deck in reports}) >= 9 + 200 + 90
    for (format_id, deck), report in reports.items():
        if Path(deck).name in NOT_DECKLISTS:
            assert report.status == "unreadable", deck
        else:
            assert report.status in ("legal", "illegal", "unresolved"), (format_id, deck, report.read_errors)
        report.as_dict()  # the JSON shape builds for every deck


def test_ivory_starters_in_ivory_extended(reports):
    starters = {
        deck: r for (f, deck), r in reports.items() if f == "l5r-ivory-extended" and deck.startswith("ivory-starters")
    }
    assert len(starters) == 9
    # Crab and Mantis play Advance Warning, banned in Ivory; no other rule is broken by the cards found.
    assert {deck for deck, r in starters.items() if r.status == "illegal"} == {
        "ivory-starters-l5d/Ivory Crab Starter.l5d",
        "ivory-starters-l5d/Ivory Mantis Starter.l5d",
    }
    for deck, report in starters.items():
        assert report.rules_broken in ([], ["banned"])
        # The Oracle export lacks most Ivory starter Strongholds and the inexperienced clan Champions.
        assert report.unresolved, deck
    crab = starters["ivory-starters-l5d/Ivory Crab Starter.l5d"]
    assert [v.cards for v in crab.violations] == [("Advance Warning",)]
    assert {p.message for p in crab.unresolved} == {
        "unknown card 'The Impregnable Fortress of the Crab'",
        "unknown card 'Hida Kisada, the Little Bear'",
    }
    assert "Hida Kisada, the Little Bear \u2022 Experienced" in crab.unresolved[1].hint


def test_twenty_festivals_decks(reports):
    in_20f = {
        deck: r
        for (f, deck), r in reports.items()
        if f == "l5r-twenty-festivals" and deck.startswith("twenty-festivals/") and Path(deck).name not in NOT_DECKLISTS
    }
    statuses = Counter(r.status for r in in_20f.values())
    assert statuses["legal"] >= 30
    assert in_20f["twenty-festivals/Lion/LN ThA Kitsu Owen.txt"].is_legal()
    # Twenty Festivals Strongholds are not Ivory-arc cards: nearly every 20F deck is illegal in Ivory Extended.
    in_ivory = [
        r
        for (f, deck), r in reports.items()
        if f == "l5r-ivory-extended" and deck.startswith("twenty-festivals/") and r.status != "unreadable"
    ]
    assert sum("not-legal" in r.rules_broken for r in in_ivory) >= len(in_ivory) - 3


def test_emperor_decks(reports):
    in_emperor = {
        deck: r
        for (f, deck), r in reports.items()
        if f == "l5r-emperor" and deck.startswith("emperor/") and Path(deck).name not in NOT_DECKLISTS
    }
    assert Counter(r.status for r in in_emperor.values())["legal"] >= 50
    # Fading Shadows' own text allows ten copies; Eternal Victory Dojo lets two Battle Strategies have four.
    assert not in_emperor["emperor/Spider/SP-TSL-EE-BKx-BHx-NinjaBlitz-Tenrou.txt"].rules_broken
    assert "copy-limit" not in in_emperor["emperor/Lion/LN-EVD-EE-Blitz-D.txt"].rules_broken
    # Shamate Keep grants nothing: four copies are four copies.
    shamate = in_emperor["emperor/Lion/LN-EVD-TA-BKx-Blitz-Tenrou.txt"]
    assert {v.cards[0] for v in shamate.violations if v.rule == "copy-limit"} == {
        "Brothers in Battle",
        "Strength of Purity",
    }
    # The banned list names cards the Oracle export lacks: they are refused all the same (written "The Duty of the Crab").
    berk = in_emperor["emperor/Crab/CB-HotF-EE-Berk-PakuvsKurga.txt"]
    assert [(v.rule, v.cards) for v in berk.violations] == [("banned", ("Duty of the Crab",))]
    assert sum("banned" in r.rules_broken for r in in_emperor.values()) >= 100
    # Emperor cards are not Twenty Festivals cards.
    assert all(
        "not-legal" in r.rules_broken
        for (f, deck), r in reports.items()
        if f == "l5r-twenty-festivals" and deck.startswith("emperor/") and r.status != "unreadable"
    )


def test_cli_on_real_decks(run, card_dir):
    cases = [
        ("ivory-starters-l5d/Ivory Crab Starter.l5d", "l5r-ivory-extended", 1),
        ("twenty-festivals/Lion/LN ThA Kitsu Owen.txt", "l5r-twenty-festivals", 0),
        ("emperor/Crab/CB-HotF-EE-Berk-PakuvsKurga.txt", "l5r-emperor", 1),
    ]
    for deck, format_id, code in cases:
        result = run(
            "--project", REPO, "deck", "check", DECKS / deck, "--format", format_id, "--cards", card_dir, "--json"
        )
        assert result.code == code and "Traceback" not in result.err, result.err
        data = json.loads(result.out)
        assert data["legal"] is (code == 0)
        if code == 1:
            assert [v["rule"] for v in data["violations"]] == ["banned"]
