"""``printer deck check DECK...``: many decklists or a folder, a verdict each, a summary line, one JSON array."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from printer.cli.output import relative

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "decks"
CARDS = FIXTURES / "cards"
IVORY = FIXTURES / "ivory"


def check(run, *decks, more=()):
    return run("--project", REPO, "deck", "check", *decks, "--cards", CARDS, "--format", "l5r-ivory-extended", *more)


def test_several_decks_a_verdict_each_and_a_summary(run):
    result = check(run, IVORY / "legal.txt", IVORY / "four-copies.txt", IVORY / "unknown-cards.txt")
    assert result.code == 1
    lines = [relative(line) for line in result.out.splitlines()]
    assert lines[0] == relative(f"{IVORY / 'legal.txt'}: legal")
    assert lines[1].startswith(relative(f"{IVORY / 'four-copies.txt'}: illegal: 1 problem (copy-limit)"))
    assert lines[2].startswith(relative(f"{IVORY / 'unknown-cards.txt'}: no rule broken by the cards found"))
    assert lines[3] == "3 decklists: 1 legal, 1 illegal, 1 not resolved"
    assert "four-copies.txt" in result.err and "did you mean 'Sudden Rain'?" in result.err


def test_all_legal_exits_0(run):
    result = check(run, IVORY / "legal.txt", IVORY / "legal.l5d", IVORY / "legal.json")
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1] == "3 decklists: 3 legal"


def test_a_folder_is_every_decklist_in_it(run, tmp_path):
    folder = tmp_path / "round1"
    (folder / "table 2").mkdir(parents=True)
    shutil.copy(IVORY / "legal.txt", folder / "a.txt")
    shutil.copy(IVORY / "legal.l5d", folder / "table 2" / "b.l5d")
    shutil.copy(IVORY / "banned.txt", folder / "c.txt")
    (folder / "notes.md").write_text("not a decklist", encoding="utf-8")
    (folder / ".hidden.txt").write_text("1 Nothing", encoding="utf-8")
    result = check(run, folder)
    assert result.code == 1
    decks = [line.split(": ", 1)[0] for line in result.out.splitlines()[:-1]]
    assert decks == [str(folder / "a.txt"), str(folder / "c.txt"), str(folder / "table 2" / "b.l5d")]
    assert result.out.splitlines()[-1] == "3 decklists: 2 legal, 1 illegal"


def test_one_json_array(run):
    result = check(run, IVORY / "legal.txt", IVORY / "banned.txt", more=["--json"])
    assert result.code == 1
    data = json.loads(result.out)
    assert [d["status"] for d in data] == ["legal", "illegal"]
    assert data[0]["deck"] == str(IVORY / "legal.txt") and data[0]["version"] == 1


def test_an_unreadable_deck_among_others_is_not_legal(run, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("nothing here\n", encoding="utf-8")
    result = check(run, IVORY / "legal.txt", bad)
    assert result.code == 1
    assert f"{bad}: unreadable: the decklist could not be read" in result.out
    assert result.out.splitlines()[-1] == "2 decklists: 1 legal, 1 unreadable"
    assert "no card lines" in result.err


def test_strict_counts_warnings(run):
    result = check(run, IVORY / "legal.txt", IVORY / "loose-names.txt", more=["--strict"])
    assert result.code == 1
    assert "(--strict: warnings count as errors)" in result.out
    assert result.out.splitlines()[-1] == "2 decklists: 1 legal, 1 not accepted (--strict)"


def test_an_empty_folder_is_a_usage_error(run, tmp_path):
    (tmp_path / "empty").mkdir()
    result = check(run, tmp_path / "empty")
    assert result.code == 2 and "no decklists" in result.err and "Traceback" not in result.err


def test_too_many_decklists(run, tmp_path):
    project = tmp_path / "p"
    project.mkdir()
    (project / "printer.toml").write_text(
        (REPO / "printer.toml").read_text(encoding="utf-8") + "\n[limits]\ndecklists_per_check = 2\n", encoding="utf-8"
    )
    for name in "abc":
        shutil.copy(IVORY / "legal.txt", project / f"{name}.txt")
    result = run("--project", project, "deck", "check", project, "--cards", CARDS, "--format", "l5r-ivory-extended")
    assert result.code == 2 and "limits.decklists_per_check" in result.err, result.err


def test_checking_many_decks_leaves_the_collector_on_with_nothing_young_to_walk_and_a_callers_freeze_kept():
    import gc

    from printer import api

    project = api.load_project(REPO)
    decks = [IVORY / "legal.txt", IVORY / "four-copies.txt", IVORY / "unknown-cards.txt"] * 20
    assert gc.isenabled()
    kept = api.check_decks(project, decks, "l5r-ivory-extended", [CARDS])
    # the reports went to the oldest generation unwalked: a collection of the young ones would have moved them to
    # the middle one (every object made while the collector was off counts as young)
    assert gc.isenabled() and len(kept) == 60 and len(gc.get_objects(generation=1)) < 1_000
    frozen = [object()]
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        api.check_decks(project, decks, "l5r-ivory-extended", [CARDS])
        assert gc.isenabled() and gc.get_freeze_count() == before  # the caller's freeze left as it was
    finally:
        gc.unfreeze()
    del frozen
    gc.disable()
    try:
        api.check_decks(project, decks[:2], "l5r-ivory-extended", [CARDS])
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()
