"""``printer deck check``: exit codes, text output, and the JSON shape documented in the README ("JSON output")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from printer.cli.output import relative

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "decks"
CARDS = FIXTURES / "cards"
IVORY = FIXTURES / "ivory"


def deck_check(run, deck, *more, fmt="l5r-ivory-extended", cwd=None):
    args = ["--project", REPO] if cwd is None else []
    args += ["deck", "check", deck, "--cards", CARDS, *more]
    if fmt:
        args += ["--format", fmt]
    return run(*args, cwd=cwd)


def test_legal_deck_exits_0_with_a_summary(run):
    result = deck_check(run, IVORY / "legal.txt")
    assert result.code == 0, result.err
    assert result.out.splitlines() == [
        f"{IVORY / 'legal.txt'}: L5R Ivory Extended 40/40 (l5r-ivory-extended)",
        "sections: Stronghold 1 [exactly 1], Sensei 1 [max 1], Dynasty 40 [min 40], Fate 40 [min 40]; 82 cards",
        "verdict: legal",
    ]
    assert result.err == ""


def test_illegal_deck_exits_1_and_lists_every_problem_apart(run):
    result = deck_check(run, IVORY / "many-problems.txt")
    assert result.code == 1
    err = result.err
    rules, rest = err.split("cards not found in the card data", 1)
    assert rules.startswith("rules broken:\n")
    assert (
        relative(f"{IVORY / 'many-problems.txt'}:5: error: 4 copies of 'Rice Terrace': at most 3 (hint: keep 3)")
        in rules
    )
    assert "many-problems.txt:36: error: 'Exotic Farmlands' is banned" in rules
    assert "unknown card 'Jade Lantern Festival'" in rest and "Jade Lantern Festival" not in rules
    assert "verdict: illegal: 4 problems (section-size, copy-limit, unique-limit, banned)" in result.out


def test_unresolved_deck_exits_1(run):
    result = deck_check(run, IVORY / "unknown-cards.txt")
    assert result.code == 1
    assert "did you mean 'Sudden Rain'?" in result.err
    assert "verdict: no rule broken by the cards found, but 2 card names not found" in result.out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--format", "l5r-ivory"], "did you mean 'l5r-ivory-extended'"),
        (
            ["--format", "l5r-ivory-extended", "--cards", "/nonexistent/cards"],
            "card folder /nonexistent/cards not found",
        ),
    ],
)
def test_usage_errors_exit_2(run, args, message):
    result = run("--project", REPO, "deck", "check", IVORY / "legal.txt", "--cards", CARDS, *args)
    assert result.code == 2 and message in result.err and "Traceback" not in result.err


def test_missing_format_exits_2(run):
    result = deck_check(run, IVORY / "legal.txt", fmt=None)
    assert result.code == 2 and "no format given" in result.err and "l5r-ivory-extended" in result.err


def test_format_from_the_json_deck(run):
    result = deck_check(run, IVORY / "legal.json", fmt=None)
    assert result.code == 0 and "verdict: legal" in result.out


@pytest.mark.parametrize("content", ["", "\x00binary", "not a deck at all\n", '{"cards": [{"count": 0}]}'])
def test_unreadable_deck_exits_2(run, tmp_path, content):
    deck = tmp_path / ("deck.json" if content.startswith("{") else "deck.txt")
    deck.write_text(content, encoding="utf-8")
    result = deck_check(run, deck)
    assert result.code == 2 and "error:" in result.err and "Traceback" not in result.err


def test_missing_deck_exits_2(run, tmp_path):
    result = deck_check(run, tmp_path / "nope.txt")
    assert result.code == 2 and "nope.txt: error: no such file" in result.err


def test_outside_a_project(run, tmp_path):
    result = deck_check(run, IVORY / "legal.l5d", cwd=tmp_path)
    assert result.code == 0, result.err


def test_formats_command(run):
    result = run("--project", REPO, "deck", "formats")
    assert result.code == 0
    ids = [line.split("\t")[0] for line in result.out.splitlines()]
    assert {"l5r-emperor", "l5r-ivory-extended", "l5r-twenty-festivals"} <= set(ids)


# --- JSON ---------------------------------------------------------------------------------------


def test_json_shape(run):
    result = deck_check(run, IVORY / "many-problems.txt", "--json")
    assert result.code == 1
    data = json.loads(result.out)
    assert set(data) == {
        "version",
        "deck",
        "syntax",
        "format",
        "status",
        "legal",
        "verdict",
        "total",
        "sections",
        "violations",
        "unresolved",
        "errors",
        "warnings",
        "cards",
    }
    assert data["version"] == 1 and data["status"] == "illegal" and data["legal"] is False
    assert data["format"]["id"] == "l5r-ivory-extended" and data["syntax"] == "text"
    assert data["sections"][0] == {"name": "Stronghold", "count": 0, "min": 1, "max": 1, "unresolved": 0, "ok": False}
    copy = next(v for v in data["violations"] if v["rule"] == "copy-limit")
    assert copy == {
        "rule": "copy-limit",
        "where": f"{IVORY / 'many-problems.txt'}:5",
        "lines": [5],
        "cards": ["Rice Terrace"],
        "count": 4,
        "limit": 3,
        "message": "4 copies of 'Rice Terrace': at most 3",
        "hint": "keep 3",
    }
    assert data["unresolved"] == [
        {
            "code": "unknown-card",
            "where": f"{IVORY / 'many-problems.txt'}:37",
            "line": 37,
            "name": "Jade Lantern Festival",
            "count": 1,
            "message": "unknown card 'Jade Lantern Festival'",
            "hint": "did you mean 'Autumn Festival'?",
            "suggestions": ["Autumn Festival"],
            "candidates": [],
        }
    ]
    assert data["errors"] == []
    assert {w["code"] for w in data["warnings"]} == {
        "section-size-open",
        "header-count",
    }  # its Dynasty header says 40 over 42 cards
    first = data["cards"][0]
    assert first == {
        "line": 2,
        "count": 1,
        "name": "Willow Sensei",
        "header": None,
        "section": "Sensei",
        "card": {"id": "willow-sensei", "name": "Willow Sensei", "type": "Sensei"},
    }
    assert sum(c["count"] for c in data["cards"]) == data["total"]


def test_json_of_a_legal_deck(run):
    data = json.loads(deck_check(run, IVORY / "legal.l5d", "--json").out)
    assert data["status"] == "legal" and data["legal"] is True and data["verdict"] == "legal"
    assert data["violations"] == data["unresolved"] == data["warnings"] == []
    assert [s["count"] for s in data["sections"]] == [1, 1, 40, 40]


def test_json_of_an_unreadable_deck(run, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("nothing here\n", encoding="utf-8")
    result = deck_check(run, deck, "--json")
    assert result.code == 2
    data = json.loads(result.out)
    assert data["status"] == "unreadable" and data["errors"][0]["code"] == "empty-deck" and data["cards"] == []
